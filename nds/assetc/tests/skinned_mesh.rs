//! The character's skinned mesh: it loads, compiles to a display list
//! whose vertices land where the bind pose puts them, and a mesh the
//! renderer cannot draw is an error naming the file, the field and the
//! limit (too many joints for the matrix stack, blended weights, more
//! than four influences, too many triangles).

use std::path::PathBuf;

use assetc::gltf::{load_skeleton, JointSrc, SkeletonSrc};
use assetc::gltf_base64;
use assetc::gltf_gx::compile_skinned;
use assetc::gltf_math::{Rigid, Rot};
use assetc::gltf_mesh::{load_mesh, parse_mesh, MeshSrc, MAX_SKIN_JOINTS, MAX_TRIANGLES};
use assetc::gltf_write::gltf_text_with_mesh;
use assetc::ragdoll_def::AssetError;
use serde_json::{json, Value};

fn path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../assets/characters/humanoid.gltf")
}

fn character() -> (SkeletonSrc, MeshSrc) {
    let skel = load_skeleton(&path()).unwrap_or_else(|e| panic!("{e}"));
    let mesh = load_mesh(&path(), &skel).unwrap_or_else(|e| panic!("{e}"));
    (skel, mesh)
}

fn text() -> String {
    std::fs::read_to_string(path()).unwrap()
}

fn edit(text: &str, f: impl FnOnce(&mut Value)) -> String {
    let mut v: Value = serde_json::from_str(text).unwrap();
    f(&mut v);
    v.to_string()
}

fn error(text: &str, skel: &SkeletonSrc) -> AssetError {
    parse_mesh("bad.gltf", text, None, skel).expect_err("must be rejected")
}

fn has(e: &AssetError, field: &str, message: &str) {
    let s = e.to_string();
    assert!(s.starts_with("bad.gltf"), "{s}");
    assert!(e.field.contains(field), "field: {s}");
    assert!(e.message.contains(message), "message: {s}");
}

/// A new FLOAT accessor over its own data-URI buffer; returns its index.
fn add_floats(v: &mut Value, ty: &str, data: &[f32]) -> usize {
    let bytes: Vec<u8> = data.iter().flat_map(|x| x.to_le_bytes()).collect();
    let buffers = v["buffers"].as_array_mut().unwrap();
    buffers.push(json!({
        "byteLength": bytes.len(),
        "uri": format!("data:application/octet-stream;base64,{}", gltf_base64::encode(&bytes)),
    }));
    let b = buffers.len() - 1;
    let views = v["bufferViews"].as_array_mut().unwrap();
    views.push(json!({"buffer": b, "byteOffset": 0, "byteLength": bytes.len()}));
    let view = views.len() - 1;
    let width = if ty == "VEC4" { 4 } else { 3 };
    let accessors = v["accessors"].as_array_mut().unwrap();
    accessors.push(json!({
        "bufferView": view, "componentType": 5126, "count": data.len() / width, "type": ty,
    }));
    accessors.len() - 1
}

#[test]
fn the_mesh_loads_within_the_budgets() {
    let (skel, mesh) = character();
    assert!(mesh.parts.len() >= 4, "one part per colour");
    let t = mesh.triangles();
    assert!((100..=MAX_TRIANGLES).contains(&t), "{t} triangles");
    // Every joint that moves a limb carries vertices.
    for name in [
        "pelvis",
        "chest",
        "head",
        "forearm_l",
        "hand_r",
        "shin_l",
        "foot_r",
    ] {
        let j = skel.index_of(name).unwrap();
        assert!(
            mesh.parts.iter().any(|p| p.joints.contains(&j)),
            "no vertex on {name}"
        );
    }
}

#[test]
fn the_list_puts_each_vertex_where_the_bind_pose_does() {
    let (skel, mesh) = character();
    let gx = compile_skinned(&mesh, &skel);
    assert_eq!(gx.triangles, mesh.triangles());
    assert_eq!(gx.vertices, 3 * gx.triangles);
    // Rotating each triangle to start on the restored joint: well under
    // one restore per triangle.
    assert!(gx.restores * 10 < gx.triangles * 8, "{gx:?}");
    // Replay the list: each VTX_16 through its joint's bind matrix must
    // give the mesh's own bind-pose vertex back (to 1 mm).
    let model = skel.model_bind();
    let expected = mesh
        .parts
        .iter()
        .flat_map(|p| {
            p.triangles
                .iter()
                .flatten()
                .map(|&v| (p.positions[v], p.joints[v]))
        })
        .collect::<Vec<_>>();
    let mut got = Vec::new();
    let (mut i, mut joint) = (0, usize::MAX);
    while i < gx.words.len() {
        let header = gx.words[i];
        i += 1;
        for c in 0..4 {
            let op = header >> (8 * c) & 0xFF;
            let params = match op {
                0x00 => 0,
                0x14 | 0x21 | 0x30 | 0x31 | 0x40 => 1,
                0x23 => 2,
                _ => panic!("unexpected command {op:#x}"),
            };
            if op == 0x14 {
                joint = gx.words[i] as usize;
            }
            if op == 0x23 {
                let (a, b) = (gx.words[i], gx.words[i + 1]);
                let f = |x: u32| (x as u16 as i16) as f64 * 4.0 / 4096.0;
                let local = [f(a), f(a >> 16), f(b)];
                got.push((model[joint].apply(local), joint));
            }
            i += params;
        }
    }
    assert_eq!(got.len(), expected.len());
    for (g, gj) in &got {
        let near =
            |(e, ej): &&([f64; 3], usize)| ej == gj && (0..3).all(|c| (g[c] - e[c]).abs() < 1e-3);
        assert!(expected.iter().any(|e| near(&e)), "{g:?} on joint {gj}");
    }
}

#[test]
fn blended_weights_are_refused() {
    let (skel, mesh) = character();
    let n = mesh.parts[0].positions.len();
    let text = edit(&text(), |v| {
        let halves: Vec<f32> = (0..n).flat_map(|_| [0.5, 0.5, 0.0, 0.0]).collect();
        let a = add_floats(v, "VEC4", &halves);
        v["meshes"][0]["primitives"][0]["attributes"]["WEIGHTS_0"] = a.into();
    });
    has(
        &error(&text, &skel),
        "meshes[0].primitives[0].attributes.WEIGHTS_0",
        "one joint per vertex",
    );
    let text = edit(&self::text(), |v| {
        let a = v["meshes"][0]["primitives"][0]["attributes"]["WEIGHTS_0"].clone();
        v["meshes"][0]["primitives"][0]["attributes"]["WEIGHTS_1"] = a;
    });
    has(&error(&text, &skel), "WEIGHTS_1", "more than 4 influences");
}

#[test]
fn a_skin_beyond_the_matrix_stack_is_refused() {
    let (mut skel, mesh) = character();
    // Six more joints under the head: 31, one more than the stack keeps.
    let head = skel.index_of("head").unwrap();
    for k in 0..MAX_SKIN_JOINTS + 1 - skel.joints.len() {
        skel.joints.push(JointSrc {
            name: format!("extra_{k}"),
            parent: Some(head),
            bind: Rigid {
                rot: Rot::IDENTITY,
                trans: [0.0, 0.01, 0.0],
            },
            quat: [1.0, 0.0, 0.0, 0.0],
        });
    }
    skel.inverse_bind = skel.model_bind().iter().map(Rigid::inverse).collect();
    let text = gltf_text_with_mesh(&skel, &[], Some(&mesh), "test");
    has(
        &error(&text, &skel),
        "skins[0].joints",
        "at most 30: the geometry engine's matrix stack holds 31",
    );
}

#[test]
fn too_many_triangles_are_refused() {
    let (skel, mut mesh) = character();
    let tris = mesh.parts[0].triangles.clone();
    while mesh.triangles() <= MAX_TRIANGLES {
        mesh.parts[0].triangles.extend_from_slice(&tris);
    }
    let text = gltf_text_with_mesh(&skel, &[], Some(&mesh), "test");
    has(&error(&text, &skel), "primitives", "at most 512");
}

#[test]
fn bad_normals_and_joints_are_refused() {
    let (skel, mesh) = character();
    let n = mesh.parts[0].positions.len();
    let text = edit(&text(), |v| {
        let long: Vec<f32> = (0..n).flat_map(|_| [0.0, 2.0, 0.0]).collect();
        let a = add_floats(v, "VEC3", &long);
        v["meshes"][0]["primitives"][0]["attributes"]["NORMAL"] = a.into();
    });
    has(&error(&text, &skel), "attributes.NORMAL", "length 2.0000");
    let text = edit(&self::text(), |v| {
        v["meshes"][0]["primitives"][0]["mode"] = 5.into();
    });
    has(&error(&text, &skel), "primitives[0].mode", "only triangles");
    let text = edit(&self::text(), |v| {
        let nodes = v["nodes"].as_array_mut().unwrap();
        let last = nodes.len() - 1;
        nodes[last].as_object_mut().unwrap().remove("skin");
    });
    has(&error(&text, &skel), ".skin", "skinned to skins[0]");
}
