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
//! - [`sides`]: side constraints, which keep a particle in front of a
//!   triangle of three others (a flat torso from folding through itself).
//! - [`def`]: static ragdoll definitions (emitted by `assetc` from
//!   `assets/ragdolls/*.ragdoll`); [`humanoid`] is the default one.
//! - [`ragdoll`]: an instance with fixed capacity, stepped once per frame,
//!   with measures (centre of mass, energy, speed) and a state hash.
//! - [`plane`]: a box-room collider (tests, and a world with no triangles).
//! - [`timing`]: the phases of a frame, for a caller's profiler.
//! - [`world`]: collision with a k-d tree world, in a broad and a narrow
//!   phase ([`WorldContacts`]).
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
//! `tests/verlet_stiffness.rs` drops the humanoid tumbling into a box room
//! (4 throws, 240 frames each) and compares the mean relative stick-length
//! error against the work per frame (constraint evaluations, and ARM9
//! cycles estimated from the instruction counts of the DS build). See that
//! file's header for the table. Substeps buy more stiffness per constraint
//! evaluation than iterations, but each substep repeats integration and
//! collision, and only one fits the frame budget; at one substep a pass
//! after collision is slightly stiffer than a second pass before it, but
//! it pulls spheres back into the world (up to 1 cm into a stair). Default
//! ([`Settings::DEFAULT`]): 2 iterations, 1 substep, collision last: 64
//! evaluations, about 125 us by the cycle model, mean stick error 0.61 %
//! while tumbling, and every frame ends with every sphere outside the
//! world. In a world, a ragdoll that rests in contact falls asleep
//! ([`SLEEP_SPEED`]).
//!
//! # Cost (estimated from the `armv5te` release build)
//! A correction by the square-root-free path is about 100 instructions
//! (~115 cycles), a satisfied range about 40, the exact path about 150
//! plus one hardware square root and one division; one particle's
//! integration about 90 instructions. Run `--emit asm` on a function that
//! calls `Constraints::<40>::relax::<16>` to recount.

pub mod constraints;
pub mod crowd;
pub mod def;
pub mod humanoid;
pub mod particles;
pub mod plane;
pub mod ragdoll;
pub mod settings;
pub mod sides;
pub mod timing;
pub mod world;

pub use constraints::{
    Constraints, Link, RelaxStats, APPROX_MAX_LENGTH, DEFAULT_APPROX_WINDOW, MAX_LINK_LENGTH,
    POSITION_LIMIT,
};
pub use crowd::{
    separate_ragdolls, separate_ragdolls_touching, step_crowd_in_room, step_crowd_in_world,
    step_crowd_with, MAX_CROWD,
};
pub use def::{ConstraintDef, ConstraintKind, ParticleDef, RagdollDef, SideDef};
pub use particles::Particles;
pub use plane::BoxRoom;
pub use ragdoll::{Fnv1a, Ragdoll, SETTLE_FRAMES, SLEEP_FRAMES, SLEEP_SPEED, WAKE_SPEED};
pub use settings::{Gravity, Settings, StepParams};
pub use sides::{Side, MAX_SIDES};
pub use timing::{PhaseTimer, StepPhase, Untimed};
pub use world::WorldContacts;

/// Frames (fixed steps) per second: the frame is 1/60 s.
pub const STEPS_PER_SECOND: i32 = 60;
