//! Sleeping (`dsphys::rigid::sleep`) on the box of boxes: 27 cubes in a
//! container settle and fall asleep, a sleeping pile holds still and
//! costs no solver rows, a shot wakes the cube it hits and whatever it
//! moves near, and the pile settles and sleeps again with no cube
//! sinking into another or through the floor.
//!
//! Measured (`cargo test --release --test rigid_sleep -- --nocapture`):
//! see the printed lines.

use dsphys::fx;
use dsphys::fx::{Fx1, Vec3};
use dsphys::rigid::box_of_boxes::{build, CUBES, HALF};
use dsphys::rigid::{Settings, World};

type W = World<32, 0, 480>;

fn world(sleep: bool) -> (Box<W>, usize) {
    let mut w = Box::new(W::new(Settings {
        sleep,
        ..Settings::DEFAULT
    }));
    let first = build(&mut w, Vec3::ZERO, true).unwrap() as usize;
    (w, first)
}

/// The lowest cube centre and the largest sideways or downward drift of
/// any cube from where it started (m).
fn drift(w: &W, first: usize, start: &[Vec3]) -> (f64, f64) {
    let cubes = &w.bodies()[first..];
    let lowest = cubes
        .iter()
        .map(|b| b.pos.y.to_f64())
        .fold(f64::MAX, f64::min);
    let moved = cubes
        .iter()
        .zip(start)
        .map(|(b, s)| (b.position() - *s).length().to_f64())
        .fold(0.0, f64::max);
    (lowest, moved)
}

#[test]
fn the_pile_falls_asleep_and_holds_still() {
    let (mut w, first) = world(true);
    let start: Vec<Vec3> = w.bodies()[first..].iter().map(|b| b.position()).collect();
    let mut all_asleep_at = None;
    let mut rows_awake = 0;
    for f in 0..600 {
        w.step();
        if f == 0 {
            rows_awake = w.rows.len();
        }
        if all_asleep_at.is_none() && w.sleeping() == CUBES {
            all_asleep_at = Some(f);
        }
        assert_eq!(w.rows.dropped, 0);
    }
    let (lowest, moved) = drift(&w, first, &start);
    println!(
        "{} rows in the first step, all {CUBES} asleep at frame {all_asleep_at:?}, \
         rows after 10 s {}, lowest centre {lowest:.4} m, largest drift {moved:.4} m",
        rows_awake,
        w.rows.len()
    );
    assert!(all_asleep_at.is_some_and(|f| f < 120), "{all_asleep_at:?}");
    assert_eq!(w.rows.len(), 0, "a sleeping pile pushes no rows");
    assert!(moved < 0.01, "the pile moved {moved} m");
    assert!(lowest > HALF.to_f64() - 0.01);
}

#[test]
fn a_shot_wakes_the_pile_which_settles_and_sleeps_again() {
    let (mut w, first) = world(true);
    for _ in 0..120 {
        w.step();
    }
    assert_eq!(w.sleeping(), CUBES);
    // A top corner cube, shot sideways towards the middle at 4 m/s.
    let top = first + CUBES - 1;
    w.bodies_mut()[top].apply_impulse(
        Vec3::ZERO,
        dsphys::rigid::raise(Vec3::new(fx!(-4.0), fx!(1.0), Fx1::ZERO)),
    );
    let (mut fewest, mut woke) = (CUBES, 0);
    let mut asleep_again = None;
    let mut lowest = f64::MAX;
    for f in 0..900 {
        w.step();
        let s = w.sleeping();
        fewest = fewest.min(s);
        woke = woke.max(CUBES - s);
        if asleep_again.is_none() && f > 10 && s == CUBES {
            asleep_again = Some(f);
        }
        for b in &w.bodies()[first..] {
            lowest = lowest.min(b.pos.y.to_f64());
        }
        assert_eq!(w.rows.dropped, 0);
    }
    println!(
        "after the shot: up to {woke} cubes awake, all asleep again at frame {asleep_again:?}, \
         lowest centre {lowest:.4} m"
    );
    assert!(woke >= 2, "the shot cube woke no neighbour");
    assert!(asleep_again.is_some_and(|f| f < 900), "{asleep_again:?}");
    assert!(lowest > HALF.to_f64() - 0.02, "a cube sank: {lowest}");
}

#[test]
fn without_sleeping_the_pile_is_solved_every_step() {
    let (mut w, first) = world(false);
    let start: Vec<Vec3> = w.bodies()[first..].iter().map(|b| b.position()).collect();
    for _ in 0..600 {
        w.step();
    }
    let (lowest, moved) = drift(&w, first, &start);
    println!(
        "no sleeping: {} rows per step after 10 s, lowest centre {lowest:.4} m, largest drift {moved:.4} m",
        w.rows.len()
    );
    assert_eq!(w.sleeping(), 0);
    // 27 cubes on a face each (the ground or the cube below): 4 normal
    // rows and a patch's 3 friction rows.
    assert!(w.rows.len() >= 27 * 7, "{}", w.rows.len());
}

#[test]
fn a_pile_put_to_sleep_stays_asleep_until_shot() {
    let (mut w, first) = world(true);
    w.put_to_sleep();
    for _ in 0..60 {
        w.step();
        assert_eq!(w.sleeping(), CUBES);
        assert_eq!(w.rows.len(), 0);
    }
    let top = first + CUBES - 1;
    w.bodies_mut()[top].apply_impulse(
        Vec3::ZERO,
        dsphys::rigid::raise(Vec3::new(fx!(-4.0), Fx1::ZERO, Fx1::ZERO)),
    );
    w.step();
    assert!(w.sleeping() < CUBES, "the shot cube is awake");
    assert!(!w.rows.is_empty());
}
