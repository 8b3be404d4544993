//! The real humanoid parses and validates, and the engine's checked-in
//! `src/verlet/humanoid.rs` is exactly what `emit_ragdoll_rs_in` makes of
//! it (rerun with `ASSETC_BLESS=1` to regenerate after editing the asset).

use std::path::PathBuf;

use assetc::ragdoll_def::{emit_ragdoll_rs, emit_ragdoll_rs_in, load_ragdoll};
use dsphys::verlet::{ConstraintKind, Ragdoll, Settings};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

#[test]
fn humanoid_parses_and_validates() {
    let def = load_ragdoll(&root().join("assets/ragdolls/humanoid.ragdoll")).unwrap();
    assert_eq!(def.particles.len(), 15);
    let n = def.constraints.len();
    assert!((28..=34).contains(&n), "{n} constraints");
    let sticks = def
        .constraints
        .iter()
        .filter(|c| c.def.kind == ConstraintKind::Stick)
        .count();
    assert_eq!(sticks, 22);
    for name in [
        "head", "chest", "pelvis", "elbow_l", "wrist_r", "knee_l", "ankle_r",
    ] {
        assert!(def.index_of(name).is_some(), "{name}");
    }
    // The host-side loader builds a working engine ragdoll.
    def.with_engine_def("humanoid", |d| {
        let mut r: Ragdoll = Ragdoll::new(d, dsphys::fx::Vec3::ZERO);
        for _ in 0..60 {
            r.step(&Settings::DEFAULT);
        }
        assert!(r.centre_of_mass().y.to_f64() < 1.0);
    });
}

#[test]
fn checked_in_humanoid_matches_the_asset() {
    let def = load_ragdoll(&root().join("assets/ragdolls/humanoid.ragdoll")).unwrap();
    let src = emit_ragdoll_rs_in("humanoid", &def, "crate");
    let path = root().join("src/verlet/humanoid.rs");
    if std::env::var_os("ASSETC_BLESS").is_some() {
        std::fs::write(&path, &src).unwrap();
    }
    let checked_in = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        checked_in == src,
        "src/verlet/humanoid.rs is stale: rerun this test with ASSETC_BLESS=1"
    );
    // And the engine's static is the same data.
    let h = &dsphys::verlet::humanoid::HUMANOID;
    assert_eq!(h.particles, def.engine_particles().as_slice());
    assert_eq!(h.constraints, def.engine_constraints().as_slice());
    assert_eq!(h.sides, def.engine_sides().as_slice());
}

#[test]
fn emitted_source_names_the_static_and_crate() {
    let def = load_ragdoll(&root().join("assets/ragdolls/humanoid.ragdoll")).unwrap();
    let src = emit_ragdoll_rs("humanoid", &def);
    assert!(src.contains("pub static HUMANOID: RagdollDef<'static> = RagdollDef {"));
    assert!(src.contains("use dsphys::verlet::{ConstraintDef, ParticleDef, RagdollDef};"));
    assert!(src.contains("ConstraintDef::stick(0, 1, Fx1::from_raw("));
}
