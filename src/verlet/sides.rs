//! Side constraints: a particle kept at least a distance in front of the
//! plane of three others (issue 21).
//!
//! # Why
//! Distance constraints cannot tell a shape from its mirror image. The
//! humanoid's torso is nearly flat (the chest 4.8 cm in front of the
//! plane of the shoulders and pelvis, the pelvis 3.6 cm behind that of
//! the hips and chest), and a stick resists a push across such a plane
//! only to second order (its length barely changes). So a hard landing
//! pushed the chest through; flipped, its sticks fought on and settled
//! 2.8-3.3 % short (`ragdoll_worlds.rs`, the tumbled arena drop), and in
//! the box room 6 of 16 throws came to rest mirrored
//! (`examples/verlet_rest_braces.rs`). A side constraint keeps the apex
//! at least `min` in front of the triangle: a cheap test (about 40
//! instructions) clears it while the shape holds, and a push moves it
//! back out otherwise.
//!
//! # Not in the shipped humanoid
//! Two sides (`side chest shoulder_l shoulder_r pelvis 0.045` and `side
//! pelvis hip_l hip_r chest 0.035`, a few millimetres short of the pose)
//! hold the lone humanoid's sticks within 1 % at rest in every world the
//! tests drop it in, the tumbled arena drop included (0.61-0.81 %), and
//! none of the box room's 16 throws rests mirrored. But the torso flexes
//! that far in most frames, in flight too, so the push runs in most
//! frames (about 850 model cycles a step), and the unfolded torso lands
//! and rests on more contacts: the bench's one-ragdoll drop went from
//! 24,822 to 30,021 model cycles a step (`make insn-count
//! PCPROFILE=ragdoll`), past the 400 us bar. Sides at 2 cm and 1 cm
//! (a guard only, rarely pushing) left a pile's ragdolls interpenetrating
//! more and the bench's drop at 573.5 us in DeSmuME (`make bench`). So the
//! humanoid ships without them; a game that wants its torsos never folded
//! adds the two lines (docs/performance.md, "A torso that keeps its
//! side").
//!
//! # The projection
//! Position-based, one-sided: with `n` the triangle's unit normal (its
//! front is where `(b - a) x (c - a)` points) and `h` the apex's height
//! over the plane, `C = h - min`. Holding `n` fixed, the gradient is `n`
//! for the apex and `-l_i n` for the triangle's corners, `l_i` the
//! barycentric coordinates of the apex's foot on the plane (they sum to
//! one, so the moves keep the momentum, and the push passes through the
//! foot, so they keep the angular momentum too). Each particle moves by
//! `w_i grad_i s` with `s = -C / sum w_j |grad_j|^2`, as a stick's
//! projection does. The foot is taken from the definition's pose: the
//! sticks keep the torso's shape, so it barely moves, and fixed, each
//! particle's share of the push is a constant (no division a frame). Its
//! rounding is given back with the passes' (the caller runs it between
//! the passes' momentum sums).
//!
//! # Ranges (every product fits its register)
//! Positions are the solver's Q20 copy, within `2^29.4` (see
//! `constraints.rs`), so a difference fits an `i32`. The test runs on
//! differences taken to Q12 (FX1 steps) and only while each is below
//! `2^14` (4 m; a torso stretched further is the sticks' work first):
//! - the normal `(b - a) x (c - a)`: products below `2^28`, components
//!   below `2^29` (`i32`, and `kernels::unit32::unit_q12`'s range);
//! - its dot with the apex's offset, below `3 * 2^43`, and `min` (at most
//!   [`MAX_SIDE_MIN`], `2^12`) times its L1 norm (below `2^30.6`): `i64`;
//! - the foot's coordinates (from the pose, once): offsets from the
//!   apex below `2^15`, their cross products below `2^31` (`i64`), dotted
//!   with the unit normal (`2^12`): below `2^45`, times `2^12` for the
//!   quotient; each kept within `[-2, 3]` (Q12);
//! - the gains: inverse masses up to `2^18` raw, so `W` below `2^48.3`
//!   (Q36) and `w l << 28` below `2^59.6`; a corner's gain `w l / W` is at
//!   most `sqrt(w / w_apex) / 2`, or `1 / |l|` with the apex pinned, so
//!   below `2^12` (`2^28` in Q16); the apex's at most one;
//! - a push: the depth below `2^23` (Q20) times a gain, below `2^51`;
//!   each position is saturated to `POSITION_LIMIT` as the sticks' exact
//!   path does.

use crate::divsqrt::div_auto;
use crate::fx::{Fx1, Vec3};
use kernels::brad::cross;
use kernels::unit32::unit_q12;

use super::def::SideDef;

/// The most side constraints a ragdoll holds.
pub const MAX_SIDES: usize = 4;

/// The largest `min` a side constraint takes (1 m; the asset compiler
/// refuses more).
pub const MAX_SIDE_MIN: Fx1 = Fx1::from_raw(4096);

/// Each difference the test takes must be below this (Q12: 4 m).
const REACH: i32 = 1 << 14;

/// The range a barycentric coordinate of the pose's foot may take, Q12:
/// a foot further outside its triangle makes a lever that moves a corner
/// far for a small push of the apex.
const FOOT_RANGE: (i32, i32) = (-2 << 12, 3 << 12);

/// A side constraint as compiled: its particles, its distance, and how
/// far a push moves each particle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Side {
    /// The apex, then the triangle's corners `a`, `b`, `c`.
    pub particles: [u8; 4],
    /// The least height of the apex over the triangle's plane (FX1 raw).
    pub min: i32,
    /// The barycentric coordinates (Q12, summing to 4096) of the apex's
    /// foot on the triangle in the definition's pose.
    foot: [i32; 3],
    /// Each particle's move along the normal per unit of depth (Q16):
    /// `w_0 / W` for the apex, `-w_i l_i / W` for the corners, with `W =
    /// w_0 + sum w_i l_i^2`; zero when all four are pinned.
    gain: [i32; 4],
}

impl Side {
    /// No constraint (never stored in a used slot).
    pub const EMPTY: Side = Side {
        particles: [0; 4],
        min: 0,
        foot: [0; 3],
        gain: [0; 4],
    };

    /// `def` for these inverse masses and the definition's `pose`, or
    /// `None` when it names a particle beyond them, its `min` is outside
    /// `[0, MAX_SIDE_MIN]`, or the pose does not keep it (the four beyond
    /// the test's reach, a triangle of no area, the apex's foot far
    /// outside it, or the apex short of `min`).
    pub fn new(def: &SideDef, inv_masses: &[Fx1], pose: &[Vec3]) -> Option<Side> {
        let particles = [def.apex, def.a, def.b, def.c];
        let n = inv_masses.len().min(pose.len());
        if particles.iter().any(|&i| i as usize >= n)
            || def.min < Fx1::ZERO
            || def.min > MAX_SIDE_MIN
        {
            return None;
        }
        let [p, a, b, c] = particles.map(|i| pose[i as usize].raw());
        let d = |x: [i32; 3], y: [i32; 3]| [0, 1, 2].map(|k| x[k].wrapping_sub(y[k]));
        let (e1, e2, r) = (d(b, a), d(c, a), d(p, a));
        if e1
            .iter()
            .chain(&e2)
            .chain(&r)
            .any(|&x| x.unsigned_abs() >= REACH as u32)
        {
            return None;
        }
        let unit = unit_q12(cross(e1, e2))?;
        // FX1 offset times a Q12 unit, rounded to FX1.
        if (dot64(unit, r) + (1 << 11)) >> 12 < def.min.raw() as i64 {
            return None;
        }
        // The foot's barycentric coordinates: the signed areas the apex
        // makes with each edge over the triangle's, along the normal (so
        // the apex stands in for its foot). Offsets below 2^15, their
        // cross products below 2^31, times the unit below 2^45.
        let (ta, tb, tc) = (d(a, p), d(b, p), d(c, p));
        let area = |u: [i32; 3], v: [i32; 3]| {
            let w = cross64(u, v);
            (0..3).map(|k| w[k] * unit[k] as i64).sum::<i64>()
        };
        let whole = area(d(tb, ta), d(tc, ta));
        if whole <= 0 {
            return None;
        }
        let la = div_auto(area(tb, tc) << 12, whole) as i32;
        let lb = div_auto(area(tc, ta) << 12, whole) as i32;
        let foot = [la, lb, 4096 - la - lb];
        if foot.iter().any(|&x| x < FOOT_RANGE.0 || x > FOOT_RANGE.1) {
            return None;
        }
        let mut s = Side {
            particles,
            min: def.min.raw(),
            foot,
            gain: [0; 4],
        };
        s.set_masses(inv_masses);
        Some(s)
    }

    /// Works out the gains again for new inverse masses (after one
    /// changed). `W` is Q36 (w Q12 times l^2 Q24), below 2^48.3.
    pub fn set_masses(&mut self, inv_masses: &[Fx1]) {
        let w = self.particles.map(|i| inv_masses[i as usize].raw() as i64);
        let l = self.foot.map(i64::from);
        let whole = (w[0] << 24) + (0..3).map(|k| w[k + 1] * l[k] * l[k]).sum::<i64>();
        self.gain = if whole > 0 {
            // Q12 times 2^40 over Q36, and Q24 times 2^28 over Q36: Q16.
            let corner = |k: usize| -div_auto((w[k + 1] * l[k]) << 28, whole) as i32;
            [
                div_auto(w[0] << 40, whole) as i32,
                corner(0),
                corner(1),
                corner(2),
            ]
        } else {
            [0; 4]
        };
    }
}

/// Pushes `s`'s apex back to `min` in front of its triangle when it came
/// closer (or went behind), the corners the other way; true when it
/// moved them. `q` is the solver's Q20 copy of the positions.
#[inline(always)]
pub fn keep_side<const N: usize>(s: &Side, q: &mut [[i32; 4]; N]) -> bool {
    let [p, a, b, c] = s.particles.map(|i| q[i as usize]);
    let q12 = |x: [i32; 4], y: [i32; 4]| [0, 1, 2].map(|k| (x[k] - y[k]) >> 8);
    let (e1, e2, r) = (q12(b, a), q12(c, a), q12(p, a));
    if e1.iter().chain(&e2).chain(&r).any(|&d| d.abs() >= REACH) {
        return false;
    }
    let n = cross(e1, e2);
    // h = n . r / |n| >= n . r / |n|_1: clear by the L1 norm, clear.
    let dot = dot64(n, r);
    let l1 = n.iter().map(|&k| k.unsigned_abs() as i64).sum::<i64>();
    if dot >= s.min as i64 * l1 {
        return false;
    }
    push_out(s, q, n)
}

/// [`keep_side`]'s projection, for an apex the L1 test could not clear:
/// the unit normal, the apex's height, and each particle moved along
/// the normal by its gain times the depth. Out of line: it runs only
/// while a torso is pressed flatter than its pose.
#[cold]
#[inline(never)]
fn push_out<const N: usize>(s: &Side, q: &mut [[i32; 4]; N], n: [i32; 3]) -> bool {
    let Some(unit) = unit_q12(n) else {
        return false;
    };
    let [p, a] = [s.particles[0], s.particles[1]].map(|i| q[i as usize]);
    // Height of the apex, Q20 (a Q20 offset below 2^22 times a Q12 unit).
    let h = (0..3)
        .map(|k| (p[k] - a[k]) as i64 * unit[k] as i64)
        .sum::<i64>()
        >> 12;
    // Below 2^23 (`min` up to 2^20 Q20, |h| below 2^22).
    let depth = ((s.min as i64) << 8) - h;
    if depth <= 0 || s.gain == [0; 4] {
        return false;
    }
    let lim = (super::POSITION_LIMIT.raw() as i64) << 8;
    for (&i, &g) in s.particles.iter().zip(&s.gain) {
        // Q20, the gain below 2^28: below 2^51, then along the normal.
        let m = (depth * g as i64) >> 16;
        for (k, &u) in unit.iter().enumerate() {
            let v = q[i as usize][k] as i64 + ((m * u as i64 + (1 << 11)) >> 12);
            q[i as usize][k] = v.clamp(-lim, lim) as i32;
        }
    }
    true
}

fn cross64(u: [i32; 3], v: [i32; 3]) -> [i64; 3] {
    let (u, v) = (u.map(i64::from), v.map(i64::from));
    [
        u[1] * v[2] - u[2] * v[1],
        u[2] * v[0] - u[0] * v[2],
        u[0] * v[1] - u[1] * v[0],
    ]
}

#[inline(always)]
fn dot64(u: [i32; 3], v: [i32; 3]) -> i64 {
    (0..3).map(|k| u[k] as i64 * v[k] as i64).sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::xorshift::XorShift32;

    const M: f64 = (1 << 20) as f64;

    fn q20(m: [f64; 3]) -> [i32; 4] {
        let c = |x: f64| (x * M).round() as i32;
        [c(m[0]), c(m[1]), c(m[2]), 0]
    }

    /// The apex's height over the triangle, metres, in `f64`.
    fn height(q: &[[i32; 4]; 4]) -> f64 {
        let at = |i: usize| [0, 1, 2].map(|k| q[i][k] as f64 / M);
        let sub = |u: [f64; 3], v: [f64; 3]| [0, 1, 2].map(|k| u[k] - v[k]);
        let (e1, e2, r) = (sub(at(2), at(1)), sub(at(3), at(1)), sub(at(0), at(1)));
        let n = [
            e1[1] * e2[2] - e1[2] * e2[1],
            e1[2] * e2[0] - e1[0] * e2[2],
            e1[0] * e2[1] - e1[1] * e2[0],
        ];
        let len = (n[0] * n[0] + n[1] * n[1] + n[2] * n[2]).sqrt();
        (n[0] * r[0] + n[1] * r[1] + n[2] * r[2]) / len
    }

    /// `sum m_i q_i` per axis, kg Q20.
    fn moment(q: &[[i32; 4]; 4], mass: &[f64; 4]) -> [f64; 3] {
        [0, 1, 2].map(|k| (0..4).map(|i| mass[i] * q[i][k] as f64).sum())
    }

    /// The humanoid's chest over its shoulders and a pelvis in their
    /// plane, the chest `h` metres in front (negative: folded through).
    fn torso(h: f64) -> [[i32; 4]; 4] {
        [
            q20([0.0, 1.42, h]),
            q20([0.19, 1.40, 0.0]),
            q20([-0.19, 1.40, 0.0]),
            q20([0.0, 0.98, 0.0]),
        ]
    }

    /// The humanoid's torso pose, chest first.
    const POSE: [[f64; 3]; 4] = [
        [0.0, 1.42, 0.05],
        [0.19, 1.40, 0.0],
        [-0.19, 1.40, 0.0],
        [0.0, 0.98, -0.03],
    ];

    fn chest_side(min: f64, inv: [f64; 4]) -> Side {
        let def = SideDef::new(0, 1, 2, 3, Fx1::from_raw((min * 4096.0) as i32));
        let fx = |x: f64| Fx1::from_raw((x * 4096.0).round() as i32);
        let pose = POSE.map(|p| Vec3::new(fx(p[0]), fx(p[1]), fx(p[2])));
        Side::new(&def, &inv.map(fx), &pose).unwrap()
    }

    #[test]
    fn the_pose_must_keep_its_side() {
        let fx = |x: f64| Fx1::from_raw((x * 4096.0).round() as i32);
        let pose = POSE.map(|p| Vec3::new(fx(p[0]), fx(p[1]), fx(p[2])));
        let side = |min: f64, pose: &[Vec3]| {
            Side::new(&SideDef::new(0, 1, 2, 3, fx(min)), &[Fx1::ONE; 4], pose)
        };
        // The chest stands 4.84 cm in front in the pose.
        assert!(side(0.048, &pose).is_some());
        assert!(side(0.049, &pose).is_none(), "short of min");
        let mut mirrored = pose;
        mirrored[0].z = -mirrored[0].z;
        assert!(side(0.0, &mirrored).is_none(), "behind");
        let flat = [pose[0], pose[1], pose[1], pose[3]];
        assert!(side(0.0, &flat).is_none(), "no area");
        let mut far = pose;
        far[3].y -= fx(5.0);
        assert!(side(0.0, &far).is_none(), "beyond 4 m");
        let mut aside = pose;
        aside[0].x += fx(1.5);
        assert!(side(0.0, &aside).is_none(), "its foot far outside");
        // The foot's coordinates sum to one, the pelvis's slightly
        // negative (the chest stands above the shoulders).
        let s = side(0.02, &pose).unwrap();
        assert_eq!(s.foot.iter().sum::<i32>(), 4096);
        assert!(s.foot[2] < 0 && s.foot[2] > -400, "{:?}", s.foot);
    }

    #[test]
    fn a_folded_chest_comes_back_in_front_keeping_the_momentum() {
        let masses = [16.0, 2.0, 2.0, 14.0];
        let s = chest_side(0.045, masses.map(|m| 1.0 / m));
        for h in [-0.05, 0.0, 0.03] {
            let mut q = torso(h);
            let before = moment(&q, &masses);
            assert!(keep_side(&s, &mut q), "h {h}");
            let after = height(&q);
            // The plane tilts as its corners move, which the projection
            // (the normal held fixed) does not see: near, not exact.
            assert!((after - 0.045).abs() < 0.002, "h {h}: {after}");
            let moved = moment(&q, &masses);
            // What moved, sum m |dq|: the gains are rounded to 16 bits
            // and each move to a micrometre, so the momentum is kept to
            // 0.1 % of it (the passes give that back with their own
            // rounding).
            let start = torso(h);
            let pushed: f64 = (0..4)
                .map(|i| {
                    (0..3)
                        .map(|k| masses[i] * (q[i][k] - start[i][k]).abs() as f64)
                        .sum::<f64>()
                })
                .sum();
            for k in 0..3 {
                let drift = (moved[k] - before[k]).abs();
                assert!(drift < 1e-3 * pushed, "h {h}: {drift} of {pushed}");
            }
        }
    }

    #[test]
    fn the_l1_test_clears_exactly_the_apexes_far_enough_in_front() {
        // The torso's pose, each particle moved up to 4 cm at random and
        // the whole anywhere within 50 m, the chest up to 10 cm either
        // side: the constraint moves nothing when the chest stands at
        // least `min` in front (the cheap test, or the projection's own
        // check), and pushes it outwards whenever it stands short.
        let mut rng = XorShift32::new(0x51de_5eed);
        let mut r = |m: f64| (rng.next_u32() as f64 / u32::MAX as f64 * 2.0 - 1.0) * m;
        let s = chest_side(0.03, [0.0625, 0.5, 0.5, 0.07]);
        let (mut pushed, mut left) = (0, 0);
        for _ in 0..20_000 {
            let c = [r(50.0), r(50.0), r(50.0)];
            let mut q = POSE.map(|p| q20([0, 1, 2].map(|k| c[k] + p[k] + r(0.04))));
            q[0][2] += (r(0.1) * M) as i32;
            let h = height(&q);
            let moved = keep_side(&s, &mut q);
            // Within half a millimetre of `min` either answer is right:
            // the test sees FX1 steps (0.24 mm), the height a Q12 normal.
            if h >= 0.03 + 5e-4 {
                assert!(!moved, "moved at {h}");
                left += 1;
            } else if h < 0.03 - 5e-4 {
                assert!(moved, "left short at {h}");
                // Outwards, and to `min` but for the plane's tilt, which
                // the projection (its normal held) does not see, and the
                // foot moved from the pose's by the torso's deformation
                // (4 cm here): within a fifth of the push.
                let after = height(&q);
                let near = 0.2 * (0.03 - h) + 1e-3;
                assert!(
                    after > h && (after - 0.03).abs() < near,
                    "pushed from {h} to {after}"
                );
                pushed += 1;
            }
        }
        assert!(pushed > 5000 && left > 5000, "{pushed} pushed, {left} left");
    }

    #[test]
    fn a_flat_or_torn_triangle_and_a_pinned_side_move_nothing() {
        let masses = [16.0, 2.0, 2.0, 14.0];
        let s = chest_side(0.045, masses.map(|m| 1.0 / m));
        // Corners in a line: no plane.
        let mut q = [
            q20([0.0, 1.0, -0.1]),
            q20([0.1, 1.0, 0.0]),
            q20([0.2, 1.0, 0.0]),
            q20([0.3, 1.0, 0.0]),
        ];
        assert!(!keep_side(&s, &mut q));
        // Stretched beyond 4 m: the sticks' work first.
        let mut q = torso(-0.05);
        q[3][1] -= 5 << 20;
        assert!(!keep_side(&s, &mut q));
        // All four pinned.
        let pinned = chest_side(0.045, [0.0; 4]);
        let mut q = torso(-0.05);
        assert!(!keep_side(&pinned, &mut q));
        assert_eq!(q, torso(-0.05));
    }
}
