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
//! ([`BradTable::inject`] and the `given` mask of [`super::expand::expand`]).
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
//! # Range and cost
//! Pair vectors are clamped to ±8 m per component (a ragdoll's particles
//! are within 2 m of each other), which keeps every cross product exact
//! in an `i32`: the whole build is `i32` arithmetic, and the two unit
//! vectors per brad come from [`super::unit32`] (a table and a Newton
//! step) rather than the divider and square-root units, whose register
//! traffic cost more than the rest of the brad in DeSmuME. The regular
//! path (every brad but the degenerate ones and pairs beyond the clamp)
//! runs in [`kernels::brad::build`], hand-written ARM on the DS, from a
//! plan per brad that [`BradTable::new`] works out once (where each axis
//! goes and with which sign); this module builds the brads it leaves. A
//! hand takes its forearm's rotation and a foot its shin's (the brad
//! before, with the same goal and A along the same particles): the same
//! bits as building it alone.

use crate::fx::{Fx1, Mat3, Mat4x3, Vec3};

use kernels::brad::{
    clear_normal, cross, lower, pair, unit_axes, unit_q12, unit_q12_pair, Frame, Plan, Plans,
    NEGATE_A, NEGATE_B, NEGATE_C, TWIN_OF_PREVIOUS, TWIN_REVERSED,
};

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

pub use kernels::brad::DEGENERATE_SHIFT;
/// `2^-DEGENERATE_SHIFT`, the sine below which a goal is degenerate.
pub const DEGENERATE_SIN: Fx1 = Fx1::from_raw(4096 >> DEGENERATE_SHIFT);
/// Measured bound on `| |col| - 1 |` and `|col_i . col_j|`, in FX1 steps.
pub const ORTHONORMAL_TOL: i64 = 3;

/// The world axis with the smallest `|component|` of `v`.
#[inline]
fn least_aligned_axis(v: [i32; 3]) -> [i32; 3] {
    let [x, y, z] = v.map(i32::unsigned_abs);
    if x <= y && x <= z {
        [4096, 0, 0]
    } else if y <= z {
        [0, 4096, 0]
    } else {
        [0, 0, 4096]
    }
}

/// The rotation of one brad from particle positions `x`; `last` is the
/// previous rotation (for the degenerate cases, see the module docs).
pub fn brad_rotation(def: &BradDef, x: &[Vec3], last: &Mat3) -> Mat3 {
    let mut m = *last;
    rotation_into(def, x, &mut m);
    m
}

/// [`brad_rotation`] in place (`rot` holds the last rotation and
/// receives the new one).
#[inline(always)]
fn rotation_into(def: &BradDef, x: &[Vec3], rot: &mut Mat3) {
    let a = pair(x, def.a);
    let goal = pair(x, def.b);
    match unit_axes(a, goal) {
        Some([a_hat, b_hat, c_hat]) => put_columns(def, a_hat, b_hat, c_hat, rot),
        None => degenerate_into(def, a, goal, rot),
    }
}

/// The degenerate cases of [`rotation_into`] (module docs), out of line:
/// a zero A keeps the last A; a goal parallel to A takes the last B.
#[inline(never)]
#[cold]
fn degenerate_into(def: &BradDef, a: [i32; 3], goal: [i32; 3], rot: &mut Mat3) {
    let (ia, ib) = (def.axis_a.index(), def.axis_b.index());
    let a_hat = unit_q12_pair(a).unwrap_or_else(|| signed(def.axis_a, rot.cols[ia].raw()));
    let c = match clear_normal(a_hat, goal) {
        Some(c) => c,
        None => {
            let last_b = signed(def.axis_b, rot.cols[ib].raw());
            match clear_normal(a_hat, last_b) {
                Some(c) => c,
                None => {
                    let c = cross(a_hat, least_aligned_axis(a_hat));
                    unit_q12(c).unwrap_or([0; 3])
                }
            }
        }
    };
    let b_hat = lower(cross(c, a_hat));
    put_columns(def, a_hat, b_hat, c, rot);
}

/// `v` negated when `negated`.
#[inline(always)]
fn negate_if(negated: bool, v: [i32; 3]) -> [i32; 3] {
    if negated {
        v.map(|c| -c)
    } else {
        v
    }
}

/// `axis` applied to raw components (negated for a negative axis).
#[inline(always)]
fn signed(axis: Axis, v: [i32; 3]) -> [i32; 3] {
    negate_if(axis.is_negative(), v)
}

/// The column of `C = A x B` in brad `def`'s matrix, and whether it holds
/// `-C` rather than `C` (see [`put_columns`]).
#[inline(always)]
fn third_column(def: &BradDef) -> (usize, bool) {
    let (ia, ib) = (def.axis_a.index(), def.axis_b.index());
    // The remaining axis k = (k+1) x (k+2): x = y x z, y = z x x, z = x x y;
    // with A at k+1 and B at k+2 it is A x B, else B x A.
    let k = (3 - ia - ib).min(2);
    let a_first = ia == (k + 1) % 3;
    (
        k,
        def.axis_a.is_negative() ^ def.axis_b.is_negative() ^ !a_first,
    )
}

/// Writes into `rot` the rotation whose `def.axis_a` column is the unit
/// A (`a_hat`) and whose `def.axis_b` column is the unit B (`b_hat`),
/// each with its sign, and whose third column is `C = A x B` with the
/// sign the axes give ([`third_column`]). `c_hat`, the unit C that B was
/// made from, is `A x B` to rounding, which saves working that product
/// out.
#[inline(always)]
fn put_columns(def: &BradDef, a_hat: [i32; 3], b_hat: [i32; 3], c_hat: [i32; 3], rot: &mut Mat3) {
    let (ia, ib) = (def.axis_a.index(), def.axis_b.index());
    let (k, k_negated) = third_column(def);
    let col = |c: [i32; 3]| Vec3::from_raw(c[0], c[1], c[2]);
    rot.cols[ia] = col(signed(def.axis_a, a_hat));
    rot.cols[ib] = col(signed(def.axis_b, b_hat));
    rot.cols[k] = col(negate_if(k_negated, c_hat));
}

/// Whether brad `k`'s rotation follows from brad `k - 1`'s (its twin):
/// the same goal pair and A along the same particles, either way round
/// (then whether reversed). A hand shares its forearm's line and goal, a
/// foot its shin's.
fn twin_of_previous(defs: &[BradDef], k: usize) -> Option<bool> {
    let d = defs[k];
    let t = defs[..k].last()?;
    let reversed = [d.a[1], d.a[0]];
    (t.b == d.b && (t.a == d.a || t.a == reversed)).then_some(t.a != d.a)
}

/// Brad `def`'s plan for [`kernels::brad::build`]: its particles, where
/// A, B and C = A x B go in the matrix and with which sign, and whether
/// it is the twin of the brad before (`twin`: `Some(reversed)`).
fn plan(def: &BradDef, twin: Option<bool>) -> Plan {
    let (k, k_negated) = third_column(def);
    let flag = |on: bool, f: u8| if on { f } else { 0 };
    let flags = flag(def.axis_a.is_negative(), NEGATE_A)
        | flag(def.axis_b.is_negative(), NEGATE_B)
        | flag(k_negated, NEGATE_C)
        | flag(twin.is_some(), TWIN_OF_PREVIOUS)
        | flag(twin == Some(true), TWIN_REVERSED);
    Plan::new(
        def.a,
        def.b,
        def.particle,
        [def.axis_a.index(), def.axis_b.index(), k],
        flags,
    )
}

/// `f` as a matrix.
#[inline]
fn matrix_of(f: &Frame) -> Mat4x3 {
    Mat4x3::new(Mat3::from_cols(f[0], f[1], f[2]), f[3])
}

/// A brad table with room for `N` brads, started from the bind pose:
/// each brad's definition, its plan for the kernel, and the matrix built
/// last ("the last matrix" of the degenerate cases).
#[derive(Clone, Debug)]
pub struct BradTable<const N: usize = 16> {
    defs: heapless::Vec<BradDef, N>,
    plans: Plans<N>,
    frames: [Frame; N],
}

impl<const N: usize> BradTable<N> {
    /// The table of `def`, each "last matrix" its joint's bind matrix.
    ///
    /// # Panics
    /// If `def` has more than `N` brads, or a brad names a particle
    /// beyond 15.
    pub fn new(def: &BradTableDef) -> Self {
        assert!(def.brads.len() <= N, "brad table: more brads than N");
        let mut t = BradTable {
            defs: def.brads.iter().copied().collect(),
            plans: Plans::EMPTY,
            frames: [[Vec3::ZERO; 4]; N],
        };
        for (k, (d, m)) in def.brads.iter().zip(def.bind).enumerate() {
            t.plans.push(plan(d, twin_of_previous(def.brads, k)));
            t.frames[k] = [m.rot.cols[0], m.rot.cols[1], m.rot.cols[2], m.trans];
        }
        t
    }

    /// How many brads.
    #[inline]
    pub fn len(&self) -> usize {
        self.defs.len()
    }

    /// True for a table of no brads.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.defs.is_empty()
    }

    /// The brads' definitions.
    #[inline]
    pub fn defs(&self) -> &[BradDef] {
        &self.defs
    }

    /// Brad `k`'s most recently built joint matrix.
    #[inline]
    pub fn matrix(&self, k: usize) -> Mat4x3 {
        matrix_of(&self.frames[k])
    }

    /// Every brad's most recently built joint matrix, in order.
    pub fn matrices(&self) -> impl Iterator<Item = Mat4x3> + '_ {
        self.frames[..self.len()].iter().map(matrix_of)
    }

    /// Replaces brad `k`'s last rotation (what a degenerate pose keeps).
    pub fn set_rotation(&mut self, k: usize, rot: Mat3) {
        self.frames[k][..3].copy_from_slice(&rot.cols);
    }

    /// Whether brad `k` takes its rotation from brad `k - 1` (its twin)
    /// when that one took the regular path.
    pub fn is_twin(&self, k: usize) -> bool {
        twin_of_previous(&self.defs, k).is_some()
    }

    /// Builds every brad's matrix from the particle positions `x` (m):
    /// the kernel's regular path, and the engine's own code for each
    /// brad the kernel leaves (the degenerate cases and a pair beyond 8
    /// m), from which the kernel goes on.
    #[inline(never)]
    pub fn build(&mut self, x: &[Vec3]) {
        let len = self.len();
        let mut k = 0;
        while k < len {
            k = kernels::brad::build(x, &self.plans, &mut self.frames[..len], k);
            if k < len {
                let (def, f) = (&self.defs[k], &mut self.frames[k]);
                let mut rot = Mat3::from_cols(f[0], f[1], f[2]);
                rotation_into(def, x, &mut rot);
                *f = [
                    rot.cols[0],
                    rot.cols[1],
                    rot.cols[2],
                    x[def.particle as usize],
                ];
                k += 1;
            }
        }
    }

    /// The joints the brads drive (a bit each): the mask [`Self::inject`]
    /// returns.
    pub fn joints_mask(&self) -> u32 {
        self.defs.iter().fold(0, |m, d| m | 1 << d.joint)
    }

    /// Writes each brad's matrix into `model` at its joint and returns the
    /// mask of those joints, for [`super::expand::expand`]'s `given`.
    #[inline(never)]
    pub fn inject(&self, model: &mut [Mat4x3]) -> u32 {
        let mut mask = 0;
        for (d, f) in self.defs.iter().zip(&self.frames) {
            // Field by field: a whole `Mat4x3` built from the frame went
            // through a stack copy (758 instructions for 15 brads).
            let m = &mut model[d.joint as usize];
            let [x, y, z, t] = f;
            (m.rot.cols[0], m.rot.cols[1], m.rot.cols[2], m.trans) = (*x, *y, *z, *t);
            mask |= 1 << d.joint;
        }
        mask
    }
}
