//! (d) The animated character: it walks, then runs, then walks, in turns
//! of [`GAIT_TIME`] with a cross-fade, along a circle in the room. A tap
//! of the stylus on it shoots it: it goes limp at once (seed 001: no frame
//! delay) as a Verlet ragdoll whose particles start where the animation
//! put them, with the velocity each had over the last frame (inherited
//! velocity, `dsphys::anim::handover`), plus the shot. From then on the
//! brads turn the ragdoll's particles back into the joint matrices the
//! same skinned mesh is drawn with. X (reset) brings it back on its feet.
//!
//! The clips carry their travel in the root's z; that is taken out of
//! the root and put into the character's placement on the circle at the
//! clip's own speed, so the feet keep the ground as they would in a
//! straight line.

use super::{FrameStats, SceneDef, Sim, ROOM_CAMERA};
use crate::render::GX_SHIFT;
use dsphys::anim::gx_palette::all_local_words;
use dsphys::anim::handover::start_ragdoll;
use dsphys::anim::humanoid::HUMANOID;
use dsphys::anim::humanoid_brads::HUMANOID as BRADS;
use dsphys::anim::{BradTable, Character, Clip, CrossFade, MAX_JOINTS};
use dsphys::fx;
use dsphys::fx::{Angle, Fx1, Mat4x3, Quat, Vec3};
use dsphys::verlet::humanoid::HUMANOID as RAGDOLL;

pub const SCENE: SceneDef = SceneDef {
    letter: 'd',
    name: "animated character",
    pending: None,
    stylus: "stylus: tap the character to shoot it",
    reset,
    update,
    camera: CAMERA,
};

/// The room from the front right, near enough for the circle to fill it.
const CAMERA: crate::render::Camera = crate::render::Camera {
    target: Vec3::new(fx!(0.0), fx!(0.7), fx!(0.0)),
    distance: fx!(4.6),
    ..ROOM_CAMERA
};

/// Seconds per gait before it changes (walk, run, walk, ...).
pub const GAIT_TIME: Fx1 = fx!(3.0);
/// The cross-fade between gaits, seconds.
pub const FADE: Fx1 = fx!(0.5);
/// The circle walked, about the room's centre, m.
pub const RADIUS: Fx1 = fx!(1.2);
/// One frame, seconds.
pub const DT: Fx1 = Fx1::from_raw(4096 / 60);
/// The shot's change of velocity at the particle hit, m/s.
const SHOT_SPEED: Fx1 = fx!(6.0);
/// Brad particles (the ragdoll's).
pub const PARTICLES: usize = 16;

/// The character's state besides its joint buffers.
pub struct Walker {
    /// Scene (d) runs a character.
    pub active: bool,
    /// Limp: a ragdoll (ragdoll 0 of the scene) drives it through the brads.
    pub limp: bool,
    /// Seconds since the reset.
    pub t: Fx1,
    /// Metres walked along the circle.
    pub arc: Fx1,
    pub running: bool,
    /// Since the last change of gait.
    pub fade: CrossFade,
    /// Where the animation put the ragdoll's particles this frame and the
    /// frame before (the hand-over's positions and velocities).
    pub now: [Vec3; PARTICLES],
    pub last: [Vec3; PARTICLES],
    /// Frames posed since the reset.
    pub posed: u32,
    /// A shot from the stylus: the particle hit and the direction.
    pub hit: Option<(usize, Vec3)>,
    /// The local poses as GX words, for the renderer's expand of a limp
    /// walker's joints without a brad: taken once as it goes limp (its
    /// local poses then hold still).
    pub local_words: [[i32; 12]; MAX_JOINTS],
}

impl Walker {
    pub const fn new() -> Self {
        Walker {
            active: false,
            limp: false,
            t: Fx1::ZERO,
            arc: Fx1::ZERO,
            running: false,
            fade: CrossFade {
                duration: FADE,
                elapsed: FADE,
            },
            now: [Vec3::ZERO; PARTICLES],
            last: [Vec3::ZERO; PARTICLES],
            posed: 0,
            hit: None,
            local_words: [[0; 12]; MAX_JOINTS],
        }
    }

    /// The running clip's weight in the blend (0: walking).
    pub fn run_weight(&self) -> Fx1 {
        let w = self.fade.weight();
        if self.running {
            w
        } else {
            Fx1::ONE - w
        }
    }

    /// Advances one frame: time, gait and distance along the circle.
    pub fn advance(&mut self) {
        self.t += DT;
        self.fade.advance(DT);
        if self.t.raw() % GAIT_TIME.raw() < DT.raw() && self.t > DT {
            self.running = !self.running;
            self.fade = CrossFade::new(FADE);
        }
        let w = self.run_weight();
        let speed = speed(&dsphys::anim::humanoid::HUMANOID_WALK)
            + (speed(&dsphys::anim::humanoid::HUMANOID_RUN)
                - speed(&dsphys::anim::humanoid::HUMANOID_WALK))
            .mul_lower(w);
        self.arc += speed.mul_lower(DT);
    }

    /// The character's place: on the circle, facing along it (the clips
    /// walk towards +z).
    pub fn placement(&self) -> Mat4x3 {
        let phi = Angle::from_radians(self.arc.div_fx1(RADIUS));
        let (s, c) = phi.sin_cos();
        let pos = Vec3::new(RADIUS.mul_lower(s), Fx1::ZERO, RADIUS.mul_lower(c));
        // +z turned by phi + 90 degrees is the tangent (cos phi, 0, -sin phi).
        let heading = Angle::from_raw(phi.raw().wrapping_add(0x4000));
        Mat4x3::new(Quat::from_axis_angle(Vec3::Y, heading).to_mat3(), pos)
    }
}

/// A looping clip's speed along its root's travel, m/s.
pub fn speed(clip: &Clip) -> Fx1 {
    let rt = clip.root_trans;
    (rt[rt.len() - 1] - rt[0]).length().div_fx1(clip.duration())
}

fn reset(sim: &mut Sim) {
    sim.walker.active = true;
    sim.walker.limp = false;
    sim.walker.t = Fx1::ZERO;
    sim.walker.arc = Fx1::ZERO;
    sim.walker.running = false;
    sim.walker.fade = CrossFade {
        duration: FADE,
        elapsed: FADE,
    };
    sim.walker.posed = 0;
    sim.walker.hit = None;
    new_character(sim);
}

/// The character in its bind pose: built the first time (4 KiB, out of
/// line so it is on the stack only once), reset in place afterwards.
#[inline(never)]
fn new_character(sim: &mut Sim) {
    match &mut sim.character {
        Some(c) => {
            let n = c.joints();
            c.local[..n].copy_from_slice(HUMANOID.bind_pose);
            c.brads = BradTable::new(&BRADS);
        }
        None => sim.character = Some(Character::new(&HUMANOID, &BRADS, Mat4x3::IDENTITY)),
    }
}

/// A shot from the stylus turns the walker into a ragdoll, before this
/// frame's physics.
fn update(sim: &mut Sim, _: &FrameStats) {
    let w = &mut sim.walker;
    let Some((particle, dir)) = w.hit.take() else {
        return;
    };
    if w.limp || w.posed < 2 {
        return;
    }
    w.limp = true;
    if let Some(c) = &sim.character {
        let n = c.joints();
        all_local_words(&c.local[..n], GX_SHIFT, &mut w.local_words);
    }
    // Copies (a few hundred bytes): `sim` is borrowed whole below.
    let (now, last) = (w.now, w.last);
    sim.add_with(|r| {
        r.rebuild(&RAGDOLL, Vec3::ZERO);
        let n = r.positions().len();
        start_ragdoll(r, &now[..n], &last[..n]);
        let mass = r.particles.masses()[particle];
        r.apply_impulse(particle, dir.scale(SHOT_SPEED.mul_lower(mass)));
    });
}
