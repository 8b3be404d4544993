//! Swept spheres against a k-d tree of triangles, in tracked FX powers (issue 4).
//!
//! Seed 004's collision, with its rule kept by the type system: every
//! intermediate stays in the FX power its multiplies give it (the power is
//! written in a comment next to each one), and the few roundings down are
//! explicit `lower` calls on quantities that are lengths, where FX1 is as
//! precise as the positions themselves.
//!
//! - [`triangle`]: world triangles with a precomputed plane. Unit vectors
//!   (plane normal, edge directions) are stored in **FX2** (24 fraction
//!   bits) in `i32`, the seed's "FX32e" idea: an FX1 normal is tilted by up
//!   to `2^-12.5` rad, which at 10 units from its vertex moves the plane by
//!   7 raw steps, 3% of a hand-sized sphere. `FX1 position · FX2 normal` is
//!   an exact FX3 distance.
//! - [`features`]: which edges and vertices a sweep can skip (flat and
//!   concave ones, found at build time).
//! - [`tree`]: the flat k-d tree ([`KdNode`]) and [`CollisionWorld`], all
//!   `static`-friendly (const constructors, pub fields); queries use a
//!   fixed-size stack.
//! - [`sweep`]: swept sphere against one triangle (face, edges, vertices,
//!   and spheres that start overlapping) and against a world.
//! - [`resolve`]: [`collide_particle`], the Verlet response with sliding,
//!   friction and up to [`MAX_CONTACTS`] contacts per step.
//! - [`shapes`]: static sphere-sphere and sphere-box overlap.
//! - [`wide`]: exact `i128` vector arithmetic for the tests that must
//!   not round (feature marking, the precision benchmark).
//! - [`naive`]: the same sweep written the seed's "before" way (FX1 after
//!   every multiply), kept for the precision benchmark.
//! - [`precision`]: that benchmark, in integer arithmetic so it runs on the
//!   DS too.
//!
//! ## Supported ranges
//! - World coordinates within `±WORLD_LIMIT` (100 units; a humanoid is
//!   about 1.8). The asset compiler asserts it.
//! - Sphere radius up to [`MAX_RADIUS`] (1 unit); hands are 0.05.
//! - Motion per sweep up to [`MAX_STEP`] (2 units) per axis (120 m/s at
//!   60 Hz); [`collide_particle`] shortens longer steps to that.
//!
//! Inside those limits no intermediate overflows its type (each bound is
//! noted where it matters).
//!
//! ## Triangles are one-sided
//! The front is the side the counter-clockwise winding faces (OBJ's
//! convention). A sphere whose centre is behind a triangle's plane by more
//! than its radius ignores it; one that starts less than a radius behind a
//! face is pushed out to the front. Worlds are closed: the back of a
//! surface is solid.

pub mod features;
pub mod naive;
pub mod precision;
pub mod resolve;
pub mod shapes;
pub mod sweep;
pub mod tree;
pub mod triangle;
pub mod wide;

pub use resolve::{collide_particle, collide_particle_hinted, collide_particle_path};
pub use shapes::{separate_spheres, sphere_box, sphere_sphere, Obb, Overlap};
pub use sweep::{sweep_sphere_triangle, Contact, Feature, Hit};
pub use tree::{CollisionWorld, KdNode, KD_MAX_DEPTH};
pub use triangle::{Dir2, Triangle, TriangleError};

use crate::fx::Fx1;

/// World coordinates must stay within `±WORLD_LIMIT` (100 units).
pub const WORLD_LIMIT: Fx1 = Fx1::from_int(100);

/// Largest supported sphere radius (1 unit).
pub const MAX_RADIUS: Fx1 = Fx1::from_int(1);

/// Largest supported motion per sweep, per axis (2 units).
pub const MAX_STEP: Fx1 = Fx1::from_int(2);

/// The gap left between a resolved sphere and the surface it touches
/// (4 raw steps, 1 mm), so that it does not start the next step inside.
pub const SKIN: Fx1 = Fx1::from_raw(4);

/// Contacts resolved per particle per step (sliding into a corner takes
/// three); a further contact stops the particle where it touches.
pub const MAX_CONTACTS: usize = 3;
