//! Keyframe blending: a clip sampled at a time gives a local pose.
//!
//! Between two keys each rotation is the normalised linear interpolation
//! ([`super::qlerp::nlerp`], the shorter arc) and the root translation is linear.
//! Keys are dense (a walk cycle has 17), so nlerp's uneven speed between
//! two keys (under 0.2 % for the 22.5° steps of these clips) does not
//! show, and it costs a table look-up and two Newton steps instead of
//! slerp's trigonometry.

use crate::divsqrt::div_i32;
use crate::fx::{Fx1, Quat, Vec3};

use super::def::{Clip, JointPose, Skeleton};
use super::qlerp::nlerp;

/// Where a time falls in a clip: key `key`, fraction `frac` of the way to
/// the next key, and `cycles` whole repetitions before it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KeyPos {
    /// The key at or before the time.
    pub key: usize,
    /// `[0, 1)` in FX1: the way to key `key + 1` (0 on the last key).
    pub frac: Fx1,
    /// Completed cycles of a looping clip (0 otherwise).
    pub cycles: i32,
}

/// Locates `t` (seconds; negative counts as 0) in `clip`. A looping clip
/// wraps; a one-shot clip holds its last key.
pub fn locate(clip: &Clip, t: Fx1) -> KeyPos {
    let times = clip.times;
    let last = times.len() - 1;
    let dur = clip.duration();
    let mut t = t.max(Fx1::ZERO);
    let mut cycles = 0;
    if t >= dur {
        if !clip.looping || dur <= Fx1::ZERO {
            return KeyPos {
                key: last,
                frac: Fx1::ZERO,
                cycles: 0,
            };
        }
        cycles = div_i32(t.raw(), dur.raw());
        t = Fx1::from_raw(t.raw() - cycles * dur.raw());
    }
    let mut key = 0;
    while key + 1 < last && times[key + 1] <= t {
        key += 1;
    }
    let span = times[key + 1] - times[key];
    // FX2 / FX1 -> FX1, truncated: frac < 1 as t < times[key + 1].
    let frac = ((t - times[key]).raise() / span).min(Fx1::ONE);
    KeyPos { key, frac, cycles }
}

/// `a + (b - a) * w`, one rounding per component.
#[inline]
pub(crate) fn lerp_vec(a: Vec3, b: Vec3, w: Fx1) -> Vec3 {
    a + (b - a).scale(w)
}

/// Between two rotation keys; exactly `a` at fraction 0.
#[inline]
fn key_rot(a: Quat, b: Quat, frac: Fx1) -> Quat {
    if frac == Fx1::ZERO {
        a
    } else {
        nlerp(a, b, frac)
    }
}

/// The local pose of `skel` at time `t` of `clip` into `out` (one entry per
/// joint): the bind pose, with the clip's tracks and root translation.
/// A looping clip's root translation goes on by one cycle's travel per
/// repetition (saturating near the FX1 range, 524 km).
#[inline(never)]
pub fn sample_clip(skel: &Skeleton, clip: &Clip, t: Fx1, out: &mut [JointPose]) {
    let p = locate(clip, t);
    let next = (p.key + 1).min(clip.times.len() - 1);
    out[..skel.len()].copy_from_slice(skel.bind_pose);
    for track in clip.tracks {
        out[track.joint as usize].rot = key_rot(track.keys[p.key], track.keys[next], p.frac);
    }
    let rt = clip.root_trans;
    let mut root = lerp_vec(rt[p.key], rt[next], p.frac);
    if p.cycles != 0 {
        let travel = rt[rt.len() - 1] - rt[0];
        root += travel.map(|c| Fx1::from_raw(c.raw().saturating_mul(p.cycles)));
    }
    out[0].trans = root;
}
