//! The box scenes' rigid worlds, shared by the demo's scenes (b) and (c),
//! the host tests, the bench and the PC-profile ROM: the box room (its
//! floor is the world's ground plane, its four walls static boxes, so
//! thrown boxes stay in the room the ragdolls live in,
//! [`crate::scenario::ROOM`]) and the ten-box pyramid.

use crate::fx;
use crate::fx::{Fx1, Quat, Vec3};
use crate::scenario::ROOM;

use super::{Body, Settings, World};

/// Wall thickness, m (thick enough that nothing at the speed cap of one
/// step, 1 m, passes through).
const WALL: Fx1 = fx!(1.0);

/// The room's walls: the first bodies of a world [`reset`] fills, so the
/// first body added after them has this index.
pub const WALLS: usize = 4;

/// The box scenes' solver work per step (row updates, preparations
/// included, [`super::Settings::update_budget`]): 7 sweeps of as many
/// rows as the DTCM buffer holds. A shot that wakes the pyramid makes
/// about 110 rows, the box of boxes 200-340 (with patch friction:
/// `cargo run --release --example box_of_boxes_shots`), which then get
/// fewer sweeps (at least 4). It was 8 sweeps' worth; at 7 the
/// pyramid's worst frame under its shot (112 rows, more than the DTCM
/// buffer) runs 4 sweeps instead of 5, which
/// brought scene (b) inside the frame in DeSmuME (`make stress-test
/// STRESS_SCENES=b`), and the piles still settle and sleep
/// (`tests/rigid_pyramid.rs`, `tests/rigid_sleep.rs`).
pub const BOX_UPDATE_BUDGET: u16 =
    (super::row::DTCM_ROWS * (7 + super::world::PREPARE_UPDATES)) as u16;

/// The box of boxes' speculative contact margin, m: half the default. Its
/// neighbours stand 3 cm apart, so with 1 cm their bounding boxes no
/// longer overlap within two margins and their separating-axis tests are
/// skipped, and a woken pile makes 16 % fewer rows. Over 27 shots (its
/// nine top cubes at 4, 8 and 12 m/s) the piles slept as before: a
/// median of 311 frames against 346, three of them still awake after 20
/// s either way (`cargo run --release --example box_of_boxes_margins --
/// 20`, `-- 10`). Scene (c)'s worst frame under its shot: contacts 9.6 ->
/// 7.8 ms in DeSmuME (docs/rigid-solver.md, "A tighter margin"). The
/// pyramid keeps the default: at 1 cm its boxes moved for 86 of the 180
/// frames after its shot instead of 65, and its worst frame is far
/// inside the frame anyway.
pub const BOX_MARGIN: Fx1 = fx!(0.01);

/// The box scenes' settings on `w`: sleeping, the update budget, and
/// the contact margin `margin`.
fn box_scene_settings<const B: usize, const J: usize, const R: usize>(
    w: &mut World<B, J, R>,
    margin: Fx1,
) {
    w.settings.sleep = true;
    w.settings.update_budget = BOX_UPDATE_BUDGET;
    w.settings.contact.margin = margin;
}

/// Empties `w` (in place) and puts up the room's four walls.
pub fn reset<const B: usize, const J: usize, const R: usize>(w: &mut World<B, J, R>) {
    w.reset(Settings::DEFAULT);
    let (lo, hi) = (ROOM.min, ROOM.max);
    let h = WALL.div_int(2);
    let height = (hi.y - lo.y).div_int(2);
    let mid = (lo + hi).map(|c| c.div_int(2));
    let span_x = (hi.x - lo.x).div_int(2) + WALL;
    let span_z = (hi.z - lo.z).div_int(2) + WALL;
    let walls: [(Vec3, Vec3); WALLS] = [
        (
            Vec3::new(h, height, span_z),
            Vec3::new(lo.x - h, mid.y, mid.z),
        ),
        (
            Vec3::new(h, height, span_z),
            Vec3::new(hi.x + h, mid.y, mid.z),
        ),
        (
            Vec3::new(span_x, height, h),
            Vec3::new(mid.x, mid.y, lo.z - h),
        ),
        (
            Vec3::new(span_x, height, h),
            Vec3::new(mid.x, mid.y, hi.z + h),
        ),
    ];
    for (half, pos) in walls {
        w.add_body(Body::new_box(half, Fx1::ZERO, pos, Quat::IDENTITY));
    }
}

/// A cube of 1 kg with half side `half`, at rest at `pos`.
pub fn cube(half: Fx1, pos: Vec3) -> Body {
    Body::new_box(Vec3::new(half, half, half), fx!(1.0), pos, Quat::IDENTITY)
}

/// Rows of the pyramid, bottom to top: 4, 3, 2, 1 boxes.
pub const PYRAMID_ROWS: i32 = 4;
/// Half the side of a pyramid box, m.
pub const PYRAMID_HALF: Fx1 = fx!(0.15);
/// Space between neighbours in a row, m (more than the contact margin,
/// so they only touch when pushed; each upper box bridges the gap).
pub const PYRAMID_GAP: Fx1 = fx!(0.04);

/// The room with the ten-box pyramid centred on x = 0, z = 0, in `w`
/// (in place), with sleeping on: the settled pile costs next to nothing
/// until a shot wakes it. Returns the index of the first box (bottom row
/// first).
pub fn pyramid<const B: usize, const J: usize, const R: usize>(w: &mut World<B, J, R>) -> u8 {
    reset(w);
    box_scene_settings(w, super::contact::ContactSettings::DEFAULT.margin);
    let first = w.bodies().len() as u8;
    let pitch = PYRAMID_HALF * 2 + PYRAMID_GAP;
    for level in 0..PYRAMID_ROWS {
        let n = PYRAMID_ROWS - level;
        for i in 0..n {
            // Centred on x = 0: offsets of -(n-1)/2 .. (n-1)/2 pitches.
            let x = Fx1::from_raw((pitch.raw() * (2 * i - (n - 1))) / 2);
            let y = PYRAMID_HALF + PYRAMID_HALF * (2 * level);
            w.add_body(cube(PYRAMID_HALF, Vec3::new(x, y, Fx1::ZERO)));
        }
    }
    first
}

/// A world that holds the room and the pyramid (with room to spare for
/// the rows of a toppled pile).
pub type PyramidWorld = World<16, 0, 480>;

/// Bodies of the box scenes' world: the walls and the box of boxes'
/// cubes (the pyramid's ten fit too).
pub const BOX_WORLD_BODIES: usize = WALLS + super::box_of_boxes::CUBES;
/// Solver rows of the box scenes' world: the box of boxes at rest needs
/// 324, the pyramid 192.
pub const BOX_WORLD_ROWS: usize = 480;
/// The world both box scenes run in (the demo's, the bench's, the
/// in-ROM tests'): about 90 KB, so a static on the DS.
pub type BoxWorld = World<BOX_WORLD_BODIES, 0, BOX_WORLD_ROWS>;

/// Frames between two shots of [`pyramid_shot`].
pub const SHOT_EVERY: u32 = 240;

/// The frame of each [`SHOT_EVERY`] cycle at which [`pyramid_shot`]
/// shoots (the pile has settled by then).
pub const SHOT_FRAME: u32 = 60;

/// The pyramid's disturbance, as the stylus gives it: at frame
/// [`SHOT_FRAME`] of every [`SHOT_EVERY`], an 8 N s shot (8 m/s on a 1 kg
/// box) into the bottom row's first box, aimed along +x and a little
/// up, at a point above its centre, so that it spins into its neighbour.
pub fn pyramid_shot<const B: usize, const J: usize, const R: usize>(
    w: &mut World<B, J, R>,
    frame: u32,
) {
    if frame % SHOT_EVERY != SHOT_FRAME {
        return;
    }
    // The first box after the walls: the bottom row's left end.
    if let Some(b) = w.bodies_mut().get_mut(WALLS) {
        let lever = Vec3::new(Fx1::ZERO, fx!(0.1), Fx1::ZERO);
        b.apply_impulse(
            lever,
            super::raise(Vec3::new(fx!(8.0), fx!(1.0), Fx1::ZERO)),
        );
    }
}

/// The pyramid's determinism scenario: built in `w`, stepped `frames`
/// frames with [`pyramid_shot`]'s schedule (asleep, shot at frame
/// [`SHOT_FRAME`], tumbling); returns the state hash. The DS runs it
/// against the host's hash (`pyramid_shot_hash`).
pub fn pyramid_shot_in<const B: usize, const J: usize, const R: usize>(
    w: &mut World<B, J, R>,
    frames: u32,
) -> u32 {
    pyramid(w);
    for f in 0..frames {
        pyramid_shot(w, f);
        w.step();
    }
    w.state_hash()
}

/// Scene (c)'s pile in the room, asleep, in `w` (in place); returns the
/// index of its first cube, or `None` when the world has too few body
/// slots for the walls and the 27 cubes (a size mistake).
pub fn box_of_boxes<const B: usize, const J: usize, const R: usize>(
    w: &mut World<B, J, R>,
) -> Option<usize> {
    reset(w);
    box_scene_settings(w, BOX_MARGIN);
    let first = super::box_of_boxes::build(w, Vec3::ZERO, false)?;
    w.put_to_sleep();
    Some(first as usize)
}

/// The box of boxes' disturbance: an 8 N s shot, sideways and a little
/// up, into a cube of the top layer's front row (`first` is the first
/// cube), which wakes the pile.
pub fn box_of_boxes_shot<const B: usize, const J: usize, const R: usize>(
    w: &mut World<B, J, R>,
    first: usize,
) {
    let top = first + super::box_of_boxes::CUBES - 2;
    if let Some(b) = w.bodies_mut().get_mut(top) {
        let kick = Vec3::new(fx!(8.0), fx!(1.0), Fx1::ZERO);
        b.apply_impulse(Vec3::ZERO, super::raise(kick));
    }
}

/// The box of boxes' determinism scenario: the sleeping pile shot at
/// once, then `frames` frames; returns the state hash (`None`: the world
/// is too small, see [`box_of_boxes`]).
pub fn box_of_boxes_shot_in<const B: usize, const J: usize, const R: usize>(
    w: &mut World<B, J, R>,
    frames: u32,
) -> Option<u32> {
    let first = box_of_boxes(w)?;
    box_of_boxes_shot(w, first);
    for _ in 0..frames {
        w.step();
    }
    Some(w.state_hash())
}
