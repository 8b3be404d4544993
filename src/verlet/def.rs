//! Ragdoll definitions: the static tables a ragdoll instance is built
//! from. `assetc::ragdoll_def` emits them from `assets/ragdolls/*.ragdoll`
//! as `pub static` items; everything here has `const` constructors and
//! public fields so that the emitted source is plain data.

use crate::fx::{Fx1, Vec3};

/// One particle of a definition.
///
/// Units: metres, kilograms. `inv_mass` is `1 / mass` in 1/kg as FX1,
/// rounded at build time; **a mass of 0 means a pinned particle** (inverse
/// mass 0, it never moves), the convention of most engines for static
/// bodies. See [`super::particles`] for the inverse-mass range.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ParticleDef<'a> {
    /// Name, for brad tables and debugging.
    pub name: &'a str,
    /// Position in the definition's pose, metres, y up.
    pub position: Vec3,
    /// Mass in kg (0: pinned).
    pub mass: Fx1,
    /// `1 / mass` in 1/kg (0: pinned).
    pub inv_mass: Fx1,
    /// Collision radius in metres.
    pub radius: Fx1,
}

impl<'a> ParticleDef<'a> {
    /// All fields, in order.
    pub const fn new(name: &'a str, position: Vec3, mass: Fx1, inv_mass: Fx1, radius: Fx1) -> Self {
        ParticleDef {
            name,
            position,
            mass,
            inv_mass,
            radius,
        }
    }
}

/// What a distance constraint enforces between its two particles.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ConstraintKind {
    /// Rigid length (`min == max`, the rest length from the pose).
    Stick,
    /// Soft limits: only acts when the distance leaves `[min, max]`.
    Range,
    /// Minimum distance only (`max` unused): an angle limit when it joins
    /// a grandparent and a child particle.
    MinStick,
}

/// One distance constraint of a definition, by particle index.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ConstraintDef {
    /// What it enforces.
    pub kind: ConstraintKind,
    /// First particle (index into [`RagdollDef::particles`]).
    pub a: u8,
    /// Second particle.
    pub b: u8,
    /// Minimum distance in metres (the rest length for a stick).
    pub min: Fx1,
    /// Maximum distance in metres (the rest length for a stick;
    /// [`Fx1::MAX`] for a min-stick).
    pub max: Fx1,
}

impl ConstraintDef {
    /// A rigid stick of length `rest`.
    pub const fn stick(a: u8, b: u8, rest: Fx1) -> Self {
        ConstraintDef {
            kind: ConstraintKind::Stick,
            a,
            b,
            min: rest,
            max: rest,
        }
    }

    /// A soft range `[min, max]`.
    pub const fn range(a: u8, b: u8, min: Fx1, max: Fx1) -> Self {
        ConstraintDef {
            kind: ConstraintKind::Range,
            a,
            b,
            min,
            max,
        }
    }

    /// A minimum distance (angle limit).
    pub const fn min_stick(a: u8, b: u8, min: Fx1) -> Self {
        ConstraintDef {
            kind: ConstraintKind::MinStick,
            a,
            b,
            min,
            max: Fx1::MAX,
        }
    }
}

/// A side constraint of a definition, by particle index: `apex` stays
/// at least `min` in front of the triangle `a`, `b`, `c` (its front is
/// where `(b - a) x (c - a)` points). Distances alone cannot tell a flat
/// torso from its mirror image; this can (see [`super::sides`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SideDef {
    /// The particle kept in front.
    pub apex: u8,
    /// The triangle's first corner.
    pub a: u8,
    /// Its second corner.
    pub b: u8,
    /// Its third corner.
    pub c: u8,
    /// The least height of the apex over the triangle's plane, metres.
    pub min: Fx1,
}

impl SideDef {
    /// All fields, in order.
    pub const fn new(apex: u8, a: u8, b: u8, c: u8, min: Fx1) -> Self {
        SideDef { apex, a, b, c, min }
    }
}

/// A ragdoll definition: particles in a pose and the constraints between
/// them. Built at compile time by `assetc` (see `assets/ragdolls/FORMAT.md`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RagdollDef<'a> {
    /// The definition's name.
    pub name: &'a str,
    /// The particles.
    pub particles: &'a [ParticleDef<'a>],
    /// The constraints.
    pub constraints: &'a [ConstraintDef],
    /// The side constraints (at most [`super::sides::MAX_SIDES`]).
    pub sides: &'a [SideDef],
}

impl<'a> RagdollDef<'a> {
    /// The index of the particle called `name`.
    pub fn particle_index(&self, name: &str) -> Option<usize> {
        self.particles.iter().position(|p| p.name == name)
    }
}
