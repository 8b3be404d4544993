//! Folding a jointed character into one composite body while its motors
//! hold the pose: seed 002's hybrid dynamics as a physics level of
//! detail. Every joint DOF is kinematic (it follows its motor target,
//! known before the step) and only the root's 6 DOF are solved.
//!
//! A folded step:
//! 1. sums the bodies into one [`composite`] (momentum kept);
//! 2. generates the contacts of every member box as usual, and moves each
//!    row onto the composite (`J_ang += d x J_lin` for a member at `d`
//!    from the centre);
//! 3. solves those rows for the composite alone, and integrates it;
//! 4. places every member by forward kinematics from the root: each joint
//!    at its motor target, times the small error it had when the figure
//!    folded (so folding moves nothing), with the anchor gap it had then.
//!
//! A composite that stays calm for a while rests: its steps only place
//! the members whose targets move (no contacts, no solve), until a hit
//! (any change to the velocities it left) wakes it.
//!
//! What unfolds it is the owner's choice ([`Fold::step`] refuses when the
//! composite moves faster than the limits it is given); the joint rows
//! then warm-start from what held the pose before it folded
//! ([`super::row::Rows::clear_holding`]), from the members' rigid
//! velocities.
//!
//! Limits: joints ordered parent before child, each child's parent the
//! root or an earlier child; at most 32 bodies (more are refused); motor
//! targets only (a joint limit is not checked while folded: the targets
//! respect them).

use crate::fx::{Angle, Fx1, Fx2, Quat, Vec3};

use super::body::{Body, STATIC};
use super::composite::{composite, rigid_velocity};
use super::contact::touching;
use super::integrate::{integrate, turn};
use super::joint::{frame, Joint, JointKind};
use super::joint_gap::close_joint_gaps_of;
use super::world::{Phase, World};
use super::{clamp_vec, joint_bit, mul_dt, vec_mul_dt, MAX_SPEED, MAX_SPIN};

/// The most rows a folded step takes (a standing figure has 14: four
/// corners of each foot, a normal row each, and each foot's patch of two
/// tangent rows and a twist).
pub const FOLDED_ROWS: usize = 64;

/// The most rows a partly folded step takes (the powered ragdoll's legs
/// and feet have 50 standing; lying, it unfolds).
pub const PARTIAL_ROWS: usize = 96;

/// The speeds beyond which a folded figure must unfold.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Centre-of-mass speed, m/s.
    pub speed: Fx1,
    /// Spin, rad/s.
    pub spin: Fx1,
    /// A composite slower than this (m/s) and [`Limits::rest_spin`]
    /// for [`Limits::rest_steps`] folded steps falls asleep.
    pub rest_speed: Fx1,
    /// See [`Limits::rest_speed`] (rad/s).
    pub rest_spin: Fx1,
    /// See [`Limits::rest_speed`].
    pub rest_steps: u8,
}

/// A figure's fold: whether it is folded, and each joint's error and
/// anchor gap when it folded.
#[derive(Clone, Copy, Debug)]
pub struct Fold<const J: usize> {
    active: bool,
    /// `want^-1 q_b` at folding (child frame).
    error: [Quat; J],
    /// The anchor gap `p_b - p_a` at folding, in `a`'s frame (m).
    gap: [Vec3; J],
    /// Bodies with a contact row in the last folded step (a bit each).
    pub touching: u32,
    /// The composite's velocity and spin after the last folded step
    /// (`None` right after folding: then summed from the members).
    motion: Option<(Vec3<Fx2>, Vec3<Fx2>)>,
    /// Each hinge's last target angle and its rotation (most hold still).
    hinge_drive: [(Fx1, Quat); J],
    /// The drive each joint was last placed with.
    placed: [Quat; J],
    /// Consecutive folded steps the composite moved slower than
    /// [`Limits::rest_speed`] and [`Limits::rest_spin`].
    calm: u8,
    /// At rest: no contacts are solved and the root stays where it is;
    /// only the members whose targets move are placed.
    asleep: bool,
    /// [`signature`] of the velocities a folded step left: a member hit
    /// from outside since (its body's `apply_impulse`) no longer matches,
    /// and the composite's motion is summed afresh from the members.
    left: u32,
    /// The joints left dynamic (a bit each; 0: folded whole). See
    /// [`Fold::engage_partly`].
    dynamic: u32,
    /// The bodies summed into the composite (a bit each).
    members: u32,
    /// Each row's bodies while the rows are moved onto the composite (in
    /// the fold, not on the DS's small DTCM stack).
    original: [(u8, u8); PARTIAL_ROWS],
}

/// The rest of a step that stopped being folded after its contacts: the
/// rows of the joints in `which` (those the folded step had none for),
/// the solve and the integration, as a full step.
fn finish_full<const B: usize, const JJ: usize, const R: usize>(
    world: &mut World<B, JJ, R>,
    which: u32,
    mark: &mut impl FnMut(Phase),
) {
    world.push_joint_rows_of(which);
    world.solve();
    mark(Phase::Solve);
    world.integrate();
    mark(Phase::Integrate);
}

/// Body `i`'s bit in a mask of bodies (none from 32 on: a fold takes at
/// most 32).
fn bit(k: usize) -> u32 {
    1u32.checked_shl(k as u32).unwrap_or(0)
}

/// The bodies that reach `root` through the joints not in `dynamic`
/// (joints ordered parent before child), or `None` when a kinematic
/// joint hangs below a dynamic one or from the static world: its child
/// would need a composite of its own.
fn members_of(joints: &[Joint], root: u8, dynamic: u32) -> Option<u32> {
    let mut members = bit(root as usize);
    for (k, j) in joints.iter().enumerate() {
        if dynamic & joint_bit(k) != 0 || j.a == j.b {
            continue;
        }
        if j.a == STATIC || members & bit(j.a as usize) == 0 || j.b as usize >= 32 {
            return None;
        }
        members |= bit(j.b as usize);
    }
    Some(members)
}

/// A digest of every body's velocity and spin.
fn signature(bodies: &[Body]) -> u32 {
    let mut h = 0x811c_9dc5u32;
    for b in bodies {
        for c in b.vel.to_array().into_iter().chain(b.spin.to_array()) {
            h = (h ^ c.raw() as u32).wrapping_mul(0x0100_0193);
        }
    }
    h
}

impl<const J: usize> Fold<J> {
    /// Unfolded.
    pub const OFF: Fold<J> = Fold {
        active: false,
        error: [Quat::IDENTITY; J],
        gap: [Vec3::ZERO; J],
        touching: 0,
        motion: None,
        hinge_drive: [(Fx1::ZERO, Quat::IDENTITY); J],
        placed: [Quat::IDENTITY; J],
        calm: 0,
        asleep: false,
        left: 0,
        dynamic: 0,
        members: 0,
        original: [(0, 0); PARTIAL_ROWS],
    };

    /// True while folded.
    pub fn is_active(&self) -> bool {
        self.active
    }

    /// Unfolds: the next step is a full one.
    pub fn release(&mut self) {
        self.active = false;
        self.motion = None;
        self.asleep = false;
        self.calm = 0;
    }

    /// Puts a whole fold to rest now, as if it had been calm for its
    /// limits' `rest_steps` (a figure built standing still, whose
    /// `bodies` are at rest); a partial fold never rests.
    pub fn rest(&mut self, bodies: &[Body]) {
        if self.active && self.dynamic == 0 {
            self.asleep = true;
            self.motion = Some((Vec3::default(), Vec3::default()));
            self.left = signature(bodies);
        }
    }

    /// True while folded and at rest.
    pub fn is_asleep(&self) -> bool {
        self.active && self.asleep
    }

    /// True while folded with some joints left dynamic
    /// ([`Fold::engage_partly`]).
    pub fn is_partial(&self) -> bool {
        self.active && self.dynamic != 0
    }

    /// The rotation joint `k`'s motor asks of its child, relative to
    /// neutral (a hinge's is kept while its angle holds: most do).
    fn drive(&mut self, k: usize, j: &Joint) -> Quat {
        match j.kind {
            JointKind::Ball { .. } => j.motor.target,
            JointKind::Hinge { axis_b, .. } => {
                let (angle, q) = &mut self.hinge_drive[k];
                if *angle != j.motor.angle || *q == Quat::IDENTITY {
                    *angle = j.motor.angle;
                    *q = Quat::from_axis_angle(axis_b, Angle::from_radians(*angle));
                }
                *q
            }
        }
    }

    /// Folds the figure as it stands: records each joint's error against
    /// its target and its anchor gap.
    pub fn engage(&mut self, bodies: &[Body], joints: &[Joint]) {
        for (k, j) in joints.iter().enumerate().take(J) {
            let (pa, ma, qa) = frame(bodies, j.a);
            let (pb, mb, qb) = frame(bodies, j.b);
            let wanted = qa * j.neutral * self.drive(k, j);
            self.error[k] = (wanted.conjugate() * qb).normalise();
            let gap = (pb + mb.mul_vec_exact(j.anchor_b)) - (pa + ma.mul_vec_exact(j.anchor_a));
            self.gap[k] = ma.transpose_mul_vec(gap.lower());
        }
        self.active = true;
        self.motion = None;
        self.asleep = false;
        self.calm = 0;
        self.dynamic = 0;
        self.members = bit(bodies.len()).wrapping_sub(1);
    }

    /// Folds all but the joints in `dynamic` (a bit each): the bodies
    /// that reach `root` through the other joints become one composite,
    /// and the dynamic joints' rows are solved between it and the rest.
    /// Seed 002's partial level of detail: "as she gets closer, we can
    /// transition her legs to dynamic". Each body outside the composite
    /// moves on its own, so every joint below a dynamic one must be
    /// dynamic too (a leg's ankle, not its hip alone); returns `false`,
    /// folding nothing, when one is not.
    pub fn engage_partly(
        &mut self,
        bodies: &[Body],
        joints: &[Joint],
        root: u8,
        dynamic: u32,
    ) -> bool {
        let Some(members) = members_of(joints, root, dynamic) else {
            return false;
        };
        self.engage(bodies, joints);
        self.dynamic = dynamic;
        self.members = members;
        true
    }

    /// Places every child by forward kinematics from its parent (targets,
    /// times the error at folding), in joint order.
    /// The product of unit quaternions along a chain of at most a few
    /// joints is left unnormalised: it is rebuilt from the root's every
    /// step, so its `2^-30` per product never accumulates.
    /// `moved`: the bodies already moved this step (a bit each); a child
    /// is placed when its parent moved or its drive changed.
    fn place(&mut self, bodies: &mut [Body], joints: &[Joint], mut moved: u32) {
        for (k, j) in joints.iter().enumerate().take(J) {
            if j.b == STATIC || j.a == j.b || self.dynamic & joint_bit(k) != 0 {
                continue;
            }
            let drive = self.drive(k, j);
            let parent_moved = j.a != STATIC && moved & (1 << j.a) != 0;
            if !parent_moved && drive == self.placed[k] {
                continue;
            }
            self.placed[k] = drive;
            moved |= 1 << j.b;
            let q = frame(bodies, j.a).2 * j.neutral * drive * self.error[k];
            let (pa, ma, _) = frame(bodies, j.a);
            let anchor = pa + ma.mul_vec_exact(j.anchor_a + self.gap[k]);
            let b = &mut bodies[j.b as usize];
            b.rot = q;
            b.update_pose();
            b.pos = anchor - b.mat.mul_vec_exact(j.anchor_b);
        }
    }

    /// One folded step of `world` (its bodies `0..n`, rooted at `root`).
    /// Returns `false`, having changed nothing, when the composite moves
    /// beyond `limits` or cannot be formed; the caller then takes a full
    /// step.
    pub fn step<const B: usize, const JJ: usize, const R: usize>(
        &mut self,
        world: &mut World<B, JJ, R>,
        root: u8,
        sweeps: u8,
        limits: Limits,
        mark: &mut impl FnMut(Phase),
    ) -> bool {
        if world.bodies().len() > 32 {
            return false;
        }
        // Two frames of their own, never one holding both: the DS's DTCM
        // stack has the solver's row buffer on top of either.
        if self.dynamic != 0 {
            self.step_partly(world, root, sweeps, limits, mark)
        } else {
            self.step_whole(world, root, sweeps, limits, mark)
        }
    }

    /// [`Fold::step`] folded whole.
    #[inline(never)]
    fn step_whole<const B: usize, const JJ: usize, const R: usize>(
        &mut self,
        world: &mut World<B, JJ, R>,
        root: u8,
        sweeps: u8,
        limits: Limits,
        mark: &mut impl FnMut(Phase),
    ) -> bool {
        self.notice_hits(world.bodies());
        if self.asleep {
            mark(Phase::Joints);
            mark(Phase::Contacts);
            mark(Phase::Solve);
            let (joints, bodies) = world.joints_and_bodies();
            self.place(bodies, joints, 0);
            for b in bodies.iter_mut() {
                b.vel = Vec3::default();
                b.spin = Vec3::default();
            }
            self.left = signature(bodies);
            mark(Phase::Integrate);
            return true;
        }
        let Some(mut c) = self.begin_composite(world, limits, u32::MAX) else {
            return false;
        };
        mark(Phase::Joints);
        world.push_contact_rows();
        mark(Phase::Contacts);
        if world.rows.len() > FOLDED_ROWS {
            // Lying on its side, not standing: finish as a full step.
            self.release();
            finish_full(world, u32::MAX, mark);
            return true;
        }
        self.solve_composite(world, root, &mut c, sweeps);
        mark(Phase::Solve);
        self.integrate(world, root, &c);
        let calm = c.vel.lower().length() < limits.rest_speed
            && c.spin.lower().length() < limits.rest_spin;
        self.calm = if calm { self.calm.saturating_add(1) } else { 0 };
        if self.calm >= limits.rest_steps {
            self.asleep = true;
            self.motion = Some((Vec3::default(), Vec3::default()));
        }
        mark(Phase::Integrate);
        true
    }

    /// [`Fold::step`] with some joints dynamic: the composite and the
    /// bodies outside it (each on its own) solved together with the
    /// dynamic joints' rows and every contact. It never rests (the owner
    /// folds it whole once the dynamic joints are quiet too).
    #[inline(never)]
    fn step_partly<const B: usize, const JJ: usize, const R: usize>(
        &mut self,
        world: &mut World<B, JJ, R>,
        root: u8,
        sweeps: u8,
        limits: Limits,
        mark: &mut impl FnMut(Phase),
    ) -> bool {
        self.notice_hits(world.bodies());
        let Some(mut c) = self.begin_composite(world, limits, !self.dynamic) else {
            return false;
        };
        let s = world.settings;
        world.push_joint_rows_of(self.dynamic);
        mark(Phase::Joints);
        world.push_contact_rows();
        mark(Phase::Contacts);
        if world.rows.len() > PARTIAL_ROWS {
            // Lying down: finish as a full step.
            let folded = !self.dynamic;
            self.release();
            finish_full(world, folded, mark);
            return true;
        }
        self.solve_composite(world, root, &mut c, sweeps);
        mark(Phase::Solve);
        // The bodies outside the composite move on their own.
        let members = self.members;
        for (i, b) in world.bodies_mut().iter_mut().enumerate() {
            if members & bit(i) == 0 {
                integrate(core::slice::from_mut(b));
            }
        }
        self.integrate(world, root, &c);
        // The dynamic joints' gaps, as a full step closes them; a moved
        // root carries its members along.
        if s.joint_gap > Fx2::ZERO {
            let (joints, bodies) = world.joints_and_bodies();
            if close_joint_gaps_of(bodies, joints, s.joint_gap, self.dynamic) > 0 {
                self.place(bodies, joints, bit(root as usize));
                self.left = signature(bodies);
            }
        }
        mark(Phase::Integrate);
        true
    }

    /// A member hit from outside since the last folded step (its
    /// velocity no longer what that step left): the composite's motion is
    /// summed afresh, and it is no longer calm.
    fn notice_hits(&mut self, bodies: &[Body]) {
        if signature(bodies) != self.left {
            self.motion = None;
            self.asleep = false;
            self.calm = 0;
        }
    }

    /// The start of an awake folded step: the members' composite, or
    /// `None` (nothing changed) when it cannot be formed or moves beyond
    /// `limits`; then the world's step begins, holding the warm starts of
    /// the joints in `hold`, and the composite takes the step's gravity
    /// and damping.
    fn begin_composite<const B: usize, const JJ: usize, const R: usize>(
        &self,
        world: &mut World<B, JJ, R>,
        limits: Limits,
        hold: u32,
    ) -> Option<Body> {
        let mut c = composite(world.bodies(), self.members, self.motion)?;
        if c.vel.lower().length() > limits.speed || c.spin.lower().length() > limits.spin {
            return None;
        }
        world.begin_step_holding(hold);
        let s = &world.settings;
        c.vel.y -= Fx2::from_raw(mul_dt(s.gravity.raise().raw()));
        c.vel = (c.vel * s.linear_damping).lower();
        c.spin = (c.spin * s.angular_damping).lower();
        Some(c)
    }

    /// Moves every row on a member onto the
    /// composite `c` (`J_ang += d x J_lin` for a member at `d` from its
    /// centre), solves the rows with `c` in the root's slot, `c` taking
    /// the solved velocity, then gives each row its bodies back (the next
    /// step's warm starts find them by their own bodies).
    fn solve_composite<const B: usize, const JJ: usize, const R: usize>(
        &mut self,
        world: &mut World<B, JJ, R>,
        root: u8,
        c: &mut Body,
        sweeps: u8,
    ) {
        let members = self.members;
        self.touching = touching(world.rows.as_slice());
        {
            let (rows, bodies) = world.rows_and_bodies();
            let lever = |i: u8| (bodies[i as usize].pos - c.pos).lower();
            let member = |i: u8| i != STATIC && members & bit(i as usize) != 0;
            for (row, o) in rows.as_mut_slice().iter_mut().zip(self.original.iter_mut()) {
                *o = (row.a, row.b);
                if member(row.a) {
                    row.ang_a -= lever(row.a).cross(row.lin).lower();
                    row.a = root;
                }
                if member(row.b) {
                    row.ang_b += lever(row.b).cross(row.lin).lower();
                    row.b = root;
                }
            }
        }
        let slot = &mut world.bodies_mut()[root as usize];
        core::mem::swap(slot, c);
        world.solve_sweeps(sweeps);
        core::mem::swap(&mut world.bodies_mut()[root as usize], c);
        for (row, &(a, b)) in world
            .rows
            .as_mut_slice()
            .iter_mut()
            .zip(self.original.iter())
        {
            row.a = a;
            row.b = b;
        }
    }

    /// Moves the composite by its solved velocity, then places the
    /// members and gives each the composite's velocity at its centre.
    fn integrate<const B: usize, const JJ: usize, const R: usize>(
        &mut self,
        world: &mut World<B, JJ, R>,
        root: u8,
        c: &Body,
    ) {
        let vel = clamp_vec(c.vel, MAX_SPEED);
        let spin = clamp_vec(c.spin, MAX_SPIN);
        let centre = c.pos + vec_mul_dt(vel);
        let (joints, bodies) = world.joints_and_bodies();
        {
            let r = &mut bodies[root as usize];
            let local = r.mat.transpose_mul_vec((r.pos - c.pos).lower());
            r.rot = turn(r.rot, spin);
            r.update_pose();
            r.pos = centre + r.mat.mul_vec_exact(local);
        }
        self.place(bodies, joints, 1 << root);
        self.motion = Some((vel, spin));
        let moved = Body {
            pos: centre,
            vel,
            spin,
            ..*c
        };
        let members = self.members;
        for (i, b) in bodies.iter_mut().enumerate() {
            if members & bit(i) != 0 {
                b.vel = rigid_velocity(&moved, (b.pos - centre).lower());
                b.spin = spin;
            }
        }
        self.left = signature(bodies);
    }
}
