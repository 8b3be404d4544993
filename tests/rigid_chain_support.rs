//! Shared helpers for the three-link chain tests (inverse dynamics and
//! hybrid dynamics; included with `#[path]`): a swinging animation and
//! the accelerations that track it.
#![allow(dead_code)]

use dsphys::fx;
use dsphys::fx::{Angle, Fx1, Fx2};
use dsphys::rigid::chain::ChainWorld;
use dsphys::rigid::inverse_dynamics::joint_rates;
use dsphys::rigid::pd::{Gains, StablePd};

/// Animation amplitudes (rad) and phases (binary angle units) of the
/// three joints: each swings `A sin(2 pi t / 2 s + phase)`.
pub const AMPLITUDE: [Fx1; 3] = [fx!(0.6), fx!(0.9), fx!(1.1)];
const PHASE: [u16; 3] = [0, 0x3000, 0x6000];
/// Half a turn of the animation per second (a 2 s period).
const TURN_PER_FRAME: u16 = (0x10000 / 120) as u16;

/// The animation's angle, rate and acceleration (rad, rad/s, rad/s^2) of
/// joint `k` at `frame`, with its amplitude scaled by `scale`.
pub fn animation(k: usize, frame: u32, scale: Fx1) -> (Fx1, Fx1, Fx1) {
    let a = Angle::from_raw(PHASE[k].wrapping_add((frame as u16).wrapping_mul(TURN_PER_FRAME)));
    let (s, c) = a.sin_cos();
    // d/dt A sin(w t) = A w cos(w t), w = pi rad/s.
    let w = fx!(core::f64::consts::PI);
    let amp = AMPLITUDE[k].mul_lower(scale);
    let q = amp.mul_lower(s);
    (
        q,
        amp.mul_lower(w).mul_lower(c),
        -q.mul_lower(w.mul_lower(w)),
    )
}

/// The joint rates now, rad/s.
pub fn rates(w: &ChainWorld) -> [Fx2; 3] {
    let mut r = [Fx2::ZERO; 3];
    joint_rates(w.bodies(), w.joints(), &mut r);
    r
}

/// The commanded accelerations: the animation's own plus a stable PD
/// (4 Hz, critically damped) towards it (seed 002's tracking).
pub fn commanded(w: &ChainWorld, frame: u32, scale: Fx1) -> [Fx1; 3] {
    let pd = StablePd::new(Gains::from_frequency(fx!(4.0), fx!(1.0)));
    let r = rates(w);
    core::array::from_fn(|k| {
        let (q, v, a) = animation(k, frame, scale);
        let angle = w.joints()[k].hinge_angle(w.bodies());
        a + pd.accel(q - angle, v - r[k].lower())
    })
}

/// The largest distance (rad) of any joint from the animation.
pub fn off_animation(w: &ChainWorld, frame: u32, scale: Fx1) -> f64 {
    (0..3)
        .map(|k| {
            let angle = w.joints()[k].hinge_angle(w.bodies());
            (angle - animation(k, frame, scale).0).to_f64().abs()
        })
        .fold(0.0, f64::max)
}
