//! Inverse dynamics (seed 002): the hinge torques that give commanded
//! joint accelerations, by momentum, leaves to root.
//!
//! The solver works at the velocity level: in one step the positions are
//! fixed and every force is an impulse. So for the subtree below hinge
//! `j` (pivot `P`), the change of its momentum about the fixed point `P`
//! over the step is exactly the sum of the impulses' moments about `P`:
//! gravity and damping (already in the velocities when this runs, after
//! [`World::begin_step`]), the joint's reaction (no moment about `P`), its
//! alignment rows (perpendicular to the axis) and the actuator torque
//! `T_j` (along the axis). Projecting onto the axis leaves
//!
//! ```text
//! T_j dt = axis . sum over the subtree of (I dw + (x - P) x m dv)
//! ```
//!
//! where `dv, dw` take each body from its velocity now to the one the
//! commanded joint rates give (forward kinematics from the root). The sum
//! is built leaves to root, as the seed writes it: each body adds its own
//! momentum change, then passes the total to its parent with
//! `J_p.ang += J_c.ang + (x_c - x_p) x J_c.lin`. No Coriolis terms are
//! needed: they are inside the velocities the kinematics gives.
//!
//! Limits: hinge joints only (one DOF each; a ball joint's three would
//! project onto three axes), ordered parent before child (a tree rooted at
//! the static world or at any body whose momentum is left alone), at most
//! [`MAX_JOINTS`]. Contacts are not external forces here: a chain that
//! touches the ground gets the torques of the free chain.
//!
//! # Ranges and tolerance
//! | value | type | range kept |
//! |---|---|---|
//! | joint rate | `Fx2` rad/s | below [`super::MAX_SPIN`] |
//! | commanded acceleration | `Fx1` rad/s^2 | +-5e5 |
//! | momentum change (linear, angular) | `Vec3<Fx3>` N s, N m s | lever x momentum below 3e4 (FX4): e.g. 4 m x 1000 N s |
//! | torque | `Fx1` N m | +-5e5, step 2.4e-4 |
//!
//! The torques are exact up to one rounding per product (about 1e-8 N m
//! s per body); what the forward simulation then realises is limited by
//! the solver's convergence and its drift correction, not by this sum:
//! `tests/rigid_inverse_dynamics.rs` measures it (a three-link chain,
//! realised within 0.2 % of the commanded accelerations' peak with 16
//! sweeps, 2.9 % with 8).

use crate::fx::{Fx1, Fx2, Fx3, Fx4, Vec3};

use super::body::{cross_fx2, mul_mat_fx2, Body, STATIC};
use super::joint::{frame, perpendicular_basis, Joint, JointKind};
use super::{div_dt, mul_dt, World};

/// The most joints (and child bodies) one solve takes.
pub const MAX_JOINTS: usize = 16;

/// A subtree's momentum change: linear (N s) and angular about the
/// subtree root's centre of mass (N m s), both FX3.
#[derive(Clone, Copy, Default)]
struct Momentum {
    lin: Vec3<Fx3>,
    ang: Vec3<Fx3>,
}

/// The hinge's world axis (from the parent) and relative rate
/// `(w_b - w_a) . axis` in rad/s; `None` for a ball joint.
pub fn hinge_rate(joint: &Joint, bodies: &[Body]) -> Option<(Vec3, Fx2)> {
    let axis = joint.world_axis(bodies)?;
    let rel = spin_of(bodies, joint.b) - spin_of(bodies, joint.a);
    // FX2 . FX1 -> FX3, one rounding to FX2.
    Some((axis, rel.dot(axis).lower()))
}

/// Velocity and spin of body `i` (zero for the static world).
fn vel_of(bodies: &[Body], i: u8) -> Vec3<Fx2> {
    if i == STATIC {
        Vec3::default()
    } else {
        bodies[i as usize].vel
    }
}

fn spin_of(bodies: &[Body], i: u8) -> Vec3<Fx2> {
    if i == STATIC {
        Vec3::default()
    } else {
        bodies[i as usize].spin
    }
}

/// `rate + accel dt`: the joint rate at the end of the step.
#[inline]
pub fn rate_after(rate: Fx2, accel: Fx1) -> Fx2 {
    rate + Fx2::from_raw(mul_dt(accel.raise().raw()))
}

/// The torque (N m, along each hinge's axis, on the child; the parent
/// gets minus it) that takes every joint from the bodies' velocities now
/// to `rates_t1` (rad/s) in one step. Call after [`World::begin_step`], so
/// that gravity and damping are in the prior momentum; `erp` is the
/// world's joint error reduction (the joint rows' drift correction is
/// part of the velocities the solver will reach). `torques` gets one
/// value per joint (unclamped); ball joints get zero (they are passed
/// through with their relative spin unchanged).
pub fn joint_torques(
    bodies: &[Body],
    joints: &[Joint],
    rates_t1: &[Fx2],
    erp: Fx1,
    torques: &mut [Fx1],
) {
    let n = joints.len().min(MAX_JOINTS);
    // Desired velocities, root to leaves (index by joint: its child).
    let mut vel = [Vec3::<Fx2>::default(); MAX_JOINTS];
    let mut spin = [Vec3::<Fx2>::default(); MAX_JOINTS];
    let parent_of = |i: u8, j: usize| joints[..j].iter().position(|p| p.b == i);
    for (j, jt) in joints[..n].iter().enumerate() {
        let (va, wa) = match parent_of(jt.a, j) {
            Some(p) => (vel[p], spin[p]),
            None => (vel_of(bodies, jt.a), spin_of(bodies, jt.a)),
        };
        // w_b = w_a + axis rate (FX1 x FX2 -> FX3, rounded to FX2), plus
        // what the alignment rows' drift correction adds across the axis;
        // a ball joint keeps its relative spin (it is not driven here).
        let wb = match jt.world_axis(bodies) {
            Some(axis) => wa + (axis * rates_t1[j]).lower() + tilt_correction(jt, bodies, erp),
            None => wa + (spin_of(bodies, jt.b) - spin_of(bodies, jt.a)),
        };
        // The anchor velocities agree up to the linear rows' drift
        // correction: v_b = v_a + w_a x r_a - w_b x r_b - erp sep / dt.
        let ra = frame(bodies, jt.a).1.mul_vec(jt.anchor_a);
        let rb = frame(bodies, jt.b).1.mul_vec(jt.anchor_b);
        let sep = jt.separation(bodies).map(|e| bias(e, erp));
        vel[j] = va + cross_fx2(wa, ra) - cross_fx2(wb, rb) + sep;
        spin[j] = wb;
    }
    // Each child's own momentum change about its centre.
    let mut acc = [Momentum::default(); MAX_JOINTS];
    for (j, jt) in joints[..n].iter().enumerate() {
        let b = &bodies[jt.b as usize];
        acc[j].lin = (vel[j] - b.vel) * b.mass; // FX2 x FX1 -> FX3, exact
        acc[j].ang = angular_momentum(b, spin[j] - b.spin);
    }
    // Leaves to root: project, then hand the subtree to the parent.
    for j in (0..n).rev() {
        let jt = &joints[j];
        let b = &bodies[jt.b as usize];
        let m = acc[j];
        // x_b - P with P the child's anchor, where the joint's reaction
        // acts on the subtree (the parent's anchor may have drifted).
        let lever = -b.mat.mul_vec(jt.anchor_b); // FX1

        // Angular momentum change about P: FX3 + (FX1 x FX3 -> FX4 -> FX3).
        let about_p = m.ang + lever.cross(m.lin).lower();
        torques[j] = match jt.world_axis(bodies) {
            // axis . L: FX1 . FX3 -> FX4; then / dt (x 60) and to FX1.
            Some(axis) => per_second(about_p.dot(axis)),
            None => Fx1::ZERO,
        };
        if let Some(p) = parent_of(jt.a, j) {
            // From about x_c to about x_p through the joint: r_a - r_b
            // rather than x_c - x_p, because the reaction acts at the
            // child's anchor on the child and at the parent's on the
            // parent; when the joint has drifted apart, that pair has a
            // moment which no actuator supplies.
            let ra = bodies[jt.a as usize].mat.mul_vec(jt.anchor_a);
            let shift = ra + lever; // r_a - r_b, FX1
            acc[p].lin += m.lin;
            acc[p].ang += m.ang + shift.cross(m.lin).lower();
        }
    }
}

/// The joint rows' drift-correction target for error `e`: `-erp e / dt`
/// (as [`Joint::push_rows`] computes it).
fn bias(e: Fx2, erp: Fx1) -> Fx2 {
    Fx2::from_raw(-div_dt((e * erp).lower().raw()))
}

/// The spin the hinge's two alignment rows add to `b` relative to `a`
/// (their targets, along the two directions across the axis).
fn tilt_correction(jt: &Joint, bodies: &[Body], erp: Fx1) -> Vec3<Fx2> {
    let JointKind::Hinge { axis_a, axis_b, .. } = jt.kind else {
        return Vec3::default();
    };
    let a1 = frame(bodies, jt.a).1.mul_vec(axis_a);
    let a2 = frame(bodies, jt.b).1.mul_vec(axis_b);
    let tilt = a1.cross(a2).lower();
    let (u, w) = perpendicular_basis(a1);
    // FX1 x FX2 -> FX3, rounded to FX2.
    (u * bias(tilt.dot(u), erp)).lower() + (w * bias(tilt.dot(w), erp)).lower()
}

/// `I_world dw` for body `b`, N m s in FX3: into body axes, times the
/// principal moments, and back.
fn angular_momentum(b: &Body, dw: Vec3<Fx2>) -> Vec3<Fx3> {
    // R^T dw: FX1 x FX2 -> FX3, rounded to FX2.
    let local: Vec3<Fx2> = mul_mat_fx2(&b.mat.transpose(), dw).lower();
    // I (FX2) x w (FX2) -> FX4, rounded to FX3.
    let l = Vec3::new(
        (b.inertia.x * local.x).lower(),
        (b.inertia.y * local.y).lower(),
        (b.inertia.z * local.z).lower(),
    );
    // R l: FX1 x FX3 -> FX4 summed, rounded to FX3.
    let [c0, c1, c2] = b.mat.cols;
    (c0 * l.x + c1 * l.y + c2 * l.z).lower()
}

/// An impulse (N m s, FX4) over one step as a torque (N m, FX1).
fn per_second(impulse: Fx4) -> Fx1 {
    Fx3::from_raw(div_dt(impulse.lower().raw())).lower_to_fx1()
}

/// Applies `torque` (N m) about `axis` for one step: `+` to body `b`,
/// `-` to body `a` (the static world takes nothing).
pub fn apply_torque(bodies: &mut [Body], a: u8, b: u8, axis: Vec3, torque: Fx1) {
    let impulse = Fx2::from_raw(mul_dt(torque.raise().raw())); // N m s
    let l: Vec3<Fx2> = (axis * impulse).lower(); // FX1 x FX2 -> FX3 -> FX2
    if b != STATIC {
        bodies[b as usize].apply_angular_impulse(l);
    }
    if a != STATIC {
        bodies[a as usize].apply_angular_impulse(-l);
    }
}

/// The joint rates now (rad/s; zero for ball joints).
pub fn joint_rates(bodies: &[Body], joints: &[Joint], rates: &mut [Fx2]) {
    for (r, j) in rates.iter_mut().zip(joints) {
        *r = hinge_rate(j, bodies).map_or(Fx2::ZERO, |(_, w)| w);
    }
}

/// The start of a driven step (shared by [`step_driven`] and hybrid
/// dynamics): reads the joint rates, begins the world's step, applies
/// the step's external impulses, and returns the commanded rates (the
/// rates read plus `accel` over the step) and how many joints they cover.
pub fn begin_driven_step<const B: usize, const J: usize, const R: usize>(
    world: &mut World<B, J, R>,
    accel: &[Fx1],
    external: impl FnOnce(&mut [Body]),
) -> ([Fx2; MAX_JOINTS], usize) {
    let n = world.joints().len().min(MAX_JOINTS);
    let mut rates = [Fx2::ZERO; MAX_JOINTS];
    joint_rates(world.bodies(), world.joints(), &mut rates[..n]);
    world.begin_step();
    external(world.bodies_mut());
    for (r, a) in rates[..n].iter_mut().zip(accel) {
        *r = rate_after(*r, *a);
    }
    (rates, n)
}

/// One world step driven by inverse dynamics (seed 002, scheme 0.2): the
/// torques for the commanded accelerations `accel` (rad/s^2, one per
/// joint), each clamped to `+-tau_max`, applied, then the usual rows,
/// solve and integration. `torques` gets the unclamped torques (N m).
/// `external` applies the step's external impulses (pushes, hits) after
/// the joint rates are read: they go into the prior momentum, and the
/// commanded rates start from the consistent state. The joints' own
/// motors should be off.
pub fn step_driven<const B: usize, const J: usize, const R: usize>(
    world: &mut World<B, J, R>,
    accel: &[Fx1],
    tau_max: &[Fx1],
    torques: &mut [Fx1],
    external: impl FnOnce(&mut [Body]),
) {
    let (rates, n) = begin_driven_step(world, accel, external);
    let erp = world.settings.joint_erp;
    joint_torques(world.bodies(), world.joints(), &rates[..n], erp, torques);
    for k in 0..n {
        let jt = world.joints()[k];
        if let Some(axis) = jt.world_axis(world.bodies()) {
            let t = torques[k].clamp(-tau_max[k], tau_max[k]);
            apply_torque(world.bodies_mut(), jt.a, jt.b, axis, t);
        }
    }
    world.push_joint_rows();
    world.push_contact_rows();
    world.solve();
    world.integrate();
}
