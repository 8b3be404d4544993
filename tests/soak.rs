//! The soak (issue 8) on the host: a shorter run than the bench's
//! 100,000 frames, with the same checks, and its determinism.

use dsphys::soak::{soak, SOAK_RAGDOLLS};
use dsphys::verlet::{Ragdoll, Settings};

fn run(frames: u32, seed: u32) -> dsphys::soak::SoakReport {
    let mut crowd: Box<[Option<Ragdoll>; SOAK_RAGDOLLS]> =
        Box::new([const { None }; SOAK_RAGDOLLS]);
    soak(&mut crowd, frames, seed)
}

#[test]
fn a_soak_keeps_every_invariant() {
    let r = run(20_000, 1);
    println!(
        "soak: {} frames, {} impulses, max speed {:.3} m/s, {} escaped, energy at impulse-off {} mJ, tail max {} mJ (growth {:.3})",
        r.frames,
        r.impulses,
        r.max_speed.to_f64(),
        r.escaped_particles,
        r.energy_at_off_mj,
        r.energy_tail_max_mj,
        r.energy_growth_permille() as f64 / 1000.0
    );
    assert_eq!(r.check(&Settings::DEFAULT), Ok(()));
    // The stylus really pushed: over a thousand taps, some past the cap.
    assert!(r.impulses > 1000, "{} impulses", r.impulses);
    assert!(
        r.max_speed.to_f64() > 15.0,
        "the kicks never got near the cap: {}",
        r.max_speed.to_f64()
    );
    assert!(r.energy_at_off_mj > 0);
}

#[test]
fn the_checks_can_fail() {
    let good = run(600, 3);
    assert_eq!(good.check(&Settings::DEFAULT), Ok(()));
    let escaped = dsphys::soak::SoakReport {
        escaped_particles: 1,
        ..good
    };
    assert!(escaped.check(&Settings::DEFAULT).is_err());
    let grew = dsphys::soak::SoakReport {
        energy_tail_max_mj: good.energy_at_off_mj + good.energy_at_off_mj / 100 + 1,
        ..good
    };
    assert!(grew.check(&Settings::DEFAULT).is_err());
    let fast = dsphys::soak::SoakReport {
        max_speed: Settings::DEFAULT.max_speed + dsphys::fx::Fx1::from_raw(61),
        ..good
    };
    assert!(fast.check(&Settings::DEFAULT).is_err());
}

#[test]
fn a_soak_is_deterministic_and_depends_on_its_seed() {
    assert_eq!(run(2000, 5), run(2000, 5));
    assert_ne!(run(2000, 5).hash, run(2000, 6).hash);
}
