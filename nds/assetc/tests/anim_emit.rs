//! The default character's glTF files and brad table parse and validate,
//! and the engine's checked-in `src/anim/humanoid.rs` and
//! `src/anim/humanoid_brads.rs` are exactly what assetc makes of them
//! (rerun with `ASSETC_BLESS=1` to regenerate after editing the assets;
//! `cargo run -p assetc --example gen_character` regenerates the assets).

use std::path::{Path, PathBuf};

use assetc::brads::{emit_brads_rs_in, load_brads};
use assetc::gltf::{load_clips, load_skeleton, ClipSrc, SkeletonSrc};
use assetc::gltf_emit::emit_character_rs_in;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn character() -> (SkeletonSrc, Vec<ClipSrc>) {
    let dir = root().join("assets/characters");
    let skel = load_skeleton(&dir.join("humanoid.gltf")).unwrap_or_else(|e| panic!("{e}"));
    let mut clips = Vec::new();
    for gait in ["idle", "walk", "run"] {
        let path = dir.join(format!("humanoid_{gait}.gltf"));
        clips.extend(load_clips(&path, &skel).unwrap_or_else(|e| panic!("{e}")));
    }
    (skel, clips)
}

/// Compares `src` with the checked-in file, or writes it under ASSETC_BLESS.
fn golden(rel: &str, src: &str) {
    let path: PathBuf = root().join(rel);
    if std::env::var_os("ASSETC_BLESS").is_some() {
        std::fs::write(&path, src).unwrap();
    }
    let checked_in = std::fs::read_to_string(Path::new(&path)).unwrap_or_default();
    assert!(
        checked_in == src,
        "{rel} is stale: rerun this test with ASSETC_BLESS=1"
    );
}

#[test]
fn character_parses_and_validates() {
    let (skel, clips) = character();
    assert_eq!(skel.name, "humanoid");
    assert_eq!(skel.joints.len(), 25);
    for (i, j) in skel.joints.iter().enumerate() {
        assert!(j.parent.map_or(i == 0, |p| p < i), "{}", j.name);
    }
    let names: Vec<&str> = clips.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names, ["idle", "walk", "run"]);
    for c in &clips {
        assert!(c.looping && c.times.len() >= 2 && c.times[0] == 0.0);
        assert!(!c.tracks.is_empty());
    }
    // The walk travels about 1.4 m per second, the run 3.5.
    let speed = |c: &ClipSrc| {
        let n = c.times.len() - 1;
        (c.root_trans[n][2] - c.root_trans[0][2]) / c.times[n]
    };
    assert!((speed(&clips[1]) - 1.4).abs() < 1e-3);
    assert!((speed(&clips[2]) - 3.5).abs() < 1e-3);
}

#[test]
fn brad_table_parses_and_validates() {
    let t = load_brads(&root().join("assets/ragdolls/humanoid.brads"))
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(t.brads.len(), 15);
    // One brad per particle, in joint order.
    let mut particles: Vec<u8> = t.brads.iter().map(|b| b.particle).collect();
    particles.sort();
    assert_eq!(particles, (0..15).collect::<Vec<u8>>());
    assert!(t.brads.windows(2).all(|w| w[0].joint < w[1].joint));
}

#[test]
fn checked_in_tables_match_the_assets() {
    let (skel, clips) = character();
    let src = emit_character_rs_in(
        "humanoid",
        "assets/characters/humanoid{,_idle,_walk,_run}.gltf",
        &skel,
        &clips,
        "crate",
    );
    golden("src/anim/humanoid.rs", &src);
    let t = load_brads(&root().join("assets/ragdolls/humanoid.brads")).unwrap();
    let src = emit_brads_rs_in("humanoid", "assets/ragdolls/humanoid.brads", &t, "crate");
    golden("src/anim/humanoid_brads.rs", &src);
    // And the engine's statics are the same data.
    let h = &dsphys::anim::humanoid::HUMANOID;
    assert_eq!(h.len(), skel.joints.len());
    let brads = &dsphys::anim::humanoid_brads::HUMANOID;
    assert_eq!(brads.brads, t.brads.as_slice());
    assert_eq!(
        dsphys::anim::humanoid::HUMANOID_WALK.tracks.len(),
        clips[1].tracks.len()
    );
}
