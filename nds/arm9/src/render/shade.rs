//! Flat lighting on the CPU: one colour per face from its normal, so the
//! GX needs no light setup (and lines and faces share the colour path).

use crate::hw::gx::pack10;
use crate::hw::video::rgb;

/// The light's direction (towards the light), unit, FX1 raw: up, from the
/// front right.
const LIGHT: [i64; 3] = [1636, 3273, 1841];
/// Brightness of a face turned away from the light, of 256.
const AMBIENT: i64 = 90;

/// The same light for the geometry engine's light 0: its direction of
/// travel (the reverse of [`LIGHT`]) as three 1.9 fields, as
/// LIGHT_VECTOR and NORMAL take them.
pub const LIGHT_TRAVEL: u32 = pack10(-204, -409, -230);

/// DIF_AMB's word for `base` lit by the hardware as [`lit`] lights it on
/// the CPU: ambient `AMBIENT / 256` of it, and the rest diffuse. Under a
/// white light 0 the engine gives `(dif * dot + amb) * 31 / 32` a channel
/// (melonDS's `CalculateLighting`), within a step of [`shade`]'s 5 bits.
pub const fn material(base: Rgb) -> u32 {
    const fn part(c: u8, k: i64) -> u8 {
        ((c as i64 * k) >> 8) as u8
    }
    let dif = rgb(
        part(base.0, 256 - AMBIENT),
        part(base.1, 256 - AMBIENT),
        part(base.2, 256 - AMBIENT),
    );
    let amb = rgb(
        part(base.0, AMBIENT),
        part(base.1, AMBIENT),
        part(base.2, AMBIENT),
    );
    (dif & 0x7FFF) as u32 | ((amb & 0x7FFF) as u32) << 16
}

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

/// `base` lit by a face whose unit normal is `n` with `frac` fraction bits.
pub fn lit(base: Rgb, n: [i32; 3], frac: u32) -> u16 {
    shade(base, towards_light(n) >> frac)
}

/// `base` at `dot`, the face normal's dot product with the light (FX1
/// raw: 4096 facing it; the ambient term alone at 0 and below).
fn shade(base: Rgb, dot: i64) -> u16 {
    let k = AMBIENT + (256 - AMBIENT) * dot.max(0) / 4096;
    let ch = |c: u8| ((c as i64 * k) >> 8).clamp(0, 255) as u8;
    rgb(ch(base.0), ch(base.1), ch(base.2))
}
