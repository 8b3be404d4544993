//! The velocity of an animated body from two of its transforms, seed
//! 001's way: linear velocity from the centre of mass (not the bone
//! origin), angular velocity from the quaternion difference, both over
//! one frame.

use crate::fx::{Mat4x3, Quat, Vec3};

/// Linear (m/s) and angular (rad/s, axis times rate) velocity of a body
/// whose centre of mass sits at `local_com` in its joint's frame, from
/// its transform last frame `tm0` and this frame `tm1`, `rate` frames per
/// second apart.
///
/// Linear: `(tm1 * com - tm0 * com) * rate`. Angular: the rotation
/// vector of `q1 * q0^-1` times `rate` (rotations below half a turn per
/// frame). Accuracy: positions carry half an FX1 step each, so the
/// linear velocity is within `rate` steps (60 steps = 0.015 m/s at 60 Hz).
pub fn body_velocity(tm0: &Mat4x3, tm1: &Mat4x3, local_com: Vec3, rate: i32) -> (Vec3, Vec3) {
    let p0 = tm0.transform_point(local_com);
    let p1 = tm1.transform_point(local_com);
    let linear = (p1 - p0).scale_int(rate);
    let q0 = Quat::from_mat3(&tm0.rot);
    let q1 = Quat::from_mat3(&tm1.rot);
    let angular = (q1 * q0.inverse()).log().scale_int(rate);
    (linear, angular)
}
