//! Skinned meshes in glTF 2.0 (`assets/characters/humanoid.gltf`), read
//! and validated at build time for the geometry engine's skinning
//! ([`crate::gltf_gx`]). Every error names the file and the JSON field.
//!
//! What is read: the first node with a `mesh`, which must be skinned to
//! `skins[0]` (the skeleton of [`crate::gltf`]); each of its primitives'
//! triangles (`mode` 4), `POSITION` and `NORMAL` (FLOAT VEC3, model space
//! in the bind pose), `JOINTS_0` (unsigned VEC4) and `WEIGHTS_0` (FLOAT
//! VEC4), `indices` (or none: the vertices in order), and its material's
//! `pbrMetallicRoughness.baseColorFactor`.
//!
//! Refused, with the limit in the message:
//! - a skin of more joints than the matrix stack keeps ([`MAX_SKIN_JOINTS`]);
//! - a vertex whose weights are not one joint at weight 1 (the renderer
//!   restores one matrix per vertex; no blending), or that has
//!   `JOINTS_1`/`WEIGHTS_1`;
//! - more than [`MAX_TRIANGLES`] triangles (the polygon budget);
//! - a normal that is not unit length, a joint index outside the skin,
//!   an index outside the vertices.

use std::path::Path;

use serde_json::Value;

use crate::gltf::{read, skeleton_of, Doc, SkeletonSrc};
use crate::gltf_math::V3;
use crate::ragdoll_def::AssetError;

/// The joints a skinned mesh may have: the geometry engine's position
/// matrix stack holds 31 matrices (GBATEK "DS 3D Matrix Stack"), one per
/// joint, and the last keeps the camera while the palette is built.
pub const MAX_SKIN_JOINTS: usize = 30;

/// The most triangles a skinned mesh may have: a quarter of the 2048
/// polygons the hardware stores per frame, so that the world and the
/// other characters keep the rest.
pub const MAX_TRIANGLES: usize = 512;

/// Largest accepted difference of a weight from 0 or 1, and of a
/// normal's length from 1.
pub const WEIGHT_TOL: f64 = 1e-3;
pub const NORMAL_TOL: f64 = 1e-2;

/// Largest accepted distance of a vertex from the origin in the bind pose
/// (m): the character must fit the 4.12 submission range around its
/// joints.
pub const MAX_EXTENT: f64 = 8.0;

/// One primitive: vertices with one joint each, triangles, one colour.
#[derive(Clone, Debug, PartialEq)]
pub struct PartSrc {
    /// The material's name (or `material N`).
    pub material: String,
    /// Base colour, linear 0..1.
    pub color: V3,
    /// Bind-pose positions, model space (m).
    pub positions: Vec<V3>,
    /// Unit normals, model space.
    pub normals: Vec<V3>,
    /// The one joint of each vertex (skin joint order).
    pub joints: Vec<usize>,
    /// Vertex indices, counter-clockwise seen from outside.
    pub triangles: Vec<[usize; 3]>,
}

/// A validated skinned mesh.
#[derive(Clone, Debug, PartialEq)]
pub struct MeshSrc {
    /// The file, for errors.
    pub file: String,
    /// `meshes[i].name`.
    pub name: String,
    /// Its primitives.
    pub parts: Vec<PartSrc>,
}

impl MeshSrc {
    /// Triangles over every part.
    pub fn triangles(&self) -> usize {
        self.parts.iter().map(|p| p.triangles.len()).sum()
    }
}

/// Parses the skinned mesh of a character file whose skeleton is `skel`.
pub fn parse_mesh(
    file: &str,
    text: &str,
    base: Option<&Path>,
    skel: &SkeletonSrc,
) -> Result<MeshSrc, AssetError> {
    let doc = Doc::parse(file, text, base)?;
    let (own, _) = skeleton_of(&doc)?;
    if own.name != skel.name || own.joints.len() != skel.joints.len() {
        return Err(doc.err(
            "skins[0]",
            format!(
                "the mesh is skinned to '{}' ({} joints), not the character's '{}' ({} joints)",
                own.name,
                own.joints.len(),
                skel.name,
                skel.joints.len()
            ),
        ));
    }
    if own.joints.len() > MAX_SKIN_JOINTS {
        return Err(doc.err(
            "skins[0].joints",
            format!(
                "{} joints; a skinned mesh takes at most {MAX_SKIN_JOINTS}: the geometry \
                 engine's matrix stack holds 31 matrices, and one keeps the camera",
                own.joints.len()
            ),
        ));
    }
    let nodes = doc.v["nodes"].as_array().cloned().unwrap_or_default();
    let Some(ni) = nodes.iter().position(|n| !n["mesh"].is_null()) else {
        return Err(doc.err("nodes", "no node has a mesh: the file has no skinned mesh"));
    };
    if nodes[ni]["skin"].as_u64() != Some(0) {
        return Err(doc.err(
            format!("nodes[{ni}].skin"),
            "the mesh's node must be skinned to skins[0]",
        ));
    }
    let mi = nodes[ni]["mesh"].as_u64().unwrap_or(u64::MAX) as usize;
    let mesh = &doc.v["meshes"][mi];
    if mesh.is_null() {
        return Err(doc.err(
            format!("nodes[{ni}].mesh"),
            format!("mesh {mi} does not exist"),
        ));
    }
    let prims = mesh["primitives"].as_array().cloned().unwrap_or_default();
    if prims.is_empty() {
        return Err(doc.err(format!("meshes[{mi}].primitives"), "no primitives"));
    }
    let mut parts = Vec::with_capacity(prims.len());
    for (pi, prim) in prims.iter().enumerate() {
        let field = format!("meshes[{mi}].primitives[{pi}]");
        parts.push(part(&doc, prim, &field, own.joints.len())?);
    }
    let out = MeshSrc {
        file: file.to_string(),
        name: mesh["name"].as_str().unwrap_or("mesh").to_string(),
        parts,
    };
    if out.triangles() > MAX_TRIANGLES {
        return Err(doc.err(
            format!("meshes[{mi}].primitives"),
            format!(
                "{} triangles; a skinned mesh takes at most {MAX_TRIANGLES} (a quarter of \
                 the 2048 polygons the hardware stores per frame)",
                out.triangles()
            ),
        ));
    }
    Ok(out)
}

/// Reads and parses the skinned mesh of a character file.
pub fn load_mesh(path: &Path, skel: &SkeletonSrc) -> Result<MeshSrc, AssetError> {
    let (file, text) = read(path)?;
    parse_mesh(&file, &text, path.parent(), skel)
}

/// One primitive, validated.
fn part(doc: &Doc, prim: &Value, field: &str, joints: usize) -> Result<PartSrc, AssetError> {
    let mode = prim["mode"].as_u64().unwrap_or(4);
    if mode != 4 {
        return Err(doc.err(
            format!("{field}.mode"),
            format!("{mode}: only triangles (4) are supported"),
        ));
    }
    let attrs = &prim["attributes"];
    let af = |name: &str| format!("{field}.attributes.{name}");
    for extra in ["JOINTS_1", "WEIGHTS_1"] {
        if !attrs[extra].is_null() {
            return Err(doc.err(
                af(extra),
                "more than 4 influences; the renderer takes one joint per vertex",
            ));
        }
    }
    let positions = doc.floats(&attrs["POSITION"], &af("POSITION"), "VEC3", 3)?;
    let normals = doc.floats(&attrs["NORMAL"], &af("NORMAL"), "VEC3", 3)?;
    let joint_sets = doc.uints(&attrs["JOINTS_0"], &af("JOINTS_0"), "VEC4", 4)?;
    let weights = doc.floats(&attrs["WEIGHTS_0"], &af("WEIGHTS_0"), "VEC4", 4)?;
    let n = positions.len();
    for (name, len) in [
        ("NORMAL", normals.len()),
        ("JOINTS_0", joint_sets.len()),
        ("WEIGHTS_0", weights.len()),
    ] {
        if len != n {
            return Err(doc.err(af(name), format!("{len} elements for {n} positions")));
        }
    }
    let mut one_joint = Vec::with_capacity(n);
    for (k, (js, ws)) in joint_sets.iter().zip(&weights).enumerate() {
        let heavy: Vec<usize> = (0..4).filter(|&c| ws[c].abs() > WEIGHT_TOL).collect();
        let [c] = heavy[..] else {
            return Err(doc.err(
                af("WEIGHTS_0"),
                format!(
                    "vertex {k} has weights {ws:?} on joints {js:?}: the renderer takes one \
                     joint per vertex (one weight of 1, the others 0)"
                ),
            ));
        };
        if (ws[c] - 1.0).abs() > WEIGHT_TOL {
            return Err(doc.err(
                af("WEIGHTS_0"),
                format!("vertex {k}: its one weight is {}, not 1", ws[c]),
            ));
        }
        let j = js[c] as usize;
        if j >= joints {
            return Err(doc.err(
                af("JOINTS_0"),
                format!("vertex {k}: joint {j}, but the skin has {joints}"),
            ));
        }
        one_joint.push(j);
    }
    for (k, p) in positions.iter().enumerate() {
        if p.iter().map(|c| c * c).sum::<f64>().sqrt() > MAX_EXTENT {
            return Err(doc.err(
                af("POSITION"),
                format!("vertex {k} at {p:?} is more than {MAX_EXTENT} m from the origin"),
            ));
        }
    }
    for (k, v) in normals.iter().enumerate() {
        let len = v.iter().map(|c| c * c).sum::<f64>().sqrt();
        if (len - 1.0).abs() > NORMAL_TOL {
            return Err(doc.err(
                af("NORMAL"),
                format!("normal {k} has length {len:.4}; it must be 1 within {NORMAL_TOL}"),
            ));
        }
    }
    let indices: Vec<usize> = if prim["indices"].is_null() {
        (0..n).collect()
    } else {
        let f = format!("{field}.indices");
        let ix = doc.uints(&prim["indices"], &f, "SCALAR", 1)?;
        let ix: Vec<usize> = ix.iter().map(|g| g[0] as usize).collect();
        if let Some((k, &bad)) = ix.iter().enumerate().find(|(_, &i)| i >= n) {
            return Err(doc.err(f, format!("index {k} is {bad}, but there are {n} vertices")));
        }
        ix
    };
    if !indices.len().is_multiple_of(3) {
        return Err(doc.err(
            format!("{field}.indices"),
            format!(
                "{} indices is not a whole number of triangles",
                indices.len()
            ),
        ));
    }
    let (material, color) = material(doc, &prim["material"], field)?;
    Ok(PartSrc {
        material,
        color,
        positions: positions.iter().map(|p| [p[0], p[1], p[2]]).collect(),
        normals: normals.iter().map(|p| [p[0], p[1], p[2]]).collect(),
        joints: one_joint,
        triangles: indices
            .chunks_exact(3)
            .map(|t| [t[0], t[1], t[2]])
            .collect(),
    })
}

/// A primitive's material: its name and base colour (white without one).
fn material(doc: &Doc, index: &Value, field: &str) -> Result<(String, V3), AssetError> {
    if index.is_null() {
        return Ok(("default".into(), [1.0; 3]));
    }
    let i = index.as_u64().unwrap_or(u64::MAX) as usize;
    let m = &doc.v["materials"][i];
    if m.is_null() {
        return Err(doc.err(
            format!("{field}.material"),
            format!("material {i} does not exist"),
        ));
    }
    let name = m["name"]
        .as_str()
        .map_or(format!("material {i}"), str::to_string);
    let f = format!("materials[{i}].pbrMetallicRoughness.baseColorFactor");
    let c = &m["pbrMetallicRoughness"]["baseColorFactor"];
    if c.is_null() {
        return Ok((name, [1.0; 3]));
    }
    let c: Option<Vec<f64>> = c
        .as_array()
        .and_then(|a| a.iter().map(Value::as_f64).collect());
    match c {
        Some(c) if c.len() == 4 && c.iter().all(|x| (0.0..=1.0).contains(x)) => {
            Ok((name, [c[0], c[1], c[2]]))
        }
        _ => Err(doc.err(f, "expected four numbers in 0..1")),
    }
}
