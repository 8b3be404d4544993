//! The isotropic row form (`rigid::iso`, the box scenes' rows) at the
//! edges of its bounds: the largest impulse change one update may make
//! keeps every product within the bits the module docs give, and is not
//! needlessly small. The solver at those edges runs in
//! `tests/rigid_solver_edges.rs` (its light cubes take this form), in the
//! debug build, where an overflow panics.

use dsphys::fx;
use dsphys::fx::{Fx1, Fx2, Quat, Vec3};
use dsphys::rigid::body::STATIC;
use dsphys::rigid::iso::side_limit;
use dsphys::rigid::kernel::LAMBDA_MAX;
use dsphys::rigid::{Body, Row, Rows};

/// The inverse masses, inverse moments and lever components that `set`
/// lets through: below 128 / kg, `d` times a lever sum below 2^31, and
/// levers within an `i16` (8 m).
fn cases() -> Vec<(i32, i32, u32)> {
    let mut out = Vec::new();
    let mut x = 0x2545_f491_u32;
    let mut next = || {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        x
    };
    for _ in 0..200_000 {
        let im = (next() % (1 << 19)) as i32 >> (next() % 19);
        let widest = (next() % (1 << 15)) >> (next() % 15);
        let d_cap = ((1u64 << 31) / (widest.max(1) as u64)).min(i32::MAX as u64) as u32;
        let d = ((next() % d_cap) >> (next() % 20)).max(1) as i32;
        out.push((im.max(1), d, widest));
    }
    for im in [1, 4096, (1 << 19) - 1] {
        for widest in [0, 1, 4096, i16::MAX as u32] {
            let d_cap = ((1u64 << 31) / (widest.max(1) as u64) - 1).min(i32::MAX as u64) as i32;
            for d in [1, 4096, d_cap] {
                out.push((im, d, widest));
            }
        }
    }
    out
}

#[test]
fn one_update_keeps_every_product_in_its_bits() {
    for (im, d, widest) in cases() {
        let m = side_limit(im, d, widest) as u64;
        assert!(m >= 1 && m <= LAMBDA_MAX as u64, "{im} {d} {widest}: {m}");
        let (im, d, w) = (im as u64, d as u64, widest as u64);
        // u = im delta >> 8 fits 32 bits, and with an angular part
        // w = d delta >> 12 does.
        assert!(im * m < 1 << 39, "im {im} x {m}");
        if w != 0 {
            assert!(d * m < 1 << 43, "d {d} x {m}");
        }
        // Each angular change (ang_k w) >> 8 stays below 2^31.
        assert!(d * m * w < 1 << 51, "d {d} x {m} x {w}");
    }
}

#[test]
fn the_limit_is_within_a_factor_four_of_the_bounds() {
    // Powers of two from bit lengths: at most 4x below the exact bound.
    // A limit halved again would fail here, as one doubled fails above.
    for (im, d, widest) in cases() {
        let m = side_limit(im, d, widest) as u64;
        if m == LAMBDA_MAX as u64 {
            continue;
        }
        let (im, d, w) = (im as u64, d as u64, widest as u64);
        let exact = if w == 0 {
            (1u64 << 39) / im
        } else {
            [(1u64 << 39) / im, (1 << 43) / d, (1u64 << 51) / (d * w)]
                .into_iter()
                .min()
                .unwrap()
        };
        assert!(
            4 * (m + 1) >= exact,
            "{im} {d} {widest}: {m} against {exact}"
        );
    }
}

/// A 1 kg cube of half side 0.1 m at the origin, and one row from the
/// static world to it along `lin` and `ang`, asking for 1 m/s; solved,
/// returns the row's `J v` (m/s).
fn solved_jv(lin: Vec3, ang: Vec3) -> f64 {
    let h = fx!(0.1);
    let mut bodies = [Body::new_box(
        Vec3::new(h, h, h),
        fx!(1.0),
        Vec3::ZERO,
        Quat::IDENTITY,
    )];
    let mut rows = Rows::<4>::EMPTY;
    let target = Fx2::from_int(1);
    rows.push(Row::new(STATIC, 0, lin, Vec3::ZERO, ang, target));
    rows.solve(&mut bodies, 8);
    rows.as_slice()[0].velocity(&bodies).to_f64()
}

#[test]
fn rows_that_fit_and_rows_that_do_not_are_both_solved() {
    // A lever of 0.1 m: the isotropic form.
    let short = Vec3::new(Fx1::ZERO, fx!(0.1), Fx1::ZERO);
    let jv = solved_jv(Vec3::X, short);
    assert!((jv - 1.0).abs() < 1e-3, "isotropic: {jv}");
    // A lever of 1.5 m on this cube (inverse moment 150 / kg m^2): `d`
    // times the lever is past 32 bits, so the whole step falls back to
    // the general form, which solves it as well.
    let long = Vec3::new(Fx1::ZERO, fx!(1.5), Fx1::ZERO);
    let jv = solved_jv(Vec3::X, long);
    assert!((jv - 1.0).abs() < 1e-3, "general: {jv}");
}
