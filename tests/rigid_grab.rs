//! The grab (`dsphys::rigid::grab`, the stylus's "mouse joint"): a cube
//! grabbed at a point off its centre follows a moving target within a
//! tolerance, swinging about the grabbed point; a grab weaker than the
//! cube's weight cannot lift it, one stronger can, and no grab row's
//! impulse ever exceeds `max_force * dt`; let go, the cube keeps its
//! velocity; a grabbed cube of a sleeping pile wakes and stays awake.
//!
//! Measured (`cargo test --release --test rigid_grab -- --nocapture`):
//! see the printed lines.

use dsphys::fx;
use dsphys::fx::{Fx1, Quat, Vec3};
use dsphys::rigid::grab::GRAB_KEY;
use dsphys::rigid::{box_of_boxes, Body, Settings, World};

type W = World<1, 0, 64>;

const HALF: Fx1 = fx!(0.15);

/// One 1 kg cube resting on the ground at the origin.
fn cube_world() -> Box<W> {
    let mut w = Box::new(W::new(Settings::DEFAULT));
    let half = Vec3::new(HALF, HALF, HALF);
    w.add_body(Body::new_box(
        half,
        fx!(1.0),
        Vec3::new(Fx1::ZERO, HALF, Fx1::ZERO),
        Quat::IDENTITY,
    ));
    for _ in 0..30 {
        w.step();
    }
    w
}

/// The grabbed point's distance from the target (m).
fn miss<const B: usize, const J: usize, const R: usize>(w: &World<B, J, R>) -> f64 {
    let g = w.grab.expect("grabbed");
    let a = g.anchor_world(w.bodies()).lower();
    (a - g.target).length().to_f64()
}

/// The largest grab-row impulse of the last step, over the bound.
fn grab_impulse<const B: usize, const J: usize, const R: usize>(w: &World<B, J, R>) -> (f64, f64) {
    let limit = w.grab.expect("grabbed").impulse_limit().to_f64();
    let rows: Vec<_> = w
        .rows
        .as_slice()
        .iter()
        .filter(|r| r.key & !3 == GRAB_KEY)
        .collect();
    assert_eq!(rows.len(), 3, "the grab pushes three rows");
    let most = rows
        .iter()
        .map(|r| r.lambda.to_f64().abs())
        .fold(0.0, f64::max);
    (most, limit)
}

fn f(x: f64) -> Fx1 {
    Fx1::from_raw((x * 4096.0).round() as i32)
}

fn v(x: f64, y: f64, z: f64) -> Vec3 {
    Vec3::new(f(x), f(y), f(z))
}

#[test]
fn a_grabbed_cube_follows_a_moving_target() {
    let mut w = cube_world();
    // A point on the top face, off the centre: the cube hangs tilted.
    assert!(w.grab_at(0, v(0.1, 0.3, 0.05), fx!(50.0)));
    // Up to 1 m over a second, then 0.6 m/s along x for 2 s and back,
    // then held still for a second.
    let mut worst_moving: f64 = 0.0;
    let mut worst_impulse: f64 = 0.0;
    let mut limit = 0.0;
    let mut tilt: f64 = 0.0;
    for f in 0..360 {
        let t = f as f64 / 60.0;
        let target = if t < 1.0 {
            v(0.1, 0.3 + 0.7 * t, 0.05)
        } else if t < 3.0 {
            v(0.1 + 0.6 * (t - 1.0), 1.0, 0.05)
        } else if t < 5.0 {
            v(1.3 - 0.6 * (t - 3.0), 1.0, 0.05)
        } else {
            v(0.1, 1.0, 0.05)
        };
        w.grab.as_mut().unwrap().target = target;
        w.step();
        assert_eq!(w.rows.dropped, 0);
        let (most, l) = grab_impulse(&w);
        worst_impulse = worst_impulse.max(most);
        limit = l;
        if (1.5..5.0).contains(&t) {
            worst_moving = worst_moving.max(miss(&w));
        }
        let up = w.bodies()[0].world_dir(Vec3::Y).y.to_f64();
        tilt = tilt.max(up.clamp(-1.0, 1.0).acos().to_degrees());
    }
    let held = miss(&w);
    let y = w.bodies()[0].pos.y.to_f64();
    println!(
        "following at 0.6 m/s: worst miss {worst_moving:.4} m; held still: miss {held:.4} m, \
         centre at y {y:.3} m; largest tilt {tilt:.1} deg; largest row impulse \
         {worst_impulse:.4} N s (bound {limit:.4})"
    );
    // The lag of a target moving at 0.6 m/s is 0.6 / (erp 0.2 * 60) =
    // 5 cm, plus the swing.
    assert!(worst_moving < 0.08, "missed by {worst_moving} m");
    assert!(held < 0.005, "held still, missed by {held} m");
    assert!(y > 0.75, "the cube hangs below the held point: {y}");
    assert!(
        tilt > 10.0,
        "grabbed off its centre, the cube tilts: {tilt}"
    );
    assert!(worst_impulse <= limit + 1e-6);
}

/// Grabs the cube at its centre of the top face and pulls 1 m up for
/// two seconds with `force` N; returns the centre's height and the
/// largest grab-row impulse over its bound.
fn lift(force: f64) -> (f64, f64, f64) {
    let mut w = cube_world();
    assert!(w.grab_at(0, v(0.0, 0.3, 0.0), f(force)));
    w.grab.as_mut().unwrap().target = v(0.0, 1.3, 0.0);
    let (mut most, mut limit) = (0.0f64, 0.0);
    for _ in 0..120 {
        w.step();
        let (m, l) = grab_impulse(&w);
        most = most.max(m);
        limit = l;
    }
    (w.bodies()[0].pos.y.to_f64(), most, limit)
}

#[test]
fn the_force_limit_holds() {
    // The cube weighs 9.81 N.
    let (weak_y, weak_most, weak_limit) = lift(8.0);
    let (strong_y, strong_most, strong_limit) = lift(12.0);
    println!(
        "8 N grab: centre at {weak_y:.3} m, largest impulse {weak_most:.5} N s (bound \
         {weak_limit:.5}); 12 N grab: centre at {strong_y:.3} m, largest impulse \
         {strong_most:.5} N s (bound {strong_limit:.5})"
    );
    assert!((weak_limit - 8.0 / 60.0).abs() < 1e-4);
    assert!(weak_most <= weak_limit + 1e-6 && strong_most <= strong_limit + 1e-6);
    // At its bound the weak grab pulls with 8 N against 9.81 N of weight.
    assert!(
        weak_most > weak_limit - 1e-4,
        "the weak grab is at its bound"
    );
    assert!(
        weak_y < HALF.to_f64() + 0.01,
        "an 8 N grab lifted the cube to {weak_y}"
    );
    assert!(
        strong_y > 0.9,
        "a 12 N grab did not lift the cube: {strong_y}"
    );
}

#[test]
fn let_go_the_cube_keeps_its_velocity() {
    let mut w = cube_world();
    assert!(w.grab_at(0, v(0.0, 0.3, 0.0), fx!(50.0)));
    // Lift, then swing sideways at 1 m/s.
    for f in 0..90 {
        let x = if f < 45 { 0.0 } else { (f - 45) as f64 / 60.0 };
        w.grab.as_mut().unwrap().target = v(x, 1.0, 0.0);
        w.step();
    }
    let before = w.bodies()[0].vel;
    w.grab = None;
    w.step();
    let after = w.bodies()[0].vel;
    let (bx, ax) = (before.x.to_f64(), after.x.to_f64());
    let dy = after.y.to_f64() - before.y.to_f64();
    println!("let go at vx {bx:.3} m/s: next step vx {ax:.3} m/s, vy changed by {dy:.4} m/s");
    assert!(bx > 0.7, "moving with the pen: {bx}");
    // Only damping (0.999) and gravity (-9.81/60) act after the release.
    assert!((ax - bx * 0.999).abs() < 0.002, "{bx} -> {ax}");
    assert!((dy + 9.81 / 60.0).abs() < 0.01, "{dy}");
    assert!(w.rows.as_slice().iter().all(|r| r.key & !3 != GRAB_KEY));
}

#[test]
fn a_grabbed_cube_of_a_sleeping_pile_wakes_and_stays_awake() {
    type P = World<32, 0, 480>;
    let mut w = Box::new(P::new(Settings {
        sleep: true,
        ..Settings::DEFAULT
    }));
    let first = box_of_boxes::build(&mut w, Vec3::ZERO, true).unwrap() as usize;
    w.put_to_sleep();
    w.step();
    assert_eq!(w.sleeping(), box_of_boxes::CUBES);
    let top = first + box_of_boxes::CUBES - 1;
    let centre = w.bodies()[top].position();
    let point = centre + Vec3::new(Fx1::ZERO, box_of_boxes::HALF, Fx1::ZERO);
    assert!(w.grab_at(top as u8, point, fx!(50.0)));
    w.grab.as_mut().unwrap().target = point + v(0.0, 0.5, 0.0);
    for _ in 0..120 {
        w.step();
        assert!(!w.bodies()[top].is_asleep(), "a held cube never sleeps");
        assert_eq!(w.rows.dropped, 0);
    }
    let rise = (w.bodies()[top].pos.y - centre.y.raise()).to_f64();
    println!(
        "the held top cube rose {rise:.3} m out of the sleeping pile; {} cubes asleep",
        w.sleeping()
    );
    assert!((rise - 0.5).abs() < 0.01, "{rise}");
}
