//! Steady touch readings from the touch controller (issue 22): several
//! samples a frame, their median, a pressure check, and a hold that
//! keeps a grab from jumping when the pen lands or lifts.
//!
//! Pure logic, shared by the ARM7 program and a host test
//! (`tests/arm7_touch_filter.rs`) by path.
//!
//! Per frame the ARM7 reads [`SAMPLES`] sets of X, Y, Z1 and Z2 (12-bit
//! readings of the TSC2046). A set counts when the pen presses: `Z1 >=
//! MIN_Z1` (Z1 is near 0 with no contact), and X and Y are not the
//! readings of a pen lifted during the conversion.
//!
//! With at least three sets that count, the frame's position is the
//! median of their X and Y, if the middle three of each lie within
//! [`MAX_SPREAD`]; otherwise the frame is unsteady. A steady frame is
//! reported as touching. An unsteady one while touching keeps the last
//! position for up to [`HOLD_FRAMES`] frames, so a grab is not let go
//! and taken again (a shot) on one noisy frame; an unsteady one while not
//! touching reports nothing, so the first reported position is a steady
//! one. The pen-down bit going up ends a touch at once.
//!
//! Why no limit on the touch resistance, `R = R_x (X / 4096) (Z2 / Z1 -
//! 1)` (the data sheet's, which would also reject light touches): no
//! emulator here gives Z2 a meaning to test it against. melonDS 0.9.3
//! answers 0xFFF for Z1 and Z2; DeSmuME 0.9.12's readings wander with
//! the pen's position (Z1 79-4050, Z2 wrapping through 0 in one 40-pixel
//! drag), so any limit rejected a steady pen there. Z1 and Z2 are
//! published in the input block for whoever measures a real console.

/// Sample sets read per frame.
pub const SAMPLES: usize = 5;
/// Least Z1 of a set that counts (DeSmuME's model gives 80 and up while
/// touching, melonDS 0xFFF; 0 with no contact).
pub const MIN_Z1: u16 = 40;
/// Largest spread of the middle three readings of an axis (ADC units;
/// about 16 make a pixel).
pub const MAX_SPREAD: u16 = 32;
/// Unsteady frames a touch is held through before it ends.
pub const HOLD_FRAMES: u8 = 2;

/// One set of readings.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Sample {
    pub x: u16,
    pub y: u16,
    pub z1: u16,
    pub z2: u16,
}

/// True for a set that counts (see the module docs).
pub fn pressed(s: &Sample) -> bool {
    // X 0 or Y 0xFFF: the pen lifted during the conversion.
    s.x != 0 && s.y != 0xFFF && s.z1 >= MIN_Z1
}

/// The median of the counted sets' X and Y, if steady: `None` with fewer
/// than three, or a spread of the middle three above [`MAX_SPREAD`].
pub fn steady_median(samples: &[Sample; SAMPLES]) -> Option<(u16, u16)> {
    let mut xs = [0u16; SAMPLES];
    let mut ys = [0u16; SAMPLES];
    let mut n = 0;
    for s in samples.iter().filter(|s| pressed(s)) {
        xs[n] = s.x;
        ys[n] = s.y;
        n += 1;
    }
    if n < 3 {
        return None;
    }
    let (xs, ys) = (&mut xs[..n], &mut ys[..n]);
    xs.sort_unstable();
    ys.sort_unstable();
    let mid = n / 2;
    let spread = |v: &[u16]| v[mid + 1] - v[mid - 1];
    if spread(xs) > MAX_SPREAD || spread(ys) > MAX_SPREAD {
        return None;
    }
    Some((xs[mid], ys[mid]))
}

/// The touch state carried from frame to frame.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TouchFilter {
    /// The reported position (raw X, Y) while touching.
    last: Option<(u16, u16)>,
    /// Unsteady frames in a row while touching.
    held: u8,
}

impl TouchFilter {
    /// This frame's touch, raw X and Y, from the pen-down bit and the
    /// frame's samples (ignored with the pen up).
    pub fn update(&mut self, pen_down: bool, samples: &[Sample; SAMPLES]) -> Option<(u16, u16)> {
        if !pen_down {
            *self = TouchFilter::default();
            return None;
        }
        match steady_median(samples) {
            Some(p) => {
                self.last = Some(p);
                self.held = 0;
            }
            None if self.last.is_some() && self.held < HOLD_FRAMES => self.held += 1,
            None => *self = TouchFilter::default(),
        }
        self.last
    }
}
