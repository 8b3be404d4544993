//! `precision` (issue 8): seed 004's "1 percent" as counts, from
//! `dsphys::collision::precision::precision_benchmark` (hand-sized
//! spheres swept through triangles; a miss is a sphere that tunnelled).
//!
//! A sweep (both routines and the exact tunnelling check) takes about
//! 2.3 ms in DeSmuME, so 100,000 would be almost four minutes of emulated
//! time: the ROM runs [`SWEEPS`] of the host test's seed, and `make bench`
//! runs the full 100,000 on the host (`examples/precision.rs`) and fails
//! unless the ROM's counts equal the host's for the same sweeps and seed.

use super::record;
use crate::hw::timer;
use dsphys::collision::precision::precision_benchmark;
use mailbox::Mailbox;

/// The seed of the host's 100,000-sweep test (`tests/collision_sweep.rs`).
const SEED: u32 = 1;
/// Sweeps run in the ROM.
const SWEEPS: u32 = 2000;

/// `precision.rom_sweeps`, `precision.rom_misses_tracked`,
/// `precision.rom_misses_naive`, `precision.rom_seed` and the time per
/// sweep (`precision.us_per_sweep`).
#[inline(never)]
pub fn figures(mb: &mut Mailbox) {
    crate::hw::itcm::verlet();
    let t0 = timer::cycles();
    let r = precision_benchmark(SWEEPS, SEED);
    let cycles = timer::cycles().wrapping_sub(t0);
    record(mb, "precision.rom_sweeps", r.sweeps as i32, 0);
    record(mb, "precision.rom_seed", SEED as i32, 0);
    record(
        mb,
        "precision.rom_misses_tracked",
        r.misses_tracked as i32,
        0,
    );
    record(mb, "precision.rom_misses_naive", r.misses_naive as i32, 0);
    let tenths_us = timer::cycles_to_tenths_us(cycles) as u64;
    let per_sweep = tenths_us / r.sweeps.max(1) as u64;
    record(mb, "precision.us_per_sweep", per_sweep as i32, 1);
}
