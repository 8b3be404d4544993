//! glTF 2.0 skeletons and clips (`assets/characters/*.gltf`), read with
//! `serde_json` and validated at build time. Every error names the file
//! and the JSON field (`nodes[4].rotation`, `animations[0].channels[3]`),
//! and the joint when there is one.
//!
//! What is read:
//! - the skeleton: `skins[0]` (its `name` is the skeleton's name, its
//!   `joints` the joint order, parents before children), each joint
//!   node's `translation` and `rotation` (the bind pose; no `scale` other
//!   than 1, no `matrix`), and `inverseBindMatrices`, which must be the
//!   inverse of the bind pose;
//! - clips: each of `animations` is one clip, keyed LINEAR at times
//!   shared by all its channels, starting at 0: `rotation` channels for
//!   any joint and a `translation` channel for the root joint only;
//!   `extras.looping` (default false). A clip file carries the node
//!   hierarchy and skin of the skeleton it was made for, which must be the
//!   character's.
//!
//! Rejected: a missing joint (a clip or channel naming a joint the
//! skeleton does not have, or a clip skeleton lacking one), a clip for
//! another skeleton, a non-normalised quaternion (norm off 1 by more than
//! [`QUAT_NORM_TOL`]), and anything outside the FX1 range.
//!
//! Buffers are `data:` URIs (base64) or files next to the `.gltf`.

use std::path::Path;

use serde_json::Value;

use crate::gltf_base64;
use crate::gltf_math::{Rigid, Rot, V3};
use crate::ragdoll_def::AssetError;

/// Largest accepted `| |q| - 1 |` of a rotation.
pub const QUAT_NORM_TOL: f64 = 1e-3;
/// Largest accepted difference of an inverse bind matrix entry from the
/// inverse of the bind pose.
pub const INVERSE_BIND_TOL: f64 = 1e-4;
/// Largest joint count (the engine's `MAX_JOINTS`).
pub const MAX_JOINTS: usize = dsphys::anim::MAX_JOINTS;

/// One joint of a skeleton.
#[derive(Clone, Debug, PartialEq)]
pub struct JointSrc {
    /// Its name.
    pub name: String,
    /// Parent joint index (parents come first).
    pub parent: Option<usize>,
    /// Bind pose relative to the parent.
    pub bind: Rigid,
    /// The bind rotation as a unit quaternion `[w, x, y, z]`.
    pub quat: [f64; 4],
}

/// A validated skeleton.
#[derive(Clone, Debug, PartialEq)]
pub struct SkeletonSrc {
    /// The file, for errors.
    pub file: String,
    /// The skeleton's name (`skins[0].name`).
    pub name: String,
    /// Joints, parents first.
    pub joints: Vec<JointSrc>,
    /// Inverse bind matrix per joint.
    pub inverse_bind: Vec<Rigid>,
}

impl SkeletonSrc {
    /// The index of the joint called `name`.
    pub fn index_of(&self, name: &str) -> Option<usize> {
        self.joints.iter().position(|j| j.name == name)
    }

    /// Each joint's model-space bind matrix.
    pub fn model_bind(&self) -> Vec<Rigid> {
        let mut out: Vec<Rigid> = Vec::with_capacity(self.joints.len());
        for j in &self.joints {
            let m = match j.parent {
                Some(p) => out[p].mul(&j.bind),
                None => j.bind,
            };
            out.push(m);
        }
        out
    }
}

/// One rotation track.
#[derive(Clone, Debug, PartialEq)]
pub struct TrackSrc {
    /// The joint.
    pub joint: usize,
    /// Unit quaternions `[w, x, y, z]`, one per key.
    pub keys: Vec<[f64; 4]>,
}

/// A validated clip.
#[derive(Clone, Debug, PartialEq)]
pub struct ClipSrc {
    /// The file, for errors.
    pub file: String,
    /// `animations[i].name`.
    pub name: String,
    /// The skeleton's name.
    pub skeleton: String,
    /// Repeats.
    pub looping: bool,
    /// Key times (s).
    pub times: Vec<f64>,
    /// Root translation per key (the bind translation without a channel).
    pub root_trans: Vec<V3>,
    /// Rotation tracks, in joint order.
    pub tracks: Vec<TrackSrc>,
}

fn err(file: &str, field: impl Into<String>, message: impl Into<String>) -> AssetError {
    AssetError {
        file: file.to_string(),
        line: 0,
        field: field.into(),
        message: message.into(),
    }
}

/// A parsed document with its buffers loaded.
pub(crate) struct Doc<'a> {
    pub(crate) file: &'a str,
    pub(crate) v: Value,
    buffers: Vec<Vec<u8>>,
}

impl<'a> Doc<'a> {
    pub(crate) fn parse(
        file: &'a str,
        text: &str,
        base: Option<&Path>,
    ) -> Result<Doc<'a>, AssetError> {
        let v: Value = serde_json::from_str(text)
            .map_err(|e| err(file, format!("line {}", e.line()), format!("not JSON: {e}")))?;
        let version = v.pointer("/asset/version").and_then(Value::as_str);
        if version != Some("2.0") {
            return Err(err(
                file,
                "asset.version",
                format!("expected \"2.0\", found {version:?}"),
            ));
        }
        let mut buffers = Vec::new();
        for (i, b) in v["buffers"].as_array().into_iter().flatten().enumerate() {
            let field = format!("buffers[{i}].uri");
            let uri = b["uri"]
                .as_str()
                .ok_or_else(|| err(file, &field, "missing"))?;
            let bytes = if let Some(rest) = uri.strip_prefix("data:") {
                let (_, data) = rest
                    .split_once(";base64,")
                    .ok_or_else(|| err(file, &field, "a data URI must be base64"))?;
                gltf_base64::decode(data).map_err(|e| err(file, &field, e))?
            } else {
                let dir =
                    base.ok_or_else(|| err(file, &field, "external buffer without a directory"))?;
                std::fs::read(dir.join(uri))
                    .map_err(|e| err(file, &field, format!("cannot read {uri}: {e}")))?
            };
            let want = b["byteLength"].as_u64().unwrap_or(0) as usize;
            if bytes.len() < want {
                return Err(err(
                    file,
                    format!("buffers[{i}].byteLength"),
                    format!("{want} bytes declared, {} present", bytes.len()),
                ));
            }
            buffers.push(bytes);
        }
        Ok(Doc { file, v, buffers })
    }

    pub(crate) fn err(&self, field: impl Into<String>, message: impl Into<String>) -> AssetError {
        err(self.file, field, message)
    }

    /// Accessor `index` as `count` groups of `width` floats, checking its type.
    pub(crate) fn floats(
        &self,
        index: &Value,
        field: &str,
        ty: &str,
        width: usize,
    ) -> Result<Vec<Vec<f64>>, AssetError> {
        let (i, elements) = self.elements(index, field, ty, width, &[FLOAT])?;
        let mut out = Vec::with_capacity(elements.len());
        for (k, (_, bytes)) in elements.iter().enumerate() {
            let g: Vec<f64> = bytes
                .chunks_exact(4)
                .map(|c| f32::from_le_bytes(c.try_into().unwrap()) as f64)
                .collect();
            if let Some(bad) = g.iter().find(|x| !x.is_finite()) {
                return Err(self.err(
                    format!("accessors[{i}]"),
                    format!("element {k} is not finite ({bad})"),
                ));
            }
            out.push(g);
        }
        Ok(out)
    }

    /// Accessor `index` as `count` groups of `width` unsigned integers
    /// (UNSIGNED_BYTE, UNSIGNED_SHORT or UNSIGNED_INT), checking its type.
    pub(crate) fn uints(
        &self,
        index: &Value,
        field: &str,
        ty: &str,
        width: usize,
    ) -> Result<Vec<Vec<u32>>, AssetError> {
        let allowed = [UNSIGNED_BYTE, UNSIGNED_SHORT, UNSIGNED_INT];
        let (_, elements) = self.elements(index, field, ty, width, &allowed)?;
        Ok(elements
            .iter()
            .map(|(size, bytes)| {
                bytes
                    .chunks_exact(*size)
                    .map(|c| c.iter().rev().fold(0u32, |acc, &b| acc << 8 | b as u32))
                    .collect()
            })
            .collect())
    }

    /// Accessor `index`'s elements as byte slices (with the component
    /// size), after checking its component type against `allowed`, its
    /// type against `ty`, and that every element lies inside its buffer
    /// view. Returns the accessor's index too, for errors.
    #[allow(clippy::type_complexity)]
    fn elements(
        &self,
        index: &Value,
        field: &str,
        ty: &str,
        width: usize,
        allowed: &[u64],
    ) -> Result<(usize, Vec<(usize, &[u8])>), AssetError> {
        let i = index
            .as_u64()
            .ok_or_else(|| self.err(field, "missing accessor index"))? as usize;
        let a = &self.v["accessors"][i];
        let af = format!("accessors[{i}]");
        if a.is_null() {
            return Err(self.err(field, format!("accessor {i} does not exist")));
        }
        let ct = a["componentType"].as_u64().unwrap_or(0);
        let Some(size) = allowed.contains(&ct).then(|| component_size(ct)) else {
            let names: Vec<String> = allowed.iter().map(|&c| component_name(c)).collect();
            return Err(self.err(
                format!("{af}.componentType"),
                format!("{field} must be {}, found {ct}", names.join(" or ")),
            ));
        };
        if a["type"].as_str() != Some(ty) {
            return Err(self.err(
                format!("{af}.type"),
                format!("expected {ty} for {field}, found {}", a["type"]),
            ));
        }
        let count = a["count"]
            .as_u64()
            .ok_or_else(|| self.err(format!("{af}.count"), "missing"))?
            as usize;
        let bvi = a["bufferView"].as_u64().ok_or_else(|| {
            self.err(
                format!("{af}.bufferView"),
                "missing (sparse accessors are not supported)",
            )
        })? as usize;
        let bv = &self.v["bufferViews"][bvi];
        let bvf = format!("bufferViews[{bvi}]");
        let buf = bv["buffer"]
            .as_u64()
            .and_then(|b| self.buffers.get(b as usize))
            .ok_or_else(|| self.err(format!("{bvf}.buffer"), "no such buffer"))?;
        let start = bv["byteOffset"].as_u64().unwrap_or(0) as usize
            + a["byteOffset"].as_u64().unwrap_or(0) as usize;
        let stride = bv["byteStride"]
            .as_u64()
            .map_or(width * size, |s| s as usize);
        let view_end = bv["byteOffset"].as_u64().unwrap_or(0) as usize
            + bv["byteLength"].as_u64().unwrap_or(0) as usize;
        let mut out = Vec::with_capacity(count);
        for k in 0..count {
            let at = start + k * stride;
            if at + width * size > view_end.min(buf.len()) {
                return Err(self.err(&af, format!("element {k} runs past the end of {bvf}")));
            }
            out.push((size, &buf[at..at + width * size]));
        }
        Ok((i, out))
    }
}

/// glTF component types.
pub(crate) const UNSIGNED_BYTE: u64 = 5121;
pub(crate) const UNSIGNED_SHORT: u64 = 5123;
pub(crate) const UNSIGNED_INT: u64 = 5125;
pub(crate) const FLOAT: u64 = 5126;

fn component_size(ct: u64) -> usize {
    match ct {
        UNSIGNED_BYTE => 1,
        UNSIGNED_SHORT => 2,
        _ => 4,
    }
}

fn component_name(ct: u64) -> String {
    let name = match ct {
        UNSIGNED_BYTE => "UNSIGNED_BYTE",
        UNSIGNED_SHORT => "UNSIGNED_SHORT",
        UNSIGNED_INT => "UNSIGNED_INT",
        _ => "FLOAT",
    };
    format!("{name} ({ct})")
}

fn check_quat(doc: &Doc, field: &str, q_xyzw: &[f64]) -> Result<[f64; 4], AssetError> {
    let n = q_xyzw.iter().map(|c| c * c).sum::<f64>().sqrt();
    if (n - 1.0).abs() > QUAT_NORM_TOL {
        return Err(doc.err(field, format!("quaternion {q_xyzw:?} is not normalised (norm {n:.6}, must be 1 within {QUAT_NORM_TOL})")));
    }
    // glTF order is x, y, z, w.
    let q = [q_xyzw[3], q_xyzw[0], q_xyzw[1], q_xyzw[2]].map(|c| c / n);
    Ok(q)
}

fn check_range(doc: &Doc, field: &str, v: &[f64]) -> Result<(), AssetError> {
    if v.iter().any(|c| c.abs() > 1000.0) {
        return Err(doc.err(field, format!("{v:?} is outside +-1000 m")));
    }
    Ok(())
}

pub(crate) fn array_n(
    doc: &Doc,
    v: &Value,
    field: &str,
    n: usize,
) -> Result<Option<Vec<f64>>, AssetError> {
    if v.is_null() {
        return Ok(None);
    }
    let a: Option<Vec<f64>> = v
        .as_array()
        .and_then(|a| a.iter().map(Value::as_f64).collect());
    match a {
        Some(a) if a.len() == n => Ok(Some(a)),
        _ => Err(doc.err(field, format!("expected {n} numbers, found {v}"))),
    }
}

/// The skeleton of `skins[0]` in an open document.
pub(crate) fn skeleton_of(doc: &Doc) -> Result<(SkeletonSrc, Vec<usize>), AssetError> {
    let skin = &doc.v["skins"][0];
    if skin.is_null() {
        return Err(doc.err("skins[0]", "missing: the file has no skeleton"));
    }
    let name = skin["name"]
        .as_str()
        .ok_or_else(|| doc.err("skins[0].name", "missing (it names the skeleton)"))?;
    let nodes: Vec<usize> = skin["joints"]
        .as_array()
        .and_then(|a| a.iter().map(|j| j.as_u64().map(|j| j as usize)).collect())
        .ok_or_else(|| doc.err("skins[0].joints", "missing or not a list of node indices"))?;
    if nodes.is_empty() || nodes.len() > MAX_JOINTS {
        return Err(doc.err(
            "skins[0].joints",
            format!("{} joints; 1 to {MAX_JOINTS} are supported", nodes.len()),
        ));
    }
    let all = doc.v["nodes"].as_array().cloned().unwrap_or_default();
    // Parent node of each node.
    let mut parent_node = vec![None; all.len()];
    for (p, n) in all.iter().enumerate() {
        for c in n["children"].as_array().into_iter().flatten() {
            let c = c.as_u64().map(|c| c as usize).filter(|&c| c < all.len());
            let c = c.ok_or_else(|| doc.err(format!("nodes[{p}].children"), "bad node index"))?;
            parent_node[c] = Some(p);
        }
    }
    let mut joints = Vec::with_capacity(nodes.len());
    for (j, &ni) in nodes.iter().enumerate() {
        let nf = format!("nodes[{ni}]");
        let n = all.get(ni).ok_or_else(|| {
            doc.err(
                format!("skins[0].joints[{j}]"),
                format!("node {ni} does not exist"),
            )
        })?;
        let jname = n["name"]
            .as_str()
            .ok_or_else(|| doc.err(format!("{nf}.name"), "a joint needs a name"))?
            .to_string();
        if joints.iter().any(|o: &JointSrc| o.name == jname) {
            return Err(doc.err(
                format!("{nf}.name"),
                format!("duplicate joint name '{jname}'"),
            ));
        }
        if !n["matrix"].is_null() {
            return Err(doc.err(
                format!("{nf}.matrix"),
                format!("joint '{jname}': use translation and rotation, not matrix"),
            ));
        }
        if let Some(s) = array_n(doc, &n["scale"], &format!("{nf}.scale"), 3)? {
            if s.iter().any(|c| (c - 1.0).abs() > 1e-6) {
                return Err(doc.err(
                    format!("{nf}.scale"),
                    format!("joint '{jname}': scale {s:?} is not supported (must be 1)"),
                ));
            }
        }
        let t = array_n(doc, &n["translation"], &format!("{nf}.translation"), 3)?
            .unwrap_or(vec![0.0; 3]);
        check_range(doc, &format!("{nf}.translation"), &t)?;
        let q = match array_n(doc, &n["rotation"], &format!("{nf}.rotation"), 4)? {
            Some(q) => check_quat(doc, &format!("{nf}.rotation (joint '{jname}')"), &q)?,
            None => [1.0, 0.0, 0.0, 0.0],
        };
        let parent = match parent_node[ni] {
            None => None,
            Some(pn) => match nodes.iter().position(|&x| x == pn) {
                Some(pj) if pj < j => Some(pj),
                Some(_) => {
                    return Err(doc.err(
                        format!("skins[0].joints[{j}]"),
                        format!("joint '{jname}' comes before its parent: list parents first"),
                    ))
                }
                None => {
                    return Err(doc.err(
                        format!("nodes[{pn}]"),
                        format!("the parent of joint '{jname}' is not a joint of the skin"),
                    ))
                }
            },
        };
        joints.push(JointSrc {
            name: jname,
            parent,
            bind: Rigid {
                rot: Rot::from_quat(q),
                trans: [t[0], t[1], t[2]],
            },
            quat: q,
        });
    }
    let mut skel = SkeletonSrc {
        file: doc.file.to_string(),
        name: name.to_string(),
        joints,
        inverse_bind: Vec::new(),
    };
    let model = skel.model_bind();
    if skin["inverseBindMatrices"].is_null() {
        skel.inverse_bind = model.iter().map(Rigid::inverse).collect();
    } else {
        let ibm = doc.floats(
            &skin["inverseBindMatrices"],
            "skins[0].inverseBindMatrices",
            "MAT4",
            16,
        )?;
        if ibm.len() != nodes.len() {
            return Err(doc.err(
                "skins[0].inverseBindMatrices",
                format!("{} matrices for {} joints", ibm.len(), nodes.len()),
            ));
        }
        for (j, m) in ibm.iter().enumerate() {
            let want = model[j].inverse().to_gltf_mat4();
            let worst = m
                .iter()
                .zip(want)
                .map(|(a, b)| (a - b).abs())
                .fold(0.0, f64::max);
            if worst > INVERSE_BIND_TOL {
                return Err(doc.err(
                    format!("skins[0].inverseBindMatrices[{j}]"),
                    format!(
                        "joint '{}': not the inverse of the bind pose (off by {worst:.2e})",
                        skel.joints[j].name
                    ),
                ));
            }
            skel.inverse_bind.push(model[j].inverse());
        }
    }
    Ok((skel, nodes))
}

/// Parses a skeleton file. `base` is the directory for external buffers.
pub fn parse_skeleton(
    file: &str,
    text: &str,
    base: Option<&Path>,
) -> Result<SkeletonSrc, AssetError> {
    let doc = Doc::parse(file, text, base)?;
    Ok(skeleton_of(&doc)?.0)
}

/// Reads and parses a skeleton file.
pub fn load_skeleton(path: &Path) -> Result<SkeletonSrc, AssetError> {
    let (file, text) = read(path)?;
    parse_skeleton(&file, &text, path.parent())
}

/// A glTF file's path as errors name it, and its text.
pub(crate) fn read(path: &Path) -> Result<(String, String), AssetError> {
    let file = path.display().to_string();
    let text = std::fs::read_to_string(path)
        .map_err(|e| err(&file, "file", format!("cannot read: {e}")))?;
    Ok((file, text))
}

/// Parses the clips of a clip file made for `skel`.
pub fn parse_clips(
    file: &str,
    text: &str,
    base: Option<&Path>,
    skel: &SkeletonSrc,
) -> Result<Vec<ClipSrc>, AssetError> {
    let doc = Doc::parse(file, text, base)?;
    let (own, nodes) = skeleton_of(&doc)?;
    if own.name != skel.name {
        return Err(doc.err(
            "skins[0].name",
            format!(
                "a clip for another skeleton: '{}', but the character's skeleton is '{}' ({})",
                own.name, skel.name, skel.file
            ),
        ));
    }
    for want in &skel.joints {
        if own.index_of(&want.name).is_none() {
            return Err(doc.err(
                "skins[0].joints",
                format!("missing joint '{}' of skeleton '{}'", want.name, skel.name),
            ));
        }
    }
    for (j, (a, b)) in own.joints.iter().zip(&skel.joints).enumerate() {
        let pa = a.parent.map(|p| own.joints[p].name.as_str());
        let pb = b.parent.map(|p| skel.joints[p].name.as_str());
        if a.name != b.name || pa != pb || own.joints.len() != skel.joints.len() {
            return Err(doc.err(format!("skins[0].joints[{j}]"), format!("a clip for another skeleton: joint '{}' (parent {pa:?}) where '{}' has '{}' (parent {pb:?})", a.name, skel.name, b.name)));
        }
    }
    let anims = doc.v["animations"].as_array().cloned().unwrap_or_default();
    if anims.is_empty() {
        return Err(doc.err("animations", "no clip in a clip file"));
    }
    anims
        .iter()
        .enumerate()
        .map(|(ai, a)| clip_of(&doc, ai, a, &nodes, skel))
        .collect()
}

fn clip_of(
    doc: &Doc,
    ai: usize,
    a: &Value,
    nodes: &[usize],
    skel: &SkeletonSrc,
) -> Result<ClipSrc, AssetError> {
    let af = format!("animations[{ai}]");
    let name = a["name"]
        .as_str()
        .ok_or_else(|| doc.err(format!("{af}.name"), "a clip needs a name"))?;
    let looping = a
        .pointer("/extras/looping")
        .and_then(Value::as_bool)
        .unwrap_or(false);
    let channels = a["channels"].as_array().cloned().unwrap_or_default();
    let samplers = a["samplers"].as_array().cloned().unwrap_or_default();
    if channels.is_empty() {
        return Err(doc.err(format!("{af}.channels"), "a clip without channels"));
    }
    let mut times: Option<Vec<f64>> = None;
    let mut root: Option<Vec<V3>> = None;
    let mut tracks: Vec<TrackSrc> = Vec::new();
    for (ci, c) in channels.iter().enumerate() {
        let cf = format!("{af}.channels[{ci}]");
        let node = c
            .pointer("/target/node")
            .and_then(Value::as_u64)
            .ok_or_else(|| doc.err(format!("{cf}.target.node"), "missing"))?
            as usize;
        let node_name = doc.v["nodes"][node]["name"].as_str().unwrap_or("?");
        let joint = nodes.iter().position(|&n| n == node).ok_or_else(|| {
            doc.err(
                format!("{cf}.target.node"),
                format!(
                    "missing joint: node {node} '{node_name}' is not a joint of skeleton '{}'",
                    skel.name
                ),
            )
        })?;
        let jname = &skel.joints[joint].name;
        let si = c["sampler"]
            .as_u64()
            .ok_or_else(|| doc.err(format!("{cf}.sampler"), "missing"))? as usize;
        let s = samplers.get(si).ok_or_else(|| {
            doc.err(
                format!("{cf}.sampler"),
                format!("sampler {si} does not exist"),
            )
        })?;
        let sf = format!("{af}.samplers[{si}]");
        let interp = s["interpolation"].as_str().unwrap_or("LINEAR");
        if interp != "LINEAR" {
            return Err(doc.err(
                format!("{sf}.interpolation"),
                format!("{interp} is not supported (LINEAR only)"),
            ));
        }
        let input: Vec<f64> = doc
            .floats(&s["input"], &format!("{sf}.input"), "SCALAR", 1)?
            .into_iter()
            .map(|g| g[0])
            .collect();
        match &times {
            None => {
                if input.len() < 2 || input[0].abs() > 1e-6 {
                    return Err(doc.err(
                        format!("{sf}.input"),
                        "key times must start at 0 and have at least 2 keys",
                    ));
                }
                for k in 1..input.len() {
                    if input[k] - input[k - 1] < 1.0 / 1024.0 {
                        return Err(doc.err(
                            format!("{sf}.input"),
                            format!("key {k}: times must increase by at least 1/1024 s"),
                        ));
                    }
                }
                if input[input.len() - 1] > 60.0 {
                    return Err(doc.err(format!("{sf}.input"), "a clip longer than 60 s"));
                }
                times = Some(input);
            }
            Some(t) => {
                if t.len() != input.len() || t.iter().zip(&input).any(|(a, b)| (a - b).abs() > 1e-6)
                {
                    return Err(doc.err(
                        format!("{sf}.input"),
                        "every channel of a clip must use the same key times",
                    ));
                }
            }
        }
        let path = c
            .pointer("/target/path")
            .and_then(Value::as_str)
            .unwrap_or("");
        match path {
            "rotation" => {
                if tracks.iter().any(|t| t.joint == joint) {
                    return Err(doc.err(
                        &cf,
                        format!("a second rotation channel for joint '{jname}'"),
                    ));
                }
                let out = doc.floats(&s["output"], &format!("{sf}.output"), "VEC4", 4)?;
                key_count(doc, &sf, out.len(), &times)?;
                let mut keys = Vec::with_capacity(out.len());
                for (k, q) in out.iter().enumerate() {
                    keys.push(check_quat(
                        doc,
                        &format!("{cf} (joint '{jname}') key {k}"),
                        q,
                    )?);
                }
                tracks.push(TrackSrc { joint, keys });
            }
            "translation" => {
                if joint != 0 {
                    return Err(doc.err(
                        format!("{cf}.target.path"),
                        format!("translation of joint '{jname}': only the root joint may move"),
                    ));
                }
                if root.is_some() {
                    return Err(doc.err(&cf, "a second root translation channel"));
                }
                let out = doc.floats(&s["output"], &format!("{sf}.output"), "VEC3", 3)?;
                key_count(doc, &sf, out.len(), &times)?;
                for (k, t) in out.iter().enumerate() {
                    check_range(doc, &format!("{cf} key {k}"), t)?;
                }
                root = Some(out.into_iter().map(|t| [t[0], t[1], t[2]]).collect());
            }
            other => {
                return Err(doc.err(format!("{cf}.target.path"), format!("'{other}' channels are not supported (rotation, and translation of the root)")));
            }
        }
    }
    let times = times.unwrap_or_default();
    let root_trans = root.unwrap_or_else(|| vec![skel.joints[0].bind.trans; times.len()]);
    tracks.sort_by_key(|t| t.joint);
    Ok(ClipSrc {
        file: doc.file.to_string(),
        name: name.to_string(),
        skeleton: skel.name.clone(),
        looping,
        times,
        root_trans,
        tracks,
    })
}

fn key_count(doc: &Doc, sf: &str, got: usize, times: &Option<Vec<f64>>) -> Result<(), AssetError> {
    let n = times.as_ref().map_or(0, Vec::len);
    if got != n {
        return Err(doc.err(format!("{sf}.output"), format!("{got} keys for {n} times")));
    }
    Ok(())
}

/// Reads and parses the clips of a clip file made for `skel`.
pub fn load_clips(path: &Path, skel: &SkeletonSrc) -> Result<Vec<ClipSrc>, AssetError> {
    let (file, text) = read(path)?;
    parse_clips(&file, &text, path.parent(), skel)
}
