//! Verlet particles, constraints and ragdolls (issue 4).
//!
//! Jakobsen-style ("Advanced Character Physics") position-based dynamics
//! in FX32, after seed 004's DS ragdoll:
//!
//! - [`particles`]: current and previous positions, inverse masses (0
//!   pins), radii; the Verlet step with gravity down or towards a point,
//!   damping ("wind resistance") and a speed cap; impulses and velocities
//!   applied by moving the previous position.
//! - [`constraints`]: sticks, min/max ranges and min-sticks (angle limits),
//!   mass weighted, with Jakobsen's square-root-free approximation near
//!   the target length and an exact path elsewhere.
//! - [`def`]: static ragdoll definitions (emitted by `assetc` from
//!   `assets/ragdolls/*.ragdoll`); [`humanoid`] is the default one.
//! - [`ragdoll`]: an instance with fixed capacity, stepped once per frame,
//!   with measures (centre of mass, energy, speed) and a state hash.
//! - [`plane`]: a box-room collider for tests until the k-d tree lands.
//!
//! # Units
//! Metres, seconds, kilograms; y is up. Positions are [`Fx1`](crate::fx::Fx1)
//! (20.12: 0.244 mm steps, +-524 km). The frame is a fixed 1/60 s
//! ([`STEPS_PER_SECOND`]), split into `Settings::substeps` equal substeps.
//!
//! # One frame
//! Per substep: integrate -> relax constraints (`iterations` passes) ->
//! collide each free particle (a callback gets `&mut prev, &mut cur,
//! radius`) -> relax again (`post_collision_iterations`) -> clamp
//! velocities to the speed cap. See [`Ragdoll::step_with`], or run the
//! phases yourself via [`Ragdoll::begin_frame`].
//!
//! # Solver budget (measured)
//! `tests/verlet_stiffness.rs` drops the humanoid tumbling (spun at
//! 6 rad/s, thrown at 3 m/s) into a box room for 240 frames and reports
//! the mean relative stick-length error against the constraint
//! evaluations per frame. See that file's header for the table; in short,
//! at equal work, more iterations beat more substeps for stiffness, so
//! the default is 4 iterations, 1 substep, plus 1 pass after collision
//! ([`Settings::DEFAULT`]).

pub mod constraints;
pub mod def;
pub mod humanoid;
pub mod particles;
pub mod plane;
pub mod ragdoll;
pub mod settings;

pub use constraints::{Constraints, Link, RelaxStats, APPROX_MAX_LENGTH, DEFAULT_APPROX_WINDOW};
pub use def::{ConstraintDef, ConstraintKind, ParticleDef, RagdollDef};
pub use particles::Particles;
pub use plane::BoxRoom;
pub use ragdoll::{Fnv1a, Ragdoll};
pub use settings::{Gravity, Settings, StepParams};

/// Frames (fixed steps) per second: the frame is 1/60 s.
pub const STEPS_PER_SECOND: i32 = 60;
