//! Flat lighting on the CPU: one colour per face from its normal, so the
//! GX needs no light setup (and lines and faces share the colour path).

use crate::hw::video::rgb;

/// The light's direction (towards the light), unit, FX1 raw: up, from the
/// front right.
const LIGHT: [i64; 3] = [1636, 3273, 1841];
/// Brightness of a face turned away from the light, of 256.
const AMBIENT: i64 = 90;

/// An 8-bit RGB colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rgb(pub u8, pub u8, pub u8);

impl Rgb {
    pub const fn bgr555(self) -> u16 {
        rgb(self.0, self.1, self.2)
    }
}

/// `n . LIGHT` (FX1 raw times `2^frac`).
fn towards_light(n: [i32; 3]) -> i64 {
    n[0] as i64 * LIGHT[0] + n[1] as i64 * LIGHT[1] + n[2] as i64 * LIGHT[2]
}

/// True when a face of normal `n` is turned towards the light: `lit`
/// gives it more than the ambient term only then. Of two opposite faces,
/// at most one is.
pub fn facing(n: [i32; 3]) -> bool {
    towards_light(n) > 0
}

/// `base` lit by a face whose unit normal is `n` with `frac` fraction bits.
pub fn lit(base: Rgb, n: [i32; 3], frac: u32) -> u16 {
    let dot = towards_light(n) >> frac;
    // dot is now FX1 raw (4096 = facing the light).
    let k = AMBIENT + (256 - AMBIENT) * dot.max(0) / 4096;
    let ch = |c: u8| ((c as i64 * k) >> 8).clamp(0, 255) as u8;
    rgb(ch(base.0), ch(base.1), ch(base.2))
}
