//! Characters built from rigid bodies, joints and motors.
//!
//! - [`pose`]: the pose-target interface (a clip plugs in here) and the
//!   built-in standing and cyclic poses, for the powered ragdoll to come.
//! - [`armed_mine`]: seed 000's one-armed creature.
//! - [`check`]: build-time checks of a character's parts and joints.
//! - [`powered`]: the powered ragdoll (the default humanoid on motors).
//! - [`curve`]: closed Catmull-Rom curves for cyclic targets.
//! - [`tilt_skew`]: how the Armed Mine's hand cycle moves with its tilt.

pub mod armed_mine;
pub mod check;
pub mod curve;
pub mod pose;
pub mod powered;
pub mod tilt_skew;
