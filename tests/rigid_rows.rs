//! The row buffer beyond 255 rows: `u16` indices, a friction row linked
//! to a normal row past index 255, and the capacity edge.

use dsphys::fx;
use dsphys::fx::{Fx2, Quat, Vec3};
use dsphys::rigid::body::STATIC;
use dsphys::rigid::row::UNBOUNDED;
use dsphys::rigid::{Body, Row, Rows};

const CAP: usize = 300;

/// A 1 kg box moving sideways at 2 m/s and down at 1 m/s onto a static
/// floor.
fn sliding_box() -> Body {
    let mut b = Body::new_box(
        Vec3::new(fx!(0.1), fx!(0.1), fx!(0.1)),
        fx!(1.0),
        Vec3::ZERO,
        Quat::IDENTITY,
    );
    b.vel = Vec3::new(Fx2::from_int(2), Fx2::from_int(-1), Fx2::ZERO);
    b
}

#[test]
fn friction_links_past_row_255_and_the_buffer_stops_at_capacity() {
    let mut rows = Rows::<CAP>::EMPTY;
    // Filler rows with no Jacobian (no effect) up to index 279.
    for _ in 0..280 {
        rows.push(Row::new(
            0,
            STATIC,
            Vec3::ZERO,
            Vec3::ZERO,
            Vec3::ZERO,
            Fx2::ZERO,
        ));
    }
    // The contact: normal up (stop the fall), friction along x.
    let normal = Row::new(STATIC, 0, Vec3::Y, Vec3::ZERO, Vec3::ZERO, Fx2::ZERO)
        .bounded(Fx2::ZERO, UNBOUNDED);
    let n = rows.push(normal).expect("room for the normal row");
    assert_eq!(n, 280);
    let mut f = Row::new(STATIC, 0, Vec3::X, Vec3::ZERO, Vec3::ZERO, Fx2::ZERO);
    f.friction_of = n;
    f.mu = fx!(0.5);
    assert_eq!(rows.push(f), Some(281));
    // Fill to the edge: index CAP - 1 is the last one given out.
    let mut last = None;
    while let Some(i) = rows.push(Row::ZERO) {
        last = Some(i);
    }
    assert_eq!(last, Some(CAP as u16 - 1));
    assert_eq!(rows.len(), CAP);
    assert_eq!(rows.dropped, 1);
    assert_eq!(rows.push(Row::ZERO), None);
    assert_eq!(rows.dropped, 2);

    let mut bodies = [sliding_box()];
    rows.solve(&mut bodies, 8);
    let (ln, lf) = (rows.as_slice()[280].lambda, rows.as_slice()[281].lambda);
    println!(
        "normal impulse {:.6} N s, friction {:.6} N s, vel {:?}",
        ln.to_f64(),
        lf.to_f64(),
        bodies[0].vel.map(|c| c.to_f64())
    );
    // The normal row stopped the 1 m/s fall of 1 kg: 1 N s.
    assert!((ln.to_f64() - 1.0).abs() < 1e-4, "{ln:?}");
    assert!(bodies[0].vel.y.abs() < Fx2::from_raw(1 << 8));
    // Friction is bounded by mu times that, and it is at the bound (the
    // box slides at 2 m/s, more than 0.5 N s can stop).
    let bound = (ln * fx!(0.5)).lower();
    assert!(lf.abs() <= bound + Fx2::from_raw(16), "{lf:?} vs {bound:?}");
    assert!(
        lf.abs() >= bound - Fx2::from_raw(1 << 8),
        "{lf:?} vs {bound:?}"
    );
    assert!((bodies[0].vel.x.to_f64() - 1.5).abs() < 1e-3);
}
