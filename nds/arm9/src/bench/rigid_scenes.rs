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
//! frame on, with the worst of them under `rigid_scene_worst_us`. The
//! box scenes' worst frame is split into the world's step phases under
//! `rigid_worst_phase_us.<scene>.<phase>`, and its row count under
//! `rigid_worst_rows.<scene>`: what the worst frame spent its time on.

use super::{record, us_x10};
use crate::hw::once::TakeOnce;
use crate::hw::timer;
use dsphys::rigid::characters::armed_mine::{resting_start, ArmedMine, GOAL};
use dsphys::rigid::room::{pyramid, pyramid_shot, BoxWorld, SHOT_FRAME};
use dsphys::rigid::world::Phase;
use dsphys::rigid::{room, Settings};
use mailbox::Mailbox;

/// Frames averaged after a disturbance.
const FRAMES: u32 = 180;

/// The box scenes' world, as the demo's: a static.
static BOXES: TakeOnce<BoxWorld> = TakeOnce::new(BoxWorld::empty(Settings::DEFAULT));
static MINE: TakeOnce<ArmedMine> = TakeOnce::new(ArmedMine::PLACEHOLDER);

/// Times `step` over `FRAMES` frames: (average, worst) in cycles.
fn time_frames(mut step: impl FnMut(u32)) -> (u32, u32) {
    let w = time_phases(|f, _| {
        step(f);
        0
    });
    (w.avg, w.worst)
}

/// The step phases a box scene's worst frame is split into.
const PHASES: [Phase; 4] = [
    Phase::Joints,
    Phase::Contacts,
    Phase::Solve,
    Phase::Integrate,
];

/// What [`time_phases`] measured, in cycles.
struct Frames {
    avg: u32,
    worst: u32,
    /// The worst frame's cycles per phase, in [`PHASES`] order.
    split: [u32; 4],
    /// The worst frame's solver rows.
    rows: usize,
}

/// [`time_frames`] for a step that marks its phases (`World::step_marked`)
/// and returns its row count: also the worst frame's split.
fn time_phases(mut step: impl FnMut(u32, &mut dyn FnMut(Phase)) -> usize) -> Frames {
    let mut out = Frames {
        avg: 0,
        worst: 0,
        split: [0; 4],
        rows: 0,
    };
    let mut total = 0u64;
    for f in 0..FRAMES {
        let mut ends = [0u32; 4];
        let start = timer::cycles();
        let rows = step(f, &mut |phase| {
            if let Some(k) = PHASES.iter().position(|p| *p == phase) {
                ends[k] = timer::cycles();
            }
        });
        let c = timer::cycles().wrapping_sub(start);
        total += c as u64;
        if c > out.worst {
            out.worst = c;
            out.rows = rows;
            let mut last = start;
            for (s, &e) in out.split.iter_mut().zip(&ends) {
                *s = e.wrapping_sub(last);
                last = e;
            }
        }
    }
    out.avg = (total / FRAMES as u64) as u32;
    out
}

/// Records a box scene's worst-frame phases and rows (`keys`: begin,
/// contacts, solve, integrate, rows).
fn record_split(mb: &mut Mailbox, keys: [&str; 5], t: &Frames) {
    for (key, c) in keys.iter().zip(t.split) {
        record(mb, key, us_x10(c), 1);
    }
    record(mb, keys[4], t.rows as i32, 0);
}

fn record_pair(mb: &mut Mailbox, key: &str, worst_key: &str, (avg, worst): (u32, u32)) {
    record(mb, key, us_x10(avg), 1);
    record(mb, worst_key, us_x10(worst), 1);
}

/// One step of a box scene, its phases marked; returns its rows (they
/// stay in the list until the next step begins).
fn step_counting_rows(w: &mut BoxWorld, mark: &mut dyn FnMut(Phase)) -> usize {
    crate::hw::itcm::rigid();
    w.step_marked(&mut |phase| mark(phase));
    w.rows_and_bodies().0.len()
}

#[inline(never)]
pub fn figures(mb: &mut Mailbox) {
    crate::hw::itcm::rigid();
    let w = BOXES.take().expect("rigid scene world taken once");
    pyramid(w);
    for f in 0..SHOT_FRAME {
        pyramid_shot(w, f);
        w.step();
    }
    let t = time_phases(|f, mark| {
        pyramid_shot(w, SHOT_FRAME + f);
        step_counting_rows(w, mark)
    });
    record_pair(
        mb,
        "rigid_scene_us.pyramid_moving",
        "rigid_scene_worst_us.pyramid_moving",
        (t.avg, t.worst),
    );
    record_split(
        mb,
        [
            "rigid_worst_phase_us.pyramid.begin",
            "rigid_worst_phase_us.pyramid.contacts",
            "rigid_worst_phase_us.pyramid.solve",
            "rigid_worst_phase_us.pyramid.integrate",
            "rigid_worst_rows.pyramid",
        ],
        &t,
    );

    let first = room::box_of_boxes(w).expect("box of boxes: the world is too small");
    let t = time_phases(|f, mark| {
        if f == 0 {
            room::box_of_boxes_shot(w, first);
        }
        step_counting_rows(w, mark)
    });
    record_pair(
        mb,
        "rigid_scene_us.box_of_boxes_moving",
        "rigid_scene_worst_us.box_of_boxes_moving",
        (t.avg, t.worst),
    );
    record_split(
        mb,
        [
            "rigid_worst_phase_us.boxes.begin",
            "rigid_worst_phase_us.boxes.contacts",
            "rigid_worst_phase_us.boxes.solve",
            "rigid_worst_phase_us.boxes.integrate",
            "rigid_worst_rows.boxes",
        ],
        &t,
    );

    let m = MINE.take().expect("rigid scene mine taken once");
    m.reset_upside_down(resting_start(), GOAL);
    let t = time_frames(|_| m.step());
    record_pair(mb, "rigid_scene_us.mine", "rigid_scene_worst_us.mine", t);
}
