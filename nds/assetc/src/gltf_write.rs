//! Writes glTF 2.0 skeleton and clip files (for the character generator,
//! `examples/gen_character.rs`): one embedded base64 buffer of `f32`s.

use serde_json::{json, Value};

use crate::gltf::{ClipSrc, SkeletonSrc, FLOAT, UNSIGNED_SHORT};
use crate::gltf_base64;
use crate::gltf_mesh::MeshSrc;

/// Accumulates accessors over one buffer.
struct Builder {
    bytes: Vec<u8>,
    views: Vec<Value>,
    accessors: Vec<Value>,
}

impl Builder {
    /// A FLOAT accessor of `data` (groups of `ty`'s width), with `min`
    /// and `max` of the first component when `minmax`.
    fn accessor(&mut self, ty: &str, data: &[Vec<f64>], minmax: bool) -> usize {
        let bytes = data
            .iter()
            .flatten()
            .flat_map(|&x| (x as f32).to_le_bytes());
        let i = self.add(bytes, FLOAT, ty, data.len());
        if minmax {
            // glTF requires min and max on animation inputs.
            let xs: Vec<f64> = data.iter().map(|g| g[0] as f32 as f64).collect();
            let a = &mut self.accessors[i];
            a["min"] = json!([xs.iter().cloned().fold(f64::INFINITY, f64::min)]);
            a["max"] = json!([xs.iter().cloned().fold(f64::NEG_INFINITY, f64::max)]);
        }
        i
    }

    /// An UNSIGNED_SHORT accessor (joint indices, vertex indices).
    fn accessor_u16(&mut self, ty: &str, data: &[Vec<u16>]) -> usize {
        let bytes = data.iter().flatten().flat_map(|&x| x.to_le_bytes());
        self.add(bytes, UNSIGNED_SHORT, ty, data.len())
    }

    /// Appends `bytes` as a buffer view, aligned to 4 bytes after it as
    /// glTF requires of the next one, and an accessor of `count` elements
    /// over it; returns the accessor's index.
    fn add(
        &mut self,
        bytes: impl Iterator<Item = u8>,
        component_type: u64,
        ty: &str,
        count: usize,
    ) -> usize {
        let offset = self.bytes.len();
        self.bytes.extend(bytes);
        self.views.push(json!({
            "buffer": 0, "byteOffset": offset, "byteLength": self.bytes.len() - offset
        }));
        while !self.bytes.len().is_multiple_of(4) {
            self.bytes.push(0);
        }
        self.accessors.push(json!({
            "bufferView": self.views.len() - 1,
            "componentType": component_type,
            "count": count,
            "type": ty,
        }));
        self.accessors.len() - 1
    }
}

/// `[w, x, y, z]` to glTF's `[x, y, z, w]`.
fn xyzw(q: [f64; 4]) -> Vec<f64> {
    vec![q[1], q[2], q[3], q[0]]
}

/// The skeleton (nodes, `skins[0]` with inverse bind matrices) and the
/// clips, as glTF JSON text.
pub fn gltf_text(skel: &SkeletonSrc, clips: &[ClipSrc], generator: &str) -> String {
    gltf_text_with_mesh(skel, clips, None, generator)
}

/// [`gltf_text`], with a skinned mesh (one joint per vertex) on a node of
/// its own after the joints.
pub fn gltf_text_with_mesh(
    skel: &SkeletonSrc,
    clips: &[ClipSrc],
    mesh: Option<&MeshSrc>,
    generator: &str,
) -> String {
    let mut b = Builder {
        bytes: Vec::new(),
        views: Vec::new(),
        accessors: Vec::new(),
    };
    let nodes: Vec<Value> = skel
        .joints
        .iter()
        .enumerate()
        .map(|(i, j)| {
            let children: Vec<usize> = (0..skel.joints.len())
                .filter(|&c| skel.joints[c].parent == Some(i))
                .collect();
            let mut n = json!({
                "name": j.name,
                "translation": j.bind.trans.to_vec(),
                "rotation": xyzw(j.quat),
            });
            if !children.is_empty() {
                n["children"] = json!(children);
            }
            n
        })
        .collect();
    let ibm: Vec<Vec<f64>> = skel
        .inverse_bind
        .iter()
        .map(|m| m.to_gltf_mat4().to_vec())
        .collect();
    let ibm = b.accessor("MAT4", &ibm, false);
    let mut roots: Vec<usize> = (0..skel.joints.len())
        .filter(|&i| skel.joints[i].parent.is_none())
        .collect();
    let skeleton_root = roots[0];
    let mut nodes = nodes;
    let mut meshes = Vec::new();
    let mut materials = Vec::new();
    if let Some(m) = mesh {
        let mut primitives = Vec::new();
        for part in &m.parts {
            let f = |v: &[[f64; 3]]| v.iter().map(|p| p.to_vec()).collect::<Vec<_>>();
            let position = b.accessor("VEC3", &f(&part.positions), false);
            let normal = b.accessor("VEC3", &f(&part.normals), false);
            let joints: Vec<Vec<u16>> = part
                .joints
                .iter()
                .map(|&j| vec![j as u16, 0, 0, 0])
                .collect();
            let joints = b.accessor_u16("VEC4", &joints);
            let weights: Vec<Vec<f64>> = part
                .joints
                .iter()
                .map(|_| vec![1.0, 0.0, 0.0, 0.0])
                .collect();
            let weights = b.accessor("VEC4", &weights, false);
            let indices: Vec<Vec<u16>> = part
                .triangles
                .iter()
                .flatten()
                .map(|&i| vec![i as u16])
                .collect();
            let indices = b.accessor_u16("SCALAR", &indices);
            materials.push(json!({
                "name": part.material,
                "pbrMetallicRoughness": {
                    "baseColorFactor": [part.color[0], part.color[1], part.color[2], 1.0],
                    "metallicFactor": 0.0,
                },
            }));
            primitives.push(json!({
                "attributes": {
                    "POSITION": position, "NORMAL": normal,
                    "JOINTS_0": joints, "WEIGHTS_0": weights,
                },
                "indices": indices,
                "material": materials.len() - 1,
                "mode": 4,
            }));
        }
        meshes.push(json!({"name": m.name, "primitives": primitives}));
        nodes.push(json!({"name": m.name, "mesh": 0, "skin": 0}));
        roots.push(nodes.len() - 1);
    }
    let mut animations = Vec::new();
    for c in clips {
        let times: Vec<Vec<f64>> = c.times.iter().map(|&t| vec![t]).collect();
        let input = b.accessor("SCALAR", &times, true);
        let mut samplers = Vec::new();
        let mut channels = Vec::new();
        let root: Vec<Vec<f64>> = c.root_trans.iter().map(|t| t.to_vec()).collect();
        let out = b.accessor("VEC3", &root, false);
        samplers.push(json!({"input": input, "output": out, "interpolation": "LINEAR"}));
        channels.push(json!({"sampler": 0, "target": {"node": 0, "path": "translation"}}));
        for t in &c.tracks {
            let keys: Vec<Vec<f64>> = t.keys.iter().map(|&q| xyzw(q)).collect();
            let out = b.accessor("VEC4", &keys, false);
            samplers.push(json!({"input": input, "output": out, "interpolation": "LINEAR"}));
            channels.push(json!({
                "sampler": samplers.len() - 1,
                "target": {"node": t.joint, "path": "rotation"}
            }));
        }
        animations.push(json!({
            "name": c.name,
            "channels": channels,
            "samplers": samplers,
            "extras": {"looping": c.looping},
        }));
    }
    let mut doc = json!({
        "asset": {"version": "2.0", "generator": generator},
        "scene": 0,
        "scenes": [{"nodes": roots}],
        "nodes": nodes,
        "skins": [{
            "name": skel.name,
            "joints": (0..skel.joints.len()).collect::<Vec<_>>(),
            "inverseBindMatrices": ibm,
            "skeleton": skeleton_root,
        }],
        "accessors": b.accessors,
        "bufferViews": b.views,
        "buffers": [{
            "byteLength": b.bytes.len(),
            "uri": format!("data:application/octet-stream;base64,{}", gltf_base64::encode(&b.bytes)),
        }],
    });
    if !animations.is_empty() {
        doc["animations"] = json!(animations);
    }
    if !meshes.is_empty() {
        doc["meshes"] = json!(meshes);
        doc["materials"] = json!(materials);
    }
    let mut text = serde_json::to_string_pretty(&doc).expect("JSON");
    text.push('\n');
    text
}
