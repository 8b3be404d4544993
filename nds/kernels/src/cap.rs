//! The speed cap's measure: how far each particle moved in its last step
//! (`cur - prev`), the largest component of any, and the first particle
//! that may be over the cap (the engine's
//! `Particles::clamp_velocities_measured`, which clamps that one and goes
//! on).

use core::ops::Range;

use fxcore::Vec3;

use crate::integrate::Motion;

/// The largest of `|v.x|`, `|v.y|`, `|v.z|` (raw FX1), unsigned, so that
/// a component of `-2^31` is not taken for a small one.
#[inline(always)]
pub fn largest_magnitude(v: Vec3) -> u32 {
    let [x, y, z] = v.raw();
    x.unsigned_abs().max(y.unsigned_abs()).max(z.unsigned_abs())
}

/// Goes through the particles of `range` in order while each one's
/// [`largest_magnitude`] of `cur - prev` is at most `within` (a bound
/// that puts the move surely within the cap), folding it into `moved`
/// as `moved.max(largest as i32)`. Returns the fold, and the first
/// particle beyond `within` (not folded in), if any.
///
/// On the DS, for 16 particles, this is the ARM loop (`arm/cap.rs`),
/// which gives the same results as [`measure_portable`].
#[inline]
pub fn measure<const N: usize>(
    m: &Motion<N>,
    range: Range<usize>,
    within: u32,
    moved: i32,
) -> (i32, Option<usize>) {
    #[cfg(all(target_arch = "arm", target_os = "none"))]
    if let Some(found) = crate::arm::cap::measure16(m, range.clone(), within, moved) {
        return found;
    }
    measure_portable(m, range, within, moved)
}

/// [`measure`] in Rust on every target: the reference the ARM loop is
/// compared with.
pub fn measure_portable<const N: usize>(
    m: &Motion<N>,
    range: Range<usize>,
    within: u32,
    mut moved: i32,
) -> (i32, Option<usize>) {
    for i in range {
        let largest = largest_magnitude(m.cur[i] - m.prev[i]);
        if largest > within {
            return (moved, Some(i));
        }
        moved = moved.max(largest as i32);
    }
    (moved, None)
}
