//! Animation blending: two local poses mixed with a weight, and the
//! cross-fade that drives the weight over time.

use crate::divsqrt::div_auto;
use crate::fx::{Fx1, Fx2};

use super::def::JointPose;
use super::qlerp::nlerp;
use super::sample::lerp_vec;

/// `out[i] = a[i]` mixed towards `b[i]` by `w` in `[0, 1]` (clamped):
/// rotations by nlerp along the shorter arc, translations linearly.
/// `w = 0` gives `a` and `w = 1` gives `b` bit for bit (no
/// renormalisation of the inputs).
#[inline(never)]
pub fn blend_poses(a: &[JointPose], b: &[JointPose], w: Fx1, out: &mut [JointPose]) {
    let w = w.clamp(Fx1::ZERO, Fx1::ONE);
    let n = out.len().min(a.len()).min(b.len());
    if w == Fx1::ZERO {
        out[..n].copy_from_slice(&a[..n]);
        return;
    }
    if w == Fx1::ONE {
        out[..n].copy_from_slice(&b[..n]);
        return;
    }
    for i in 0..n {
        out[i] = JointPose {
            rot: nlerp(a[i].rot, b[i].rot, w),
            trans: lerp_vec(a[i].trans, b[i].trans, w),
        };
    }
}

/// `3w^2 - 2w^3` for `w` in `[0, 1]` (clamped): a weight that starts and
/// ends with zero slope, so a fade adds no velocity step. Exact at 0 and 1.
pub fn smoothstep(w: Fx1) -> Fx1 {
    let w = w.clamp(Fx1::ZERO, Fx1::ONE);
    let w2: Fx2 = w * w;
    let w3 = (w2 * w).lower_to_fx1();
    (w2 * 3).lower() - w3 * 2
}

/// A cross-fade over `duration` seconds: the weight of the new clip.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CrossFade {
    /// Length of the fade (s); 0 switches at once.
    pub duration: Fx1,
    /// Time since the fade began (s).
    pub elapsed: Fx1,
}

impl CrossFade {
    /// A fade starting now.
    pub const fn new(duration: Fx1) -> CrossFade {
        CrossFade {
            duration,
            elapsed: Fx1::ZERO,
        }
    }

    /// Advances by `dt` seconds (saturating at the FX1 range).
    pub fn advance(&mut self, dt: Fx1) {
        self.elapsed = Fx1::from_raw(self.elapsed.raw().saturating_add(dt.raw()));
    }

    /// The new clip's weight: smoothstep of `elapsed / duration`, exactly
    /// 0 at the start and 1 from the end on.
    pub fn weight(&self) -> Fx1 {
        if self.elapsed >= self.duration {
            return Fx1::ONE;
        }
        if self.elapsed <= Fx1::ZERO {
            return Fx1::ZERO;
        }
        let lin = div_auto(
            (self.elapsed.raw() as i64) << 12,
            self.duration.raw() as i64,
        );
        smoothstep(Fx1::from_raw(lin as i32))
    }

    /// True once the fade is over.
    pub fn done(&self) -> bool {
        self.elapsed >= self.duration
    }
}
