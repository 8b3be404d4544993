//! Rigid bodies with joints, motors and PD control (issue 6).
//!
//! Boxes with mass and inertia, a velocity-level constraint solver with
//! clamped impulses (sequential impulses / projected Gauss-Seidel, after
//! seed 000), ball-and-socket and hinge joints with limits and motor
//! drives, PD controllers and inverse dynamics (seed 002), and two
//! characters: the powered ragdoll and the Armed Mine.
//!
//! - [`body`]: a box body, its inertia and derived world data.
//! - [`box_of_boxes`]: 27 cubes in a container (seed 003's scene).
//! - [`broad`]: the contact broad phase (bounding boxes in `i32`).
//! - [`chain`]: a three-link arm, the bench for inverse dynamics.
//! - [`integrate`]: gravity, velocity caps, position and quaternion steps.
//! - [`row`]: one constraint row and the solver over a fixed buffer.
//! - [`kernel`]: the solver's inner loop, in compact integer rows.
//! - [`prep`]: rows of cubes (one moment of inertia) prepared fast.
//! - [`contact`]: box-plane and box-box contacts as rows with friction.
//! - [`box_pair`]: the box-box contact test, in the boxes' own frames.
//! - [`joint`]: ball-and-socket and hinge joints and their limits.
//! - [`joint_gap`]: joint gaps closed in the positions after integration.
//! - [`grab`]: a point of a body pulled towards a target with a bounded
//!   force (the stylus's "mouse joint").
//! - [`motor`]: the seed-000 motor drives, torque-limited by `tau_max`.
//! - [`pd`]: backward-Euler (stable) and explicit PD controllers.
//! - [`hybrid`]: the hybrid level of detail: kinematic or dynamic DOF by torque.
//! - [`ik`]: two-bone IK for the Armed Mine's arm.
//! - [`inverse_dynamics`]: hinge torques for commanded accelerations (seed 002).
//! - [`room`]: the box room and the ten-box pyramid (the box scenes).
//! - [`sleep`]: resting bodies fall asleep (worlds of loose boxes).
//! - [`world`]: bodies + joints + contacts, stepped once per frame.
//! - [`characters`]: the Armed Mine and the powered ragdoll.
//!
//! Not built yet (issue 6): box contacts against the k-d tree world.
//!
//! # Units and ranges
//! Metres, seconds, kilograms, radians; y is up; one step is 1/60 s.
//!
//! | quantity | type | range kept | step |
//! |---|---|---|---|
//! | position | `Vec3<Fx2>` | +-2^39 m (use +-1000) | 6e-8 m |
//! | linear velocity | `Vec3<Fx2>` | capped at [`MAX_SPEED`] | 6e-8 m/s |
//! | angular velocity | `Vec3<Fx2>` | capped at [`MAX_SPIN`] | 6e-8 rad/s |
//! | orientation | `Quat` (Q30) | unit, renormalised every step | 1e-9 |
//! | mass | `Fx1` | 0.05 .. 1000 kg; inverse stored | 2.4e-4 1/kg |
//! | inverse inertia | `Vec3<Fx1>` (box diagonal) | up to 5e5 1/(kg m^2) | 2.4e-4 |
//! | impulse (lambda) | `Fx2` | accumulated per row, saturating | 6e-8 N s |
//!
//! Positions and velocities are FX2 (24 fraction bits in `i64`) because
//! FX1 velocities round away a 0.1 kg hand's impulses and FX1 positions
//! stall slow bodies (0.01 m/s moves 0.7 FX1 steps per frame). Lever
//! arms, directions and matrices are FX1. Every product in the solver is
//! `Fx1 * Fx2 -> Fx3` or `Fx2 * Fx2 -> Fx4` on values clamped so that it
//! fits (see [`row`]).

pub mod body;
pub mod box_of_boxes;
pub mod box_pair;
pub mod broad;
pub mod chain;
pub mod characters;
pub mod composite;
pub mod contact;
pub mod fold;
pub mod grab;
pub mod hybrid;
pub mod ik;
pub mod integrate;
pub mod inverse_dynamics;
pub mod iso;
pub mod joint;
pub mod joint_gap;
pub mod kernel;
pub mod motor;
pub mod pd;
pub mod prep;
pub mod room;
pub mod row;
pub mod sleep;
pub mod world;

pub use body::Body;
pub use grab::Grab;
pub use joint::{Joint, JointKind};
pub use row::{Row, Rows};
pub use world::{Settings, World};

use crate::fx::power::round_shr;
use crate::fx::{Fx1, Fx2, Vec3};

/// Joint `k`'s bit in a mask of joints (the rows to push, the gaps to
/// close, the warm starts to hold, a fold's dynamic joints): bit `k`,
/// every joint from 31 on sharing the last one.
#[inline]
pub fn joint_bit(k: usize) -> u32 {
    1 << k.min(31)
}

/// Steps per second: the step is 1/60 s.
pub const STEPS_PER_SECOND: i32 = 60;

/// Linear speed cap in m/s (keeps every solver product in range).
pub const MAX_SPEED: Fx2 = Fx2::from_raw(60 << 24);

/// Angular speed cap in rad/s.
pub const MAX_SPIN: Fx2 = Fx2::from_raw(100 << 24);

/// `round(2^32 / 60)`: multiplies by the step exactly enough (relative
/// error 3e-9), with no division. `Fx1::from_raw(68)` would be 0.4 % off.
const DT_Q32: i64 = 71_582_788;

/// `x * dt` in the same power, rounded to nearest; exact-width `i64`
/// arithmetic below `2^36` raw (e.g. FX2 values below 4096), `i128`
/// above (gains of 1e6 in FX2).
#[inline]
pub fn mul_dt(x: i64) -> i64 {
    if x.unsigned_abs() < 1 << 36 {
        round_shr(x * DT_Q32, 32)
    } else {
        ((x as i128 * DT_Q32 as i128 + (1 << 31)) >> 32) as i64
    }
}

/// `x / dt = 60 x`, saturating to `i64`.
#[inline]
pub fn div_dt(x: i64) -> i64 {
    x.saturating_mul(STEPS_PER_SECOND as i64)
}

/// `Vec3<Fx2> * dt` (see [`mul_dt`]).
#[inline]
pub fn vec_mul_dt(v: Vec3<Fx2>) -> Vec3<Fx2> {
    v.map(|c| Fx2::from_raw(mul_dt(c.raw())))
}

/// A `Vec3<Fx1>` raised to FX2, exact.
#[inline]
pub fn raise(v: Vec3) -> Vec3<Fx2> {
    v.map(Fx1::raise)
}

/// Clamps each component of an FX2 vector to `+-limit`.
#[inline]
pub fn clamp_vec(v: Vec3<Fx2>, limit: Fx2) -> Vec3<Fx2> {
    v.map(|c| c.clamp(-limit, limit))
}
