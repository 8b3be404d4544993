//! `rigid::joint_gap`: joint gaps wider than the tolerance are closed in
//! the positions after a step, without touching velocities or moving the
//! pair's centre of mass, the widest few a step.

use dsphys::fx::{Angle, Fx1, Fx2, Quat, Vec3};
use dsphys::rigid::joint_gap::close_joint_gaps;
use dsphys::rigid::{Body, Joint, Settings, World};

fn fx(x: f64) -> Fx1 {
    Fx1::from_raw((x * 4096.0).round() as i32)
}

fn v(x: f64, y: f64, z: f64) -> Vec3 {
    Vec3::new(fx(x), fx(y), fx(z))
}

/// Two boxes of unequal mass and shape joined by a ball joint at `anchor`.
fn pair() -> (World<2, 1, 16>, Vec3) {
    let mut w: World<2, 1, 16> = World::new(Settings {
        ground: None,
        ..Settings::DEFAULT
    });
    let a = Body::new_box(v(0.1, 0.2, 0.05), fx(2.0), v(0.0, 1.0, 0.0), Quat::IDENTITY);
    let b = Body::new_box(
        v(0.04, 0.15, 0.04),
        fx(0.7),
        v(0.0, 0.65, 0.0),
        Quat::IDENTITY,
    );
    w.add_body(a).unwrap();
    w.add_body(b).unwrap();
    let anchor = v(0.0, 0.8, 0.0);
    let joint = Joint::ball(w.bodies(), 0, 1, anchor, Vec3::Y, None);
    w.add_joint(joint).unwrap();
    (w, anchor)
}

fn centre(w: &World<2, 1, 16>) -> [f64; 3] {
    let mut c = [0.0; 3];
    let mut m = 0.0;
    for b in w.bodies() {
        let p = b.pos.to_array().map(|x| x.to_f64());
        for k in 0..3 {
            c[k] += b.mass.to_f64() * p[k];
        }
        m += b.mass.to_f64();
    }
    c.map(|x| x / m)
}

#[test]
fn a_wide_gap_is_closed_and_nothing_else_moves() {
    let tolerance = Fx2::from_raw(150_995); // 9 mm
    for (dx, dy, dz, turn) in [
        (0.03, 0.0, 0.0, 0.0),
        (0.0, -0.04, 0.02, 0.3),
        (-0.05, 0.01, 0.03, -0.5),
    ] {
        let (mut w, _) = pair();
        // Open the joint: move and turn the child.
        {
            let b = &mut w.bodies_mut()[1];
            b.pos += Vec3::new(fx(dx), fx(dy), fx(dz)).raise();
            b.rot = Quat::from_axis_angle(Vec3::Z, Angle::from_radians(fx(turn)));
            b.vel = v(0.5, -0.2, 0.1).raise();
            b.update_derived();
        }
        let before = w.joints()[0].separation(w.bodies()).lower().length();
        assert!(before > fx(0.02), "{before:?}");
        let vel = w.bodies()[1].vel;
        let c0 = centre(&w);
        // One call (a step's) closes most of it; the linearised turn
        // leaves some for the next steps.
        let (joints, bodies) = w.joints_and_bodies();
        assert_eq!(close_joint_gaps(bodies, joints, tolerance), 1);
        let once = w.joints()[0].separation(w.bodies()).lower().length();
        assert!(once < before.div_int(3), "gap {before:?} -> {once:?}");
        for _ in 0..2 {
            let (joints, bodies) = w.joints_and_bodies();
            close_joint_gaps(bodies, joints, tolerance);
        }
        let after = w.joints()[0].separation(w.bodies()).lower().length();
        assert!(
            after <= fx(0.009),
            "gap {before:?} -> {once:?} -> {after:?}"
        );
        assert_eq!(w.bodies()[1].vel, vel, "the velocities are not touched");
        let c1 = centre(&w);
        for k in 0..3 {
            assert!(
                (c1[k] - c0[k]).abs() < 1e-5,
                "the centre moved: {c0:?} -> {c1:?}"
            );
        }
    }
}

#[test]
fn a_gap_within_the_tolerance_is_left_alone() {
    let (mut w, _) = pair();
    w.bodies_mut()[1].pos += v(0.005, 0.0, 0.0).raise();
    let before: Vec<_> = w.bodies().iter().map(|b| (b.pos, b.rot)).collect();
    let (joints, bodies) = w.joints_and_bodies();
    assert_eq!(close_joint_gaps(bodies, joints, Fx2::from_raw(150_995)), 0);
    let after: Vec<_> = w.bodies().iter().map(|b| (b.pos, b.rot)).collect();
    assert_eq!(before, after);
}

#[test]
fn a_gap_at_the_edge_of_its_range_stays_finite() {
    // 50 m apart: clamped to a 1 m correction per axis and pass, no overflow.
    let (mut w, _) = pair();
    w.bodies_mut()[1].pos += v(50.0, -50.0, 50.0).raise();
    let (joints, bodies) = w.joints_and_bodies();
    close_joint_gaps(bodies, joints, Fx2::from_raw(150_995));
    let gap = w.joints()[0].separation(w.bodies()).lower().length();
    assert!(gap < fx(87.0), "{gap:?}");
}

#[test]
fn the_widest_are_closed_first_and_at_most_max_closed_a_step() {
    use dsphys::rigid::joint_gap::MAX_CLOSED;
    // A chain of boxes hanging from each other, every joint opened, the
    // last the widest.
    const N: usize = 8;
    let mut w: World<N, { N - 1 }, 16> = World::new(Settings {
        ground: None,
        ..Settings::DEFAULT
    });
    for k in 0..N {
        let y = 2.0 - 0.3 * k as f64;
        w.add_body(Body::new_box(
            v(0.05, 0.1, 0.05),
            fx(1.0),
            v(0.0, y, 0.0),
            Quat::IDENTITY,
        ))
        .unwrap();
    }
    for k in 0..N - 1 {
        let anchor = v(0.0, 2.0 - 0.3 * k as f64 - 0.15, 0.0);
        let joint = Joint::ball(w.bodies(), k as u8, k as u8 + 1, anchor, Vec3::Y, None);
        w.add_joint(joint).unwrap();
    }
    for k in 1..N {
        let b = &mut w.bodies_mut()[k];
        b.pos += v(0.012 * k as f64, 0.0, 0.0).raise();
    }
    let gaps = |w: &World<N, { N - 1 }, 16>| -> Vec<f64> {
        w.joints()
            .iter()
            .map(|j| j.separation(w.bodies()).lower().length().to_f64())
            .collect()
    };
    let before = gaps(&w);
    let (joints, bodies) = w.joints_and_bodies();
    assert_eq!(
        close_joint_gaps(bodies, joints, Fx2::from_raw(150_995)),
        MAX_CLOSED
    );
    let after = gaps(&w);
    // Every joint was opened by 12 mm (wider than 9 mm); the closed ones
    // are narrower, and some were left for the next step.
    let closed = after.iter().filter(|&&g| g < 0.009).count();
    assert!(
        (1..=MAX_CLOSED + 1).contains(&closed),
        "{before:?} -> {after:?}"
    );
    assert!(after.iter().any(|&g| g > 0.009), "{before:?} -> {after:?}");
}
