//! One velocity-level constraint row, `J_a v_a + J_b v_b = target`, with
//! its impulse clamped to `[lo, hi]` (seed 000), and the projected
//! Gauss-Seidel / sequential-impulse solver over a fixed buffer of rows.
//!
//! A row between bodies `a` and `b` (either may be [`STATIC`](super::body::STATIC)) is
//!
//! ```text
//! J v = lin . (v_b - v_a) + ang_a . w_a + ang_b . w_b
//! ```
//!
//! and its impulse `lambda` changes velocities by `M^-1 J^T lambda`.
//! Contacts and limits have `lo = 0`; motors `+-tau_max dt`; friction
//! `+-mu lambda_normal` (`friction_of` names the normal row, `normals`
//! how many from it on a contact patch sums).
//!
//! # Limits
//! A buffer holds at most `R <= 65535` rows (indices are `u16`; a
//! friction row names its normal row by index) and the solver takes at
//! most [`MAX_BODIES`] bodies (`u8` indices, one slot per body in its
//! velocity scratch).
//!
//! # The solve
//! `solve` turns each [`Row`] into a [`super::kernel::Prepared`] row of
//! plain integers once per step and sweeps those (formats, bounds and
//! the update: [`super::kernel`]). Up to [`DTCM_ROWS`] rows are swept
//! in a buffer on the stack, which on the DS is DTCM; a step with more
//! rows fills that buffer up to a cut between contact patches and sweeps
//! the rest in the list's own buffer in main RAM, in the same order (the
//! same updates, so the same results).

use crate::fx::{Fx1, Fx2, Fx3, Vec3};

use super::body::{mul_mat_fx2, Body};
use super::contact::{ContactRow, CONTACT_KEY};
use super::iso::{self, IsoPair, IsoRow, ISO_DTCM_ROWS};
use super::joint_bit;
use super::kernel::{self, solved_body, Prepared, SweptRow, Vel, SLOTS, ZERO_SLOT};
use super::prep;

pub use super::kernel::{MAX_BODIES, MAX_EFFECTIVE_MASS, MAX_ERROR, NO_NORMAL};

/// The largest impulse bound (N s): "unbounded" (the solver's Q20 bound,
/// [`super::kernel::LAMBDA_MAX`], is one step below).
pub const UNBOUNDED: Fx2 = Fx2::from_raw(1 << 34);

/// Rows swept in the stack buffer (DTCM on the DS): 76 B each, 7.7 KB
/// (the powered ragdoll standing has 95; fallen, up to about 140). The
/// stack's deepest point is this buffer on top of a scene's frames
/// (`stack.peak_bytes`, `make bench`); at 126 rows the stack guard
/// panics in scene (b), so 104 leaves about 1.6 KB (docs/rigid-solver.md).
pub const DTCM_ROWS: usize = 104;

/// The key bit of joint and motor rows (their warm start has its own
/// fraction, [`Rows::joint_warm_fraction`]).
pub const JOINT_KEY: u16 = 0x8000;

/// True for a joint row's key (see [`super::world::joint_key`]) whose
/// joint is in `hold` ([`Rows::clear_holding`]).
fn held_joint(key: u16, hold: u32) -> bool {
    key & JOINT_KEY != 0 && hold & joint_bit(((key >> 4) & 0x7ff) as usize) != 0
}

/// The most held joint entries (a figure's joint and motor rows).
const HELD: usize = 128;

/// Slots of the warm-start index: room for twice the largest world's
/// rows (480); a world uses the first `Rows::SLOTS` of them.
const INDEX_SLOTS: usize = 1024;

/// The warm-start index's slot for bodies `a`, `b` and `key`.
#[inline]
fn index_hash(a: u8, b: u8, key: u16) -> usize {
    let x = (a as u32) | (b as u32) << 8 | (key as u32) << 16;
    (x.wrapping_mul(0x9e37_79b1) >> 22) as usize
}

/// One constraint row.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Row {
    /// First body (or [`STATIC`](super::body::STATIC)); gets `-lin`.
    pub a: u8,
    /// Second body (or [`STATIC`](super::body::STATIC)); gets `+lin`.
    pub b: u8,
    /// Linear Jacobian of `b` (unit or zero).
    pub lin: Vec3,
    /// Angular Jacobian of `a`.
    pub ang_a: Vec3,
    /// Angular Jacobian of `b`.
    pub ang_b: Vec3,
    /// The `J v` wanted after the solve (velocity units).
    pub target: Fx2,
    /// Lower impulse bound.
    pub lo: Fx2,
    /// Upper impulse bound.
    pub hi: Fx2,
    /// For a friction row, the index of its first normal row, else
    /// [`NO_NORMAL`].
    pub friction_of: u16,
    /// For a friction row, how many normal rows from `friction_of` on
    /// bound it (their impulses summed: a contact patch); 0 counts as 1.
    pub normals: u8,
    /// Friction coefficient (friction rows only).
    pub mu: Fx1,
    /// The accumulated impulse (after a solve: its result, Q20 precision).
    pub lambda: Fx2,
    /// Warm-start key: a row with the same bodies and key as one of the
    /// last step starts from that row's impulse (0: start from zero).
    pub key: u16,
}

impl Row {
    /// The all-zero row (fills the fixed buffer).
    pub const ZERO: Row = Row {
        a: 0,
        b: 0,
        lin: Vec3::ZERO,
        ang_a: Vec3::ZERO,
        ang_b: Vec3::ZERO,
        target: Fx2::ZERO,
        lo: Fx2::ZERO,
        hi: Fx2::ZERO,
        friction_of: 0,
        normals: 0,
        mu: Fx1::ZERO,
        lambda: Fx2::ZERO,
        key: 0,
    };

    /// A row with bounds `[lo, hi]` and no friction link.
    pub fn new(a: u8, b: u8, lin: Vec3, ang_a: Vec3, ang_b: Vec3, target: Fx2) -> Row {
        Row {
            a,
            b,
            lin,
            ang_a,
            ang_b,
            target,
            lo: -UNBOUNDED,
            hi: UNBOUNDED,
            friction_of: NO_NORMAL,
            ..Row::default()
        }
    }

    /// An angular row `(w_b - w_a) . axis = target`.
    pub fn angular(a: u8, b: u8, axis: Vec3, target: Fx2) -> Row {
        Row::new(a, b, Vec3::ZERO, -axis, axis, target)
    }

    /// Sets the warm-start key.
    pub fn keyed(mut self, key: u16) -> Row {
        self.key = key;
        self
    }

    /// Sets the impulse bounds.
    pub fn bounded(mut self, lo: Fx2, hi: Fx2) -> Row {
        self.lo = lo;
        self.hi = hi;
        self
    }

    /// The current `J v` (FX3, exact).
    #[inline]
    pub fn velocity(&self, bodies: &[Body]) -> Fx3 {
        let mut jv = Fx3::ZERO;
        if let Some(b) = solved_body(bodies, self.a) {
            jv += self.ang_a.dot(b.spin) - self.lin.dot(b.vel);
        }
        if let Some(b) = solved_body(bodies, self.b) {
            jv += self.ang_b.dot(b.spin) + self.lin.dot(b.vel);
        }
        jv
    }
}

/// What a step remembers of a row for warm starting.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Remembered {
    a: u8,
    b: u8,
    key: u16,
    lambda: Fx2,
}

impl Remembered {
    const ZERO: Remembered = Remembered {
        a: 0,
        b: 0,
        key: 0,
        lambda: Fx2::ZERO,
    };

    /// What the next step's warm start needs of `r`.
    #[inline(always)]
    fn of(r: &Row) -> Remembered {
        Remembered {
            a: r.a,
            b: r.b,
            key: r.key,
            lambda: r.lambda,
        }
    }
}

/// A fixed-capacity list of rows, filled each step and solved. Keyed
/// rows are warm-started from the last step's impulse of the row with
/// the same bodies and key (Box2D-style): resting stacks and held poses
/// then need few sweeps.
#[derive(Clone, Debug)]
// In C order, the small fields first: after the arrays (about 100 KB
// for the box scenes) their offsets took extra instructions to form in
// every inlined `push` (`make insn-count PCPROFILE=boxes`).
#[repr(C)]
pub struct Rows<const R: usize> {
    len: usize,
    prev_len: usize,
    kept_len: Option<usize>,
    kept_rows: usize,
    /// Entries of `sides` the last solve wrote.
    sides_len: usize,
    /// The `prev` entry the last warm-start lookup found (`u16::MAX - 1`:
    /// none this step).
    last_found: u16,
    /// Rows that did not fit this step (a sign the capacity is too low).
    pub dropped: u16,
    /// This step's rows are contact rows built straight into the
    /// isotropic form in `iso_far` (their identities in `kept`), not
    /// [`Row`]s: [`Rows::begin_contacts`].
    direct: bool,
    /// A row built straight into the isotropic form did not fit it: the
    /// step's contacts must be pushed again as [`Row`]s.
    misfit: bool,
    /// Rows pushed as [`Row`]s before the contacts of a direct step (the
    /// grab's), and `dropped` then.
    direct_from: usize,
    direct_dropped: u16,
    /// Of a direct step's rows, the first `near_len` are in the caller's
    /// DTCM buffer (`near`), the rest in `iso_far`; `near_open` while the
    /// next patch may still go into the buffer.
    near_len: usize,
    near_open: bool,
    /// Over-relaxation factor of every row (1: plain Gauss-Seidel).
    pub relaxation: Fx1,
    /// Fraction of the last impulse a warm start reuses (1: measured in
    /// `tests/rigid_stack.rs`, 0.9 left a 2-box stack rocking and walking
    /// at 0.5 mm/s).
    pub warm_fraction: Fx1,
    /// The same for rows keyed with [`JOINT_KEY`]. Joints closing a loop
    /// (two legs on the ground) are redundant: part of their impulses
    /// is internal force that no velocity shows, and with a full warm
    /// start it can grow from step to step until motors saturate and
    /// the body moves. Below 1 it decays (`tests/rigid_powered.rs`).
    pub joint_warm_fraction: Fx1,
    rows: [Row; R],
    /// Two buffers of identities and impulses. `remembered[prev_at]`
    /// (`prev`) is the last step's, for the warm starts. The other
    /// (`kept`) is this step's keyed impulses as the solve wrote them
    /// back, in order (`kept_len` is `Some(count)` while the rows are as
    /// the solve left them, checked by `kept_rows`, the row count it
    /// solved, so that a push need not say so): the next
    /// [`Rows::clear_holding`] makes it `prev` by flipping `prev_at`,
    /// instead of reading every 80-byte row again (two cache misses a row
    /// in a woken pile) or copying it (`make insn-count PCPROFILE=boxes`).
    remembered: [[Remembered; R]; 2],
    prev_at: usize,
    /// `prev` by (bodies, key): open addressing, each slot 0 (empty) or
    /// an index into `prev` plus one. A linear search from the row's own
    /// position was quadratic once a woken pile changed the rows' order
    /// (4.8 % of scene (c)'s time, `make pcprofile PCPROFILE=boxes`).
    index: [u16; INDEX_SLOTS],
    /// The index slot of each `prev` entry, to empty the index in
    /// `O(prev_len)` rather than clear all of it every step.
    slot_of: [u16; R],
    /// The warm starts of the joints a folded figure holds
    /// ([`Rows::clear_holding`]): kept here while those joints have no
    /// rows, not carried through `prev` and its index every step.
    held: [Remembered; HELD],
    held_len: usize,
    /// The joints `held` holds (a bit each, as `clear_holding` takes
    /// them), and those whose entries go at the next clear: released
    /// this step, their entries still serve its lookups.
    held_mask: u32,
    held_expiring: u32,
    /// The rows in solver form, when there are more than [`DTCM_ROWS`].
    prepared: [Prepared; R],
    /// The same in the isotropic form, beyond [`ISO_DTCM_ROWS`]; all of a
    /// step's rows when they are built straight into it ([`Rows::direct`]).
    iso_far: [IsoRow; R],
    /// This step's bodies as [`Prepared::set_fast`] sees them.
    sides: prep::Sides,
}

impl<const R: usize> Default for Rows<R> {
    fn default() -> Self {
        Rows::EMPTY
    }
}

impl<const R: usize> Rows<R> {
    /// The index slots this capacity uses: a power of two, at least twice
    /// the rows (so that a probe ends soon).
    const SLOTS: usize = (2 * R).next_power_of_two();

    /// No rows and nothing remembered (a `const`, for statics).
    pub const EMPTY: Rows<R> = {
        assert!(R < NO_NORMAL as usize, "row indices are u16");
        assert!(
            2 * R <= INDEX_SLOTS,
            "the warm-start index needs twice the rows"
        );
        Rows {
            rows: [Row::ZERO; R],
            len: 0,
            remembered: [[Remembered::ZERO; R]; 2],
            prev_at: 0,
            prev_len: 0,
            kept_len: None,
            kept_rows: 0,
            index: [0; INDEX_SLOTS],
            slot_of: [0; R],
            held: [Remembered::ZERO; HELD],
            held_len: 0,
            held_mask: 0,
            held_expiring: 0,
            prepared: [Prepared::ZERO; R],
            iso_far: [IsoRow::BLANK; R],
            sides: prep::NO_SIDES,
            sides_len: 0,
            last_found: u16::MAX - 1,
            dropped: 0,
            direct: false,
            misfit: false,
            direct_from: 0,
            direct_dropped: 0,
            near_len: 0,
            near_open: false,
            relaxation: Fx1::ONE,
            warm_fraction: crate::fx!(1.0),
            joint_warm_fraction: crate::fx!(1.0),
        }
    };

    /// Remembers this step's keyed impulses, then empties the list.
    pub fn clear(&mut self) {
        self.clear_holding(0);
    }

    /// [`Rows::clear`]; the joint and motor impulses remembered before of
    /// the joints in `hold_joints` ([`super::joint_bit`]) are kept too: a folded
    /// figure has no rows for those joints for a while, and when it
    /// unfolds they start from what held it. A joint with rows this step
    /// must not be held: a row of it that vanished (a limit let go) would
    /// come back with its old impulse.
    pub fn clear_holding(&mut self, hold_joints: u32) {
        self.update_held(hold_joints);
        for &h in &self.slot_of[..self.prev_len] {
            self.index[h as usize] = 0;
        }
        let kept = self.kept_count();
        self.kept_len = None;
        let prev = halves(&mut self.remembered, self.prev_at).0;
        self.direct = false;
        self.misfit = false;
        let mut n = 0;
        match kept {
            // The common step: the kept impulses become the remembered
            // ones where they are, with no copy.
            Some(k) => {
                n = k.min(R);
                self.prev_at ^= 1;
            }
            None => {
                for r in self.rows[..self.len].iter().filter(|r| r.key != 0) {
                    prev[n] = Remembered::of(r);
                    n += 1;
                }
            }
        }
        self.prev_len = n;
        let prev = &self.remembered[self.prev_at];
        for (k, p) in prev[..n].iter().enumerate() {
            let mut h = index_hash(p.a, p.b, p.key) & (Self::SLOTS - 1);
            while self.index[h] != 0 {
                h = (h + 1) & (Self::SLOTS - 1);
            }
            self.index[h] = k as u16 + 1;
            self.slot_of[k] = h as u16;
        }
        self.last_found = u16::MAX - 1;
        self.len = 0;
        self.dropped = 0;
    }

    /// Forgets all impulses (no warm start on the next step).
    pub fn forget(&mut self) {
        for &h in &self.slot_of[..self.prev_len] {
            self.index[h as usize] = 0;
        }
        self.prev_len = 0;
        self.kept_len = None;
        self.len = 0;
        self.dropped = 0;
        self.direct = false;
        self.misfit = false;
    }

    /// Adds a row; returns its index, or `None` (and counts it) when full.
    /// Inlined, so that a row built in the call is written straight into
    /// the list (an 80-byte copy through `memcpy` was 4 % of the box
    /// scenes' step, `make pcprofile PCPROFILE=pyramid`).
    #[inline(always)]
    pub fn push(&mut self, row: Row) -> Option<u16> {
        self.push_with(|slot| *slot = row)
    }

    /// [`Rows::push`] of the row `fill` writes into the list's next slot
    /// (a builder out of line writes it in place, with no copy); `fill`
    /// is not called when the list is full.
    #[inline(always)]
    pub fn push_with(&mut self, fill: impl FnOnce(&mut Row)) -> Option<u16> {
        if self.len >= R {
            self.dropped = self.dropped.saturating_add(1);
            return None;
        }
        let index = self.len;
        fill(&mut self.rows[index]);
        self.len += 1;
        if self.rows[index].key != 0 {
            let lambda = self.remembered(index);
            self.rows[index].lambda = lambda;
        } else {
            self.rows[index].lambda = Fx2::ZERO;
        }
        Some(index as u16)
    }

    /// The last impulse of the row like the one at `index`, scaled, or
    /// zero (one probe of the index, a few at most).
    #[inline(always)]
    fn remembered(&mut self, index: usize) -> Fx2 {
        // Only the identity: a copy of the whole 80-byte row cost more.
        let (a, b, key) = (self.rows[index].a, self.rows[index].b, self.rows[index].key);
        self.remembered_of(a, b, key)
    }

    /// The held store's part of [`Rows::clear_holding`]: drops the
    /// entries released a step ago, moves the latest impulses of the
    /// newly held joints in, and marks the joints released now.
    fn update_held(&mut self, hold: u32) {
        if self.held_expiring != 0 {
            let expiring = self.held_expiring;
            let mut kept = 0;
            for k in 0..self.held_len {
                if !held_joint(self.held[k].key, expiring) {
                    self.held[kept] = self.held[k];
                    kept += 1;
                }
            }
            self.held_len = kept;
            self.held_expiring = 0;
        }
        let newly = hold & !self.held_mask;
        if newly != 0 {
            // This step's impulses: as the solve wrote them back, or in
            // the rows.
            let (kept, rows): (&[Remembered], &[Row]) = match self.kept_count() {
                Some(k) => (&self.remembered[self.prev_at ^ 1][..k.min(R)], &[]),
                None => (&[], &self.rows[..self.len]),
            };
            let latest = kept
                .iter()
                .copied()
                .chain(rows.iter().filter(|r| r.key != 0).map(Remembered::of));
            for e in latest.filter(|e| held_joint(e.key, newly)) {
                if self.held_len < HELD {
                    self.held[self.held_len] = e;
                    self.held_len += 1;
                }
            }
        }
        self.held_expiring = self.held_mask & !hold;
        self.held_mask = hold;
    }

    /// How many of this step's impulses the solve wrote back to `kept`
    /// (rows built straight into solver form keep their identities there
    /// from the start, with their warm starts if never solved), or `None`
    /// when they are to be read from the rows.
    fn kept_count(&self) -> Option<usize> {
        if self.direct {
            Some(self.len)
        } else {
            self.kept_len.filter(|_| self.kept_rows == self.len)
        }
    }

    /// A held joint's warm start (bodies and key), scaled as
    /// [`Rows::remembered`] scales one, for a row the last step did not
    /// have; zero when none is held.
    fn held_of(&self, a: u8, b: u8, key: u16) -> Fx2 {
        if key & JOINT_KEY == 0 {
            return Fx2::ZERO;
        }
        self.held[..self.held_len]
            .iter()
            .find(|e| e.key == key && e.a == a && e.b == b)
            .map_or(Fx2::ZERO, |e| self.scaled(e.lambda, key))
    }

    /// [`Rows::remembered`] of the row with bodies `a`, `b` and `key`.
    /// Out of line: `push` is inlined into every row builder.
    #[inline(never)]
    fn remembered_of(&mut self, a: u8, b: u8, key: u16) -> Fx2 {
        if self.prev_len == 0 {
            return self.held_of(a, b, key);
        }
        // A contact's friction rows follow its normal row, last step as
        // now: the entry after the one the previous row found is checked
        // first. Contact keys are unique in a step (one feature of one
        // pair), so that entry is the one the index would find.
        let next = self.last_found as usize + 1;
        let contact = key & (JOINT_KEY | CONTACT_KEY) == CONTACT_KEY;
        if contact && next < self.prev_len {
            let p = &self.remembered[self.prev_at][next];
            if p.key == key && p.a == a && p.b == b {
                self.last_found = next as u16;
                return self.scaled(p.lambda, key);
            }
        }
        // The first remembered row with these bodies and key (the lowest
        // index: entries go in in order).
        let mut h = index_hash(a, b, key) & (Self::SLOTS - 1);
        let found = loop {
            match self.index[h] {
                0 => break None,
                k => {
                    let p = &self.remembered[self.prev_at][k as usize - 1];
                    if p.key == key && p.a == a && p.b == b {
                        self.last_found = k - 1;
                        break Some(p);
                    }
                }
            }
            h = (h + 1) & (Self::SLOTS - 1);
        };
        match found {
            Some(p) => self.scaled(p.lambda, key),
            None => self.held_of(a, b, key),
        }
    }

    /// A remembered impulse times the warm-start fraction of rows keyed
    /// `key`.
    #[inline(always)]
    fn scaled(&self, lambda: Fx2, key: u16) -> Fx2 {
        let fraction = if key & JOINT_KEY != 0 {
            self.joint_warm_fraction
        } else {
            self.warm_fraction
        };
        // A whole warm start (the box scenes') needs no 64-bit product.
        if fraction == Fx1::ONE {
            lambda
        } else {
            (lambda * fraction).lower()
        }
    }

    /// The rows of this step as [`Row`]s: all of them, except contact
    /// rows built straight into solver form ([`Rows::begin_contacts`]),
    /// which have none.
    pub fn as_slice(&self) -> &[Row] {
        &self.rows[..if self.direct {
            self.direct_from
        } else {
            self.len
        }]
    }

    /// Starts a step's contact rows. When every body the solver moves has
    /// one moment of inertia (the box scenes), they are built straight
    /// into the isotropic solver form (`IsoRow::set_pair_row`): no
    /// [`Row`] is written and read back. Rows pushed before (the grab's)
    /// are put in that form here; when one does not fit, or is not keyed,
    /// the step stays with [`Row`]s. Bodies from [`MAX_BODIES`] on are
    /// not solved.
    ///
    /// The first rows go into `near` (on the DS a buffer in DTCM, where a
    /// store costs a cycle rather than eight), as many whole patches as
    /// it holds, the rest into the list's own buffer in main RAM: the
    /// solve must be given the same `near` ([`Rows::solve_with`]). Out of
    /// line and out of ITCM: once a step.
    #[inline(never)]
    pub fn begin_contacts(&mut self, bodies: &[Body], near: &mut [IsoRow]) {
        self.direct = false;
        self.misfit = false;
        let bodies = &bodies[..bodies.len().min(MAX_BODIES)];
        // A moving body with unequal moments (the characters') rules the
        // form out: the solve finds its sides itself, once.
        if bodies
            .iter()
            .any(|b| !(b.is_static() || b.is_asleep() || b.isotropic))
        {
            return;
        }
        let (len, _, every) = prep::fill_sides(&mut self.sides, self.sides_len, bodies);
        self.sides_len = len;
        self.near_open = self.len <= near.len();
        let buf = if self.near_open {
            &mut near[..self.len]
        } else {
            &mut self.iso_far[..self.len]
        };
        let (sides, omega) = (&self.sides, self.relaxation);
        let kept = halves(&mut self.remembered, self.prev_at).1;
        if every && rows_to_iso(&self.rows[..self.len], buf, kept, sides, omega) {
            self.direct = true;
            self.direct_from = self.len;
            self.direct_dropped = self.dropped;
            self.near_len = if self.near_open { self.len } else { 0 };
        }
    }

    /// Makes room for a patch of `rows` rows: in the DTCM buffer (of `cap`
    /// rows) only if all of them fit, so that no patch is split between
    /// the two buffers (a friction row's normal rows are summed in its
    /// own).
    #[inline(always)]
    pub(super) fn reserve_near(&mut self, rows: usize, cap: usize) {
        if self.len + rows > cap {
            self.near_open = false;
        }
    }

    /// True while contact rows go straight into solver form.
    #[inline(always)]
    pub(super) fn direct(&self) -> bool {
        self.direct
    }

    /// True when a contact row did not fit solver form: the caller drops
    /// this step's contact rows ([`Rows::restart_as_rows`]) and pushes
    /// them again.
    pub(super) fn misfit(&self) -> bool {
        self.misfit
    }

    /// Drops the rows built in solver form; the next are [`Row`]s.
    pub(super) fn restart_as_rows(&mut self) {
        self.near_open = false;
        self.len = self.direct_from;
        self.dropped = self.direct_dropped;
        self.direct = false;
        self.misfit = false;
        self.last_found = u16::MAX - 1;
    }

    /// The sides of bodies `(a, b)` that every isotropic row between them
    /// shares ([`IsoPair::of`]); `None` (and [`Rows::misfit`] set) when
    /// they do not fit the form. Once a contact patch.
    pub(super) fn iso_pair(&mut self, (a, b): (u8, u8)) -> Option<IsoPair> {
        let sides = [prep::side_of(&self.sides, a), prep::side_of(&self.sides, b)];
        let pair = IsoPair::of((a, b), &sides, self.relaxation);
        self.misfit |= pair.is_none();
        pair
    }

    /// Pushes contact row `row` between the bodies of `pair` straight in
    /// solver form (`IsoRow::set_pair_row`), into `near` while the DTCM buffer is
    /// open ([`Rows::reserve_near`]), else into main RAM. Returns its
    /// index, or `None` when the list is full (counted) or the row does
    /// not fit the form ([`Rows::misfit`]). One copy, out of line, for
    /// every kind of contact row.
    #[inline(never)]
    pub(super) fn push_contact(
        &mut self,
        near: &mut [IsoRow],
        pair: &IsoPair,
        row: &ContactRow,
    ) -> Option<u16> {
        if self.misfit {
            return None;
        }
        if self.len >= R {
            self.dropped = self.dropped.saturating_add(1);
            return None;
        }
        let index = self.len;
        let (a, b) = pair.bodies;
        let lambda = self.remembered_of(a, b, row.key);
        let out = match near.get_mut(index) {
            Some(slot) if self.near_open => {
                self.near_len = index + 1;
                slot
            }
            _ => {
                self.near_open = false;
                &mut self.iso_far[index]
            }
        };
        let q20 = kernel::to_q20(lambda);
        if out
            .set_pair_row(pair, &row.jacobian, row.target, row.link, q20)
            .is_none()
        {
            self.misfit = true;
            return None;
        }
        let key = row.key;
        halves(&mut self.remembered, self.prev_at).1[index] = Remembered { a, b, key, lambda };
        self.len += 1;
        Some(index as u16)
    }

    /// The rows of [`Rows::as_slice`], mutable.
    pub fn as_mut_slice(&mut self) -> &mut [Row] {
        // Rows changed after the solve: the next clear reads them.
        self.kept_len = None;
        &mut self.rows[..if self.direct {
            self.direct_from
        } else {
            self.len
        }]
    }

    /// Number of rows.
    pub fn len(&self) -> usize {
        self.len
    }

    /// True when empty.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Prepares every row, applies warm-start impulses, then runs
    /// `iterations` Gauss-Seidel sweeps in order. Bodies from index
    /// [`MAX_BODIES`] on are not solved (a world holds at most that many).
    /// When every body the solver moves has one moment of inertia, the
    /// rows take the isotropic form ([`super::iso`]); otherwise, or when
    /// a row does not fit it, the general one.
    pub fn solve(&mut self, bodies: &mut [Body], iterations: u8) {
        self.solve_with(bodies, iterations, &mut []);
    }

    /// [`Rows::solve`] of a step whose contact rows were built with the
    /// DTCM buffer `near` ([`Rows::begin_contacts`]; the same buffer).
    #[inline(never)]
    pub fn solve_with(&mut self, bodies: &mut [Body], iterations: u8, near: &mut [IsoRow]) {
        let n = bodies.len().min(MAX_BODIES);
        let bodies = &mut bodies[..n];
        if self.direct {
            self.solve_direct(bodies, iterations, near);
            return;
        }
        // In the world, not on the stack: DTCM has no 512 bytes to spare
        // under the row buffer (the stack guard caught it in `make bench`).
        let (len, fast, every) = prep::fill_sides(&mut self.sides, self.sides_len, bodies);
        self.sides_len = len;
        if !(every && self.solve_iso(bodies, iterations)) {
            self.solve_general(bodies, iterations, fast);
        }
    }

    /// [`Rows::solve`] in the general form, in a frame of its own (so
    /// that the isotropic solve's stack is not below this one's scratch:
    /// together they ran off DTCM).
    #[inline(never)]
    fn solve_general(&mut self, bodies: &mut [Body], iterations: u8, fast: bool) {
        let mut vel: [Vel; SLOTS] = [[0; 6]; SLOTS];
        for (v, b) in vel.iter_mut().zip(bodies.iter()) {
            *v = kernel::velocity_of(b);
        }
        let rows = &mut self.rows[..self.len];
        let omega = self.relaxation;
        let b = Solved {
            bodies,
            sides: &self.sides,
            fast,
        };
        let kept = halves(&mut self.remembered, self.prev_at).1;
        let far = &mut self.prepared;
        let kept_n =
            solve_sized::<Prepared, DTCM_ROWS>(rows, kept, far, b, &mut vel, iterations, omega)
                .expect("the general form takes every row");
        self.kept_len = Some(kept_n);
        self.kept_rows = self.len;
        debug_assert!(vel[ZERO_SLOT as usize] == [0; 6]);
        for (b, v) in bodies.iter_mut().zip(&vel) {
            store_velocity(b, v);
        }
    }

    /// [`Rows::solve`] in the isotropic form, in a frame of its own (its
    /// wider velocity scratch is never on the stack beside the general
    /// one); false, with nothing changed, when a row does not fit it.
    #[inline(never)]
    fn solve_iso(&mut self, bodies: &mut [Body], iterations: u8) -> bool {
        let mut vel = [[0; 8]; SLOTS];
        iso::fill_slots(&mut vel, bodies, &self.sides);
        let rows = &mut self.rows[..self.len];
        let b = Solved {
            bodies,
            sides: &self.sides,
            fast: true,
        };
        let kept = halves(&mut self.remembered, self.prev_at).1;
        let (far, omega) = (&mut self.iso_far, self.relaxation);
        let Some(kept_n) =
            solve_sized::<IsoRow, ISO_DTCM_ROWS>(rows, kept, far, b, &mut vel, iterations, omega)
        else {
            return false;
        };
        self.kept_len = Some(kept_n);
        self.kept_rows = self.len;
        store_iso_velocities(bodies, &vel);
        true
    }

    /// [`Rows::solve`] of rows built straight into the isotropic form (in
    /// `iso_far`, their sides from [`Rows::begin_contacts`]): the same
    /// sweeps, and their impulses into `kept` for the next warm start.
    #[inline(never)]
    fn solve_direct(&mut self, bodies: &mut [Body], iterations: u8, near: &mut [IsoRow]) {
        let mut vel = [[0; 8]; SLOTS];
        iso::fill_slots(&mut vel, bodies, &self.sides);
        let (n, near_len) = (self.len, self.near_len);
        assert!(near_len <= near.len(), "solved with another DTCM buffer");
        let near = &mut near[..near_len];
        let far = &mut self.iso_far[near_len..n];
        let kept = &mut halves(&mut self.remembered, self.prev_at).1[..n];
        let before = &mut self.rows[..self.direct_from];
        for r in near.iter().chain(far.iter()) {
            r.warm_start(&mut vel);
        }
        kernel::sweep_split(near, far, &mut vel, iterations);
        let solved = near.iter().chain(far.iter());
        for (i, (k, r)) in kept.iter_mut().zip(solved).enumerate() {
            k.lambda = match before.get_mut(i) {
                Some(row) => {
                    row.lambda = r.impulse(row);
                    row.lambda
                }
                None => r.contact_impulse(),
            };
        }
        self.kept_len = Some(n);
        self.kept_rows = n;
        store_iso_velocities(bodies, &vel);
    }
}

/// The `prev` and `kept` buffers of `remembered` ([`Rows`]), `prev` at
/// `prev_at`.
#[inline(always)]
fn halves<const R: usize>(
    remembered: &mut [[Remembered; R]; 2],
    prev_at: usize,
) -> (&mut [Remembered; R], &mut [Remembered; R]) {
    let [a, b] = remembered;
    if prev_at == 0 {
        (a, b)
    } else {
        (b, a)
    }
}

/// `rows` in the isotropic form in `buf` (with their identities in
/// `kept`), as the solve would prepare them with `sides` and relaxation
/// `omega`; false when one does not fit it or has no key.
#[inline(never)]
fn rows_to_iso(
    rows: &[Row],
    buf: &mut [IsoRow],
    kept: &mut [Remembered],
    sides: &prep::Sides,
    omega: Fx1,
) -> bool {
    for ((r, p), k) in rows.iter().zip(buf.iter_mut()).zip(kept.iter_mut()) {
        if r.key == 0 || !p.set(r, sides, kernel::to_q20(r.lambda), omega) {
            return false;
        }
        *k = Remembered::of(r);
    }
    true
}

/// The isotropic form's solved slots back into `bodies`.
#[inline(always)]
fn store_iso_velocities(bodies: &mut [Body], vel: &[iso::IsoSlot; SLOTS]) {
    debug_assert!(vel[ZERO_SLOT as usize][..6] == [0; 6]);
    for (b, v) in bodies.iter_mut().zip(vel) {
        store_velocity(b, &[v[0], v[1], v[2], v[3], v[4], v[5]]);
    }
}

/// A solved velocity scratch slot back into a body the solver moves.
#[inline(always)]
fn store_velocity(b: &mut Body, v: &Vel) {
    if !b.is_static() {
        b.vel = Vec3::new(v[0], v[1], v[2]).map(|c| Fx2::from_raw(c as i64));
        b.spin = Vec3::new(v[3], v[4], v[5]).map(|c| Fx2::from_raw(c as i64));
    }
}

/// A form of the solver's rows: how a [`Row`] becomes one, and what the
/// solve reads back.
trait Form: SweptRow + Copy {
    /// A row that is never swept (fills a buffer cheaply).
    const BLANK: Self;
    /// Sets `self` to `row` with warm start `lambda` (Q20); false when
    /// the row does not fit this form.
    fn set(&mut self, row: &Row, bodies: Solved, lambda: i32, omega: Fx1) -> bool;
    /// Applies the warm start.
    fn warm_start(&self, vel: &mut [Self::Slot; SLOTS]);
    /// The solved impulse, as [`Row::lambda`] keeps it.
    fn impulse(&self, row: &Row) -> Fx2;
}

impl Form for Prepared {
    const BLANK: Prepared = Prepared::BLANK;
    #[inline(always)]
    fn set(&mut self, row: &Row, bodies: Solved, lambda: i32, omega: Fx1) -> bool {
        if !(bodies.fast && self.set_fast(row, bodies.sides, lambda, omega)) {
            self.set_sided(row, bodies.bodies, Some(bodies.sides), lambda, omega);
        }
        true
    }
    #[inline(always)]
    fn warm_start(&self, vel: &mut [Vel; SLOTS]) {
        Prepared::warm_start(self, vel)
    }
    #[inline(always)]
    fn impulse(&self, row: &Row) -> Fx2 {
        Prepared::impulse(self, row)
    }
}

impl Form for IsoRow {
    const BLANK: IsoRow = IsoRow::BLANK;
    #[inline(always)]
    fn set(&mut self, row: &Row, bodies: Solved, lambda: i32, omega: Fx1) -> bool {
        IsoRow::set(self, row, bodies.sides, lambda, omega)
    }
    #[inline(always)]
    fn warm_start(&self, vel: &mut [iso::IsoSlot; SLOTS]) {
        IsoRow::warm_start(self, vel)
    }
    #[inline(always)]
    fn impulse(&self, row: &Row) -> Fx2 {
        IsoRow::impulse(self, row)
    }
}

/// The bodies of a solve, and what [`Prepared::set_fast`] needs of them.
#[derive(Clone, Copy)]
struct Solved<'a> {
    bodies: &'a [Body],
    sides: &'a prep::Sides,
    /// Some side is fast: worth trying [`Prepared::set_fast`].
    fast: bool,
}

/// Rows of the smaller stack buffer: a few bodies at rest on the ground
/// clear 3.6 KB of it rather than all [`DTCM_ROWS`] (7.9 KB) each step.
const SMALL_ROWS: usize = 48;

/// The solve of `rows` in form `F`, with a DTCM buffer of `N` rows: a
/// small buffer for few rows, the whole one, or the whole one and `far`
/// (main RAM) beyond it. Returns how many impulses went to `kept`, or
/// `None` when a row does not fit `F` (then `rows`, `kept` and the
/// bodies are as they were; `vel` is not). Out of line: one copy per
/// form for every world's row list, in the rigid ITCM overlay.
#[allow(clippy::too_many_arguments)]
#[inline(never)]
fn solve_sized<F: Form, const N: usize>(
    rows: &mut [Row],
    kept: &mut [Remembered],
    far: &mut [F],
    b: Solved,
    vel: &mut [F::Slot; SLOTS],
    iterations: u8,
    omega: Fx1,
) -> Option<usize> {
    if rows.len() <= SMALL_ROWS {
        solve_on_stack::<F, SMALL_ROWS>(rows, kept, b, vel, iterations, omega)
    } else if rows.len() <= N {
        solve_on_stack::<F, N>(rows, kept, b, vel, iterations, omega)
    } else {
        match dtcm_split(rows, N) {
            Some(near) => solve_split::<F, N>(rows, kept, near, far, b, vel, iterations, omega),
            None => solve_in(rows, kept, far, b, vel, iterations, omega),
        }
    }
}

/// [`solve_in`] on a buffer of `N` rows on the stack (DTCM on the DS), in
/// a frame of its own, so that only one buffer size is on the stack.
#[inline(never)]
fn solve_on_stack<F: Form, const N: usize>(
    rows: &mut [Row],
    kept: &mut [Remembered],
    bodies: Solved,
    vel: &mut [F::Slot; SLOTS],
    iterations: u8,
    omega: Fx1,
) -> Option<usize> {
    let mut local = [F::BLANK; N];
    solve_in(rows, kept, &mut local, bodies, vel, iterations, omega)
}

/// Prepares `rows` into `buf` (at least as long) with relaxation
/// `omega`, warm-starts them, runs `iterations` sweeps, and writes the
/// impulses back into `rows` and the keyed ones into `kept`; returns
/// how many went to `kept` (`None`: a row does not fit `F`).
fn solve_in<F: Form>(
    rows: &mut [Row],
    kept: &mut [Remembered],
    buf: &mut [F],
    bodies: Solved,
    vel: &mut [F::Slot; SLOTS],
    iterations: u8,
    omega: Fx1,
) -> Option<usize> {
    let buf = &mut buf[..rows.len()];
    if !prepare(rows, buf, bodies, vel, omega) {
        return None;
    }
    kernel::sweep(buf, vel, iterations);
    Some(write_back(rows, buf, kept))
}

/// [`solve_in`] for more rows than the DTCM buffer holds: the first
/// `near` in a DTCM buffer of `N` rows on the stack, the rest in `far`
/// (main RAM), so that fewer of a big pile's rows stream through the
/// data cache. The same updates in the same order as [`solve_in`]: the
/// same results.
#[inline(never)]
#[allow(clippy::too_many_arguments)]
fn solve_split<F: Form, const N: usize>(
    rows: &mut [Row],
    kept: &mut [Remembered],
    near: usize,
    far: &mut [F],
    bodies: Solved,
    vel: &mut [F::Slot; SLOTS],
    iterations: u8,
    omega: Fx1,
) -> Option<usize> {
    let mut local = [F::BLANK; N];
    let (rows_near, rows_far) = rows.split_at_mut(near);
    let (near, far) = (&mut local[..near], &mut far[..rows_far.len()]);
    if !(prepare(rows_near, near, bodies, vel, omega) && prepare(rows_far, far, bodies, vel, omega))
    {
        return None;
    }
    kernel::sweep_split(near, far, vel, iterations);
    let n = write_back(rows_near, near, kept);
    Some(n + write_back(rows_far, far, &mut kept[n..]))
}

/// Each of `rows` in solver form in `buf`, warm-started, in order (false
/// at the first row that does not fit `F`). Out of line: one copy per
/// form for both solves, in the rigid ITCM overlay.
#[inline(never)]
fn prepare<F: Form>(
    rows: &[Row],
    buf: &mut [F],
    bodies: Solved,
    vel: &mut [F::Slot; SLOTS],
    omega: Fx1,
) -> bool {
    for (p, r) in buf.iter_mut().zip(rows.iter()) {
        let lambda = kernel::to_q20(r.lambda);
        if !p.set(r, bodies, lambda, omega) {
            return false;
        }
        p.warm_start(vel);
    }
    true
}

/// The solved impulses back into `rows`, and the keyed ones with their
/// identity into `kept` (while the rows are at hand); returns how many.
#[inline(always)]
fn write_back<F: Form>(rows: &mut [Row], buf: &[F], kept: &mut [Remembered]) -> usize {
    let mut n = 0;
    for (r, p) in rows.iter_mut().zip(buf.iter()) {
        r.lambda = p.impulse(r);
        if r.key != 0 {
            if let Some(k) = kept.get_mut(n) {
                *k = Remembered::of(r);
                n += 1;
            }
        }
    }
    n
}

/// Where to cut a list longer than a DTCM buffer of `cap` rows so that
/// the rows before the cut fill it: the largest cut up to `cap` that no
/// contact patch straddles (a friction row and the normal rows it names
/// on the same side), or `None` when there is none in its upper half.
fn dtcm_split(rows: &[Row], cap: usize) -> Option<usize> {
    // straddled[s]: some patch has rows on both sides of a cut at s.
    let mut straddled = [false; ISO_DTCM_ROWS + 1];
    let cap = cap.min(straddled.len() - 1);
    for (i, r) in rows.iter().enumerate() {
        if r.friction_of == NO_NORMAL {
            continue;
        }
        let first = r.friction_of as usize;
        let last = first + r.normals.max(1) as usize - 1;
        let (lo, hi) = (i.min(first), i.max(last));
        for s in straddled.iter_mut().take(hi.min(cap) + 1).skip(lo + 1) {
            *s = true;
        }
    }
    (cap / 2..=cap).rev().find(|&s| !straddled[s])
}

/// Exposed for tests: the velocity change of `bodies[i]` from a unit
/// impulse along `J` is `M^-1 J^T`; this returns `J M^-1 J^T` in FX3.
pub fn inverse_effective_mass(row: &Row, bodies: &[Body]) -> Fx3 {
    let mut k = Fx3::ZERO;
    let lin2 = row.lin.dot(row.lin);
    for (i, ang) in [(row.a, row.ang_a), (row.b, row.ang_b)] {
        if let Some(b) = solved_body(bodies, i) {
            k +=
                lin2 * b.inv_mass + ang.dot(mul_mat_fx2(&b.inv_inertia_world, ang.raise()).lower());
        }
    }
    k
}

#[cfg(test)]
mod tests {
    use super::{dtcm_split, Row, DTCM_ROWS};

    /// A friction row naming `count` normal rows from `first`.
    fn friction(first: u16, count: u8) -> Row {
        Row {
            friction_of: first,
            normals: count,
            ..Row::ZERO
        }
    }

    #[test]
    fn the_dtcm_cut_never_splits_a_patch() {
        let plain = Row {
            friction_of: super::NO_NORMAL,
            ..Row::ZERO
        };
        let mut rows = [plain; DTCM_ROWS + 20];
        assert_eq!(dtcm_split(&rows, DTCM_ROWS), Some(DTCM_ROWS));
        // A patch of three friction rows (first) and six normals across
        // the buffer's end: the cut goes before it.
        let start = DTCM_ROWS - 4;
        for r in &mut rows[start..start + 3] {
            *r = friction(start as u16 + 3, 6);
        }
        assert_eq!(dtcm_split(&rows, DTCM_ROWS), Some(start));
        // One or two points: the friction rows follow their normal row.
        let mut rows = [plain; DTCM_ROWS + 20];
        rows[DTCM_ROWS] = friction(DTCM_ROWS as u16 - 1, 1);
        assert_eq!(dtcm_split(&rows, DTCM_ROWS), Some(DTCM_ROWS - 1));
        // No cut in the upper half: none at all.
        let mut rows = [plain; DTCM_ROWS + 20];
        let first = DTCM_ROWS / 2 - 1;
        rows[first] = friction(first as u16 + 1, 60);
        assert_eq!(dtcm_split(&rows, DTCM_ROWS), None);
    }
}
