//! A 32-bit bus-cycle clock from timers 0 and 1 cascaded (33,513,982 Hz;
//! wraps every 128 s, and every caller takes differences, so that is fine).

use super::regs::{TM0CNT_H, TM0CNT_L, TM1CNT_H, TM1CNT_L};

const ENABLE: u16 = 1 << 7;
const CASCADE: u16 = 1 << 2;

/// Starts the clock from zero. Prescaler 0: one tick per bus cycle.
pub fn start_cycle_clock() {
    TM0CNT_H.write(0);
    TM1CNT_H.write(0);
    TM0CNT_L.write(0); // reload values
    TM1CNT_L.write(0);
    TM1CNT_H.write(ENABLE | CASCADE);
    TM0CNT_H.write(ENABLE);
}

/// Bus cycles since `start_cycle_clock`, read wrap-safely: low, high, low;
/// if low went backwards the high half may predate the carry, so it is
/// read again and paired with the second low.
#[inline(always)]
pub fn cycles() -> u32 {
    let lo1 = TM0CNT_L.read();
    let hi = TM1CNT_L.read();
    let lo2 = TM0CNT_L.read();
    if lo2 < lo1 {
        ((TM1CNT_L.read() as u32) << 16) | lo2 as u32
    } else {
        ((hi as u32) << 16) | lo1 as u32
    }
}

/// Bus cycles per second.
pub const BUS_HZ: u32 = 33_513_982;
/// Bus cycles per frame: 263 lines x 355 dots x 6.
pub const FRAME_CYCLES: u32 = 560_190;

/// Microseconds, rounded, from bus cycles (exact for any u32 input).
pub fn cycles_to_us(cycles: u32) -> u32 {
    cycles_to_units(cycles, 1_000_000)
}

/// Tenths of a microsecond, rounded, from bus cycles (for reports with
/// one decimal).
#[cfg(feature = "bench-rom")]
pub fn cycles_to_tenths_us(cycles: u32) -> u32 {
    cycles_to_units(cycles, 10_000_000)
}

fn cycles_to_units(cycles: u32, units_per_second: u64) -> u32 {
    ((cycles as u64 * units_per_second + BUS_HZ as u64 / 2) / BUS_HZ as u64) as u32
}
