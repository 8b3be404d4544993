//! The solver at the edges of its ranges (issue 20: overflow saturates by
//! design). Run in the debug build of `make test`, where any arithmetic
//! overflow that is not saturated panics; each case also checks that the
//! result is the saturated one, not a wrapped one.

use dsphys::fx;
use dsphys::fx::{Fx1, Fx2, Quat, Vec3};
use dsphys::rigid::body::STATIC;
use dsphys::rigid::row::UNBOUNDED;
use dsphys::rigid::{Body, Row, Rows, Settings, World, MAX_SPEED, MAX_SPIN};

fn light_box(at: Vec3) -> Body {
    let h = fx!(0.05);
    Body::new_box(Vec3::new(h, h, h), fx!(0.05), at, Quat::IDENTITY)
}

#[test]
fn a_huge_impulse_saturates_and_the_step_caps_it() {
    let mut w: World<2, 0, 64> = World::new(Settings::DEFAULT);
    w.add_body(light_box(Vec3::new(Fx1::ZERO, fx!(0.05), Fx1::ZERO)));
    // 1000 N s on 50 g, off centre: 20000 m/s and a huge spin asked for.
    let lever = Vec3::new(fx!(0.05), fx!(0.05), Fx1::ZERO);
    let kick = Vec3::new(fx!(1000.0), fx!(-1000.0), fx!(1000.0));
    w.bodies_mut()[0].apply_impulse(lever, dsphys::rigid::raise(kick));
    w.step();
    // Capped in the first step; from then on no step adds energy beyond
    // what gravity gives back (an overflow that wrapped would).
    let start = w.energy_f64();
    for _ in 0..120 {
        w.step();
        let b = &w.bodies()[0];
        for c in b.vel.to_array() {
            assert!(c.abs() <= MAX_SPEED, "{:?}", b.vel);
        }
        for c in b.spin.to_array() {
            assert!(c.abs() <= MAX_SPIN, "{:?}", b.spin);
        }
        assert!(
            w.energy_f64() <= start * 1.001,
            "{} > {start}",
            w.energy_f64()
        );
    }
    // It went the way it was kicked (a wrapped value would flip signs).
    let b = &w.bodies()[0];
    println!("after 2 s: at {:?}", b.position());
    assert!(b.pos.x > Fx2::ZERO && b.pos.z > Fx2::ZERO, "{:?}", b.pos);
}

#[test]
fn rows_asking_the_impossible_saturate_the_velocities() {
    // A row asking for 1000 m/s with unbounded impulse, and its opposite
    // on another axis: the scratch saturates at +-128 m/s (Q24 i32), never
    // wraps to the other sign.
    let mut bodies = [light_box(Vec3::ZERO)];
    let mut rows = Rows::<4>::EMPTY;
    let fast = Fx2::from_int(1000);
    rows.push(Row::new(STATIC, 0, Vec3::X, Vec3::ZERO, Vec3::ZERO, fast));
    rows.push(Row::new(STATIC, 0, Vec3::Y, Vec3::ZERO, Vec3::ZERO, -fast));
    rows.solve(&mut bodies, 8);
    let v = bodies[0].vel;
    let edge = Fx2::from_int(127);
    assert!(v.x >= edge, "{v:?}");
    assert!(v.y <= -edge, "{v:?}");
    // The impulses stayed within the bound.
    for r in rows.as_slice() {
        assert!(r.lambda.abs() <= UNBOUNDED, "{:?}", r.lambda);
    }
}

#[test]
fn a_body_at_the_edge_of_the_world_lands_and_rests() {
    // The documented position range is +-1000 m: a box dropped there
    // lands on the ground plane and rests on it, as it would at the
    // origin.
    let corner = Vec3::new(fx!(1000.0), fx!(0.5), fx!(-1000.0));
    let mut w: World<2, 0, 64> = World::new(Settings::DEFAULT);
    let h = fx!(0.1);
    w.add_body(Body::new_box(
        Vec3::new(h, h, h),
        fx!(1.0),
        corner,
        Quat::IDENTITY,
    ));
    for _ in 0..120 {
        w.step();
    }
    let p = w.bodies()[0].position();
    println!("rests at {:?}", p.map(|c| c.to_f64()));
    assert!((p.y - h).abs() < fx!(0.005), "{p:?}");
    assert!((p.x - corner.x).abs() < fx!(0.001), "{p:?}");
    assert!((p.z - corner.z).abs() < fx!(0.001), "{p:?}");
}
