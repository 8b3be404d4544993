//! The powered ragdoll: the default humanoid (1.75 m, 70 kg) as 13 box
//! bodies and 12 motorised joints, standing on the ground and following
//! a pose source through its motors (seed 000's drives, torque-limited).
//!
//! ```text
//!            head
//!             | neck (ball)
//!  upper arm -+- chest -+- upper arm     shoulders (ball)
//!  forearm    | waist   |  forearm       elbows (hinge)
//!           pelvis
//!       hip /    \ hip                   hips (ball)
//!       thigh    thigh
//!  knee |            | knee             knees (hinge)
//!       shin     shin
//! ankle |            | ankle            ankles (hinge)
//!       foot     foot
//! ```
//!
//! The character faces +z with its left along +x; y is up. Every joint
//! has a limit. The bodies share one collision group (no self-contact,
//! as in the Verlet ragdoll) and collide with the ground plane.
//!
//! # Using it (the API the scenes draw from)
//! - [`PoweredRagdoll::PLACEHOLDER`] then [`PoweredRagdoll::reset`]: build
//!   it in place (about 40 KB: keep it in a static on the DS, never on
//!   the stack); [`PoweredRagdoll::new`] on the host.
//! - [`PoweredRagdoll::step`] (the built-in idle pose) or
//!   [`PoweredRagdoll::step_with`] (any [`PoseSource`]): one 1/60 s frame.
//! - [`PoweredRagdoll::apply_impulse`]: a shot or the stylus.
//! - [`PoweredRagdoll::set_strength`]: 0 (a plain ragdoll) to 1 (full).
//! - [`PoweredRagdoll::bodies`]: each body's `pos`, `mat` and `half`
//!   (a box) for drawing.

use crate::fx;
use crate::fx::{Fx1, Fx2, Fx3, Quat, Vec3};

use super::check;
use super::pose::{CyclicPose, JointTarget, PoseSource};
use crate::rigid::body::Body;
use crate::rigid::contact::touching;
use crate::rigid::fold::{Fold, Limits};
use crate::rigid::joint::Joint;
use crate::rigid::motor::{ball_error, hinge_error, Motor};
use crate::rigid::world::Phase;
use crate::rigid::world::PREPARE_UPDATES;
use crate::rigid::{Settings, World};

/// Body indices.
pub mod part {
    /// Pelvis (the root).
    pub const PELVIS: u8 = 0;
    /// Chest.
    pub const CHEST: u8 = 1;
    /// Head.
    pub const HEAD: u8 = 2;
    /// Left upper arm.
    pub const UPPER_ARM_L: u8 = 3;
    /// Left forearm (and hand).
    pub const FOREARM_L: u8 = 4;
    /// Right upper arm.
    pub const UPPER_ARM_R: u8 = 5;
    /// Right forearm (and hand).
    pub const FOREARM_R: u8 = 6;
    /// Left thigh.
    pub const THIGH_L: u8 = 7;
    /// Left shin.
    pub const SHIN_L: u8 = 8;
    /// Left foot.
    pub const FOOT_L: u8 = 9;
    /// Right thigh.
    pub const THIGH_R: u8 = 10;
    /// Right shin.
    pub const SHIN_R: u8 = 11;
    /// Right foot.
    pub const FOOT_R: u8 = 12;
}
use part::*;

/// Number of bodies.
pub const BODIES: usize = 13;
/// Number of joints.
pub const JOINTS: usize = 12;
/// Row capacity: 12 joints give at most 84 rows and 13 boxes lying flat
/// 156 contact rows.
pub const ROWS: usize = 240;

/// One body of the standing pose: half extents, mass (kg), centre (m,
/// relative to the point on the ground between the feet).
struct PartSpec {
    half: Vec3,
    mass: Fx1,
    centre: Vec3,
}

/// An FX1 constant from a literal (what `fx!` expands to).
const fn f(x: f64) -> Fx1 {
    Fx1::__from_f64_const(x)
}

const fn v(x: f64, y: f64, z: f64) -> Vec3 {
    Vec3::new(f(x), f(y), f(z))
}

/// A part, checked at build time ([`check::part`]).
const fn spec(half: Vec3, mass: f64, centre: Vec3) -> PartSpec {
    check::part(f(mass), half);
    PartSpec {
        half,
        mass: f(mass),
        centre,
    }
}

/// The standing pose, in body order (70.4 kg in all). Ankles at 0.07 m,
/// knees 0.47, hips 0.89, waist 1.05, shoulders 1.42, neck 1.45.
const PARTS: [PartSpec; BODIES] = [
    spec(v(0.14, 0.08, 0.10), 10.0, v(0.0, 0.97, 0.0)),
    spec(v(0.16, 0.20, 0.10), 20.0, v(0.0, 1.25, 0.0)),
    spec(v(0.09, 0.11, 0.10), 5.0, v(0.0, 1.58, 0.0)),
    spec(v(0.045, 0.15, 0.045), 2.5, v(0.215, 1.27, 0.0)),
    spec(v(0.04, 0.14, 0.04), 2.0, v(0.215, 0.98, 0.0)),
    spec(v(0.045, 0.15, 0.045), 2.5, v(-0.215, 1.27, 0.0)),
    spec(v(0.04, 0.14, 0.04), 2.0, v(-0.215, 0.98, 0.0)),
    spec(v(0.065, 0.21, 0.065), 8.0, v(0.09, 0.68, 0.0)),
    spec(v(0.05, 0.20, 0.05), 4.0, v(0.09, 0.27, 0.0)),
    spec(v(0.05, 0.035, 0.12), 1.2, v(0.09, 0.035, 0.04)),
    spec(v(0.065, 0.21, 0.065), 8.0, v(-0.09, 0.68, 0.0)),
    spec(v(0.05, 0.20, 0.05), 4.0, v(-0.09, 0.27, 0.0)),
    spec(v(0.05, 0.035, 0.12), 1.2, v(-0.09, 0.035, 0.04)),
];

/// A joint's type and limit.
#[derive(Clone, Copy)]
enum Kind {
    /// Ball-and-socket: twist axis (world, standing) and cone half-angle.
    Ball(Vec3, Fx1),
    /// Hinge: axis (world, standing) and angle limits.
    Hinge(Vec3, Fx1, Fx1),
}

/// One joint: parent, child, anchor (standing, relative to the ground
/// point), kind and motor strength (N m per axis).
struct JointSpec {
    a: u8,
    b: u8,
    anchor: Vec3,
    kind: Kind,
    strength: Fx1,
}

/// A joint, checked at build time against `PARTS` ([`check::joint`]).
const fn joint(a: u8, b: u8, anchor: Vec3, kind: Kind, strength: f64) -> JointSpec {
    let parts = PARTS.len();
    if (a as usize) < parts && (b as usize) < parts {
        check::joint(a, b, parts, PARTS[a as usize].mass, PARTS[b as usize].mass);
    } else {
        check::joint(a, b, parts, Fx1::ONE, Fx1::ONE);
    }
    JointSpec {
        a,
        b,
        anchor,
        kind,
        strength: f(strength),
    }
}

const DOWN: Vec3 = v(0.0, -1.0, 0.0);
/// Elbows flex forward about -x, knees backward about +x.
const ELBOW_AXIS: Vec3 = v(-1.0, 0.0, 0.0);
const KNEE_AXIS: Vec3 = Vec3::X;

/// Joint indices, in the order of `JOINT_SPECS`.
pub mod joint_index {
    /// Pelvis to chest.
    pub const WAIST: usize = 0;
    /// Chest to head.
    pub const NECK: usize = 1;
    /// Chest to left upper arm.
    pub const SHOULDER_L: usize = 2;
    /// Left elbow.
    pub const ELBOW_L: usize = 3;
    /// Chest to right upper arm.
    pub const SHOULDER_R: usize = 4;
    /// Right elbow.
    pub const ELBOW_R: usize = 5;
    /// Pelvis to left thigh.
    pub const HIP_L: usize = 6;
    /// Left knee.
    pub const KNEE_L: usize = 7;
    /// Left ankle.
    pub const ANKLE_L: usize = 8;
    /// Pelvis to right thigh.
    pub const HIP_R: usize = 9;
    /// Right knee.
    pub const KNEE_R: usize = 10;
    /// Right ankle.
    pub const ANKLE_R: usize = 11;
}
use joint_index::*;

/// The joints, parents before children (motor strengths after seed 000's
/// advice: strong hips, knees and waist carry the body).
const JOINT_SPECS: [JointSpec; JOINTS] = [
    joint(
        PELVIS,
        CHEST,
        v(0.0, 1.05, 0.0),
        Kind::Ball(Vec3::Y, fx!(0.6)),
        400.0,
    ),
    joint(
        CHEST,
        HEAD,
        v(0.0, 1.46, 0.0),
        Kind::Ball(Vec3::Y, fx!(0.7)),
        60.0,
    ),
    joint(
        CHEST,
        UPPER_ARM_L,
        v(0.215, 1.42, 0.0),
        Kind::Ball(DOWN, fx!(2.0)),
        80.0,
    ),
    joint(
        UPPER_ARM_L,
        FOREARM_L,
        v(0.215, 1.12, 0.0),
        Kind::Hinge(ELBOW_AXIS, fx!(-0.05), fx!(2.4)),
        50.0,
    ),
    joint(
        CHEST,
        UPPER_ARM_R,
        v(-0.215, 1.42, 0.0),
        Kind::Ball(DOWN, fx!(2.0)),
        80.0,
    ),
    joint(
        UPPER_ARM_R,
        FOREARM_R,
        v(-0.215, 1.12, 0.0),
        Kind::Hinge(ELBOW_AXIS, fx!(-0.05), fx!(2.4)),
        50.0,
    ),
    joint(
        PELVIS,
        THIGH_L,
        v(0.09, 0.89, 0.0),
        Kind::Ball(DOWN, fx!(1.4)),
        400.0,
    ),
    joint(
        THIGH_L,
        SHIN_L,
        v(0.09, 0.47, 0.0),
        Kind::Hinge(KNEE_AXIS, fx!(-0.05), fx!(2.4)),
        300.0,
    ),
    joint(
        SHIN_L,
        FOOT_L,
        v(0.09, 0.07, 0.0),
        Kind::Hinge(KNEE_AXIS, fx!(-0.7), fx!(0.7)),
        200.0,
    ),
    joint(
        PELVIS,
        THIGH_R,
        v(-0.09, 0.89, 0.0),
        Kind::Ball(DOWN, fx!(1.4)),
        400.0,
    ),
    joint(
        THIGH_R,
        SHIN_R,
        v(-0.09, 0.47, 0.0),
        Kind::Hinge(KNEE_AXIS, fx!(-0.05), fx!(2.4)),
        300.0,
    ),
    joint(
        SHIN_R,
        FOOT_R,
        v(-0.09, 0.07, 0.0),
        Kind::Hinge(KNEE_AXIS, fx!(-0.7), fx!(0.7)),
        200.0,
    ),
];

// No two joints join the same parts (a build error otherwise).
const _: () = check::distinct_pairs(&{
    let mut pairs = [(0u8, 0u8); JOINTS];
    let mut k = 0;
    while k < JOINTS {
        pairs[k] = (JOINT_SPECS[k].a, JOINT_SPECS[k].b);
        k += 1;
    }
    pairs
});

/// The bit mask of the hinge joints (their targets are angles).
pub const HINGES: u32 =
    1 << ELBOW_L | 1 << ELBOW_R | 1 << KNEE_L | 1 << ANKLE_L | 1 << KNEE_R | 1 << ANKLE_R;

/// The built-in idle pose: the arms swing gently, out of phase, and the
/// head turns, over 2 s; everything else holds the standing pose.
pub const IDLE: CyclicPose<3> = CyclicPose {
    swings: [
        (SHOULDER_L, Vec3::X, fx!(0.3), Fx1::ZERO),
        (SHOULDER_R, Vec3::X, fx!(0.3), fx!(core::f64::consts::PI)),
        (NECK, Vec3::Y, fx!(0.3), Fx1::ZERO),
    ],
    period: 120,
    hinges: HINGES,
};

/// Balance feedback: ankle angle per metre of centre-of-mass offset
/// ahead of the feet, per m/s of its speed, and the largest correction.
const BALANCE_KP: Fx1 = fx!(3.0);
const BALANCE_KD: Fx1 = fx!(0.6);
const BALANCE_MAX: Fx1 = fx!(0.5);

/// The world settings: 12 sweeps over-relaxed by 1.15 (SOR), and warm
/// starts that keep 85 % of a contact's and 80 % of a joint's or motor's
/// last impulse. The two legs on the ground close a loop, so the joint
/// rows are redundant; with full warm starts the internal force that no
/// velocity shows grows step by step, the body sways with growing
/// amplitude and falls in 1-2 s whatever the sweep count.
///
/// Since the feet's contacts share their friction as patches
/// ([`crate::rigid::contact::Patch`]), the solver alone (level of
/// detail off) stands 10 s at 9 to 12 sweeps with these warm starts and
/// relaxation, falls at 8, and falls at 7 with every warm-start pair
/// tried, relaxed or not (before the patches it fell at 11 with its
/// neighbours 1.1 and 1.2). 10 sweeps were tried and kept out: scene
/// (e)'s worst frame under the stylus strike rose from 15217 to 16897 us
/// in DeSmuME (`make stress-test STRESS_SCENES=e`), over the frame,
/// because the struck figure took a heavier path. Warm starts of 0.9 /
/// 0.9 stand at 8 sweeps, but after the push the figure then vibrates on
/// its feet (pelvis turning at 2-4 rad/s) and never folds again.
/// `cargo run --release --example powered_solver_alone` prints the
/// standing grid and `cargo run --release --example powered_refold` the
/// push's aftermath; `tests/rigid_powered.rs` keeps both verdicts as
/// regression guards (`fewer_sweeps_fall_within_ten_seconds`,
/// `it_folds_again_after_the_push`). The balance, not the solver's
/// accuracy, is what falls: with symmetric sweeps (stiffer) it fell at
/// every count (`docs/experiments/`, `docs/rigid-solver.md`).
pub const SETTINGS: Settings = Settings {
    iterations: SWEEPS,
    relaxation: fx!(1.15),
    update_budget: UPDATE_BUDGET,
    contact_warm: fx!(0.85),
    joint_warm: fx!(0.8),
    joint_gap: JOINT_GAP,
    ..Settings::DEFAULT
};

/// Joint gaps longer than this are closed after each full step
/// ([`crate::rigid::joint_gap`]): 9 mm, so that none stays open by 1 cm.
pub const JOINT_GAP: Fx2 = Fx2::from_raw(150_995);

/// Sweeps of a full step ([`SETTINGS`]).
pub const SWEEPS: u8 = 12;

/// The solver's work per step (row updates, preparations included):
/// [`SWEEPS`] sweeps of the 86 rows of the standing figure (72 joint and motor
/// rows, 7 contact rows a foot). Lying on the ground it has more rows
/// and runs fewer sweeps (at least 4);
/// `cargo run --release --example powered_budget` prints what that
/// costs in joint drift after a head strike.
pub const UPDATE_BUDGET: u16 = 86 * (SWEEPS as u16 + PREPARE_UPDATES as u16);

/// The character in its world (a ground plane).
#[derive(Clone, Debug)]
pub struct PoweredRagdoll {
    /// Bodies, joints and rows.
    pub world: World<BODIES, JOINTS, ROWS>,
    /// Frames since the reset (the pose source's clock).
    pub frame: u32,
    /// Strength, as a fraction of every motor's full torque.
    pub strength: Fx1,
    /// Seed 002's physics level of detail: while it stands still under
    /// its motors, the figure folds into one composite body
    /// ([`crate::rigid::fold`]). On by default.
    pub lod: bool,
    /// The fold, while folded.
    pub fold: Fold<JOINTS>,
    /// Consecutive full steps that met the folding conditions.
    quiet: u8,
    /// Consecutive full steps that met the partial folding conditions.
    steady: u8,
    /// The ankles' balance correction (rad), held while folded.
    lean: Fx1,
}

/// Folding: after this many consecutive quiet full steps, each with the
/// mean joint error below [`FOLD_ERROR`], the centre of mass slower than
/// [`FOLD_SPEED`], pelvis and chest turning slower than [`FOLD_SPIN`],
/// and the feet alone on the ground. Measured standing under [`IDLE`]
/// (`cargo run --release --example powered_lod`): error 0.003-0.02
/// rad, centre of mass 0.02-0.07 m/s, spin 0.04-0.25 rad/s.
pub const FOLD_AFTER: u8 = 10;
/// See [`FOLD_AFTER`] (rad).
pub const FOLD_ERROR: Fx1 = fx!(0.03);
/// See [`FOLD_AFTER`] (m/s).
pub const FOLD_SPEED: Fx1 = fx!(0.15);
/// See [`FOLD_AFTER`] (rad/s).
pub const FOLD_SPIN: Fx1 = fx!(0.4);
/// A folded figure unfolds when its composite moves faster than this (it
/// is falling or was hit), when a foot leaves the ground, when it is
/// struck, grabbed or its strength changes.
///
/// A folded figure slower than 6 cm/s and 0.08 rad/s for 20 steps
/// sleeps: its contacts are no longer solved and only the members its
/// pose moves (arms and head under [`IDLE`]) are placed. Folded, the
/// composite rocks on its feet at 0.01-0.06 m/s and rad/s (the feet's
/// 14 contact rows at [`FOLDED_SWEEPS`] sweeps); asleep, it stands
/// still. Of the push scenario's frames 165 rest after 20 such steps,
/// 154 after 30 (`cargo run --release --example powered_refold`). After
/// 15, `tests/rigid_fold.rs`'s half second of rest fell where the idle
/// swing moves the forearm 0.010 m, at its threshold, so that test fails.
pub const UNFOLD: Limits = Limits {
    speed: fx!(0.3),
    spin: fx!(0.8),
    rest_speed: fx!(0.06),
    rest_spin: fx!(0.08),
    rest_steps: 20,
};
/// Sweeps of a folded step: one body on its feet's 14 contact rows,
/// warm-started (at 4 the bodies move about 2 mm in 5 s standing,
/// 6 sweeps give 1 mm: `cargo test --test rigid_fold -- --nocapture`).
/// With patch friction at 4 the composite rocked longer before it came
/// to rest: of the push scenario's 240 frames it rested 95, at 6 it rests
/// 131 (`cargo run --release --example powered_refold`), and a resting
/// frame costs a fifth of an awake one.
pub const FOLDED_SWEEPS: u8 = 6;
/// Sweeps of a partly folded step: a 66 kg composite on two 1.2 kg feet
/// converges slowly. In the push scenario at dc053f8 (pushed at frame 20,
/// folded above the ankles from 22) it folded whole at frame 80 with 12 sweeps,
/// 75 with 14, 54 with 16 and 66 with 18 (`cargo run --release --example
/// powered_refold`); 16 sweeps of its 26 rows are 416 updates, against
/// 1032 for a full step's 12 of 86.
pub const SWAY_SWEEPS: u8 = 16;
/// Both feet.
const FEET: u32 = 1 << FOOT_L | 1 << FOOT_R;

/// The joints a partly folded figure keeps dynamic: the ankles, where
/// its balance acts while it sways on its feet after a push. Everything
/// above them folds into one composite (seed 002: "as she gets closer,
/// we can transition her legs to dynamic").
pub const SWAYING: u32 = 1 << joint_index::ANKLE_L | 1 << joint_index::ANKLE_R;
/// Partial folding: after this many consecutive full steps with every
/// joint but the ankles within [`SWAY_ERROR`] of its target and only the
/// feet on the ground. Folded above the hips instead (hips, knees and
/// ankles dynamic), the figure's hips and knees stayed within 0.01 and
/// 0.021 rad of their targets through the bench's recovery while its
/// ankles turned by up to 0.21 rad: the legs recover on the ankles
/// (docs/rigid-solver.md, "Folding all but the ankles").
pub const SWAY_AFTER: u8 = 3;
/// See [`SWAY_AFTER`] (rad, each joint's own error).
pub const SWAY_ERROR: Fx1 = fx!(0.05);
/// A partly folded figure unfolds when its composite moves faster than
/// this (it is falling, not swaying), besides what unfolds a folded one.
pub const SWAY_LIMITS: Limits = Limits {
    speed: fx!(1.0),
    spin: fx!(1.5),
    ..UNFOLD
};

impl PoweredRagdoll {
    /// No bodies yet: the `const` a static starts from. Call
    /// [`PoweredRagdoll::reset`] before stepping it.
    pub const PLACEHOLDER: PoweredRagdoll = PoweredRagdoll {
        world: World::empty(SETTINGS),
        frame: 0,
        strength: Fx1::ONE,
        lod: true,
        fold: Fold::OFF,
        quiet: 0,
        steady: 0,
        lean: Fx1::ZERO,
    };

    /// Standing with its feet at `ground` (the point between them), at
    /// full strength.
    pub fn new(ground: Vec3) -> PoweredRagdoll {
        let mut r = PoweredRagdoll::PLACEHOLDER;
        r.reset(ground);
        r
    }

    /// Rebuilds it in place, as [`PoweredRagdoll::new`] (no large
    /// temporaries: safe on the DS stack).
    pub fn reset(&mut self, ground: Vec3) {
        let world = &mut self.world;
        world.reset(SETTINGS);
        for p in &PARTS {
            let mut b = Body::new_box(p.half, p.mass, ground + p.centre, Quat::IDENTITY);
            b.group = 1;
            b.friction = fx!(0.9);
            world.add_body(b);
        }
        for s in &JOINT_SPECS {
            let b = world.bodies();
            let at = ground + s.anchor;
            let mut j = match s.kind {
                Kind::Ball(twist, cone) => Joint::ball(b, s.a, s.b, at, twist, Some(cone)),
                Kind::Hinge(axis, lo, hi) => Joint::hinge(b, s.a, s.b, at, axis, Some((lo, hi))),
            };
            j.motor = Motor::with_strength(s.strength);
            world.add_joint(j);
        }
        self.frame = 0;
        self.strength = Fx1::ONE;
        // Built at rest in its neutral pose, on its feet: it starts
        // folded and resting (the first strike or push unfolds it).
        let w = &self.world;
        self.fold.engage(w.bodies(), w.joints());
        self.fold.rest(w.bodies());
        self.fold.touching = FEET;
        self.quiet = FOLD_AFTER;
        self.steady = 0;
        self.lean = Fx1::ZERO;
    }

    /// The bodies (boxes: `pos`, `mat`, `half`), in [`part`] order.
    pub fn bodies(&self) -> &[Body] {
        self.world.bodies()
    }

    /// The pelvis (root).
    pub fn pelvis(&self) -> &Body {
        &self.world.bodies()[PELVIS as usize]
    }

    /// The head.
    pub fn head(&self) -> &Body {
        &self.world.bodies()[HEAD as usize]
    }

    /// Sets every motor's torque limit to `fraction` (0..1) of its full
    /// strength; 0 switches the motors off (a plain ragdoll).
    pub fn set_strength(&mut self, fraction: Fx1) {
        let fraction = fraction.clamp(Fx1::ZERO, Fx1::ONE);
        self.strength = fraction;
        self.unfold();
        for (j, s) in self.world.joints_mut().iter_mut().zip(&JOINT_SPECS) {
            j.motor.tau_max = s.strength.mul_lower(fraction);
            j.motor.enabled = fraction > Fx1::ZERO;
        }
    }

    /// Applies a linear impulse (N s, world) at world point `at` of body
    /// `body` (a shot, a kick, the stylus).
    pub fn apply_impulse(&mut self, body: u8, at: Vec3, impulse: Vec3) {
        self.unfold();
        if let Some(b) = self.world.bodies_mut().get_mut(body as usize) {
            let r = at - b.position();
            b.apply_impulse(r, crate::rigid::raise(impulse));
        }
    }

    /// Sets the motor targets from `pose` at the current frame, then adds
    /// the balance feedback to the ankles.
    #[inline(never)]
    pub fn control(&mut self, pose: &impl PoseSource) {
        let frame = self.frame;
        for (k, j) in self.world.joints_mut().iter_mut().enumerate() {
            match pose.target(k, frame) {
                JointTarget::Rotation(q) => {
                    j.motor.target = q;
                    // A hinge given a rotation holds its neutral angle.
                    j.motor.angle = Fx1::ZERO;
                }
                JointTarget::Angle(a) => j.motor.angle = a,
            }
        }
        // A folded figure needs no balance: its ankles hold the lean it
        // folded with (a changing lean would turn its feet under it and
        // walk it across the ground).
        if !(self.lod && self.is_folded()) {
            self.lean = self.balance_lean();
        }
        let lean = self.lean;
        let joints = self.world.joints_mut();
        for k in [ANKLE_L, ANKLE_R] {
            joints[k].motor.angle += lean;
        }
    }

    /// The ankle strategy: the pose alone holds the body stiff, and a stiff
    /// body on two feet tips over at the first sway. The ankles turn the
    /// feet (toes down: positive) by a PD term on how far the centre of
    /// mass is ahead of the middle of the feet, which pushes it back over
    /// them, and the reverse. Forward/backward only (the stance is wide).
    fn balance_lean(&self) -> Fx1 {
        let b = self.world.bodies();
        let feet = (b[FOOT_L as usize].pos + b[FOOT_R as usize].pos).lower();
        let (mut z, mut vz, mut mass) = (Fx2::ZERO, Fx2::ZERO, Fx1::ZERO);
        for body in b {
            z += body.pos.z.lower() * body.mass;
            vz += body.vel.z.lower() * body.mass;
            mass += body.mass;
        }
        if mass == Fx1::ZERO {
            return Fx1::ZERO;
        }
        let over: Fx1 = z / mass - feet.z.div_int(2);
        let speed: Fx1 = vz / mass;
        let lean = over.mul_lower(BALANCE_KP) + speed.mul_lower(BALANCE_KD);
        lean.clamp(-BALANCE_MAX, BALANCE_MAX)
    }

    /// One frame following `pose`: control, then physics.
    pub fn step_with(&mut self, pose: &impl PoseSource) {
        self.step_marked(pose, &mut |_| {});
    }

    /// [`PoweredRagdoll::step_with`], calling `mark` as each phase ends
    /// (for the bench's timers).
    #[inline(always)]
    pub fn step_marked(&mut self, pose: &impl PoseSource, mark: &mut impl FnMut(Phase)) {
        self.control(pose);
        mark(Phase::Control);
        let keep = self.lod && self.world.grab.is_none() && self.fold.touching & FEET == FEET;
        if self.fold.is_active() && !keep {
            self.unfold();
        }
        let partly = self.fold.is_partial();
        let (sweeps, limits) = if partly {
            (SWAY_SWEEPS, SWAY_LIMITS)
        } else {
            (FOLDED_SWEEPS, UNFOLD)
        };
        let folded = self.fold.is_active()
            && self
                .fold
                .step(&mut self.world, PELVIS, sweeps, limits, mark);
        if !folded {
            self.fold.release();
            self.world.step_marked(mark);
        }
        if !folded || partly {
            self.consider_folding();
        }
        self.frame += 1;
    }

    /// True while folded into one body (the level of detail).
    pub fn is_folded(&self) -> bool {
        self.fold.is_active() && !self.fold.is_partial()
    }

    /// True while folded above the ankles, swaying on them
    /// ([`SWAYING`]).
    pub fn is_partly_folded(&self) -> bool {
        self.fold.is_partial()
    }

    /// True while folded and at rest (nothing but the pose is stepped).
    pub fn is_resting(&self) -> bool {
        self.fold.is_asleep()
    }

    /// Unfolds now: the next step solves every joint.
    pub fn unfold(&mut self) {
        self.fold.release();
        self.quiet = 0;
        self.steady = 0;
    }

    /// After a full or partly folded step: counts the quiet steps, and
    /// folds after [`FOLD_AFTER`] of them; after a full step, folds all
    /// but the ankles after [`SWAY_AFTER`] steady ones.
    fn consider_folding(&mut self) {
        if !self.lod || self.world.grab.is_some() || self.strength == Fx1::ZERO {
            self.quiet = 0;
            self.steady = 0;
            return;
        }
        // Cheapest first: a moving figure (most full steps) stops here.
        let b = self.world.bodies();
        let (mut momentum, mut mass) = (Vec3::<Fx3>::default(), Fx1::ZERO);
        for body in b {
            momentum += body.vel * body.mass;
            mass += body.mass;
        }
        let speed = momentum.map(|c| (c / mass).lower()).length();
        let spin = |i: u8| b[i as usize].spin.lower().length();
        let calm = speed < FOLD_SPEED && spin(PELVIS) < FOLD_SPIN && spin(CHEST) < FOLD_SPIN;
        let touching = if calm {
            touching(self.world.rows.as_slice())
        } else {
            0
        };
        // Only the feet on the ground: standing, not lying.
        let quiet = calm && touching == FEET && self.pose_error() < FOLD_ERROR;
        self.quiet = if quiet {
            self.quiet.saturating_add(1)
        } else {
            0
        };
        if self.quiet >= FOLD_AFTER {
            let w = &self.world;
            self.fold.engage(w.bodies(), w.joints());
            self.fold.touching = touching;
            return;
        }
        if !self.fold.is_partial() {
            self.consider_swaying();
        }
    }

    /// After a full step: counts the steady steps (every joint but the
    /// ankles near its target, only the feet on the ground), and folds
    /// all but the ankles after [`SWAY_AFTER`] of them.
    fn consider_swaying(&mut self) {
        let touching = touching(self.world.rows.as_slice());
        let bodies = self.world.bodies();
        let steady = touching == FEET
            && self
                .world
                .joints()
                .iter()
                .enumerate()
                .filter(|(k, _)| SWAYING & (1 << k) == 0)
                .all(|(k, j)| joint_error(k, j, bodies) < SWAY_ERROR);
        self.steady = if steady {
            self.steady.saturating_add(1)
        } else {
            0
        };
        if self.steady >= SWAY_AFTER {
            let w = &self.world;
            if self
                .fold
                .engage_partly(w.bodies(), w.joints(), PELVIS, SWAYING)
            {
                self.fold.touching = touching;
            }
        }
    }

    /// One frame of the built-in [`IDLE`] pose.
    pub fn step(&mut self) {
        self.step_with(&IDLE);
    }

    /// The mean joint error against the motor targets, in radians: the
    /// rotation angle left for a ball, the angle difference for a hinge.
    pub fn pose_error(&self) -> Fx1 {
        let bodies = self.world.bodies();
        let joints = self.world.joints();
        let mut sum = Fx1::ZERO;
        for (k, j) in joints.iter().enumerate() {
            sum += joint_error(k, j, bodies);
        }
        sum.div_int(joints.len().max(1) as i32)
    }
}

/// Joint `k`'s error against its motor target, in radians: the rotation
/// angle left for a ball, the angle difference for a hinge.
fn joint_error(k: usize, j: &Joint, bodies: &[Body]) -> Fx1 {
    if HINGES & (1 << k) != 0 {
        hinge_error(j, bodies).abs()
    } else {
        ball_error(j, bodies).length()
    }
}

/// The determinism scenario: standing for `frames` frames, pushed in the
/// back at frame 20 (30 N s at the chest); returns the state hash. In
/// place, in `r` (the DS runs it in a static).
pub fn push_and_recover_in(r: &mut PoweredRagdoll, frames: u32) -> u32 {
    r.reset(Vec3::ZERO);
    for f in 0..frames {
        if f == PUSH_FRAME {
            push(r);
        }
        r.step();
    }
    r.world.state_hash()
}

/// A minute of pushes: the scenario's push every 2 s from frame
/// `first_push` (below 120), the strength cut to a quarter from 30 s on,
/// as a damaged character's would be. `each` sees the figure after every
/// frame, with the frame's number.
pub fn minute_of_pushes(
    r: &mut PoweredRagdoll,
    first_push: u32,
    mut each: impl FnMut(&PoweredRagdoll, u32),
) {
    for f in 0..3600u32 {
        if f % 120 == first_push {
            push(r);
        }
        if f == 1800 {
            r.set_strength(Fx1::ONE.div_int(4));
        }
        r.step();
        each(r, f);
    }
}

/// The frame within `frames` at which the figure, standing in a world
/// with `settings` and its level of detail off (the solver alone, every
/// step a full one), falls: its head below 90 % of its standing height.
/// `None` if it stands.
pub fn first_fall(settings: Settings, frames: u32) -> Option<u32> {
    let mut r = PoweredRagdoll::new(Vec3::ZERO);
    r.lod = false;
    r.world.settings = settings;
    let floor = r.head().position().y.mul_lower(fx!(0.9));
    (0..frames).find(|_| {
        r.step();
        r.head().position().y < floor
    })
}

/// The frame at which the scenario pushes.
pub const PUSH_FRAME: u32 = 20;

/// The scenario's push: 30 N s forwards at the chest's centre.
pub fn push(r: &mut PoweredRagdoll) {
    let at = r.world.bodies()[CHEST as usize].position();
    r.apply_impulse(CHEST, at, v(0.0, 0.0, 30.0));
}
