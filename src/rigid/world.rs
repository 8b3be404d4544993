//! A rigid-body world: fixed arrays of bodies and joints, a ground plane,
//! and one step per frame in named phases (seed 001: no frame delays):
//!
//! 1. [`World::begin_step`]: gravity and damping into velocities;
//! 2. [`World::push_joint_rows`]: motor rows, then joint and limit rows,
//!    then the grab's rows ([`World::grab`], if a body is held);
//! 3. [`World::push_contact_rows`]: box-plane and box-box contacts;
//! 4. [`World::solve`]: the Gauss-Seidel sweeps;
//! 5. [`World::integrate`]: positions and orientations.
//!
//! Motors are pushed first and contacts last, so that in each sweep the
//! hard constraints have the last word over the soft drives.

use crate::fx::{Fx1, Fx2, Vec3};
use crate::verlet::Fnv1a;

use super::body::Body;
use super::broad::Bounds;
use super::contact::{box_box_near, box_plane_near, ContactSettings, Patch, Plane, GROUND_NORMAL};
use super::grab::Grab;
use super::integrate::{apply_gravity, damp, integrate};
use super::iso::{IsoRow, ISO_DTCM_ROWS};
use super::joint::Joint;
use super::joint_bit;
use super::joint_gap::close_joint_gaps;
use super::motor::push_motor_rows_at;
use super::row::{Rows, DTCM_ROWS, JOINT_KEY, MAX_BODIES};
use super::sleep::{update_rest, wake_neighbours};

/// The phases of a step, for timing (a character's control comes first).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// The character's controller: motor targets (pose source, IK).
    Control = 0,
    /// Gravity, damping, motor and joint rows.
    Joints = 1,
    /// Contact detection and contact rows.
    Contacts = 2,
    /// The Gauss-Seidel sweeps.
    Solve = 3,
    /// Positions, orientations and derived data.
    Integrate = 4,
}

/// World settings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Settings {
    /// Gravity, m/s^2 (downwards).
    pub gravity: Fx1,
    /// Gauss-Seidel sweeps per step.
    pub iterations: u8,
    /// Joint error reduction per step.
    pub joint_erp: Fx1,
    /// Contact settings.
    pub contact: ContactSettings,
    /// Fraction of linear velocity kept per step.
    pub linear_damping: Fx1,
    /// Fraction of angular velocity kept per step.
    pub angular_damping: Fx1,
    /// The ground plane, if any.
    pub ground: Option<Plane>,
    /// Fraction of a contact row's last impulse its warm start reuses
    /// ([`Rows::warm_fraction`]).
    pub contact_warm: Fx1,
    /// The same for joint and motor rows ([`Rows::joint_warm_fraction`]).
    pub joint_warm: Fx1,
    /// Resting bodies fall asleep ([`super::sleep`]; worlds without
    /// joints).
    pub sleep: bool,
    /// Successive over-relaxation: each row update moves its impulse this
    /// many times the step that closes its error (1.0: plain Gauss-Seidel;
    /// above 1 a chain of joints converges in fewer sweeps).
    pub relaxation: Fx1,
    /// The most work one step's solve may spend, in row updates, each
    /// row's preparation counted as [`PREPARE_UPDATES`] of them: a step
    /// with more rows runs fewer sweeps, never fewer than [`MIN_SWEEPS`]
    /// (0: no budget). It bounds the solver's worst frame, when a pile or
    /// a fallen character has many contacts.
    pub update_budget: u16,
    /// After integration, joint gaps longer than this (m) are closed in
    /// the positions ([`super::joint_gap`]; zero: off).
    pub joint_gap: Fx2,
}

/// The DTCM row buffer as it starts a step: all zeros, as one constant,
/// which the compiler clears in one call; `[IsoRow::BLANK; N]` in place
/// became a loop of 140 calls clearing 48 bytes each (about 3400
/// instructions a step, `make insn-count PCPROFILE=boxes`).
const NEAR_BLANK: [IsoRow; ISO_DTCM_ROWS] = [IsoRow::BLANK; ISO_DTCM_ROWS];

/// The fewest sweeps a step's update budget leaves.
pub const MIN_SWEEPS: u8 = 4;

/// What preparing a row costs, in row updates: about 2200 DeSmuME cycles
/// against about 410 (`make pcprofile PCPROFILE=motor`,
/// docs/rigid-solver.md).
pub const PREPARE_UPDATES: usize = 5;

/// The sweeps a step with `rows` rows runs: `iterations`, or fewer when
/// `budget` (row updates, preparations included; 0: none) would be
/// exceeded, but at least [`MIN_SWEEPS`] (or `iterations`, if lower).
/// Rows beyond [`DTCM_ROWS`] are swept in main RAM, where an update was
/// measured at about 5/4 the cost (76-byte rows streaming through the
/// 4 KB data cache; docs/rigid-solver.md).
pub fn sweeps_within(iterations: u8, budget: u16, rows: usize) -> u8 {
    if budget == 0 || rows == 0 {
        return iterations;
    }
    let mut fit = (budget as usize / rows).saturating_sub(PREPARE_UPDATES);
    if rows > DTCM_ROWS {
        fit = fit * 4 / 5;
    }
    (fit.min(u8::MAX as usize) as u8)
        .max(MIN_SWEEPS)
        .min(iterations)
}

impl Settings {
    /// Earth gravity, a ground at y = 0, 8 sweeps (with warm starting a
    /// 4-box stack then holds still for 10,000 steps, `tests/rigid_stack.rs`),
    /// joint erp 0.2, slight damping. Not yet chosen by a sweep over
    /// settings.
    pub const DEFAULT: Settings = Settings {
        gravity: crate::fx!(9.81),
        iterations: 8,
        joint_erp: crate::fx!(0.2),
        contact: ContactSettings::DEFAULT,
        linear_damping: crate::fx!(0.999),
        angular_damping: crate::fx!(0.995),
        ground: Some(Plane::GROUND),
        contact_warm: crate::fx!(1.0),
        joint_warm: crate::fx!(1.0),
        sleep: false,
        relaxation: Fx1::ONE,
        update_budget: 0,
        joint_gap: Fx2::ZERO,
    };
}

impl Default for Settings {
    fn default() -> Self {
        Settings::DEFAULT
    }
}

/// Bodies, joints and the row buffer: `B` bodies, `J` joints, `R` rows.
#[derive(Clone, Debug)]
pub struct World<const B: usize, const J: usize, const R: usize> {
    bodies: [Body; B],
    n_bodies: usize,
    joints: [Joint; J],
    n_joints: usize,
    /// This step's rows (kept for inspection after a step).
    pub rows: Rows<R>,
    /// The settings.
    pub settings: Settings,
    /// Contacts found in the last step.
    pub contacts: u16,
    /// The body held by a grab, if any ([`super::grab`]): its rows come
    /// after the joints', before the contacts. Set it with
    /// [`World::grab_at`], move its target, clear it to let go.
    pub grab: Option<Grab>,
}

impl<const B: usize, const J: usize, const R: usize> World<B, J, R> {
    /// An empty world.
    pub fn new(settings: Settings) -> Self {
        Self::empty(settings)
    }

    /// An empty world, as a `const fn`: a world too big for the DS stack
    /// (the row buffer is most of it) starts as a static built from this,
    /// then [`World::reset`] and `add_*` fill it in place.
    pub const fn empty(settings: Settings) -> Self {
        assert!(
            B <= MAX_BODIES,
            "the solver takes at most MAX_BODIES bodies"
        );
        World {
            bodies: [Body::PLACEHOLDER; B],
            n_bodies: 0,
            joints: [Joint::PLACEHOLDER; J],
            n_joints: 0,
            rows: Rows::EMPTY,
            settings,
            contacts: 0,
            grab: None,
        }
    }

    /// Empties the world in place (no large temporaries): no bodies, no
    /// joints, no remembered impulses.
    pub fn reset(&mut self, settings: Settings) {
        self.n_bodies = 0;
        self.n_joints = 0;
        self.rows.forget();
        self.settings = settings;
        self.contacts = 0;
        self.grab = None;
    }

    /// Grabs body `body` at world point `point` with at most `max_force`
    /// N per axis (replacing any grab); false for a static body or a bad
    /// index. A sleeping body wakes.
    pub fn grab_at(&mut self, body: u8, point: Vec3, max_force: Fx1) -> bool {
        self.grab = Grab::at(self.bodies(), body, point, max_force);
        if let Some(b) = self.grab.and_then(|g| self.bodies.get_mut(g.body as usize)) {
            b.rest = 0;
        }
        self.grab.is_some()
    }

    /// Adds a body; returns its index (`None` when full).
    pub fn add_body(&mut self, body: Body) -> Option<u8> {
        if self.n_bodies >= B {
            return None;
        }
        self.bodies[self.n_bodies] = body;
        self.n_bodies += 1;
        Some((self.n_bodies - 1) as u8)
    }

    /// Adds a joint; returns its index (`None` when full).
    pub fn add_joint(&mut self, joint: Joint) -> Option<usize> {
        if self.n_joints >= J {
            return None;
        }
        self.joints[self.n_joints] = joint;
        self.n_joints += 1;
        Some(self.n_joints - 1)
    }

    /// The bodies.
    pub fn bodies(&self) -> &[Body] {
        &self.bodies[..self.n_bodies]
    }

    /// The bodies, mutable (to push them, or teleport them).
    pub fn bodies_mut(&mut self) -> &mut [Body] {
        &mut self.bodies[..self.n_bodies]
    }

    /// The joints.
    pub fn joints(&self) -> &[Joint] {
        &self.joints[..self.n_joints]
    }

    /// The joints, mutable (motor targets and strength).
    pub fn joints_mut(&mut self) -> &mut [Joint] {
        &mut self.joints[..self.n_joints]
    }

    /// The rows and the bodies, both mutable (to rewrite rows against
    /// the bodies' poses).
    pub fn rows_and_bodies(&mut self) -> (&mut Rows<R>, &[Body]) {
        (&mut self.rows, &self.bodies[..self.n_bodies])
    }

    /// The joints and the bodies, the bodies mutable (to place bodies by
    /// their joints).
    pub fn joints_and_bodies(&mut self) -> (&[Joint], &mut [Body]) {
        (
            &self.joints[..self.n_joints],
            &mut self.bodies[..self.n_bodies],
        )
    }

    /// One full step (1/60 s).
    pub fn step(&mut self) {
        self.step_marked(&mut |_| {});
    }

    /// One full step, calling `mark` as each phase ends (the bench reads a
    /// timer there; with an empty closure it compiles away).
    #[inline(always)]
    pub fn step_marked(&mut self, mark: &mut impl FnMut(Phase)) {
        self.begin_step();
        self.push_joint_rows();
        mark(Phase::Joints);
        self.contacts_and_solve(mark);
        self.integrate();
        mark(Phase::Integrate);
    }

    /// Phase 1: clears the rows, adds gravity and damping.
    #[inline(never)]
    pub fn begin_step(&mut self) {
        self.begin_step_holding(0);
    }

    /// [`World::begin_step`]; the warm starts of the joints in
    /// `hold_joints` (a bit each) are kept through a step that has no
    /// rows for them (a folded figure, [`Rows::clear_holding`]).
    pub fn begin_step_holding(&mut self, hold_joints: u32) {
        self.rows.clear_holding(hold_joints);
        let s = self.settings;
        self.rows.warm_fraction = s.contact_warm;
        self.rows.joint_warm_fraction = s.joint_warm;
        self.rows.relaxation = s.relaxation;
        let bodies = &mut self.bodies[..self.n_bodies];
        // A held body stays awake (and counts as moving).
        if let Some(b) = self.grab.and_then(|g| bodies.get_mut(g.body as usize)) {
            b.rest = 0;
        }
        apply_gravity(bodies, s.gravity);
        damp(bodies, s.linear_damping, s.angular_damping);
    }

    /// Phase 2: motor rows, then joint rows, then the grab's.
    #[inline(never)]
    pub fn push_joint_rows(&mut self) {
        self.push_joint_rows_of(u32::MAX);
    }

    /// [`World::push_joint_rows`] for the joints in `which`
    /// ([`super::joint_bit`]; a partly folded figure solves only its
    /// dynamic joints, [`super::fold`]).
    pub fn push_joint_rows_of(&mut self, which: u32) {
        let bodies = &self.bodies[..self.n_bodies];
        let joints = &self.joints[..self.n_joints];
        let chosen = |k: usize| which & joint_bit(k) != 0;
        // Each hinge's angle once, for its motor and its limit.
        let mut angles = [Fx1::ZERO; J];
        for (k, (a, j)) in angles.iter_mut().zip(joints).enumerate() {
            if chosen(k) {
                *a = j.hinge_angle(bodies);
            }
        }
        for (k, (j, &a)) in joints.iter().zip(&angles).enumerate() {
            if chosen(k) {
                push_motor_rows_at(j, bodies, &mut self.rows, joint_key(k), a);
            }
        }
        for (k, (j, &a)) in joints.iter().zip(&angles).enumerate() {
            if chosen(k) {
                let erp = self.settings.joint_erp;
                j.push_rows_at(bodies, &mut self.rows, erp, joint_key(k), a);
            }
        }
        if let Some(g) = &self.grab {
            g.push_rows(bodies, &mut self.rows);
        }
    }

    /// Phase 3: contacts with the ground and between boxes of different
    /// groups (or group 0) that share no joint.
    pub fn push_contact_rows(&mut self) {
        self.push_contact_rows_near(&mut []);
    }

    /// [`World::push_contact_rows`] with the DTCM buffer `near` for the
    /// first rows in solver form ([`Rows::begin_contacts`]): the solve
    /// takes the same buffer ([`World::solve_near`]).
    #[inline(never)]
    pub fn push_contact_rows_near(&mut self, near: &mut [IsoRow]) {
        if self.settings.sleep {
            let margin = self.settings.contact.margin;
            wake_neighbours(&mut self.bodies[..self.n_bodies], margin);
        }
        let bodies = &self.bodies[..self.n_bodies];
        let s = &self.settings.contact;
        let mut bounds = [Bounds::default(); B];
        for (o, b) in bounds.iter_mut().zip(bodies) {
            *o = Bounds::of(b, s.margin);
        }
        // Static or asleep, read once a body rather than once a pair: the
        // pair loop's reads of the bodies were a tenth of its cost in a
        // woken pile (`make insn-count PCPROFILE=boxes`, `--lines`).
        let mut passive = [false; B];
        for (p, b) in passive.iter_mut().zip(bodies) {
            *p = b.is_static() || b.is_asleep();
        }
        self.rows.begin_contacts(bodies, near);
        let mut count = self.push_pairs(near, &bounds, &passive);
        if self.rows.misfit() {
            // A row the solver form does not take (rare: a huge lever or
            // inverse moment): the whole step's contacts again, as rows.
            self.rows.restart_as_rows();
            count = self.push_pairs(near, &bounds, &passive);
        }
        self.contacts = count.min(u16::MAX as usize) as u16;
    }

    /// The contact pass of [`World::push_contact_rows`]: the ground, then
    /// every overlapping pair with an awake body. Returns the contacts.
    /// Out of line: called again only after a misfit.
    #[inline(never)]
    fn push_pairs(
        &mut self,
        near: &mut [IsoRow],
        bounds: &[Bounds; B],
        passive: &[bool; B],
    ) -> usize {
        let bodies = &self.bodies[..self.n_bodies];
        let s = &self.settings.contact;
        let mut count = 0;
        let mut patch = Patch::new(0, 0, GROUND_NORMAL, Fx1::ZERO);
        for i in 0..self.n_bodies {
            // Sleepers only meet awake bodies, from the awake side.
            if passive[i] {
                continue;
            }
            if let Some(ground) = &self.settings.ground {
                count +=
                    box_plane_near(&mut self.rows, near, &mut patch, bodies, i as u8, ground, s);
            }
            for j in 0..self.n_bodies {
                if j == i || (j < i && !passive[j]) || !bounds[i].overlap(&bounds[j]) {
                    continue;
                }
                if self.exempt(i, j) {
                    continue;
                }
                count += box_box_near(
                    &mut self.rows,
                    near,
                    &mut patch,
                    bodies,
                    i as u8,
                    j as u8,
                    s,
                );
            }
        }
        count
    }

    /// True when bodies `i` and `j` must not collide.
    fn exempt(&self, i: usize, j: usize) -> bool {
        let (gi, gj) = (self.bodies[i].group, self.bodies[j].group);
        if gi != 0 && gi == gj {
            return true;
        }
        self.joints[..self.n_joints].iter().any(|jt| {
            let (a, b) = (jt.a as usize, jt.b as usize);
            (a == i && b == j) || (a == j && b == i)
        })
    }

    /// Phase 4: the solver.
    #[inline(never)]
    pub fn solve(&mut self) {
        self.solve_near(&mut []);
    }

    /// [`World::solve`] of contact rows built with the DTCM buffer `near`
    /// ([`World::push_contact_rows_near`]; the same buffer).
    pub fn solve_near(&mut self, near: &mut [IsoRow]) {
        let iterations = sweeps_within(
            self.settings.iterations,
            self.settings.update_budget,
            self.rows.len(),
        );
        self.rows
            .solve_with(&mut self.bodies[..self.n_bodies], iterations, near);
    }

    /// Phases 3 and 4; `mark` is called after each. When every moving
    /// body is isotropic (the box scenes), with a DTCM buffer (on the
    /// stack, which is DTCM on the DS) for the first [`ISO_DTCM_ROWS`]
    /// rows in solver form, built there and swept there. Other worlds
    /// never take that form, and the general solve's own buffer would not
    /// fit in DTCM beside this one.
    #[inline(always)]
    pub fn contacts_and_solve(&mut self, mark: &mut impl FnMut(Phase)) {
        let cubes = self.bodies[..self.n_bodies]
            .iter()
            .all(|b| b.is_static() || b.isotropic);
        if cubes {
            self.contacts_and_solve_near(mark);
        } else {
            self.push_contact_rows();
            mark(Phase::Contacts);
            self.solve();
            mark(Phase::Solve);
        }
    }

    /// [`World::contacts_and_solve`] with the DTCM buffer, in a frame of
    /// its own.
    #[inline(never)]
    fn contacts_and_solve_near(&mut self, mark: &mut impl FnMut(Phase)) {
        let mut near = NEAR_BLANK;
        self.push_contact_rows_near(&mut near);
        mark(Phase::Contacts);
        self.solve_near(&mut near);
        mark(Phase::Solve);
    }

    /// Solves the rows with exactly `iterations` sweeps (no budget).
    #[inline(never)]
    pub fn solve_sweeps(&mut self, iterations: u8) {
        self.rows
            .solve(&mut self.bodies[..self.n_bodies], iterations);
    }

    /// Phase 5: positions and orientations.
    #[inline(never)]
    pub fn integrate(&mut self) {
        integrate(&mut self.bodies[..self.n_bodies]);
        if self.settings.joint_gap > Fx2::ZERO {
            let (joints, bodies) = (
                &self.joints[..self.n_joints],
                &mut self.bodies[..self.n_bodies],
            );
            close_joint_gaps(bodies, joints, self.settings.joint_gap);
        }
        if self.settings.sleep {
            update_rest(&mut self.bodies[..self.n_bodies]);
        }
    }

    /// Puts every dynamic body to sleep, still (a pile placed at rest
    /// starts asleep instead of settling first; with sleeping on).
    pub fn put_to_sleep(&mut self) {
        for b in self.bodies_mut().iter_mut().filter(|b| !b.is_static()) {
            b.rest = super::sleep::SLEEP_FRAMES;
            b.vel = Vec3::default();
            b.spin = Vec3::default();
        }
    }

    /// How many dynamic bodies are asleep.
    pub fn sleeping(&self) -> usize {
        self.bodies().iter().filter(|b| b.is_asleep()).count()
    }

    /// Total kinetic plus potential energy (J), for tests (floats).
    pub fn energy_f64(&self) -> f64 {
        let g = self.settings.gravity.to_f64();
        self.bodies()
            .iter()
            .map(|b| b.kinetic_energy_f64() + b.mass.to_f64() * g * b.pos.y.to_f64())
            .sum()
    }

    /// The centre of mass of the dynamic bodies.
    pub fn centre_of_mass(&self) -> Vec3 {
        let mut sum = Vec3::<crate::fx::Fx3>::default();
        let mut mass = Fx1::ZERO;
        for b in self.bodies().iter().filter(|b| !b.is_static()) {
            sum += b.pos * b.mass;
            mass += b.mass;
        }
        if mass == Fx1::ZERO {
            return Vec3::ZERO;
        }
        sum.map(|c| (c / mass).lower())
    }

    /// FNV-1a over every body's position, orientation and velocities.
    pub fn state_hash(&self) -> u32 {
        let mut h = Fnv1a::new();
        for b in self.bodies() {
            for c in [b.pos, b.vel, b.spin] {
                for v in c.to_array() {
                    h.write(&v.raw().to_le_bytes());
                }
            }
            for q in b.rot.raw_q30() {
                h.write(&q.to_le_bytes());
            }
        }
        h.finish()
    }

    /// Largest joint separation (drift) in m.
    pub fn max_joint_drift(&self) -> Fx1 {
        let mut worst = Fx1::ZERO;
        for j in self.joints() {
            worst = worst.max(j.separation(self.bodies()).lower().length());
        }
        worst
    }
}

/// The warm-start key of joint `k`'s rows (the row number goes in the
/// low 4 bits).
pub(crate) fn joint_key(k: usize) -> u16 {
    JOINT_KEY | ((k as u16 & 0x7ff) << 4)
}

/// An FX2 vector's length in FX1 (floor).
pub fn length_fx2(v: Vec3<Fx2>) -> Fx1 {
    v.lower().length()
}
