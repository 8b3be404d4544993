//! Pose targets for motorised characters: per joint, a target rotation
//! of the child relative to its neutral pose (ball joints) or an angle
//! (hinges). An animation clip plugs in by implementing [`PoseSource`];
//! until then the built-in [`StandingPose`] and [`CyclicPose`] drive the
//! powered ragdoll.

use crate::fx::trig::sin_cos_radians;
use crate::fx::{Angle, Fx1, Quat, Vec3};

/// A joint target.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum JointTarget {
    /// A ball joint's rotation from neutral (child frame).
    Rotation(Quat),
    /// A hinge angle, radians.
    Angle(Fx1),
}

/// Anything that gives a target per joint at a time (frames since start).
pub trait PoseSource {
    /// The target of joint `joint` at frame `frame`.
    fn target(&self, joint: usize, frame: u32) -> JointTarget;
}

/// The neutral pose: every rotation the identity, every angle zero.
#[derive(Clone, Copy, Debug, Default)]
pub struct StandingPose;

impl PoseSource for StandingPose {
    fn target(&self, _joint: usize, _frame: u32) -> JointTarget {
        JointTarget::Rotation(Quat::IDENTITY)
    }
}

/// A cyclic pose: each listed joint swings about its axis by
/// `amplitude * sin(2 pi frame / period + phase)`; others stay neutral.
#[derive(Clone, Copy, Debug)]
pub struct CyclicPose<const N: usize> {
    /// `(joint, axis in the child's frame, amplitude rad, phase rad)`.
    pub swings: [(usize, Vec3, Fx1, Fx1); N],
    /// Period in frames.
    pub period: u32,
    /// Joints that are hinges (their targets are angles).
    pub hinges: u32,
}

impl<const N: usize> PoseSource for CyclicPose<N> {
    fn target(&self, joint: usize, frame: u32) -> JointTarget {
        let hinge = self.hinges & (1 << joint) != 0;
        // A joint no swing lists holds neutral: the same target as a swing
        // of zero (`from_axis_angle` of 0 is the identity exactly), with
        // no division and no sine (control ran every frame, folded or not).
        let Some(&(_, axis, amp, phase)) = self.swings.iter().rev().find(|s| s.0 == joint) else {
            return if hinge {
                JointTarget::Angle(Fx1::ZERO)
            } else {
                JointTarget::Rotation(Quat::IDENTITY)
            };
        };
        let turn = Fx1::from_raw((((frame % self.period.max(1)) as i64) << 12) as i32)
            .div_int(self.period.max(1) as i32);
        let two_pi = crate::fx!(core::f64::consts::TAU);
        let (s, _) = sin_cos_radians(turn.mul_lower(two_pi) + phase);
        let angle = amp.mul_lower(s);
        if hinge {
            JointTarget::Angle(angle)
        } else {
            JointTarget::Rotation(Quat::from_axis_angle(axis, Angle::from_radians(angle)))
        }
    }
}
