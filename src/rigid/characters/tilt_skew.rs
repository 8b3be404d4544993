//! The Armed Mine's tilt skew: how its hand cycle moves with the body's
//! orientation relative to gravity (seed 000: the control points are
//! "transformed each frame from local space to world space and skewed
//! dynamically").
//!
//! The cycle is drawn in a gravity-aligned frame at the shoulder (the
//! body's heading and world up), so it does not turn over with the body.
//! On its back the body lies on its flat top with the shoulder at the
//! ground, and a push straight ahead only rocks it on its rear edge
//! (measured: 4 of 16 headings righted, none from the symmetric start).
//! So, in proportion to how far the body is upside down, the cycle:
//!
//! - sinks, so that its plant points stay below the ground while the
//!   shoulder rises and the hand keeps pressing through the tip-over;
//! - is drawn in towards the shoulder, so the hand presses beside the
//!   body and not far ahead of it;
//! - slides to the side towards which the body's up axis leans. Upside
//!   down that is the side already lifted, so pressing there rolls the
//!   body further over its other edge: a push-up. A right-hand
//!   preference breaks the tie when it lies flat on its back.
//!
//! Every term is a continuous function of the body's up axis and is zero
//! when upright: no state, no recovery motion, the crawl's cycle as is.

use crate::fx;
use crate::fx::{Fx1, Vec3};

/// How far the cycle slides sideways when fully upside down, m.
pub const SIDE_REACH: Fx1 = fx!(0.3);
/// How strongly the side follows the lean: the body's up axis leaning
/// 0.25 (14 degrees) against the preferred side is enough to switch.
pub const LEAN_GAIN: Fx1 = fx!(4.0);
/// The preferred side (+1 right) when the body lies flat.
pub const HANDEDNESS: Fx1 = fx!(1.0);
/// The fraction of the forward reach given up when fully upside down.
pub const DRAW_IN: Fx1 = fx!(0.5);
/// How far the cycle sinks when fully upside down, m (the shoulder is
/// 0.14 m lower than upright, the plant points 0.16 m under it).
pub const SINK: Fx1 = fx!(0.2);

/// The skew for one frame, in the heading frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TiltSkew {
    /// Factor on the cycle's forward coordinate.
    pub reach: Fx1,
    /// Lowered by this much, m.
    pub sink: Fx1,
    /// Moved right (negative: left) by this much, m.
    pub side: Fx1,
}

/// The skew for a body whose up axis is `up` (world, unit), with its
/// heading frame's right axis `right`.
pub fn tilt_skew(up: Vec3, right: Vec3) -> TiltSkew {
    // How far upside down: 0 upright, 1/2 on its side, 1 on its back.
    let w = Fx1::from_raw((fx!(1.0) - up.y).raw() / 2);
    let lean = up.dot(right).lower();
    let toward = (lean.mul_lower(LEAN_GAIN) + HANDEDNESS).clamp(fx!(-1.0), fx!(1.0));
    TiltSkew {
        reach: fx!(1.0) - w.mul_lower(DRAW_IN),
        sink: w.mul_lower(SINK),
        side: w.mul_lower(toward).mul_lower(SIDE_REACH),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn upright_is_no_skew() {
        let s = tilt_skew(Vec3::Y, Vec3::Z);
        assert_eq!(
            s,
            TiltSkew {
                reach: fx!(1.0),
                sink: Fx1::ZERO,
                side: Fx1::ZERO
            }
        );
    }

    #[test]
    fn on_its_back_it_sinks_draws_in_and_prefers_the_right() {
        let s = tilt_skew(-Vec3::Y, Vec3::Z);
        assert_eq!(s.reach, fx!(1.0) - DRAW_IN);
        assert_eq!(s.sink, SINK);
        assert_eq!(s.side, SIDE_REACH);
    }

    #[test]
    fn on_its_back_it_follows_the_lean() {
        // Up leaning 30 degrees to the left of straight down.
        let up = Vec3::new(Fx1::ZERO, fx!(-0.866), fx!(-0.5));
        let s = tilt_skew(up, Vec3::Z);
        assert!(s.side < Fx1::ZERO, "{s:?}");
    }
}
