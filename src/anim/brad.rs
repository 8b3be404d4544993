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
//! # Range and cost
//! Pair vectors are clamped to ±8 m per component (a ragdoll's particles
//! are within 2 m of each other), which keeps every cross product exact
//! in an `i32`: the whole build is `i32` arithmetic, and the two unit
//! vectors per brad come from [`super::rsqrt`] (a table and a Newton
//! step) rather than the divider and square-root units, whose register
//! traffic cost more than the rest of the brad in DeSmuME.

use crate::fx::{Fx1, Mat3, Mat4x3, Vec3};

use super::unit32::{len2, unit_q12, unit_q12_pair};

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

/// A brad at run time: its definition and the last matrix built.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Brad {
    /// The definition.
    pub def: BradDef,
    /// The most recently built joint matrix.
    pub matrix: Mat4x3,
    /// An earlier brad whose rotation gives this one's ([`NO_TWIN`]: none;
    /// see [`build_brads`]).
    pub twin: u8,
}

/// The goal counts as parallel to A when its orthogonal part is below
/// `1 / 2^DEGENERATE_SHIFT` of its length (sin 0.9°).
pub const DEGENERATE_SHIFT: u32 = 6;
/// `2^-DEGENERATE_SHIFT`, the sine below which a goal is degenerate.
pub const DEGENERATE_SIN: Fx1 = Fx1::from_raw(4096 >> DEGENERATE_SHIFT);
/// Measured bound on `| |col| - 1 |` and `|col_i . col_j|`, in FX1 steps.
pub const ORTHONORMAL_TOL: i64 = 3;

/// Pair vectors are clamped to this per component (8 m, raw FX1).
const RANGE: i32 = 8 << 12;

/// `b - a` clamped to ±8 m per component, raw.
#[inline(always)]
fn pair(x: &[Vec3], p: [u8; 2]) -> [i32; 3] {
    let (a, b) = (x[p[0] as usize].raw(), x[p[1] as usize].raw());
    // A ragdoll's pairs are within 2 m, so the clamp seldom acts: with
    // every component in `[-8 m, 8 m)` it leaves them all (a saturated
    // difference is far beyond).
    let d = [0, 1, 2].map(|i| b[i].saturating_sub(a[i]));
    if magnitudes_below(d, RANGE) {
        d
    } else {
        // In line, not a call: returned from a call, the common case's
        // pair went through memory too.
        d.map(|c| c.clamp(-RANGE, RANGE))
    }
}

/// True when every component of `v` lies in `[-limit, limit)`, for a
/// power of two `limit`: `c ^ (c >> 31)` is `|c|` for `c >= 0` and `|c| -
/// 1` below (one instruction each), and their OR is below `limit` just
/// when each of them is.
#[inline(always)]
fn magnitudes_below(v: [i32; 3], limit: i32) -> bool {
    debug_assert!(limit.count_ones() == 1);
    (v[0] ^ (v[0] >> 31)) | (v[1] ^ (v[1] >> 31)) | (v[2] ^ (v[2] >> 31)) < limit
}

/// `u x v` in raw integers (`u` unit, `v` within ±8 m: each component is
/// below `2^29`, exact in an `i32`).
#[inline(always)]
fn cross(u: [i32; 3], v: [i32; 3]) -> [i32; 3] {
    [
        u[1] * v[2] - u[2] * v[1],
        u[2] * v[0] - u[0] * v[2],
        u[0] * v[1] - u[1] * v[0],
    ]
}

/// FX2 to FX1, to nearest with ties away from zero (`Fx2::lower`).
#[inline(always)]
fn lower(v: [i32; 3]) -> [i32; 3] {
    v.map(|c| (c + (1 << 11) + (c >> 31)) >> 12)
}

/// The unit C = A x goal if the goal is clear of A, else `None` (`goal`
/// a pair, within `±2^15`; `a_hat` unit, so C is below `2^28`).
#[inline(always)]
fn clear_normal(a_hat: [i32; 3], goal: [i32; 3]) -> Option<[i32; 3]> {
    let c = cross(a_hat, goal);
    // |c1|^2 2^(2 shift) < |goal|^2, in FX2: degenerate. In 32 bits:
    // |goal|^2 is below 2^32, so a component of c1 of 2^10 or more
    // (|c1|^2 2^12 >= 2^32) is clear; below that |c1|^2 < 3 * 2^20, and
    // for integers `x 2^12 < y` is `x < ceil(y / 2^12)`.
    let c1 = lower(c);
    if c1[0] | c1[1] | c1[2] == 0 {
        return None;
    }
    // Components in [-2^10, 2^10): the exact test decides (it would
    // for any small c1).
    if magnitudes_below(c1, 1 << 10) && len2(c1) < len2(goal).div_ceil(1 << (2 * DEGENERATE_SHIFT))
    {
        return None;
    }
    unit_q12(c)
}

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
/// receives the new one); true when it took the regular path (A not
/// zero, the goal clear of A), on which a twin's rotation follows from
/// it.
#[inline(always)]
fn rotation_into(def: &BradDef, x: &[Vec3], rot: &mut Mat3) -> bool {
    let a = pair(x, def.a);
    let goal = pair(x, def.b);
    if let Some(a_hat) = unit_q12_pair(a) {
        if let Some(c) = clear_normal(a_hat, goal) {
            // Both unit and orthogonal: their cross product is unit to
            // rounding.
            let b_hat = lower(cross(c, a_hat));
            put_columns(def, a_hat, b_hat, c, rot);
            return true;
        }
    }
    degenerate_into(def, a, goal, rot);
    false
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

/// The earlier brad whose rotation gives brad `k`'s, if any: the same
/// goal pair and A along the same particles (either way round). A hand
/// shares its forearm's line and goal, a foot its shin's.
fn find_twin(defs: &[BradDef], k: usize) -> u8 {
    let d = defs[k];
    let reversed = [d.a[1], d.a[0]];
    defs[..k]
        .iter()
        .position(|t| t.b == d.b && (t.a == d.a || t.a == reversed))
        .map_or(NO_TWIN, |j| j as u8)
}

/// [`Brad::twin`] of a brad that has none.
pub const NO_TWIN: u8 = u8::MAX;

/// Brad `def`'s rotation from its twin's (`twin`, `twin_rot`), when the
/// twin took the regular path (and so does `def`: its A is the twin's
/// negated or not, its goal the same). The same bits as
/// [`brad_rotation`]: A negated gives C negated and B unchanged, exactly
/// (the roundings are symmetric), so only the third column is worked out.
#[inline(always)]
fn twin_rotation_into(def: &BradDef, twin: &BradDef, twin_rot: &Mat3, rot: &mut Mat3) {
    // The same line, the same way, on the same axes (a hand and its
    // forearm): the same rotation.
    if def.a == twin.a && def.axis_a == twin.axis_a && def.axis_b == twin.axis_b {
        *rot = *twin_rot;
        return;
    }
    let t = |axis: Axis| signed(axis, twin_rot.cols[axis.index()].raw());
    let (k, k_negated) = third_column(twin);
    let twin_c = negate_if(k_negated, twin_rot.cols[k].raw());
    // A reversed: A and C negated, B as it is.
    let reversed = def.a != twin.a;
    let a_hat = negate_if(reversed, t(twin.axis_a));
    let c_hat = negate_if(reversed, twin_c);
    put_columns(def, a_hat, t(twin.axis_b), c_hat, rot);
}

/// Builds every brad's matrix from the particle positions `x` (m). A brad
/// with a twin ([`Brad::twin`], which must come earlier) takes its
/// rotation from it when the twin's was regular.
#[inline(never)]
pub fn build_brads(brads: &mut [Brad], x: &[Vec3]) {
    // Bit k: brad k took the regular path this frame (brads from the
    // 32nd on are built in full and never serve as a twin).
    let mut regular = 0u32;
    for k in 0..brads.len() {
        // By reference: a copy of each brad (60 bytes) cost 4 % of the
        // brads (`make pcprofile PCPROFILE=animframe`).
        let (done, rest) = brads.split_at_mut(k);
        let b = &mut rest[0];
        let j = b.twin as usize;
        let is_regular = match done.get(j) {
            Some(t) if regular.checked_shr(j as u32).unwrap_or(0) & 1 == 1 => {
                twin_rotation_into(&b.def, &t.def, &t.matrix.rot, &mut b.matrix.rot);
                true
            }
            _ => rotation_into(&b.def, x, &mut b.matrix.rot),
        };
        regular |= (is_regular as u32).checked_shl(k as u32).unwrap_or(0);
        b.matrix.trans = x[b.def.particle as usize];
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
#[derive(Clone, Debug)]
pub struct BradTable<const N: usize = 16> {
    brads: heapless::Vec<Brad, N>,
}

impl<const N: usize> BradTable<N> {
    /// The table of `def`, each "last matrix" its joint's bind matrix.
    ///
    /// # Panics
    /// If `def` has more than `N` brads.
    pub fn new(def: &BradTableDef) -> Self {
        assert!(def.brads.len() <= N, "brad table: more brads than N");
        let brads = def
            .brads
            .iter()
            .zip(def.bind)
            .enumerate()
            .map(|(k, (d, m))| Brad {
                def: *d,
                matrix: *m,
                twin: find_twin(def.brads, k),
            })
            .collect();
        BradTable { brads }
    }

    /// The brads.
    #[inline]
    pub fn brads(&self) -> &[Brad] {
        &self.brads
    }

    /// The brads, mutable (for [`build_brads`]).
    #[inline]
    pub fn brads_mut(&mut self) -> &mut [Brad] {
        &mut self.brads
    }

    /// [`build_brads`] over the whole table.
    #[inline]
    pub fn build(&mut self, x: &[Vec3]) {
        build_brads(self.brads_mut(), x);
    }

    /// The joints the brads drive (a bit each): the mask [`inject`]
    /// returns.
    pub fn joints_mask(&self) -> u32 {
        self.brads.iter().fold(0, |m, b| m | 1 << b.def.joint)
    }

    /// [`inject`] over the whole table.
    #[inline]
    pub fn inject(&self, model: &mut [crate::fx::Mat4x3]) -> u32 {
        inject(self.brads(), model)
    }
}
