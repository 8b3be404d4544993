//! Bad skeletons, clips and brad tables are errors that name the file and
//! the field: a missing joint, a clip for another skeleton, a
//! non-normalised quaternion, and every brad-table mistake.

use std::path::PathBuf;

use assetc::brads::{parse_brads, resolve_brads};
use assetc::gltf::{load_clips, load_skeleton, parse_clips, parse_skeleton, SkeletonSrc};
use assetc::gltf_write::gltf_text;
use assetc::ragdoll_def::{load_ragdoll, AssetError};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn skeleton() -> SkeletonSrc {
    load_skeleton(&root().join("assets/characters/humanoid.gltf")).unwrap()
}

fn walk_text() -> String {
    std::fs::read_to_string(root().join("assets/characters/humanoid_walk.gltf")).unwrap()
}

/// The error of parsing `text` as a walk clip for the real skeleton.
fn clip_error(text: &str) -> AssetError {
    parse_clips("bad_walk.gltf", text, None, &skeleton()).expect_err("must be rejected")
}

/// A change to a glTF document.
type Edit = Box<dyn Fn(&mut serde_json::Value)>;

fn edit(text: &str, f: impl FnOnce(&mut serde_json::Value)) -> String {
    let mut v: serde_json::Value = serde_json::from_str(text).unwrap();
    f(&mut v);
    v.to_string()
}

fn has(e: &AssetError, file: &str, field: &str, message: &str) {
    let s = e.to_string();
    assert!(s.starts_with(file), "{s}");
    assert!(e.field.contains(field), "field: {s}");
    assert!(e.message.contains(message), "message: {s}");
}

#[test]
fn the_real_clips_load() {
    let skel = skeleton();
    let clips = load_clips(&root().join("assets/characters/humanoid_walk.gltf"), &skel).unwrap();
    assert_eq!(clips[0].name, "walk");
}

#[test]
fn a_clip_for_another_skeleton() {
    let text = edit(&walk_text(), |v| v["skins"][0]["name"] = "quadruped".into());
    has(
        &clip_error(&text),
        "bad_walk.gltf",
        "skins[0].name",
        "a clip for another skeleton",
    );
    // Same name, different hierarchy: a renamed joint.
    let text = edit(&walk_text(), |v| v["nodes"][24]["name"] = "tail".into());
    has(
        &clip_error(&text),
        "bad_walk.gltf",
        "skins[0].joints",
        "missing joint 'toe_r'",
    );
    // Same joints, another parent.
    let mut skel = skeleton();
    let clip = load_clips(&root().join("assets/characters/humanoid_walk.gltf"), &skel).unwrap();
    let hand = skel.index_of("hand_l").unwrap();
    skel.joints[hand].parent = Some(skel.index_of("upperarm_l").unwrap());
    skel.inverse_bind = skel.model_bind().iter().map(|m| m.inverse()).collect();
    let text = gltf_text(&skel, &clip, "test");
    has(
        &clip_error(&text),
        "bad_walk.gltf",
        &format!("skins[0].joints[{hand}]"),
        "a clip for another skeleton",
    );
}

#[test]
fn a_missing_joint() {
    // The clip's skeleton lacks a joint of the character's.
    let mut skel = skeleton();
    let clips = load_clips(&root().join("assets/characters/humanoid_walk.gltf"), &skel).unwrap();
    skel.joints.pop();
    skel.inverse_bind.pop();
    let text = gltf_text(&skel, &clips, "test");
    has(
        &clip_error(&text),
        "bad_walk.gltf",
        "skins[0].joints",
        "missing joint 'toe_r'",
    );
    // A channel for a node that is not a joint.
    let text = edit(&walk_text(), |v| {
        v["nodes"]
            .as_array_mut()
            .unwrap()
            .push(serde_json::json!({"name": "prop"}));
        v["animations"][0]["channels"][1]["target"]["node"] = 25.into();
    });
    has(
        &clip_error(&text),
        "bad_walk.gltf",
        "animations[0].channels[1].target.node",
        "missing joint: node 25 'prop'",
    );
}

#[test]
fn a_non_normalised_quaternion() {
    let skel = skeleton();
    let mut clips =
        load_clips(&root().join("assets/characters/humanoid_walk.gltf"), &skel).unwrap();
    clips[0].tracks[2].keys[3] = clips[0].tracks[2].keys[3].map(|c| c * 1.2);
    let joint = &skel.joints[clips[0].tracks[2].joint].name;
    let text = gltf_text(&skel, &clips, "test");
    has(
        &clip_error(&text),
        "bad_walk.gltf",
        &format!("(joint '{joint}') key 3"),
        "not normalised (norm 1.2",
    );
    // In the skeleton's bind pose too.
    let text = std::fs::read_to_string(root().join("assets/characters/humanoid.gltf")).unwrap();
    let text = edit(&text, |v| {
        v["nodes"][9]["rotation"] = serde_json::json!([0.0, 0.0, 0.0, 0.5])
    });
    let e = parse_skeleton("bad.gltf", &text, None).unwrap_err();
    has(
        &e,
        "bad.gltf",
        "nodes[9].rotation (joint 'forearm_l')",
        "not normalised",
    );
}

#[test]
fn other_bad_skeletons_and_clips() {
    let text = std::fs::read_to_string(root().join("assets/characters/humanoid.gltf")).unwrap();
    let cases: Vec<(Edit, &str, &str)> = vec![
        (
            Box::new(|v| v["asset"]["version"] = "1.0".into()),
            "asset.version",
            "2.0",
        ),
        (
            Box::new(|v| v["nodes"][3]["scale"] = serde_json::json!([2.0, 2.0, 2.0])),
            "nodes[3].scale",
            "not supported",
        ),
        (
            Box::new(|v| v["nodes"][3]["translation"] = serde_json::json!([0.0, 2000.0, 0.0])),
            "nodes[3].translation",
            "outside",
        ),
        (
            Box::new(|v| v["nodes"][4]["translation"] = serde_json::json!([0.0, 0.5, 0.0])),
            "skins[0].inverseBindMatrices[4]",
            "not the inverse",
        ),
        (
            Box::new(|v| v["skins"][0]["joints"] = serde_json::json!([1, 0])),
            "skins[0].joints[0]",
            "before its parent",
        ),
        (
            Box::new(|v| {
                v["skins"][0]
                    .as_object_mut()
                    .unwrap()
                    .remove("name")
                    .map(|_| ())
                    .unwrap()
            }),
            "skins[0].name",
            "missing",
        ),
        (
            Box::new(|v| {
                v["buffers"][0]["uri"] = "data:application/octet-stream;base64,@@@".into()
            }),
            "buffers[0].uri",
            "bad base64",
        ),
    ];
    for (f, field, message) in cases {
        let bad = edit(&text, f);
        let e = parse_skeleton("bad.gltf", &bad, None).unwrap_err();
        has(&e, "bad.gltf", field, message);
    }
    let clip_cases: Vec<(Edit, &str, &str)> = vec![
        (
            Box::new(|v| {
                v["animations"][0]["channels"][3]["target"]["path"] = "translation".into()
            }),
            "animations[0].channels[3].target.path",
            "only the root joint may move",
        ),
        (
            Box::new(|v| v["animations"][0]["channels"][3]["target"]["path"] = "scale".into()),
            "animations[0].channels[3].target.path",
            "not supported",
        ),
        (
            Box::new(|v| v["animations"][0]["samplers"][2]["interpolation"] = "CUBICSPLINE".into()),
            "animations[0].samplers[2].interpolation",
            "LINEAR only",
        ),
        (
            Box::new(|v| v["animations"][0]["samplers"][2]["input"] = 2.into()),
            "accessors[2].type",
            "expected SCALAR for animations[0].samplers[2].input",
        ),
    ];
    for (f, field, message) in clip_cases {
        let e = clip_error(&edit(&walk_text(), f));
        has(&e, "bad_walk.gltf", field, message);
    }
}

const BRADS_HEAD: &str = "ragdoll humanoid.ragdoll\nskeleton ../characters/humanoid.gltf\n";

/// The error of a brad table whose lines after the header are `body`.
fn brad_error(body: &str) -> AssetError {
    let text = format!("{BRADS_HEAD}{body}\n");
    let bf = match parse_brads("bad.brads", &text) {
        Ok(bf) => bf,
        Err(e) => return e,
    };
    let rag = load_ragdoll(&root().join("assets/ragdolls/humanoid.ragdoll")).unwrap();
    resolve_brads(&bf, "humanoid", &rag, &skeleton()).expect_err("must be rejected")
}

#[test]
fn bad_brad_tables() {
    let ok = "brad forearm_l elbow_l elbow_l wrist_l +y shoulder_r shoulder_l +x";
    let cases = [
        (
            "brad forearm_x elbow_l elbow_l wrist_l +y shoulder_r shoulder_l +x",
            "field 'joint'",
            "missing joint 'forearm_x'",
        ),
        (
            "brad forearm_l elbow_q elbow_l wrist_l +y shoulder_r shoulder_l +x",
            "field 'particle'",
            "no particle 'elbow_q'",
        ),
        (
            "brad forearm_l elbow_l elbow_l wrist_l +w shoulder_r shoulder_l +x",
            "field 'axis_a'",
            "expected +x",
        ),
        (
            "brad forearm_l elbow_l elbow_l wrist_l +y shoulder_r shoulder_l -y",
            "field 'axis_b'",
            "different axes",
        ),
        (
            "brad forearm_l elbow_l elbow_l elbow_l +y shoulder_r shoulder_l +x",
            "field 'a_to'",
            "to itself",
        ),
        (
            "brad forearm_l elbow_l elbow_l wrist_l +y shoulder_r",
            "brad field",
            "expected 8 fields",
        ),
        // Wrong axis letter or sign: the frame misses the bind frame.
        (
            "brad forearm_l elbow_l elbow_l wrist_l +z shoulder_r shoulder_l +x",
            "field 'axis_a'",
            "off joint 'forearm_l''s bind frame",
        ),
        (
            "brad forearm_l elbow_l elbow_l wrist_l +y shoulder_r shoulder_l -x",
            "field 'axis_a'",
            "off joint",
        ),
        // The particle is not on the joint.
        (
            "brad forearm_l wrist_l elbow_l wrist_l +y shoulder_r shoulder_l +x",
            "field 'particle'",
            "from joint 'forearm_l'",
        ),
        // A goal parallel to A at rest.
        (
            "brad forearm_l elbow_l elbow_l wrist_l +y elbow_l wrist_l +x",
            "field 'b_to'",
            "parallel",
        ),
        ("frobnicate", "statement", "unknown statement"),
    ];
    for (line, field, message) in cases {
        let e = brad_error(line);
        has(&e, "bad.brads", field, message);
        assert_eq!(e.line, 3, "{e}");
    }
    let e = brad_error(&format!("{ok}\n{ok}"));
    has(
        &e,
        "bad.brads",
        "field 'joint'",
        "already has a brad (line 3)",
    );
    let e = parse_brads("bad.brads", "skeleton x.gltf\nbrad a b c d +x e f +y\n").unwrap_err();
    has(&e, "bad.brads", "ragdoll", "missing");
    // And the good line alone is fine.
    let text = format!("{BRADS_HEAD}{ok}\n");
    let bf = parse_brads("ok.brads", &text).unwrap();
    let rag = load_ragdoll(&root().join("assets/ragdolls/humanoid.ragdoll")).unwrap();
    assert_eq!(
        resolve_brads(&bf, "humanoid", &rag, &skeleton())
            .unwrap()
            .brads
            .len(),
        1
    );
}
