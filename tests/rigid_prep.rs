//! The fast row preparation (`dsphys::rigid::prep`) gives exactly what
//! `Prepared::set` gives, and takes the box scenes' rows: contact and
//! joint-like rows between cubes, boxes, static and sleeping bodies, with
//! warm starts and relaxation, and at the edges of its 32-bit bounds.

use dsphys::fx;
use dsphys::fx::{Fx1, Fx2, Quat, Vec3};
use dsphys::rigid::body::{Body, STATIC};
use dsphys::rigid::kernel::Prepared;
use dsphys::rigid::prep::sides;
use dsphys::rigid::row::{Row, NO_NORMAL, UNBOUNDED};
use dsphys::xorshift::XorShift32;

fn signed(rng: &mut XorShift32, bound: u32) -> i32 {
    (rng.below(2 * bound + 1)) as i32 - bound as i32
}

fn unit(rng: &mut XorShift32) -> Vec3 {
    // A random direction, normalised in FX1 (a contact normal).
    loop {
        let v = Vec3::new(signed(rng, 4096), signed(rng, 4096), signed(rng, 4096));
        let v = v.map(Fx1::from_raw);
        if v.length() > fx!(0.1) {
            return v.normalise();
        }
    }
}

/// Cubes of several masses and sizes, a box with unequal moments, a
/// static wall, a sleeper and a very light cube (inverse mass beyond the
/// fast path's bound).
fn bodies(rng: &mut XorShift32) -> Vec<Body> {
    let q = |rng: &mut XorShift32| {
        let mut c = || Fx1::from_raw(signed(rng, 4096));
        Quat::from_fx1(c(), Vec3::new(c(), c(), c()))
    };
    let mut out = Vec::new();
    for k in 0..6 {
        let h = Fx1::from_raw(200 + rng.below(2000) as i32);
        let mass = Fx1::from_raw(300 + rng.below(40_000) as i32);
        let mut b = Body::new_box(Vec3::new(h, h, h), mass, Vec3::ZERO, q(rng));
        b.pos = Vec3::new(k, 1, 0).map(|c| Fx2::from_raw(c as i64 * 5_000_000));
        out.push(b);
    }
    let boxy = Vec3::new(fx!(0.1), fx!(0.3), fx!(0.2));
    out.push(Body::new_box(boxy, fx!(2.0), Vec3::ZERO, q(rng)));
    out.push(Body::new_box(boxy, Fx1::ZERO, Vec3::ZERO, Quat::IDENTITY));
    let mut asleep = Body::new_box(
        Vec3::new(fx!(0.2), fx!(0.2), fx!(0.2)),
        fx!(1.0),
        Vec3::ZERO,
        q(rng),
    );
    asleep.rest = u8::MAX;
    out.push(asleep);
    let tiny = Vec3::new(fx!(0.05), fx!(0.05), fx!(0.05));
    out.push(Body::new_box(tiny, Fx1::from_raw(205), Vec3::ZERO, q(rng)));
    out
}

/// A row between two of `n` bodies (or the world): a contact normal, a
/// friction row, or an angular row; levers up to `lever` (FX1 raw).
fn row(rng: &mut XorShift32, n: usize, lever: u32) -> Row {
    let pick = |rng: &mut XorShift32| {
        let k = rng.below(n as u32 + 1) as usize;
        if k == n {
            STATIC
        } else {
            k as u8
        }
    };
    let (a, b) = (pick(rng), pick(rng));
    let r = |rng: &mut XorShift32| {
        Vec3::new(signed(rng, lever), signed(rng, lever), signed(rng, lever)).map(Fx1::from_raw)
    };
    let kind = rng.below(3);
    let lin = if kind == 2 { Vec3::ZERO } else { unit(rng) };
    let cross = |r: Vec3, d: Vec3| {
        let c = r.cross(d);
        Vec3::new(c.x.lower(), c.y.lower(), c.z.lower())
    };
    let ang_dir = if kind == 2 { unit(rng) } else { lin };
    let mut row = Row::new(
        a,
        b,
        lin,
        -cross(r(rng), ang_dir),
        cross(r(rng), ang_dir),
        Fx2::from_raw(signed(rng, 1 << 24) as i64 * 8),
    );
    if kind == 0 {
        row.lo = Fx2::ZERO;
        row.hi = UNBOUNDED;
    } else if kind == 1 {
        row.friction_of = rng.below(40) as u16;
        row.mu = Fx1::from_raw(rng.below(8 << 12) as i32);
    }
    if row.friction_of == NO_NORMAL && rng.below(4) == 0 {
        row.hi = Fx2::from_raw(rng.below(1 << 26) as i64);
    }
    row
}

#[test]
fn fast_preparation_equals_the_general_one() {
    let mut rng = XorShift32::new(0x5eed_0020);
    let mut fast = 0;
    let mut total = 0;
    for _ in 0..200 {
        let bodies = bodies(&mut rng);
        let table = sides(&bodies);
        for _ in 0..100 {
            // Box-sized levers mostly, some up to 8 m (the kernel's
            // range for `J`), beyond the fast path's 32-bit bound for
            // most of these bodies.
            let lever = if rng.below(8) == 0 { 1 << 15 } else { 1 << 13 };
            let r = row(&mut rng, bodies.len(), lever);
            let lambda = signed(&mut rng, 1 << 24);
            let omega = if rng.below(2) == 0 {
                Fx1::ONE
            } else {
                fx!(1.15)
            };
            let mut general = Prepared::ZERO;
            general.set(&r, &bodies, lambda, omega);
            // The solver's own call, with this step's inertia bounds
            // from the table: the same bits.
            let mut sided = Prepared::BLANK;
            sided.set_sided(&r, &bodies, Some(&table), lambda, omega);
            assert_eq!(sided, general, "row {r:?}");
            // Start from garbage: the fast path must write every field.
            let mut quick = general;
            quick.set(&row(&mut rng, bodies.len(), lever), &bodies, 7, fx!(0.5));
            total += 1;
            if quick.set_fast(&r, &table, lambda, omega) {
                fast += 1;
                assert_eq!(quick, general, "row {r:?}");
            }
        }
    }
    // The cubes' rows go the fast way; the boxy body's, the light cube's
    // and the long levers' do not.
    assert!(fast > total / 3, "only {fast} of {total} rows were fast");
    assert!(
        fast < total,
        "every row was fast: the fallbacks are untested"
    );
}

#[test]
fn rows_of_cubes_at_rest_are_fast() {
    // A cube on the ground: its contact rows must take the fast path.
    let cube = Body::new_box(
        Vec3::new(fx!(0.15), fx!(0.15), fx!(0.15)),
        fx!(1.0),
        Vec3::ZERO,
        Quat::IDENTITY,
    );
    let bodies = [cube];
    let table = sides(&bodies);
    let r = Row::new(
        STATIC,
        0,
        Vec3::Y,
        Vec3::ZERO,
        Vec3::new(fx!(0.15), Fx1::ZERO, fx!(-0.15)),
        Fx2::ZERO,
    );
    let mut p = Prepared::ZERO;
    assert!(p.set_fast(&r, &table, 0, Fx1::ONE));
    let mut q = Prepared::ZERO;
    q.set(&r, &bodies, 0, Fx1::ONE);
    assert_eq!(p, q);
}
