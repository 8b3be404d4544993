//! The stylus on the top screen's picture: the touch screen (bottom) is
//! read as if it lay over the top screen, pixel for pixel. Where the pen
//! lands decides what it does, in this order:
//!
//! 1. on the walking character (scene d): a shot, which turns it limp;
//! 2. on a particle (within [`GRAB_RADIUS`] of its projection) or on a
//!    rigid body (the pen's ray through the box, grown by
//!    [`PICK_PIXELS`]): a grab of whichever is nearer the camera. A
//!    particle is pinned (inverse mass 0) and follows the pen at the
//!    depth it had; a body is held at the touched point by the engine's
//!    grab (`dsphys::rigid::grab`, a force-limited "mouse joint" in the
//!    solver), which pulls that point towards the pen's point at the
//!    grab depth, so the body swings and collides on its way. Lifting
//!    the pen lets go: the particle with its last move's velocity, the
//!    body with the velocity it has;
//! 3. in the Armed Mine's scene (f), elsewhere: the floor point under
//!    the pen becomes the creature's goal (while the pen is down);
//! 4. elsewhere: a shot. The box whose centre shows nearest, within
//!    [`SHOOT_RADIUS`] and nearer than any particle, gets a kick away
//!    from the camera (the powered ragdoll's bodies a fixed strike,
//!    `scenes::powered::STRIKE`); else the nearest particle within
//!    [`SHOOT_RADIUS`].

use crate::render::Camera;
use crate::scenes::{Rigid, Sim};
use dsphys::fx;
use dsphys::fx::{Fx1, Vec3};
use dsphys::rigid::Body;
use dsphys::scenario::ROOM;

/// Grab within this many pixels of a particle's projection.
const GRAB_RADIUS: i32 = 16;
/// A box is grabbed when the pen is within this many pixels of it.
const PICK_PIXELS: i32 = 3;
/// Shoot the nearest particle within this many pixels.
const SHOOT_RADIUS: i32 = 48;
/// The shot's change of velocity, m/s.
const SHOT_SPEED: Fx1 = fx!(8.0);
/// The grab's force limit per axis, per kilogram of the scene's dynamic
/// bodies (N/kg): one and a half times their weight, so the pen can lift
/// the whole powered ragdoll by a foot, and a box out of the pile, but
/// a body pinned under a heavier load stays put.
const GRAB_FORCE_PER_KG: Fx1 = fx!(14.7);
/// The size of one pixel at one metre's depth (m): `1 / (96 cot 30)`,
/// equally `1 / (128 * 0.75 cot 30)` across.
const PIXEL_AT_ONE_METRE: Fx1 = fx!(0.0060141);
/// In front of the near plane (m).
const NEAR: Fx1 = fx!(0.1);

/// What the pen holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Held {
    /// A ragdoll's particle.
    Particle { ragdoll: usize, particle: usize },
    /// A rigid body, through its world's grab.
    Body(u8),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Grab {
    pub held: Held,
    /// Distance in front of the camera at which the held point follows.
    pub depth: Fx1,
}

#[derive(Default)]
pub struct Stylus {
    pub grab: Option<Grab>,
    was_down: bool,
    /// Shots fired since boot.
    pub shots: u32,
}

/// A particle by (ragdoll, particle), its squared pixel distance from the
/// pen and its view depth; `None` when no particle shows.
type Nearest = Option<(usize, usize, i32, Fx1)>;

/// The particle whose projection is nearest (x, y).
fn nearest(sim: &Sim, cam: &Camera, x: i32, y: i32) -> Nearest {
    let mut best: Nearest = None;
    let view = cam.view();
    for (ri, r) in sim.ragdolls[..sim.count].iter().enumerate() {
        let Some(r) = r else { continue };
        for (pi, &p) in r.positions().iter().enumerate() {
            let Some(s) = Camera::project_in(&view, p) else {
                continue;
            };
            let (dx, dy) = (s.x - x, s.y - y);
            let d2 = dx * dx + dy * dy;
            if best.is_none_or(|b| d2 < b.2) {
                best = Some((ri, pi, d2, s.depth));
            }
        }
    }
    best
}

/// Where the ray from `eye` along `dir` (a view depth of 1 per unit of
/// `t`) enters body `b` grown by `margin` on every side: its `t`, which
/// is the view depth. The slab test in the body's frame.
fn ray_box(b: &Body, eye: Vec3, dir: Vec3, margin: Fx1) -> Option<Fx1> {
    let o = b.mat.transpose_mul_vec(eye - b.position()).to_array();
    let d = b.mat.transpose_mul_vec(dir).to_array();
    let h = b.half.to_array();
    let (mut t0, mut t1) = (NEAR, fx!(64.0));
    for k in 0..3 {
        let h = h[k] + margin;
        if d[k].raw().abs() < 4 {
            // Parallel to this slab: inside it or never.
            if o[k].abs() > h {
                return None;
            }
            continue;
        }
        let (a, b) = ((-h - o[k]).div_fx1(d[k]), (h - o[k]).div_fx1(d[k]));
        t0 = t0.max(a.min(b));
        t1 = t1.min(a.max(b));
        if t0 > t1 {
            return None;
        }
    }
    Some(t0)
}

/// The dynamic body under pixel (x, y) nearest the camera: (body, the
/// touched point on its surface, its depth).
fn body_under(sim: &Sim, cam: &Camera, x: i32, y: i32) -> Option<(u8, Vec3, Fx1)> {
    let eye = cam.eye();
    let dir = cam.unproject(x, y, Fx1::ONE) - eye;
    let view = cam.view();
    let mut best: Option<(u8, Vec3, Fx1)> = None;
    for (i, b) in sim.bodies().iter().enumerate() {
        if b.is_static() {
            continue;
        }
        let Some(centre) = Camera::project_in(&view, b.position()) else {
            continue;
        };
        let margin = Fx1::from_raw(centre.depth.mul_lower(PIXEL_AT_ONE_METRE).raw() * PICK_PIXELS);
        let Some(t) = ray_box(b, eye, dir, margin) else {
            continue;
        };
        if best.is_some_and(|(_, _, depth)| depth <= t) {
            continue;
        }
        // The entry point, brought onto the box itself (off the margin).
        let hit = eye + dir.scale(t);
        let (local, half) = (b.mat.transpose_mul_vec(hit - b.position()), b.half);
        let local = Vec3::new(
            local.x.clamp(-half.x, half.x),
            local.y.clamp(-half.y, half.y),
            local.z.clamp(-half.z, half.z),
        );
        let point = b.world_point(local).lower();
        let depth = Camera::project_in(&view, point).map_or(t, |s| s.depth);
        best = Some((i as u8, point, depth));
    }
    best
}

impl Stylus {
    /// Lets go of whatever is held (a scene reset does this first).
    pub fn release(&mut self, sim: &mut Sim) {
        match self.grab.take().map(|g| g.held) {
            Some(Held::Particle { ragdoll, particle }) => {
                if let Some(Some(r)) = sim.ragdolls.get_mut(ragdoll) {
                    r.unpin(particle);
                }
            }
            Some(Held::Body(_)) => {
                if let Some(slot) = sim.body_grab_slot() {
                    *slot = None;
                }
            }
            None => {}
        }
    }

    /// One frame of the pen: `touch` is the pixel touched, if any.
    pub fn update(&mut self, touch: Option<(i32, i32)>, sim: &mut Sim, cam: &Camera) {
        match touch {
            None => self.release(sim),
            Some((x, y)) => {
                if !self.was_down {
                    self.touch_down(x, y, sim, cam);
                } else {
                    self.follow(x, y, sim, cam);
                }
                if self.grab.is_none() && sim.rigid == Rigid::Mine {
                    sim.goal = floor_point(cam, x, y).or(sim.goal);
                }
            }
        }
        self.was_down = touch.is_some();
    }

    /// The pen lands at (x, y): shoot the walker, grab what is under the
    /// pen, or shoot near it (the module docs give the order).
    fn touch_down(&mut self, x: i32, y: i32, sim: &mut Sim, cam: &Camera) {
        if self.shoot_walker(x, y, sim, cam) {
            return;
        }
        // The particle nearest the pen, found once for the three uses.
        let near = nearest(sim, cam, x, y);
        if self.grab_under(x, y, near, sim, cam) {
            return;
        }
        if sim.rigid == Rigid::Mine || self.shoot_body(x, y, near, sim, cam) {
            return;
        }
        if let Some((ri, pi, d2, _)) = near {
            if d2 <= SHOOT_RADIUS * SHOOT_RADIUS {
                self.shoot(ri, pi, sim, cam);
            }
        }
    }

    /// Grabs the particle or body under (x, y), whichever is nearer the
    /// camera; false when there is none.
    fn grab_under(&mut self, x: i32, y: i32, near: Nearest, sim: &mut Sim, cam: &Camera) -> bool {
        let particle = near.filter(|n| n.2 <= GRAB_RADIUS * GRAB_RADIUS);
        let body = body_under(sim, cam, x, y);
        match (particle, body) {
            (Some((ri, pi, _, depth)), b) if b.is_none_or(|b| depth <= b.2) => {
                if let Some(r) = sim.ragdolls[ri].as_mut() {
                    r.pin(pi);
                }
                self.grab = Some(Grab {
                    held: Held::Particle {
                        ragdoll: ri,
                        particle: pi,
                    },
                    depth,
                });
                self.follow(x, y, sim, cam);
                true
            }
            (_, Some((i, point, depth))) => {
                let bodies = sim.bodies().iter().filter(|b| !b.is_static());
                let mass = bodies.fold(Fx1::ZERO, |a, b| a + b.mass);
                if !sim.grab_body(i, point, mass.mul_lower(GRAB_FORCE_PER_KG)) {
                    return false;
                }
                self.grab = Some(Grab {
                    held: Held::Body(i),
                    depth,
                });
                true
            }
            _ => false,
        }
    }

    /// Moves the held particle, or the held body's target, to the pen.
    fn follow(&self, x: i32, y: i32, sim: &mut Sim, cam: &Camera) {
        let Some(g) = self.grab else { return };
        let p = cam.unproject(x, y, g.depth);
        match g.held {
            Held::Particle { ragdoll, particle } => {
                if let Some(r) = sim.ragdolls[ragdoll].as_mut() {
                    r.move_pinned(particle, p);
                }
            }
            Held::Body(_) => {
                if let Some(Some(grab)) = sim.body_grab_slot() {
                    grab.target = p;
                }
            }
        }
    }

    /// The world point held, if any (for the marker and the mailbox).
    pub fn held_point(&self, sim: &Sim) -> Option<Vec3> {
        match self.grab?.held {
            Held::Particle { ragdoll, particle } => {
                Some(sim.ragdolls[ragdoll].as_ref()?.positions()[particle])
            }
            Held::Body(_) => Some(sim.body_grab()?.anchor_world(sim.bodies()).lower()),
        }
    }

    /// Shoots the walking character (scene d) at the particle target
    /// whose projection is nearest (x, y): the scene turns it limp.
    fn shoot_walker(&mut self, x: i32, y: i32, sim: &mut Sim, cam: &Camera) -> bool {
        let w = &mut sim.walker;
        if !w.active || w.limp {
            return false;
        }
        let mut best: Option<(usize, i32)> = None;
        let view = cam.view();
        for (i, &p) in w.now.iter().enumerate() {
            let Some(s) = Camera::project_in(&view, p) else {
                continue;
            };
            let d2 = (s.x - x).pow(2) + (s.y - y).pow(2);
            if d2 <= SHOOT_RADIUS * SHOOT_RADIUS && best.is_none_or(|b| d2 < b.1) {
                best = Some((i, d2));
            }
        }
        let Some((i, _)) = best else {
            return false;
        };
        let Some(dir) = (w.now[i] - cam.eye()).try_normalise() else {
            return false;
        };
        w.hit = Some((i, dir));
        self.shots += 1;
        true
    }

    /// Shoots the dynamic body whose centre shows nearest (x, y), if one
    /// is within [`SHOOT_RADIUS`] and nearer than any particle.
    fn shoot_body(&mut self, x: i32, y: i32, near: Nearest, sim: &mut Sim, cam: &Camera) -> bool {
        let particle = near.map_or(i32::MAX, |n| n.2);
        let eye = cam.eye();
        let view = cam.view();
        let mut best: Option<(usize, i32)> = None;
        for (i, b) in sim.bodies().iter().enumerate() {
            if b.is_static() {
                continue;
            }
            let Some(s) = Camera::project_in(&view, b.position()) else {
                continue;
            };
            let d2 = (s.x - x).pow(2) + (s.y - y).pow(2);
            if d2 <= SHOOT_RADIUS * SHOOT_RADIUS && d2 < particle && best.is_none_or(|b| d2 < b.1) {
                best = Some((i, d2));
            }
        }
        let Some((i, _)) = best else {
            return false;
        };
        let powered = sim.rigid == Rigid::Powered;
        let b = &mut sim.bodies_mut()[i];
        let Some(dir) = (b.position() - eye).try_normalise() else {
            return false;
        };
        if powered {
            // Through the character: a strike unfolds a folded figure.
            let (at, impulse) = (b.position(), dir.scale(crate::scenes::powered::STRIKE));
            sim.powered.apply_impulse(i as u8, at, impulse);
        } else {
            let impulse = dir.scale(SHOT_SPEED.mul_lower(b.mass));
            b.apply_impulse(Vec3::ZERO, dsphys::rigid::raise(impulse));
        }
        self.shots += 1;
        true
    }

    fn shoot(&mut self, ri: usize, pi: usize, sim: &mut Sim, cam: &Camera) {
        let Some(r) = sim.ragdolls[ri].as_mut() else {
            return;
        };
        // Away from the eye, towards the particle: the shot's direction.
        let Some(dir) = (r.positions()[pi] - cam.eye()).try_normalise() else {
            return;
        };
        let mass = r.particles.masses()[pi];
        let impulse: Vec3 = dir.scale(SHOT_SPEED.mul_lower(mass));
        r.apply_impulse(pi, impulse);
        self.shots += 1;
    }
}

/// The floor point (y = 0) under pixel (x, y), kept inside the room;
/// `None` when the pixel shows sky above the horizon.
fn floor_point(cam: &Camera, x: i32, y: i32) -> Option<Vec3> {
    let eye = cam.eye();
    let ray = cam.unproject(x, y, Fx1::ONE) - eye;
    if ray.y >= Fx1::ZERO || eye.y <= Fx1::ZERO {
        return None;
    }
    // eye + t ray reaches y = 0 at t = eye.y / -ray.y; beyond 64 m the
    // ray is too shallow to matter.
    let t = eye.y.div_fx1(-ray.y).min(fx!(64.0));
    let p = eye + ray.scale(t);
    let (lo, hi) = (ROOM.min, ROOM.max);
    Some(Vec3::new(
        p.x.clamp(lo.x, hi.x),
        Fx1::ZERO,
        p.z.clamp(lo.z, hi.z),
    ))
}
