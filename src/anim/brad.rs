//! The brad table (seed 004, "Interfacing with the Animation System"):
//! per animation joint, which ragdoll particles pin it, and the joint
//! matrix built from them each frame.
//!
//! A brad's matrix: the **A axis** is the unit vector from particle `a[0]`
//! to `a[1]`; the **B axis** is the unit vector orthogonal to A closest to
//! the goal `b[0] -> b[1]`; the third axis completes a right-handed frame.
//! `axis_a` and `axis_b` say which local axis (x, y or z, with sign) A and
//! B are, and the translation is particle `particle`'s position. The
//! expand phase then takes the matrix in place of the joint's own
//! ([`inject`] and the `given` mask of [`super::expand::expand`]).
//!
//! # Degenerate goals
//! When the goal is (nearly) parallel to A, "closest to the goal" says
//! nothing about B. Below [`DEGENERATE_SIN`] (the goal's part orthogonal
//! to A is less than 1/64 of its length, 0.9°) the goal is replaced by
//! the B axis of the last matrix built, so B stays continuous through the
//! singular pose instead of flipping. If that too is parallel to A (A
//! turned by about 90° in one frame), B is the world axis least aligned
//! with A. A zero-length A pair keeps the last A. The result is always a
//! rotation.
//!
//! # Accuracy (measured by `tests/anim_brads.rs`: 24,000 random cases,
//! all axis pairs, a third within 2° of degenerate)
//! Columns are unit within 3 FX1 steps and orthogonal within 1, each is
//! the cross product of the other two within 3, and the determinant is
//! `+1` within 6 steps ([`ORTHONORMAL_TOL`] = 3). With the particles on
//! the joints of an animated pose the ragdoll can show, the matrices are
//! the animation's within 6 steps per entry (0.08°).
//!
//! # Range
//! Pair vectors are clamped to +-256 m per component (a ragdoll's
//! particles are within 2 m of each other), which keeps every squared
//! length in an `i64`.

use crate::fx::{Fx1, Mat3, Mat4x3, Vec3};

/// Which local axis a brad axis is, with its sign.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Axis {
    /// +x
    PosX,
    /// -x
    NegX,
    /// +y
    PosY,
    /// -y
    NegY,
    /// +z
    PosZ,
    /// -z
    NegZ,
}

impl Axis {
    /// All six, in order.
    pub const ALL: [Axis; 6] = [
        Axis::PosX,
        Axis::NegX,
        Axis::PosY,
        Axis::NegY,
        Axis::PosZ,
        Axis::NegZ,
    ];

    /// 0 for x, 1 for y, 2 for z.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize / 2
    }

    /// True for the negative direction.
    #[inline]
    pub const fn is_negative(self) -> bool {
        self as usize % 2 == 1
    }

    /// `v` for a positive axis, `-v` for a negative one.
    #[inline]
    fn apply(self, v: Vec3) -> Vec3 {
        if self.is_negative() {
            -v
        } else {
            v
        }
    }
}

/// One brad as defined in the asset (`assets/ragdolls/*.brads`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BradDef {
    /// The animation joint it drives.
    pub joint: u8,
    /// The particle at the joint's origin.
    pub particle: u8,
    /// The A axis runs from particle `a[0]` to `a[1]`.
    pub a: [u8; 2],
    /// The goal of the B axis runs from particle `b[0]` to `b[1]`.
    pub b: [u8; 2],
    /// Which local axis A is.
    pub axis_a: Axis,
    /// Which local axis B is (a different letter from `axis_a`).
    pub axis_b: Axis,
}

/// A brad table as emitted by `assetc`: the brads and each one's joint
/// matrix in the bind pose (the starting "last matrix").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BradTableDef<'a> {
    /// The table's name.
    pub name: &'a str,
    /// The ragdoll definition whose particles it names.
    pub ragdoll: &'a str,
    /// The skeleton whose joints it names.
    pub skeleton: &'a str,
    /// The brads, in skeleton joint order.
    pub brads: &'a [BradDef],
    /// Each brad joint's model-space bind matrix.
    pub bind: &'a [Mat4x3],
}

/// A brad at run time: its definition and the last matrix built.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Brad {
    /// The definition.
    pub def: BradDef,
    /// The most recently built joint matrix.
    pub matrix: Mat4x3,
}

/// The goal counts as parallel to A when its orthogonal part is below
/// `1 / 2^DEGENERATE_SHIFT` of its length (sin 0.9°).
pub const DEGENERATE_SHIFT: u32 = 6;
/// `2^-DEGENERATE_SHIFT`, the sine below which a goal is degenerate.
pub const DEGENERATE_SIN: Fx1 = Fx1::from_raw(4096 >> DEGENERATE_SHIFT);
/// Measured bound on `| |col| - 1 |` and `|col_i . col_j|`, in FX1 steps.
pub const ORTHONORMAL_TOL: i64 = 3;

/// Clamps each component to +-256 m.
#[inline]
fn clamp_range(v: Vec3) -> Vec3 {
    const R: i32 = 256 << 12;
    v.map(|c| Fx1::from_raw(c.raw().clamp(-R, R)))
}

/// The unit C = A x goal if the goal is clear of A, else `None`.
#[inline]
fn clear_normal(a_hat: Vec3, goal: Vec3) -> Option<Vec3> {
    let c = a_hat.cross(goal);
    // |c|^2 vs |goal|^2 sin^2: |c1|^2 * 2^(2 shift) < |goal|^2, in FX2.
    let c1 = c.lower();
    let lhs = c1.length_squared().raw() << (2 * DEGENERATE_SHIFT);
    if lhs < goal.length_squared().raw() || c1 == Vec3::ZERO {
        return None;
    }
    c.try_normalise()
}

/// The world axis with the smallest `|component|` of `v`.
#[inline]
fn least_aligned_axis(v: Vec3) -> Vec3 {
    let [x, y, z] = v.raw().map(i32::unsigned_abs);
    if x <= y && x <= z {
        Vec3::X
    } else if y <= z {
        Vec3::Y
    } else {
        Vec3::Z
    }
}

/// The rotation of one brad from particle positions `x`; `last` is the
/// previous rotation (for the degenerate cases, see the module docs).
pub fn brad_rotation(def: &BradDef, x: &[Vec3], last: &Mat3) -> Mat3 {
    let a = clamp_range(x[def.a[1] as usize] - x[def.a[0] as usize]);
    let goal = clamp_range(x[def.b[1] as usize] - x[def.b[0] as usize]);
    let last_a = def.axis_a.apply(last.cols[def.axis_a.index()]);
    let a_hat = a.try_normalise().unwrap_or(last_a);
    let c = match clear_normal(a_hat, goal) {
        Some(c) => c,
        None => {
            let last_b = def.axis_b.apply(last.cols[def.axis_b.index()]);
            match clear_normal(a_hat, last_b) {
                Some(c) => c,
                None => a_hat.cross(least_aligned_axis(a_hat)).normalise(),
            }
        }
    };
    // Both unit and orthogonal: their cross product is unit to rounding.
    let b_hat = c.cross(a_hat).lower();
    let (ia, ib) = (def.axis_a.index(), def.axis_b.index());
    let mut cols = [Vec3::ZERO; 3];
    cols[ia] = def.axis_a.apply(a_hat);
    cols[ib] = def.axis_b.apply(b_hat);
    // The remaining axis k = (k+1) x (k+2): x = y x z, y = z x x, z = x x y.
    let k = 3 - ia - ib;
    cols[k] = cols[(k + 1) % 3].cross(cols[(k + 2) % 3]).lower();
    Mat3 { cols }
}

/// Builds every brad's matrix from the particle positions `x` (m).
#[inline(never)]
pub fn build_brads(brads: &mut [Brad], x: &[Vec3]) {
    for b in brads.iter_mut() {
        let rot = brad_rotation(&b.def, x, &b.matrix.rot);
        b.matrix = Mat4x3::new(rot, x[b.def.particle as usize]);
    }
}

/// Writes each brad's matrix into `model` at its joint and returns the
/// mask of those joints, for [`super::expand::expand`]'s `given`.
#[inline(never)]
pub fn inject(brads: &[Brad], model: &mut [Mat4x3]) -> u32 {
    let mut mask = 0;
    for b in brads {
        model[b.def.joint as usize] = b.matrix;
        mask |= 1 << b.def.joint;
    }
    mask
}

/// A brad table with room for `N` brads, started from the bind pose.
#[derive(Clone, Copy, Debug)]
pub struct BradTable<const N: usize = 16> {
    len: usize,
    brads: [Brad; N],
}

impl<const N: usize> BradTable<N> {
    /// The table of `def`, each "last matrix" its joint's bind matrix.
    ///
    /// # Panics
    /// If `def` has more than `N` brads.
    pub fn new(def: &BradTableDef) -> Self {
        assert!(def.brads.len() <= N, "brad table: more brads than N");
        let empty = Brad {
            def: BradDef {
                joint: 0,
                particle: 0,
                a: [0, 0],
                b: [0, 0],
                axis_a: Axis::PosX,
                axis_b: Axis::PosY,
            },
            matrix: Mat4x3::IDENTITY,
        };
        let mut brads = [empty; N];
        for (i, (d, m)) in def.brads.iter().zip(def.bind).enumerate() {
            brads[i] = Brad {
                def: *d,
                matrix: *m,
            };
        }
        BradTable {
            len: def.brads.len(),
            brads,
        }
    }

    /// The brads.
    #[inline]
    pub fn brads(&self) -> &[Brad] {
        &self.brads[..self.len]
    }

    /// The brads, mutable (for [`build_brads`]).
    #[inline]
    pub fn brads_mut(&mut self) -> &mut [Brad] {
        &mut self.brads[..self.len]
    }

    /// [`build_brads`] over the whole table.
    #[inline]
    pub fn build(&mut self, x: &[Vec3]) {
        build_brads(self.brads_mut(), x);
    }

    /// [`inject`] over the whole table.
    #[inline]
    pub fn inject(&self, model: &mut [crate::fx::Mat4x3]) -> u32 {
        inject(self.brads(), model)
    }
}
