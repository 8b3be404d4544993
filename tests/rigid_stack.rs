//! Boxes on the ground: a dropped box comes to rest on its face, and a
//! stack of boxes with no input does not gain energy over 10,000 steps.
//!
//! Measured (`cargo test --test rigid_stack -- --nocapture`): see the
//! printed lines; the stack's energy never rises above its start.

use dsphys::fx;
use dsphys::fx::{Fx1, Quat, Vec3};
use dsphys::rigid::{Body, Settings, World};

type W = World<8, 1, 256>;

fn cube(y: Fx1, mass: Fx1) -> Body {
    let h = fx!(0.25);
    Body::new_box(
        Vec3::new(h, h, h),
        mass,
        Vec3::new(Fx1::ZERO, y, Fx1::ZERO),
        Quat::IDENTITY,
    )
}

#[test]
fn a_dropped_box_comes_to_rest_on_the_ground() {
    let mut w = W::new(Settings::DEFAULT);
    let mut b = cube(fx!(1.0), fx!(2.0));
    b.rot = Quat::from_axis_angle(
        Vec3::new(fx!(1.0), fx!(0.3), fx!(0.5)),
        dsphys::fx::Angle::from_raw(3000),
    );
    b.update_derived();
    w.add_body(b);
    for _ in 0..300 {
        w.step();
    }
    let b = &w.bodies()[0];
    let y = b.pos.y.to_f64();
    println!("rest height {y:.4} m, speed {:?}", b.vel);
    assert!((y - 0.25).abs() < 0.01, "rests at {y}");
    assert!(b.vel.lower().length() < fx!(0.01));
    assert!(b.spin.lower().length() < fx!(0.02));
}

#[test]
fn a_box_stack_does_not_gain_energy_over_10000_steps() {
    let mut w = W::new(Settings::DEFAULT);
    for i in 0..4 {
        // Resting exactly on each other, slightly turned and offset.
        let mut b = cube(fx!(0.25) + fx!(0.5) * i, fx!(1.0));
        b.pos.x = Fx1::from_raw(i * 100).raise();
        b.rot = Quat::from_axis_angle(Vec3::Y, dsphys::fx::Angle::from_raw((i * 700) as u16));
        b.update_derived();
        w.add_body(b);
    }
    let start = w.energy_f64();
    let mut max = start;
    let mut min = start;
    for step in 0..10_000 {
        w.step();
        let e = w.energy_f64();
        if e > max {
            max = e;
        }
        min = min.min(e);
        if step % 2000 == 0 {
            println!("step {step}: energy {e:.5} J (start {start:.5})");
        }
    }
    let top = &w.bodies()[3];
    println!(
        "energy start {start:.5} J, max {max:.5}, min {min:.5}, end {:.5}; top box at {:.4} m",
        w.energy_f64(),
        top.pos.y.to_f64()
    );
    assert!(max <= start + 1e-3, "gained {} J", max - start);
    assert!(
        top.pos.y.to_f64() > 1.6,
        "the stack fell: top at {}",
        top.pos.y.to_f64()
    );
}
