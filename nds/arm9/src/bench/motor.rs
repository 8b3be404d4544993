//! `motor_character_us` (issue 6): the powered ragdoll (13 boxes, 12
//! motorised joints, ground contacts) per phase and in total, averaged
//! over 240 frames of the push scenario (standing, pushed at frame 20,
//! reeling and recovering its pose on its feet; 16 solver sweeps,
//! `powered::SETTINGS`).

use super::{record, us_x10};
use crate::hw::once::TakeOnce;
use crate::hw::timer;
use dsphys::fx::Vec3;
use dsphys::rigid::characters::powered::{push, PoweredRagdoll, IDLE, PUSH_FRAME};
use dsphys::rigid::world::Phase;
use mailbox::Mailbox;

/// Frames averaged.
const FRAMES: u32 = 240;

/// About 40 KB (the row buffer): a static, never the DTCM stack.
static CHARACTER: TakeOnce<PoweredRagdoll> = TakeOnce::new(PoweredRagdoll::PLACEHOLDER);

/// Phase names, in `Phase` order, as bench keys.
const KEYS: [&str; 5] = [
    "motor_character_us.control",
    "motor_character_us.joints",
    "motor_character_us.contacts",
    "motor_character_us.solve",
    "motor_character_us.integrate",
];

#[inline(never)]
pub fn figures(mb: &mut Mailbox) {
    crate::hw::itcm::rigid();
    let r = CHARACTER.take().expect("motor bench character taken once");
    r.reset(Vec3::ZERO);
    let mut phases = [0u64; 5];
    let mut total = 0u64;
    let mut rows = 0u64;
    // Frames that ended folded (seed 002's level of detail), and their cost.
    let (mut folded, mut folded_cycles) = (0u64, 0u64);
    // Frames that ended folded above the ankles (the partial level).
    let (mut partly, mut partly_cycles) = (0u64, 0u64);
    let mut resting = 0i32;
    for f in 0..FRAMES {
        if f == PUSH_FRAME {
            push(r);
        }
        let start = timer::cycles();
        let mut last = start;
        r.step_marked(&IDLE, &mut |p: Phase| {
            let now = timer::cycles();
            phases[p as usize] += now.wrapping_sub(last) as u64;
            last = now;
        });
        total += last.wrapping_sub(start) as u64;
        rows += r.world.rows.len() as u64;
        resting += r.is_resting() as i32;
        if r.is_folded() {
            folded += 1;
            folded_cycles += last.wrapping_sub(start) as u64;
        } else if r.is_partly_folded() {
            partly += 1;
            partly_cycles += last.wrapping_sub(start) as u64;
        }
    }
    core::hint::black_box(r.world.state_hash());
    let per_frame = |c: u64| us_x10((c / FRAMES as u64) as u32);
    for (key, c) in KEYS.iter().zip(phases) {
        record(mb, key, per_frame(c), 1);
    }
    record(mb, "motor_character_us.total", per_frame(total), 1);
    record(mb, "motor_character.folded_frames", folded as i32, 0);
    record(mb, "motor_character.resting_frames", resting, 0);
    if let Some(c) = folded_cycles.checked_div(folded) {
        record(mb, "motor_character_us.folded", us_x10(c as u32), 1);
    }
    record(mb, "motor_character.partial_frames", partly as i32, 0);
    if let Some(c) = partly_cycles.checked_div(partly) {
        record(mb, "motor_character_us.partial", us_x10(c as u32), 1);
    }
    let unfolded = FRAMES as u64 - folded - partly;
    if let Some(c) = (total - folded_cycles - partly_cycles).checked_div(unfolded) {
        record(mb, "motor_character_us.unfolded", us_x10(c as u32), 1);
    }
    record(
        mb,
        "motor_character.rows_per_frame",
        (rows * 10 / FRAMES as u64) as i32,
        1,
    );
}
