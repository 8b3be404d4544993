//! The ten-box pyramid of scene (b) (`rigid::room::pyramid`): it settles
//! and falls asleep, then holds still; a shot into its bottom row wakes
//! it, and it settles and sleeps again.

use dsphys::fx::Vec3;
use dsphys::rigid::room::{pyramid, pyramid_shot, PyramidWorld, SHOT_FRAME};
use dsphys::rigid::Settings;

/// Frames until every box sleeps (at most `limit`), stepping with the
/// pyramid's shot schedule from `start`.
fn frames_to_sleep(w: &mut PyramidWorld, start: u32, limit: u32) -> Option<u32> {
    let boxes = w.bodies().iter().filter(|b| !b.is_static()).count();
    (start..start + limit).find(|&f| {
        pyramid_shot(w, f);
        w.step();
        w.sleeping() == boxes
    })
}

fn positions(w: &PyramidWorld) -> Vec<Vec3> {
    w.bodies().iter().map(|b| b.position()).collect()
}

#[test]
fn the_pyramid_settles_sleeps_and_holds_still() {
    let mut w = Box::new(PyramidWorld::empty(Settings::DEFAULT));
    pyramid(&mut w);
    // Before the first shot (frame SHOT_FRAME) it must be asleep.
    let slept = frames_to_sleep(&mut w, 0, SHOT_FRAME).map(|f| f + 1);
    println!("asleep after {slept:?} frames");
    assert!(slept.is_some(), "not asleep by frame {SHOT_FRAME}");
    let before = positions(&w);
    // 5 s with no disturbance: nothing moves more than 1 mm.
    for _ in 0..300 {
        w.step();
    }
    let worst = before
        .iter()
        .zip(positions(&w))
        .map(|(a, b)| (b - *a).length().to_f64())
        .fold(0.0, f64::max);
    println!("largest move in the 5 s after settling: {worst:.6} m");
    assert!(worst <= 0.001, "{worst}");
}

#[test]
fn a_shot_wakes_the_pile_and_it_sleeps_again() {
    let mut w = Box::new(PyramidWorld::empty(Settings::DEFAULT));
    pyramid(&mut w);
    frames_to_sleep(&mut w, 0, SHOT_FRAME).expect("asleep before the shot");
    // The shot's frame wakes it.
    let mut f = SHOT_FRAME;
    pyramid_shot(&mut w, f);
    w.step();
    f += 1;
    let moved = w
        .bodies()
        .iter()
        .filter(|b| !b.is_static() && !b.is_asleep())
        .count();
    println!("awake after the shot: {moved}");
    assert!(moved >= 1, "the shot woke nothing");
    // It settles and sleeps again within 10 s (the next shot is at
    // SHOT_EVERY: no shot in this window).
    let again = frames_to_sleep(&mut w, f, 180).map(|g| g + 1 - SHOT_FRAME);
    println!("asleep again {again:?} frames after the shot");
    assert!(again.is_some(), "still awake 3 s after the shot");
}
