//! The Armed Mine (seed 000): a box body with one arm (shoulder
//! ball-and-socket, elbow hinge, wrist ball-and-socket, all motorised).
//!
//! Each frame a hand target is sampled from a closed curve of four
//! control points, given relative to the shoulder in a gravity-aligned
//! frame (the body's heading and world up), skewed sideways towards a
//! goal point and, in proportion to how far the body is upside down,
//! pressed into the ground on its lifted side ([`super::tilt_skew`]).
//! Two-bone IK turns the target into a shoulder orientation and an elbow
//! angle, and the motors, limited in torque, move the arm. The body moves
//! only through contact forces between the hand and the ground; nothing
//! scripts a crawl or a recovery: knocked on its back, the same cycle,
//! skewed, is a push-up that rolls it upright.

use crate::fx;
use crate::fx::{Fx1, Fx2, Quat, Vec3};

use super::curve::sample_closed;
use super::tilt_skew::tilt_skew;
use crate::rigid::body::Body;
use crate::rigid::ik::two_bone;
use crate::rigid::joint::Joint;
use crate::rigid::motor::Motor;
use crate::rigid::{Settings, World};

/// Half extents of the main body, m (0.4 m long: one body length).
pub const BODY_HALF: Vec3 = Vec3::new(fx!(0.2), fx!(0.07), fx!(0.2));
/// Body length along its forward axis (local x), m.
pub const BODY_LENGTH: Fx1 = fx!(0.4);
/// The shoulder in the body's frame: front centre.
pub const SHOULDER: Vec3 = Vec3::new(fx!(0.2), fx!(0.07), Fx1::ZERO);
/// Upper arm and forearm lengths, m.
pub const UPPER: Fx1 = fx!(0.3);
/// Forearm length, m.
pub const FOREARM: Fx1 = fx!(0.3);
/// The hand's half extents, m.
pub const HAND_HALF: Vec3 = Vec3::new(fx!(0.05), fx!(0.02), fx!(0.05));

/// The hand-target cycle (wrist position relative to the shoulder,
/// heading frame: x forward, y up, z right): reach forward and high,
/// plant ahead (0.16 m below the shoulder: 2 cm into the ground when
/// upright, so the hand presses), pull back along the ground while still
/// ahead of the body (pulling it in closer vaulted the body over the
/// hand), lift.
pub const CYCLE: [Vec3; 4] = [
    Vec3::new(fx!(0.45), fx!(0.1), Fx1::ZERO),
    Vec3::new(fx!(0.5), fx!(-0.16), Fx1::ZERO),
    Vec3::new(fx!(0.3), fx!(-0.16), Fx1::ZERO),
    Vec3::new(fx!(0.25), fx!(0.12), Fx1::ZERO),
];

/// Frames per cycle.
pub const PERIOD: i32 = 72;

/// Motor strengths (N m): shoulder, elbow, wrist.
pub const STRENGTH: [Fx1; 3] = [fx!(12.0), fx!(7.5), fx!(3.0)];

/// The motors' error reduction per step: a soft drive that removes a
/// tenth of the pose error per frame. The first tuning's 0.5 (and
/// 16/10/4 N m) snapped the arm to its targets and flung the body over
/// while crawling: upright in 22 % of the crawl's frames over eight
/// headings, against 96 % now (`tests/rigid_armed_mine.rs`).
pub const MOTOR_RATE: Fx1 = fx!(0.1);

/// Body indices.
pub const MINE: u8 = 0;
const UPPER_ARM: u8 = 1;
const FOREARM_BODY: u8 = 2;
const HAND: u8 = 3;

/// The creature in its world (a ground plane).
#[derive(Clone, Debug)]
pub struct ArmedMine {
    /// Bodies (mine, upper arm, forearm, hand), joints and rows.
    pub world: World<4, 3, 96>,
    /// Position on the cycle, in control points (wraps at 4).
    pub phase: Fx1,
    /// The point it steers towards.
    pub goal: Vec3,
    /// The last wrist target (world).
    pub hand_target: Vec3,
}

impl ArmedMine {
    /// An empty creature (no bodies): the `const` a static starts from on
    /// the DS, where the 16 KB creature must not touch the stack. Call
    /// [`ArmedMine::reset`] before stepping it.
    pub const PLACEHOLDER: ArmedMine = ArmedMine {
        world: World::empty(Settings::DEFAULT),
        phase: Fx1::ZERO,
        goal: Vec3::ZERO,
        hand_target: Vec3::ZERO,
    };

    /// Upright at `pos` (the body's centre) with the arm straight ahead
    /// along +x, steering towards `goal`.
    pub fn new(pos: Vec3, goal: Vec3) -> ArmedMine {
        let mut m = ArmedMine::PLACEHOLDER;
        m.reset(pos, goal);
        m
    }

    /// Rebuilds the creature in place, as [`ArmedMine::new`] does (no
    /// large temporaries: safe on the DS stack).
    pub fn reset(&mut self, pos: Vec3, goal: Vec3) {
        let world = &mut self.world;
        world.reset(Settings::DEFAULT);
        let q = Quat::IDENTITY;
        let mut mine = Body::new_box(BODY_HALF, fx!(5.0), pos, q);
        mine.friction = fx!(0.2);
        world.add_body(mine);
        let shoulder = pos + SHOULDER;
        let seg = |len: Fx1| Vec3::new(len.div_int(2), fx!(0.03), fx!(0.03));
        let upper_c = shoulder + Vec3::new(UPPER.div_int(2), Fx1::ZERO, Fx1::ZERO);
        world.add_body(Body::new_box(seg(UPPER), fx!(0.8), upper_c, q));
        let elbow = shoulder + Vec3::new(UPPER, Fx1::ZERO, Fx1::ZERO);
        let fore_c = elbow + Vec3::new(FOREARM.div_int(2), Fx1::ZERO, Fx1::ZERO);
        world.add_body(Body::new_box(seg(FOREARM), fx!(0.6), fore_c, q));
        let wrist = elbow + Vec3::new(FOREARM, Fx1::ZERO, Fx1::ZERO);
        let mut hand = Body::new_box(
            HAND_HALF,
            fx!(0.3),
            wrist + Vec3::new(HAND_HALF.x, Fx1::ZERO, Fx1::ZERO),
            q,
        );
        hand.friction = fx!(1.5);
        world.add_body(hand);
        let b = world.bodies();
        let mut joints = [
            Joint::ball(b, MINE, UPPER_ARM, shoulder, Vec3::X, None),
            Joint::hinge(
                b,
                UPPER_ARM,
                FOREARM_BODY,
                elbow,
                Vec3::Z,
                Some((fx!(-0.2), fx!(2.8))),
            ),
            Joint::ball(b, FOREARM_BODY, HAND, wrist, Vec3::X, Some(fx!(1.2))),
        ];
        for (j, s) in joints.iter_mut().zip(STRENGTH) {
            j.motor = Motor::with_strength(s);
            j.motor.rate = MOTOR_RATE;
            world.add_joint(*j);
        }
        self.phase = Fx1::ZERO;
        self.goal = goal;
        self.hand_target = wrist;
    }

    /// As [`ArmedMine::new`], then turned upside down about its forward
    /// axis (rolled 180 degrees) around its centre.
    pub fn upside_down(pos: Vec3, goal: Vec3) -> ArmedMine {
        let mut m = ArmedMine::PLACEHOLDER;
        m.reset_upside_down(pos, goal);
        m
    }

    /// [`ArmedMine::reset`], then rolled 180 degrees about its forward
    /// axis around its centre (in place).
    pub fn reset_upside_down(&mut self, pos: Vec3, goal: Vec3) {
        self.reset(pos, goal);
        let roll = Quat::from_axis_angle(Vec3::X, crate::fx::Angle::HALF);
        self.rotate_about(roll, crate::rigid::raise(pos));
    }

    /// Turns every body of the creature rigidly by `q` about the world
    /// point `centre` (in place; velocities are left as they are).
    pub fn rotate_about(&mut self, q: Quat, centre: Vec3<Fx2>) {
        for b in self.world.bodies_mut() {
            b.pos = centre + crate::rigid::raise(q.rotate((b.pos - centre).lower()));
            b.rot = (q * b.rot).normalise();
            b.update_derived();
        }
    }

    /// The main body.
    pub fn body(&self) -> &Body {
        &self.world.bodies()[MINE as usize]
    }

    /// The body's up axis in world space.
    pub fn up(&self) -> Vec3 {
        self.body().mat.cols[1]
    }

    /// Upright: the body's up axis within 45 degrees of vertical.
    pub fn is_upright(&self) -> bool {
        self.up().y > fx!(core::f64::consts::FRAC_1_SQRT_2)
    }

    /// The heading frame: forward (the body's x, or its y when x is
    /// vertical) flattened onto the ground, up, and right.
    fn heading(&self) -> (Vec3, Vec3) {
        let m = &self.body().mat;
        let flat = |v: Vec3| Vec3::new(v.x, Fx1::ZERO, v.z).try_normalise();
        let fwd = flat(m.cols[0])
            .or_else(|| flat(m.cols[1]))
            .unwrap_or(Vec3::X);
        let right = fwd.cross(Vec3::Y).lower();
        (fwd, right)
    }

    /// Samples the cycle, skews it towards the goal, solves the IK and
    /// sets the motor targets.
    #[inline(never)]
    pub fn control(&mut self) {
        self.phase = Fx1::from_raw((self.phase.raw() + (4 << 12) / PERIOD).rem_euclid(4 << 12));
        let (fwd, right) = self.heading();
        let body = *self.body();
        let centre = body.position();
        // The skew: reach sideways by up to 0.15 m towards the goal.
        let to_goal = (self.goal - centre).try_normalise().unwrap_or(fwd);
        let side = to_goal.dot(right).lower().clamp(fx!(-1.0), fx!(1.0));
        let local = sample_closed(&CYCLE, self.phase);
        let shoulder = (body.world_point(SHOULDER)).lower();
        // Upside down the cycle is pressed into the ground beside the
        // body, on its lifted side (`tilt_skew`): the push-up that rights it.
        let tilt = tilt_skew(body.mat.cols[1], right);
        let target = shoulder
            + fwd.scale(local.x.mul_lower(tilt.reach))
            + Vec3::Y.scale(local.y - tilt.sink)
            + right.scale(local.z + side.mul_lower(fx!(0.15)) + tilt.side);
        self.hand_target = target;
        let pole = Vec3::Y - fwd.scale(fx!(0.3));
        let ik = two_bone(shoulder, target, UPPER, FOREARM, pole);
        // Ball target S = N^-1 q_a^-1 q_b_desired (seed 000: q_b^ = q_a N S).
        let joints = self.world.joints_mut();
        let want = ik.upper_rotation();
        let s = joints[0].neutral.conjugate() * body.rot.conjugate() * want;
        joints[0].motor.target = s.normalise();
        joints[1].motor.angle = ik.bend;
        joints[2].motor.target = Quat::IDENTITY;
    }

    /// One frame: control, then physics.
    pub fn step(&mut self) {
        self.control();
        self.world.step();
    }

    /// Sets every motor's strength to `fraction` of its default.
    pub fn set_strength(&mut self, fraction: Fx1) {
        for (j, s) in self.world.joints_mut().iter_mut().zip(STRENGTH) {
            j.motor.tau_max = s.mul_lower(fraction);
        }
    }
}

/// The goal of both scenarios: 10 m ahead along +x.
pub const GOAL: Vec3 = Vec3::new(fx!(10.0), Fx1::ZERO, Fx1::ZERO);

/// The crawl scenario: upright at the origin, goal 10 m ahead; returns the
/// creature after `frames` frames.
pub fn crawl(frames: u32) -> ArmedMine {
    let mut m = ArmedMine::PLACEHOLDER;
    crawl_in(&mut m, frames);
    m
}

/// [`crawl`] in place, in `m` (the DS runs it in a static); returns the
/// state hash at the end.
pub fn crawl_in(m: &mut ArmedMine, frames: u32) -> u32 {
    m.reset(resting_start(), GOAL);
    for _ in 0..frames {
        m.step();
    }
    m.world.state_hash()
}

/// Frames (1 s) the body must stay upright to count as righted, not
/// tumbling past upright.
pub const STAY_UPRIGHT: u32 = 60;

/// The recovery scenario: upside down at the origin; returns the creature
/// and the first frame of its first [`STAY_UPRIGHT`] frames in a row
/// upright (if any, within `frames`).
pub fn recover(frames: u32) -> (ArmedMine, Option<u32>) {
    let mut m = ArmedMine::PLACEHOLDER;
    let (_, upright_from) = recover_in(&mut m, frames);
    (m, upright_from)
}

/// [`recover`] in place, in `m`; returns the state hash at the end and
/// the first frame of the first upright second.
pub fn recover_in(m: &mut ArmedMine, frames: u32) -> (u32, Option<u32>) {
    m.reset_upside_down(resting_start(), GOAL);
    let upright_from = step_counting_upright(m, frames);
    (m.world.state_hash(), upright_from)
}

/// Steps `m` for `frames` frames; returns the first frame of its first
/// [`STAY_UPRIGHT`] frames in a row upright, if any.
pub fn step_counting_upright(m: &mut ArmedMine, frames: u32) -> Option<u32> {
    let (mut run, mut upright_from) = (0, None);
    for f in 0..frames {
        m.step();
        run = if m.is_upright() { run + 1 } else { 0 };
        if upright_from.is_none() && run == STAY_UPRIGHT {
            upright_from = Some(f + 1 - STAY_UPRIGHT);
        }
    }
    upright_from
}

/// The start position: resting on the ground at the origin.
pub fn resting_start() -> Vec3 {
    Vec3::new(Fx1::ZERO, BODY_HALF.y, Fx1::ZERO)
}

/// State hash of [`crawl`] (for the in-ROM determinism test).
pub fn crawl_hash(frames: u32) -> u32 {
    crawl(frames).world.state_hash()
}

/// State hash of [`recover`] (for the in-ROM determinism test).
pub fn recover_hash(frames: u32) -> u32 {
    recover(frames).0.world.state_hash()
}
