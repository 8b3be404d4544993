//! Per-frame simulation settings, and the per-substep values derived from
//! them once per frame (so the inner loops do no division).

use crate::divsqrt::div_auto;
use crate::fx;
use crate::fx::{Fx1, Fx2, Vec3};

use super::STEPS_PER_SECOND;

/// Where gravity points (the two modes of seed 003).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Gravity {
    /// Along `-y` (y is up).
    Down,
    /// Towards a point, with the same strength at every distance. The
    /// direction is computed per particle (one square root and one
    /// division each, about 1.5 us per particle on the DS), so a ragdoll
    /// that reaches the point wraps around it. A particle exactly at the
    /// point feels no gravity.
    TowardsPoint(Vec3),
}

/// Simulation settings. Units: metres, seconds, kilograms; one frame is
/// `1/60` s ([`STEPS_PER_SECOND`]), split into `substeps` equal steps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Settings {
    /// Gravity mode.
    pub gravity: Gravity,
    /// Gravity strength in m/s^2 (9.81 on Earth; 0 for none).
    pub gravity_strength: Fx1,
    /// "Wind resistance": the fraction of its velocity a particle keeps
    /// per frame, in `[0, 1]` (1: none). With substeps, each substep keeps
    /// `1 - (1 - damping) / substeps`. Terminal speed is about
    /// `g / (60 (1 - damping))` m/s: 16 m/s at 0.99.
    pub damping: Fx1,
    /// Speed cap in m/s: no particle's integrated move per substep exceeds
    /// `max_speed / (60 substeps)` m, and after each step every particle's
    /// implied velocity is clamped to it (direction kept).
    pub max_speed: Fx1,
    /// Constraint relaxation passes per substep (before collision).
    pub iterations: u8,
    /// Substeps per frame (at least 1).
    pub substeps: u8,
    /// Relaxation passes after the collision callback, per substep
    /// (0: none; only used by `step_with`).
    pub post_collision_iterations: u8,
}

impl Settings {
    /// The defaults: gravity down at 9.81 m/s^2, damping 0.99, speed cap
    /// 25 m/s, and the solver budget picked by the stiffness-per-work
    /// measurement in `tests/verlet_stiffness.rs` (see [`super`]):
    /// 2 iterations, 1 substep, collision last (no pass after it, which
    /// would pull spheres back into the world).
    pub const DEFAULT: Settings = Settings {
        gravity: Gravity::Down,
        gravity_strength: fx!(9.81),
        damping: fx!(0.99),
        max_speed: fx!(25.0),
        iterations: 2,
        substeps: 1,
        post_collision_iterations: 0,
    };

    /// No gravity and no damping: energy is only lost to constraints.
    pub const FREE_SPACE: Settings = Settings {
        gravity_strength: Fx1::ZERO,
        damping: Fx1::ONE,
        ..Settings::DEFAULT
    };
}

impl Default for Settings {
    fn default() -> Self {
        Settings::DEFAULT
    }
}

/// The values one substep uses, derived from [`Settings`] once per frame
/// (three divisions), so that the per-particle loops divide nothing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StepParams {
    /// Substeps per frame (at least 1).
    pub substeps: u8,
    /// Gravity mode.
    pub gravity: Gravity,
    /// `g * dt^2` in metres (FX2: 24 fraction bits, so 9.81 m/s^2 at
    /// 1/60 s is 45718 raw, not FX1's coarse 11).
    pub g_dt2: Fx2,
    /// Velocity kept per substep.
    pub damping: Fx1,
    /// Largest move per substep, metres.
    pub max_disp: Fx1,
    /// `max_disp^2`.
    pub max_disp2: Fx2,
}

impl StepParams {
    /// Derives the per-substep values.
    pub fn new(s: &Settings) -> StepParams {
        let substeps = s.substeps.max(1);
        let n = STEPS_PER_SECOND * substeps as i32;
        let g_dt2 = Fx2::from_raw(div_auto(s.gravity_strength.raise().raw(), (n * n) as i64));
        let loss = (Fx1::ONE - s.damping.min(Fx1::ONE).max(Fx1::ZERO)).div_int(substeps as i32);
        let max_disp = s.max_speed.max(Fx1::ZERO).div_int(n);
        StepParams {
            substeps,
            gravity: s.gravity,
            g_dt2,
            damping: Fx1::ONE - loss,
            max_disp,
            max_disp2: max_disp * max_disp,
        }
    }
}
