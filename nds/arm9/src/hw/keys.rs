//! The buttons the ARM9 can see (X, Y and touch come from the ARM7).
// The whole key map, though the current scenes read only some keys.
#![allow(dead_code)]

use super::regs::KEYINPUT;

pub const A: u16 = 1 << 0;
pub const B: u16 = 1 << 1;
pub const SELECT: u16 = 1 << 2;
pub const START: u16 = 1 << 3;
pub const RIGHT: u16 = 1 << 4;
pub const LEFT: u16 = 1 << 5;
pub const UP: u16 = 1 << 6;
pub const DOWN: u16 = 1 << 7;
pub const R: u16 = 1 << 8;
pub const L: u16 = 1 << 9;

/// Buttons held now, one bit each (1 = held).
pub fn held() -> u16 {
    !KEYINPUT.read() & 0x03FF
}
