//! The contact hint's shortcut (issue 21): a particle that rested on a
//! face in its last step and still rests on it ([`rests_on`]) takes that
//! face's resting contact without a sweep. These tests check the claim
//! that makes it safe: whenever `rests_on` says yes, the sweep itself
//! would report a contact with the face, at rest, as the response
//! treats it; and that the margin it keeps from the edges is needed
//! (half of it admits sweeps that leave the face).

#[path = "collision_support.rs"]
mod support;

use dsphys::collision::resolve::NO_TRIANGLE;
use dsphys::collision::sweep::{rests_on, rests_on_kept, RestMemo, Sweep, RESTING_GAP};
use dsphys::collision::{
    collide_particle, collide_particle_hinted, sweep_sphere_triangle, Feature, Hit, Triangle, SKIN,
};
use dsphys::fx::{Fx1, Vec3};
use dsphys::xorshift::XorShift32;
use support::{fx, one_leaf_world, p};

/// A random triangle up to `size` metres across, anywhere in the world.
fn random_triangle(rng: &mut XorShift32) -> Option<Triangle> {
    let size = [4096, 1 << 14, 1 << 16][rng.below(3) as usize];
    let c = Vec3::from_raw(
        rng.signed(1 << 18),
        rng.signed(1 << 18),
        rng.signed(1 << 18),
    );
    let corner = |rng: &mut XorShift32| {
        c + Vec3::from_raw(rng.signed(size), rng.signed(size), rng.signed(size))
    };
    Triangle::new(corner(rng), corner(rng), corner(rng)).ok()
}

/// A sphere starting near `tri`'s plane (from a raw step inside `r` to a
/// few beyond two skins), over the face or just off it, with a motion
/// into the plane and along it, mostly a resting particle's few raw
/// steps, sometimes up to `MAX_STEP`.
fn random_sweep(rng: &mut XorShift32, tri: &Triangle) -> Sweep {
    let r = Fx1::from_raw([205, 328, 492, 4096][rng.below(4) as usize]);
    let n = tri.normal().raw().map(|c| c as i64);
    // A point on the plane: barycentric, some a little outside, half of
    // them within a few raw steps of an edge.
    let mut w: [i64; 3] = [0, 1, 2].map(|_| rng.below(1100) as i64 - 50);
    if rng.below(2) == 0 {
        w = [0, 1, 2].map(|_| rng.below(2000) as i64 + 4000);
        w[rng.below(3) as usize] = rng.below(16) as i64;
    }
    let sum = (w[0] + w[1] + w[2]).max(1);
    let v = tri.v.map(|v| v.raw());
    let x: [i64; 3] = [0, 1, 2].map(|k| (0..3).map(|i| v[i][k] as i64 * w[i]).sum::<i64>() / sum);
    // FX1 raw: the start's distance from the plane.
    let gap = r.raw() as i64 + rng.signed(12) as i64 + 2;
    let p0 = [0, 1, 2].map(|k| (x[k] + n[k] * gap / 4096) as i32);
    let scale = [4, 8, 16, 64, 1024, 8191][rng.below(6) as usize];
    let mut d = [0, 1, 2].map(|_| rng.signed(scale) as i64);
    // Into the plane by up to a dozen raw steps beyond its tangential part.
    let into = rng.below(16) as i64 + 1;
    let dn = (d[0] * n[0] + d[1] * n[1] + d[2] * n[2]) / 4096;
    for k in 0..3 {
        d[k] -= n[k] * (dn + into) / 4096;
    }
    let d = d.map(|c| c.clamp(-8191, 8191) as i32);
    let p0 = Vec3::from_raw(p0[0], p0[1], p0[2]);
    Sweep {
        p0,
        p1: p0 + Vec3::from_raw(d[0], d[1], d[2]),
        r,
    }
}

/// `rests_on` with the edge margin scaled by `num / den`.
fn rests_on_with_margin(tri: &Triangle, s: &Sweep, num: i32, den: i32) -> bool {
    let r3 = s.r.raw() as i64 * (1 << 24);
    let s0 = tri.signed_distance(s.p0).raw();
    if s0 < r3 || s0 > r3 + RESTING_GAP.raw() as i64 * (1 << 24) {
        return false;
    }
    let v = s.p1 - s.p0;
    let n = tri.n;
    let sv = v.x.raw() as i64 * n.x as i64
        + v.y.raw() as i64 * n.y as i64
        + v.z.raw() as i64 * n.z as i64;
    if s0 + sv >= r3 {
        return false;
    }
    let nr = [n.x, n.y, n.z].map(|c| ((c as i64 * s.r.raw() as i64 + (1 << 23)) >> 24) as i32);
    let q = s.p0 - Vec3::from_raw(nr[0], nr[1], nr[2]);
    let l1 = v.raw().iter().map(|c| c.abs()).sum::<i32>();
    tri.contains_with_margin(q, l1 * num / den)
}

/// The normal travel from the start to the contact's centre, FX2 raw,
/// measured as the response measures it (with the FX1 normal).
fn travel(hit: &Hit, p0: Vec3) -> i64 {
    let d = (hit.center - p0).raw();
    let n = hit.normal.raw();
    (0..3).map(|k| d[k] as i64 * n[k] as i64).sum()
}

/// Whenever `rests_on` holds, the sweep reports the face, not overlapping,
/// its contact within two skins (plus a few raw steps of rounding) of
/// normal travel from the start: the contact the response keeps the
/// sphere still for. And half the edge margin is not enough.
#[test]
fn rests_on_only_what_the_sweep_finds_resting() {
    let mut rng = XorShift32::new(0x2545_F491);
    let (mut resting, mut beyond_two_skins, mut worst) = (0, 0, 0i64);
    let mut half_margin_leaves = 0;

    // Half the margin: a sphere 26 raw steps inside an edge of the floor,
    // 8 above resting height, moving 40 out across the edge and 9 down,
    // touches the plane at t = 8/9, its touching point 9.6 raw steps
    // beyond the edge. The margin (the step's L1 length, 49) refuses it;
    // half of it (24) would not.
    let floor = Triangle::new(p(-1.0, 0.0, -1.0), p(-1.0, 0.0, 1.0), p(1.0, 0.0, 1.0)).unwrap();
    let r = fx(0.08);
    let p0 = Vec3::from_raw(-4096 + 26, r.raw() + 8, 2048);
    let s = Sweep {
        p0,
        p1: p0 + Vec3::from_raw(-40, -9, 0),
        r,
    };
    assert!(!rests_on(&floor, &s));
    assert!(rests_on_with_margin(&floor, &s, 1, 2));
    let hit = sweep_sphere_triangle(&floor, s.p0, s.p1, s.r);
    assert!(
        hit.is_none_or(|h| h.feature != Feature::Face),
        "the sweep stays on the face: {hit:?}"
    );

    for _ in 0..400_000 {
        let Some(tri) = random_triangle(&mut rng) else {
            continue;
        };
        let s = random_sweep(&mut rng, &tri);
        let rests = rests_on(&tri, &s);
        assert_eq!(rests, rests_on_with_margin(&tri, &s, 1, 1), "{tri:?} {s:?}");
        let hit = sweep_sphere_triangle(&tri, s.p0, s.p1, s.r);
        if rests {
            resting += 1;
            let hit = hit.unwrap_or_else(|| panic!("no contact: {tri:?} {s:?}"));
            assert_eq!(hit.feature, Feature::Face, "{tri:?} {s:?}");
            assert_eq!(hit.depth, Fx1::ZERO, "{tri:?} {s:?}");
            let before = travel(&hit, s.p0);
            worst = worst.min(before);
            let two_skins = 2 * SKIN.raw() as i64 * 4096;
            if before < -two_skins {
                beyond_two_skins += 1;
            }
            assert!(before >= -two_skins - 4 * 4096, "{before}: {tri:?} {s:?}");
        } else if rests_on_with_margin(&tri, &s, 1, 2)
            && hit.is_none_or(|h| h.feature != Feature::Face || h.depth != Fx1::ZERO)
        {
            half_margin_leaves += 1;
        }
    }
    println!(
        "{resting} resting sweeps; {beyond_two_skins} with their contact beyond two skins \
         (worst {:.2} raw steps); half the margin admits {half_margin_leaves} that leave the face",
        worst as f64 / 4096.0
    );
    assert!(
        resting > 20_000,
        "only {resting} resting sweeps: the cases miss"
    );
}

/// `rests_on_kept` answers as `rests_on` does while one memo is carried
/// from motion to motion of the same start (short and long ones, so that
/// the kept margin is both used and outgrown), from start to start, and
/// between two triangles at the same start (the memo is keyed by both).
#[test]
fn a_kept_start_answers_as_rests_on_does() {
    let mut rng = XorShift32::new(0x0bad_cafe);
    let mut memo = RestMemo::NONE;
    let (mut kept_yes, mut checked) = (0, 0);
    for _ in 0..60_000 {
        let (Some(a), Some(b)) = (random_triangle(&mut rng), random_triangle(&mut rng)) else {
            continue;
        };
        let s = random_sweep(&mut rng, &a);
        for _ in 0..8 {
            let m = random_sweep(&mut rng, &a);
            let (tri, ix) = if rng.below(8) == 0 { (&b, 1) } else { (&a, 0) };
            let step = Sweep {
                p1: s.p0 + (m.p1 - m.p0),
                ..s
            };
            let hit = memo.tri == ix && memo.at == step.p0;
            let kept = rests_on_kept(tri, ix, &step, &mut memo);
            assert_eq!(kept, rests_on(tri, &step), "{tri:?} {step:?} kept {memo:?}");
            checked += 1;
            kept_yes += (hit && kept) as u32;
        }
    }
    println!("{checked} checked, {kept_yes} answered yes from a kept start");
    assert!(kept_yes > 20_000, "only {kept_yes}: the cases miss");
}

/// A hint that names no resting face (none, one out of range, another
/// triangle) leaves the step as it is without one; on the floor the
/// hint names the face the particle rests on, and after a jump none.
#[test]
fn hints_are_checked_and_kept() {
    let floor = [
        Triangle::new(p(-2.0, 0.0, -2.0), p(-2.0, 0.0, 2.0), p(2.0, 0.0, 2.0)).unwrap(),
        Triangle::new(p(-2.0, 0.0, -2.0), p(2.0, 0.0, 2.0), p(2.0, 0.0, -2.0)).unwrap(),
        // A wall far off.
        Triangle::new(p(5.0, 0.0, -1.0), p(5.0, 2.0, 0.0), p(5.0, 0.0, 1.0)).unwrap(),
    ];
    let world = one_leaf_world(&floor);
    let r = fx(0.08);
    let mut rng = XorShift32::new(7);
    let mut rested = 0;
    for _ in 0..2000 {
        // A particle a skin or two above the floor, falling a step's
        // worth and sliding.
        let lift = r.raw() + 4 + rng.below(5) as i32;
        let start = Vec3::from_raw(rng.signed(6000), lift, rng.signed(6000));
        let v = Vec3::from_raw(
            rng.signed(200),
            -(rng.below(40) as i32) - 1,
            rng.signed(200),
        );
        let (mut prev0, mut cur0) = (start, start + v);
        let plain = collide_particle(&world, &mut prev0, &mut cur0, r, fx(0.5));
        for stale in [NO_TRIANGLE, 3, 999, 2] {
            let (mut prev, mut cur) = (start, start + v);
            let mut hint = stale;
            let hinted =
                collide_particle_hinted(&world, &mut hint, &mut prev, &mut cur, r, fx(0.5));
            assert_eq!((prev, cur, hinted), (prev0, cur0, plain), "hint {stale}");
            if hint != NO_TRIANGLE {
                assert!(hint < 2, "rests on {hint}");
                rested += 1;
            }
        }
        // The right hint: the same place, the same velocity.
        let mut hint = plain.map_or(NO_TRIANGLE, |c| c.tri as u16);
        let (mut prev, mut cur) = (start, start + v);
        collide_particle_hinted(&world, &mut hint, &mut prev, &mut cur, r, fx(0.5));
        assert_eq!((prev, cur), (prev0, cur0));
    }
    assert!(rested > 1000, "the floor never held a particle: {rested}");
    // A jump clears the hint.
    let mut hint = 0;
    let start = Vec3::from_raw(0, r.raw() + 4, 0);
    let (mut prev, mut cur) = (start, start + Vec3::from_raw(0, 400, 0));
    assert!(collide_particle_hinted(&world, &mut hint, &mut prev, &mut cur, r, fx(0.5)).is_none());
    assert_eq!(hint, NO_TRIANGLE);
}
