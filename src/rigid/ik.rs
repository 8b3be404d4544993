//! Two-bone IK: the upper-arm direction and elbow bend that put the end
//! of a two-segment limb at a target, bending towards a pole direction.

use crate::fx::atan::acos_radians;
use crate::fx::trig::sin_cos_radians;
use crate::fx::{Fx1, Fx2, Mat3, Quat, Vec3};

/// An IK solution.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TwoBone {
    /// Unit direction of the upper segment (world).
    pub upper: Vec3,
    /// Unit bend axis (world): the elbow hinge axis; turning the upper
    /// direction about it by `bend` gives the lower segment.
    pub axis: Vec3,
    /// Elbow bend in radians, `0` straight, up to `pi`.
    pub bend: Fx1,
}

impl TwoBone {
    /// The world rotation of a segment whose local x runs along `upper`
    /// and local z along `axis`.
    pub fn upper_rotation(&self) -> Quat {
        let y = self.axis.cross(self.upper).lower();
        Quat::from_mat3(&Mat3::from_cols(self.upper, y, self.axis))
    }
}

/// Solves for a limb from `root` with segment lengths `l1`, `l2` reaching
/// for `target`, bending towards `pole` (any direction not parallel to the
/// root-target line). Unreachable targets give the straight limb pointing
/// at them; targets too close give the tightest bend.
pub fn two_bone(root: Vec3, target: Vec3, l1: Fx1, l2: Fx1, pole: Vec3) -> TwoBone {
    let to = target - root;
    let dir = to.try_normalise().unwrap_or(Vec3::X);
    let min = (l1 - l2).abs() + crate::fx!(0.001);
    let max = l1 + l2 - crate::fx!(0.001);
    let d = to.length().clamp(min, max);
    // Law of cosines, in FX2 then to FX1 cosines.
    let cos_of = |a: Fx1, b: Fx1, c: Fx1| -> Fx1 {
        let num: Fx2 = a * a + b * b - c * c;
        let den: Fx2 = (a * b) * 2;
        Fx1::from_raw(crate::divsqrt::div_auto(num.raw() << 12, den.raw().max(1)) as i32)
    };
    let shoulder = acos_radians(cos_of(l1, d, l2));
    let elbow_inside = acos_radians(cos_of(l1, l2, d));
    let bend = crate::fx!(core::f64::consts::PI) - elbow_inside;
    // The in-plane direction towards the pole, perpendicular to `dir`.
    let along = pole.dot(dir).lower();
    let perp = (pole - dir.scale(along))
        .try_normalise()
        .unwrap_or_else(|| crate::rigid::joint::perpendicular_basis(dir).0);
    let (s, c) = sin_cos_radians(shoulder);
    let upper = (dir * c + perp * s).lower().normalise();
    let axis = perp.cross(dir).lower().normalise();
    TwoBone { upper, axis, bend }
}
