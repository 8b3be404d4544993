//! Ragdoll-vs-ragdoll contacts on their own: two humanoids in free space
//! (no gravity, no damping, no world), thrown at each other or started
//! inside each other, stepped with [`step_crowd_with`].
//!
//! Bounds:
//! - Overlap: after every frame no sphere of one ragdoll overlaps one of
//!   the other by more than [`MAX_OVERLAP`], two FX1 steps. The push
//!   separates every pair it finds; what it leaves is its own rounding
//!   (the depth and the two moves, each to 1/4096 m) and a sphere that a
//!   later pair pushed back into an earlier one.
//! - Momentum: nothing outside acts, so the crowd's momentum must stay
//!   what it was. Each frame's relaxation gives back its own rounding
//!   drift (`Ragdoll::relax`), but only in whole FX1 steps of the
//!   ragdoll's mass, so one frame's momentum jitters by up to
//!   `72 kg * 1/4096 m * 60/s = 1.05 kg m/s` per ragdoll. The tests
//!   therefore compare the mean momentum over the last second (the
//!   centre of mass's travel times the mass) with the start.
//!   [`MAX_MOMENTUM_ERROR`] is a measured bound (see there).

extern crate std;
use std::{format, println};

use super::*;
use crate::verlet::humanoid::HUMANOID;
use crate::verlet::Untimed;

/// Deepest overlap allowed after a frame, m: two FX1 steps.
const MAX_OVERLAP: f64 = 2.0 / 4096.0;

/// Largest change of the crowd's momentum allowed, kg m/s. A measured
/// bound: 3.4 kg m/s after the 3 m/s throw (2.4 % of its 144 kg m/s),
/// 3.2 after the head-on one, 0.85 after the push apart. Rounding alone
/// allows more in the worst case (each push is off by up to 1.5 FX1
/// steps times the two particles' masses, 0.7 kg m/s for two 16 kg
/// chests, and a throw makes about 60 pushes), but not a push shared by
/// the wrong weights, which is off by the depth times the mass
/// difference at every push. Most of the 3.4 is a bias, not noise:
/// `separate_spheres` truncates sphere 1's share, so sphere 2 gets the
/// remainder at every push and all the pushes of a collision move the
/// momentum the same way; with the share rounded to nearest, ties to
/// even, the three runs measure 0.27, 1.09 and 0.56 kg m/s.
const MAX_MOMENTUM_ERROR: f64 = 5.0;

fn v(x: f64, y: f64, z: f64) -> Vec3 {
    Vec3::new(f(x), f(y), f(z))
}

fn f(x: f64) -> Fx1 {
    Fx1::from_raw((x * 4096.0).round() as i32)
}

/// `sum m x` over the crowd (kg m).
fn moment(crowd: &[Option<Ragdoll>]) -> [f64; 3] {
    let mut s = [0.0; 3];
    for r in crowd.iter().flatten() {
        for (x, m) in r.positions().iter().zip(r.particles.masses()) {
            for (k, c) in x.to_array().into_iter().enumerate() {
                s[k] += m.to_f64() * c.to_f64();
            }
        }
    }
    s
}

/// Distance between the two ragdolls' centres of mass (m).
fn apart(crowd: &[Option<Ragdoll>]) -> f64 {
    let c = |i: usize| crowd[i].as_ref().unwrap().centre_of_mass().to_array();
    let (a, b) = (c(0), c(1));
    (0..3)
        .map(|k| (a[k] - b[k]).to_f64().powi(2))
        .sum::<f64>()
        .sqrt()
}

/// The deepest overlap between a sphere of ragdoll 0 and one of ragdoll
/// 1 (m; negative: the smallest gap).
fn max_overlap(crowd: &[Option<Ragdoll>]) -> f64 {
    let (a, b) = (crowd[0].as_ref().unwrap(), crowd[1].as_ref().unwrap());
    let mut worst = f64::MIN;
    for (pa, ra) in a.positions().iter().zip(a.particles.radii()) {
        for (pb, rb) in b.positions().iter().zip(b.particles.radii()) {
            let d = (*pa - *pb).to_array().map(|c| c.to_f64());
            let dist = (d[0] * d[0] + d[1] * d[1] + d[2] * d[2]).sqrt();
            worst = worst.max(ra.to_f64() + rb.to_f64() - dist);
        }
    }
    worst
}

/// Two humanoids facing each other along z, `gap` apart (centre to
/// centre), ragdoll 0 moving at `va` m/s along z and ragdoll 1 at `vb`.
fn pair(gap: f64, va: f64, vb: f64) -> [Option<Ragdoll>; 2] {
    let mut a = Ragdoll::new(&HUMANOID, v(0.0, 1.0, -gap / 2.0));
    let mut b = Ragdoll::new(&HUMANOID, v(0.02, 1.0, gap / 2.0));
    a.set_velocity_all(v(0.0, 0.0, va));
    b.set_velocity_all(v(0.0, 0.0, vb));
    [Some(a), Some(b)]
}

/// What a run did.
struct Run {
    /// Particle pairs pushed, in all and in the last second.
    pairs: usize,
    pairs_last_second: usize,
    /// The deepest overlap after any frame (m).
    overlap: f64,
    /// Centre distance: closest, and over the last second (m).
    closest: f64,
    last_second: (f64, f64),
    /// Momentum at the start (the velocities set) and its mean over the
    /// last second (kg m/s).
    p0: [f64; 3],
    p_end: [f64; 3],
}

impl Run {
    fn momentum_error(&self) -> f64 {
        (0..3)
            .map(|k| (self.p_end[k] - self.p0[k]).powi(2))
            .sum::<f64>()
            .sqrt()
    }
}

/// `frames` frames in free space; the last 60 are "the last second".
fn run(crowd: &mut [Option<Ragdoll>; 2], p0: [f64; 3], frames: u32) -> Run {
    let s = Settings::FREE_SPACE;
    let mut out = Run {
        pairs: 0,
        pairs_last_second: 0,
        overlap: f64::MIN,
        closest: apart(crowd),
        last_second: (0.0, 0.0),
        p0,
        p_end: [0.0; 3],
    };
    let mut x_start = [0.0; 3];
    for frame in 0..frames {
        if frame == frames - 60 {
            x_start = moment(crowd);
            out.last_second.0 = apart(crowd);
        }
        let n = step_crowd_with(crowd, &s, |_, _, _, _| {}, &mut Untimed);
        out.pairs += n;
        if frame >= frames - 60 {
            out.pairs_last_second += n;
        }
        out.overlap = out.overlap.max(max_overlap(crowd));
        out.closest = out.closest.min(apart(crowd));
    }
    out.last_second.1 = apart(crowd);
    let x_end = moment(crowd);
    // Over one second: (sum m x)(end) - (sum m x)(start) = P * 1 s.
    out.p_end = [0, 1, 2].map(|k| x_end[k] - x_start[k]);
    out
}

fn check(what: &str, r: &Run) {
    println!(
        "{what}: {} pairs pushed ({} in the last second); deepest overlap after a frame {:.3} mm; \
         centres {:.3} m apart at the closest, {:.3} -> {:.3} m over the last second; \
         momentum {:.2?} -> {:.2?} kg m/s (off by {:.3})",
        r.pairs,
        r.pairs_last_second,
        r.overlap * 1000.0,
        r.closest,
        r.last_second.0,
        r.last_second.1,
        r.p0,
        r.p_end,
        r.momentum_error()
    );
    assert!(r.pairs > 0, "{what}: they never touched");
    assert!(
        r.overlap <= MAX_OVERLAP,
        "{what}: spheres overlap by {:.3} mm after a frame",
        r.overlap * 1000.0
    );
    // Apart by the end: no contact in the last second, and the centres
    // moving away from each other.
    assert_eq!(r.pairs_last_second, 0, "{what}: still touching");
    assert!(
        r.last_second.1 > r.last_second.0,
        "{what}: not separating ({} -> {} m)",
        r.last_second.0,
        r.last_second.1
    );
    assert!(
        r.momentum_error() <= MAX_MOMENTUM_ERROR,
        "{what}: momentum {:?} -> {:?} kg m/s",
        r.p0,
        r.p_end
    );
}

/// The crowd's momentum from its Verlet displacements (kg m/s): exact
/// right after `set_velocity_all`, which clears the rounding remainders.
fn momentum_at_start(crowd: &[Option<Ragdoll>]) -> [f64; 3] {
    let mut p = [0.0; 3];
    for r in crowd.iter().flatten() {
        let ps = &r.particles;
        for ((x, xp), m) in ps
            .positions()
            .iter()
            .zip(ps.prev_positions())
            .zip(ps.masses())
        {
            for (k, d) in (*x - *xp).to_array().into_iter().enumerate() {
                p[k] += m.to_f64() * d.to_f64() * 60.0;
            }
        }
    }
    p
}

#[test]
fn thrown_together_they_push_apart_and_keep_their_momentum() {
    // Head on, and one faster (so the pair keeps moving after).
    for (va, vb) in [(1.5, -1.5), (3.0, -1.0)] {
        let mut crowd = pair(0.6, va, vb);
        let p0 = momentum_at_start(&crowd);
        let r = run(&mut crowd, p0, 180);
        check(&format!("thrown at {va} and {vb} m/s"), &r);
        // They met: the chests (radius 0.12 m) came within reach.
        assert!(r.closest < 0.25, "{}", r.closest);
    }
}

#[test]
fn started_inside_each_other_they_separate() {
    // Centres 0.15 m apart: chests and pelvises deep inside each other.
    let mut crowd = pair(0.15, 0.0, 0.0);
    assert!(max_overlap(&crowd) > 0.05);
    let r = run(&mut crowd, [0.0; 3], 120);
    check("started 0.15 m apart", &r);
}

/// A touching group sleeps together or not at all: in a chain 0-1-2 with
/// 2 restless, 0 and 1 stay awake though ready; 3, ready and touching
/// only 4 (ready), sleeps with it; 5 touches nothing.
#[test]
fn a_group_sleeps_only_when_all_of_it_is_ready() {
    let mut leans = [0u64; MAX_CROWD];
    let mut touch = |i: usize, j: usize| {
        leans[i] |= 1 << j;
        leans[j] |= 1 << i;
    };
    touch(0, 1);
    touch(1, 2);
    touch(3, 4);
    let ready = 0b111011;
    let restless = 0b000100;
    let kept_awake = |restless| super::spread(restless, ready, &leans) & ready;
    assert_eq!(kept_awake(restless), 0b000011);
    assert_eq!(kept_awake(0), 0);
}

/// Two ragdolls pulled together in space (gravity towards a point
/// between them, no world) come to rest pressed against each other, and
/// never sleep: touching only each other, they rest on nothing.
#[test]
fn a_pair_touching_only_each_other_never_sleeps() {
    use crate::fx::{Fx1, Vec3};
    use crate::verlet::Gravity;
    let mut crowd: [Option<Ragdoll>; 2] = [None, None];
    for (k, slot) in crowd.iter_mut().enumerate() {
        let x = Fx1::from_raw(1200) * (2 * k as i32 - 1);
        *slot = Some(Ragdoll::new(&HUMANOID, Vec3::new(x, Fx1::ZERO, Fx1::ZERO)));
    }
    let settings = Settings {
        gravity: Gravity::TowardsPoint(Vec3::new(Fx1::ZERO, crate::fx!(0.9), Fx1::ZERO)),
        damping: crate::fx!(0.9),
        ..Settings::DEFAULT
    };
    let (mut touched, mut slept) = (0, false);
    for _ in 0..900 {
        touched += step_crowd_with(&mut crowd, &settings, |_, _, _, _| {}, &mut Untimed);
        slept |= crowd.iter().flatten().any(|r| r.is_asleep());
    }
    assert!(touched > 0, "the pair never touched");
    assert!(!slept, "a pair touching only itself fell asleep");
}

/// A sleeper woken by another ragdoll's push counts as still, and wakes
/// no sleepers of its own, until it moves itself; one woken from outside
/// (a push, a pin) wakes those it pushes at once; and waking an awake
/// ragdoll changes nothing.
#[test]
fn a_sleeper_pushed_awake_counts_as_still_until_it_moves() {
    let mut r: Ragdoll = Ragdoll::new(&HUMANOID, crate::fx::Vec3::ZERO);
    r.fall_asleep();
    assert!(r.is_asleep() && r.is_still() && !r.is_shoving());
    r.wake_touched();
    assert!(!r.is_asleep() && r.is_still() && !r.is_shoving());
    r.fall_asleep();
    r.wake();
    assert!(!r.is_asleep() && !r.is_still() && r.is_shoving());
    r.wake_touched();
    assert!(
        !r.is_still() && r.is_shoving(),
        "waking an awake ragdoll changed it"
    );
}
