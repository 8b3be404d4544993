//! (f) The Armed Mine (`dsphys::rigid::characters::armed_mine`): a box
//! body that crawls with its one motorised arm towards a goal on the
//! floor. Touch the floor to move the goal; until then it heads for a
//! point ahead of it. Touch the creature to drag it by that point. Its
//! motors only ever push the hand against the ground: nothing scripts
//! the crawl. The runner's stress test turns it upside down
//! ([`turn_upside_down`], asked for through the mailbox: see `demo.rs`).

use super::{FrameStats, Rigid, SceneDef, Sim, ROOM_CAMERA};
use crate::render::Camera;
use dsphys::fx;
use dsphys::fx::{Fx1, Vec3};
use dsphys::rigid::characters::armed_mine::BODY_HALF;

pub const SCENE: SceneDef = SceneDef {
    letter: 'f',
    name: "the Armed Mine",
    pending: None,
    stylus: "stylus: drag the mine, or set its goal",
    reset,
    update,
    camera: CAMERA,
};

/// Where it starts: resting on the floor, facing +x, at the room's left.
const START: Vec3 = Vec3::new(fx!(-1.0), BODY_HALF.y, fx!(0.0));
/// The goal until the stylus sets one: ahead, across the room.
pub const DEFAULT_GOAL: Vec3 = Vec3::new(fx!(1.5), Fx1::ZERO, fx!(0.5));

/// Close on the creature's path, from the front right.
const CAMERA: Camera = Camera {
    target: Vec3::new(fx!(-0.3), fx!(0.2), fx!(0.2)),
    distance: fx!(2.6),
    ..ROOM_CAMERA
};

fn reset(sim: &mut Sim) {
    sim.mine.reset(START, DEFAULT_GOAL);
    sim.rigid = Rigid::Mine;
}

fn update(sim: &mut Sim, _: &FrameStats) {
    sim.mine.goal = sim.goal.unwrap_or(DEFAULT_GOAL);
}

/// Turns the creature upside down where it stands: rebuilt at rest there,
/// rolled 180 degrees about its forward axis, its arm straight ahead
/// along +x (`ArmedMine::reset_upside_down`, the start of the engine's
/// recovery scenario), still steering for its goal. False (and nothing
/// done) when the scene has no Armed Mine.
pub fn turn_upside_down(sim: &mut Sim) -> bool {
    if sim.rigid != Rigid::Mine {
        return false;
    }
    let c = sim.mine.body().position();
    let (at, goal) = (Vec3::new(c.x, START.y, c.z), sim.mine.goal);
    sim.mine.reset_upside_down(at, goal);
    true
}
