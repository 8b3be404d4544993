//! The block the ARM7 fills with what only it can read (X, Y, the lid and
//! the touch screen) and the ARM9 reads. It lives at a fixed address in
//! main RAM inside the range the ARM9's MPU leaves uncached
//! (0x02300000-0x023FFFFF), 64 KiB past the results mailbox, where
//! nothing is linked: both CPUs see every write at once.
//!
//! This file is compiled into both programs (the ARM9 includes it by
//! path), so the layout is written down once.
//!
//! Consistency: the ARM7 makes `seq` odd, writes the fields, then makes it
//! even again; a reader that sees the same even `seq` before and after
//! copying the fields has a consistent snapshot (a sequence lock).

/// Where the block is.
pub const ADDRESS: usize = 0x0231_0000;
/// `magic` once the ARM7 runs: "IN7B".
pub const MAGIC: u32 = u32::from_le_bytes(*b"IN7B");

/// EXTKEYIN (ARM7 0x04000136) bits, as copied into `ext_keys` (1 = held,
/// inverted from the register's active-low X, Y and pen bits).
pub const EXT_X: u16 = 1 << 0;
pub const EXT_Y: u16 = 1 << 1;
pub const EXT_PEN: u16 = 1 << 6;
/// The hinge: 1 = lid closed (the register's bit is already active high).
pub const EXT_LID_CLOSED: u16 = 1 << 7;

/// `power` once a power-off request was taken: "OF".
pub const POWERING_OFF: u16 = u16::from_le_bytes(*b"OF");
/// `power` while the console sleeps with the lid closed: "SL".
pub const SLEEPING: u16 = u16::from_le_bytes(*b"SL");

/// Where the pixel mapping came from.
pub const CALIBRATION_DEFAULT: u16 = 0;
pub const CALIBRATION_FIRMWARE: u16 = 1;

#[repr(C)]
#[derive(Clone, Copy, Default, Debug, PartialEq, Eq)]
pub struct InputBlock {
    pub magic: u32,
    /// Odd while the ARM7 is writing (see the module docs).
    pub seq: u32,
    /// Updates so far (one per ARM7 poll, once per frame).
    pub updates: u32,
    /// EXT_* bits, 1 = held / closed / pen down.
    pub ext_keys: u16,
    /// 1 while the pen is down and the position below is valid.
    pub touching: u16,
    /// The touch controller's 12-bit readings.
    pub raw_x: u16,
    pub raw_y: u16,
    /// Screen pixels (0..255, 0..191), through the calibration.
    pub px: u16,
    pub py: u16,
    /// CALIBRATION_FIRMWARE or CALIBRATION_DEFAULT.
    pub calibration: u16,
    /// [`POWERING_OFF`] once the ARM7 has taken the ARM9's power-off
    /// request (written just before the power manager is told);
    /// [`SLEEPING`] while the lid is closed and the console sleeps.
    pub power: u16,
    /// The calibration in use: ADC readings (adc_x1, adc_y1, adc_x2,
    /// adc_y2) at screen points (scr_x1, scr_y1, scr_x2, scr_y2).
    pub adc: [u16; 4],
    pub scr: [u16; 4],
    /// The pressure readings Z1 and Z2 of this frame's middle sample
    /// (0 with the pen up), for the profiler and tests.
    pub z1: u16,
    pub z2: u16,
}

/// Two calibration points, as the firmware's user settings store them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Calibration {
    pub adc: [u16; 4],
    pub scr: [u16; 4],
}

impl Calibration {
    /// The documented default when the firmware has none (GBATEK gives the
    /// touch controller's usual range as X 0x100..0xED0, Y 0x0B0..0xF20 for
    /// the full screen): that range maps linearly onto 0..255, 0..191.
    pub const DEFAULT: Calibration = Calibration {
        adc: [0x100, 0x0B0, 0xED0, 0xF20],
        scr: [0, 0, 255, 191],
    };

    /// The firmware's two points, if they can be used: distinct ADC and
    /// screen values on both axes, readings within 12 bits, points on
    /// screen.
    pub fn from_user_settings(adc: [u16; 4], scr: [u8; 4]) -> Option<Calibration> {
        let [ax1, ay1, ax2, ay2] = adc;
        let [sx1, sy1, sx2, sy2] = scr;
        let ok = ax1 != ax2
            && ay1 != ay2
            && sx1 != sx2
            && sy1 != sy2
            && adc.iter().all(|&a| a < 0x1000)
            && sy1 < 192
            && sy2 < 192;
        ok.then_some(Calibration {
            adc,
            scr: scr.map(|s| s as u16),
        })
    }

    /// Pixels from the 12-bit readings, clamped to the screen. The mapping
    /// is the line through the two calibration points, rounded to nearest.
    pub fn pixels(self, raw_x: u16, raw_y: u16) -> (u16, u16) {
        let axis = |raw: u16, a1: u16, a2: u16, s1: u16, s2: u16, max: i32| {
            let num = (raw as i32 - a1 as i32) * (s2 as i32 - s1 as i32);
            let den = a2 as i32 - a1 as i32;
            // Round to nearest with a positive denominator.
            let (num, den) = if den < 0 { (-num, -den) } else { (num, den) };
            let q = (num + if num >= 0 { den / 2 } else { -den / 2 }) / den;
            (q + s1 as i32).clamp(0, max) as u16
        };
        let [ax1, ay1, ax2, ay2] = self.adc;
        let [sx1, sy1, sx2, sy2] = self.scr;
        (
            axis(raw_x, ax1, ax2, sx1, sx2, 255),
            axis(raw_y, ay1, ay2, sy1, sy2, 191),
        )
    }
}
