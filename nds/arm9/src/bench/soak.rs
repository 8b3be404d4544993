//! `soak` (issue 8): the long run of `dsphys::soak` (two ragdolls in the
//! box room, random stylus impulses, the last fifth without), with its
//! invariants. The frame count is the runner's `host_command[0]`
//! (`--host-command 0=N`, written at boot, long before the soak starts),
//! or [`DEFAULT_FRAMES`]: `make bench` gives melonDS, which emulates about
//! a third as fast as DeSmuME, a shorter soak. A broken invariant panics
//! after the figures are written, so `make bench` fails.

use super::record;
use crate::hw::once::TakeOnce;
use dsphys::soak::{soak, SOAK_RAGDOLLS};
use dsphys::verlet::{Ragdoll, Settings};
use mailbox::Mailbox;

/// The soak: 100,000 frames (about a minute of DS time).
const DEFAULT_FRAMES: u32 = 100_000;
const SEED: u32 = 1;

static CROWD: TakeOnce<[Option<Ragdoll>; SOAK_RAGDOLLS]> =
    TakeOnce::new([const { None }; SOAK_RAGDOLLS]);

/// `soak.frames`, `soak.panics` (0: a panic would have stopped the ROM
/// before this), `soak.max_speed` (m/s), `soak.escaped_particles`,
/// `soak.energy_growth` (the largest energy of the last tenth over the
/// energy when the impulses stopped), and the counts behind them.
#[inline(never)]
pub fn figures(mb: &mut Mailbox) {
    crate::hw::itcm::verlet();
    // black_box: the runner writes this word from outside the program.
    let asked = core::hint::black_box(&mb.header.host_command)[0];
    let frames = if asked == 0 { DEFAULT_FRAMES } else { asked };
    let crowd = CROWD.take().expect("soak crowd taken once");
    let r = soak(crowd, frames, SEED);
    record(mb, "soak.frames", r.frames as i32, 0);
    record(mb, "soak.panics", 0, 0);
    let mm_per_s = (r.max_speed.raw() as i64 * 1000 / 4096) as i32;
    record(mb, "soak.max_speed", mm_per_s, 3);
    record(mb, "soak.escaped_particles", r.escaped_particles as i32, 0);
    record(
        mb,
        "soak.energy_growth",
        r.energy_growth_permille() as i32,
        3,
    );
    record(mb, "soak.impulses", r.impulses as i32, 0);
    record(mb, "soak.energy_at_off_mj", r.energy_at_off_mj as i32, 0);
    record(
        mb,
        "soak.energy_tail_max_mj",
        r.energy_tail_max_mj as i32,
        0,
    );
    record(mb, "soak.ragdolls", SOAK_RAGDOLLS as i32, 0);
    record(mb, "soak.hash", r.hash as i32, 0);
    if let Err(e) = r.check(&Settings::DEFAULT) {
        panic!("soak: {e}");
    }
}
