//! `rigid_scene_us` (issue 20): the rigid scenes' physics per frame,
//! averaged over the frames after each scene's disturbance, as the demo
//! and `nds/runner/stress.py` disturb them:
//! - `pyramid_moving`: scene (b)'s pyramid, settled and asleep, then
//!   shot into its bottom row (`rigid::room::pyramid_shot`);
//! - `box_of_boxes_moving`: scene (c)'s 27 cubes, asleep, then a top
//!   cube shot sideways (8 N s), which wakes the pile;
//! - `mine`: the Armed Mine turned upside down, righting itself.
//!
//! Each is the average over the [`FRAMES`] frames from the disturbance's
//! frame on, with the worst of them under `rigid_scene_worst_us`.

use super::{record, us_x10};
use crate::hw::once::TakeOnce;
use crate::hw::timer;
use dsphys::rigid::characters::armed_mine::{resting_start, ArmedMine, GOAL};
use dsphys::rigid::room::{pyramid, pyramid_shot, BoxWorld, SHOT_FRAME};
use dsphys::rigid::{room, Settings};
use mailbox::Mailbox;

/// Frames averaged after a disturbance.
const FRAMES: u32 = 180;

/// The box scenes' world, as the demo's: a static.
static BOXES: TakeOnce<BoxWorld> = TakeOnce::new(BoxWorld::empty(Settings::DEFAULT));
static MINE: TakeOnce<ArmedMine> = TakeOnce::new(ArmedMine::PLACEHOLDER);

/// Times `step` over `FRAMES` frames: (average, worst) in cycles.
fn time_frames(mut step: impl FnMut(u32)) -> (u32, u32) {
    let (mut total, mut worst) = (0u64, 0u32);
    for f in 0..FRAMES {
        let start = timer::cycles();
        step(f);
        let c = timer::cycles().wrapping_sub(start);
        total += c as u64;
        worst = worst.max(c);
    }
    ((total / FRAMES as u64) as u32, worst)
}

fn record_pair(mb: &mut Mailbox, key: &str, worst_key: &str, (avg, worst): (u32, u32)) {
    record(mb, key, us_x10(avg), 1);
    record(mb, worst_key, us_x10(worst), 1);
}

#[inline(never)]
pub fn figures(mb: &mut Mailbox) {
    let w = BOXES.take().expect("rigid scene world taken once");
    pyramid(w);
    for f in 0..SHOT_FRAME {
        pyramid_shot(w, f);
        w.step();
    }
    let t = time_frames(|f| {
        pyramid_shot(w, SHOT_FRAME + f);
        w.step();
    });
    record_pair(
        mb,
        "rigid_scene_us.pyramid_moving",
        "rigid_scene_worst_us.pyramid_moving",
        t,
    );

    let first = room::box_of_boxes(w).expect("box of boxes: the world is too small");
    let t = time_frames(|f| {
        if f == 0 {
            room::box_of_boxes_shot(w, first);
        }
        w.step();
    });
    record_pair(
        mb,
        "rigid_scene_us.box_of_boxes_moving",
        "rigid_scene_worst_us.box_of_boxes_moving",
        t,
    );

    let m = MINE.take().expect("rigid scene mine taken once");
    m.reset_upside_down(resting_start(), GOAL);
    let t = time_frames(|_| m.step());
    record_pair(mb, "rigid_scene_us.mine", "rigid_scene_worst_us.mine", t);
}
