//! (g) Ragdoll rain, the stress scene: a ragdoll drops in every
//! [`EVERY`] frames or more, once the last one rests, for as long as the
//! frame's work fits the budget. The first frame that overruns stops the
//! rain and takes out the ragdoll that was landing (it did not fit). The
//! pile that landing woke may still overrun as it settles: each overrun
//! in the [`SETTLE`] frames after the last one takes out the newest
//! ragdoll again. The count left once [`SETTLE`] frames pass without an
//! overrun is the scene's result (shown on screen and in the mailbox),
//! and the crowd it leaves stays inside the frame (`make stress-test
//! STRESS_SCENES=g`).
//!
//! The spawn points come from a fixed-seed generator, so a reset replays
//! the same rain; how far it gets depends on the machine's speed.

use super::{FrameStats, SceneDef, Sim, MAX_RAGDOLLS, ROOM_CAMERA};
use crate::hw::timer::FRAME_CYCLES;
use dsphys::fx::{Fx1, Vec3};
use dsphys::verlet::humanoid::HUMANOID;

pub const SCENE: SceneDef = SceneDef {
    letter: 'g',
    name: "ragdoll rain",
    pending: None,
    stylus: super::STYLUS_GRAB_SHOOT,
    reset,
    update,
    camera: ROOM_CAMERA,
};

/// Frames between drops, at the least.
const EVERY: u32 = 10;
/// The longest wait for the last ragdoll to come to rest before the next
/// drop (it sleeps within 3 s of landing; `tests/verlet_sleep.rs`).
const REST_WAIT: u32 = 240;
/// A new ragdoll costs about one more physics step and its drawing, so
/// none is added once a frame uses more than this share of the budget.
const HEADROOM_PERCENT: u32 = 90;

/// Frames without an overrun after which the crowd the rain left is
/// settled: its count is final, and what the stress gate measures.
const SETTLE: u32 = 120;

#[derive(Clone, Copy, Debug)]
pub struct Spawner {
    seed: u32,
    /// Set by the first overrun: the budget is reached.
    pub full: bool,
    /// The frame of the last drop.
    last_drop: u32,
    /// The frame of the last overrun since the rain stopped.
    last_overrun: u32,
}

impl Spawner {
    pub const fn new() -> Self {
        Spawner {
            seed: 0x2545_F491,
            full: false,
            last_drop: 0,
            last_overrun: 0,
        }
    }

    /// True once the rain has stopped and [`SETTLE`] frames have passed
    /// since its last overrun: the crowd left is the one that fits.
    pub fn settled(&self, frame: u32) -> bool {
        self.full && frame.wrapping_sub(self.last_overrun) >= SETTLE
    }

    /// A number in `-range..range` (FX1 raw), from a 32-bit LCG.
    fn next(&mut self, range: i32) -> Fx1 {
        self.seed = self
            .seed
            .wrapping_mul(1_664_525)
            .wrapping_add(1_013_904_223);
        let unit = (self.seed >> 16) as i32 - 32768; // -32768..32767
        Fx1::from_raw(((unit as i64 * range as i64) >> 15) as i32)
    }
}

fn reset(sim: &mut Sim) {
    spawn(sim);
}

fn spawn(sim: &mut Sim) {
    let s = &mut sim.rain;
    // Feet 1.2 m up, so the head starts just under the 3 m ceiling.
    let origin = Vec3::new(s.next(6144), Fx1::from_raw(4915), s.next(6144));
    let v = Vec3::new(s.next(8192), Fx1::ZERO, s.next(8192));
    let kick = Vec3::new(s.next(12288), Fx1::ZERO, s.next(12288));
    sim.add_with(|r| {
        r.rebuild(&HUMANOID, origin);
        r.set_velocity_all(v);
        r.apply_impulse(0, kick);
    });
}

fn update(sim: &mut Sim, last: &FrameStats) {
    if sim.frame < 2 {
        return; // the first frames after a reset time the reset itself
    }
    if last.overran && !sim.rain.settled(sim.frame) {
        // The ragdoll that was landing did not fit, nor, while the pile
        // it woke still overruns, does the newest left: it goes. The
        // count that fit is the scene's result.
        sim.rain.full = true;
        sim.rain.last_overrun = sim.frame;
        if sim.count > 1 {
            sim.remove_newest();
        }
    }
    let room = (last.busy_cycles as u64 * 100) < (FRAME_CYCLES as u64 * HEADROOM_PERCENT as u64);
    // The last ragdoll lands on the pile and wakes what it hits: the
    // frames cost most then, so the next drop waits until it rests (what
    // the frame's work measures is then the whole cost of the crowd).
    let waited = sim.frame.wrapping_sub(sim.rain.last_drop);
    let rested = sim.iter().last().is_none_or(|r| r.is_asleep()) || waited >= REST_WAIT;
    if !sim.rain.full
        && room
        && rested
        && sim.count < MAX_RAGDOLLS
        && sim.frame.is_multiple_of(EVERY)
    {
        spawn(sim);
        sim.rain.last_drop = sim.frame;
    }
}
