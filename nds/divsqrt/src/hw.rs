//! The ARM9's divider and square-root unit (GBATEK "DS Maths").
//! Callers have already excluded zero divisors and `MIN / -1`.
//! And the ARM9's `SMLAWB` instruction.

use core::ptr::{read_volatile, write_volatile};

const DIVCNT: *mut u16 = 0x0400_0280 as *mut u16;
const NUMER_LO: *mut u32 = 0x0400_0290 as *mut u32;
const NUMER_HI: *mut u32 = 0x0400_0294 as *mut u32;
const DENOM_LO: *mut u32 = 0x0400_0298 as *mut u32;
const DENOM_HI: *mut u32 = 0x0400_029C as *mut u32;
const DIV_RESULT: *const i64 = 0x0400_02A0 as *const i64;
const SQRTCNT: *mut u16 = 0x0400_02B0 as *mut u16;
const SQRT_RESULT: *const u32 = 0x0400_02B4 as *const u32;
const SQRT_PARAM: *mut u64 = 0x0400_02B8 as *mut u64;
const BUSY: u16 = 1 << 15;

/// Every register write restarts the unit, and DeSmuME divides on the
/// host at each write: a half-written pair such as the new numerator
/// `i64::MIN` over the previous call's divisor `-1` kills the emulator
/// with SIGFPE. So the numerator is cleared first (high word first, so it
/// never goes negative) and written last: every intermediate is 0 / x or
/// a non-negative numerator over the new divisor. Two extra stores,
/// against 18-34 cycles of latency.
#[inline(always)]
fn divide(mode: u16, n: i64, d: i64) -> i64 {
    // SAFETY: the divider registers are always mapped on the ARM9, accessed
    // with their natural widths, and nothing else (no IRQ handler) uses them.
    unsafe {
        write_volatile(NUMER_HI, 0);
        write_volatile(NUMER_LO, 0);
        write_volatile(DIVCNT, mode);
        write_volatile(DENOM_LO, d as u32);
        write_volatile(DENOM_HI, (d >> 32) as u32);
        write_volatile(NUMER_LO, n as u32);
        write_volatile(NUMER_HI, (n >> 32) as u32);
        while read_volatile(DIVCNT) & BUSY != 0 {}
        read_volatile(DIV_RESULT)
    }
}

#[inline]
pub fn div_i32(n: i32, d: i32) -> i32 {
    divide(0, n as i64, d as i64) as i32
}

#[inline]
pub fn div_i64_i32(n: i64, d: i32) -> i64 {
    divide(1, n, d as i64)
}

#[inline]
pub fn div_i64(n: i64, d: i64) -> i64 {
    divide(2, n, d)
}

#[inline(always)]
fn root(mode: u16, x: u64) -> u32 {
    // SAFETY: as for the divider: fixed, always-mapped ARM9 registers used
    // only from this module.
    unsafe {
        write_volatile(SQRTCNT, mode);
        write_volatile(SQRT_PARAM, x);
        while read_volatile(SQRTCNT) & BUSY != 0 {}
        read_volatile(SQRT_RESULT)
    }
}

#[inline]
pub fn sqrt_u32(x: u32) -> u32 {
    root(0, x as u64)
}

#[inline]
pub fn sqrt_u64(x: u64) -> u32 {
    root(1, x)
}

#[inline(always)]
pub fn smlawb(n: i32, m: i32, s: i32) -> i32 {
    let r: i32;
    // SAFETY: one ARMv5TE data instruction (the ARM9 is an ARM946E-S, and
    // the ROM is ARM code): it reads three registers and writes one,
    // touches no memory and no stack. It may set the sticky Q flag on an
    // overflowing sum, which nothing here reads (so no `preserves_flags`).
    unsafe {
        core::arch::asm!(
            "smlawb {r}, {m}, {s}, {n}",
            r = lateout(reg) r,
            m = in(reg) m,
            s = in(reg) s,
            n = in(reg) n,
            options(pure, nomem, nostack),
        );
    }
    r
}
