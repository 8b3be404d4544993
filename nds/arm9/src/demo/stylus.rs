//! The stylus on the top screen's picture: the touch screen (bottom) is
//! read as if it lay over the top screen, pixel for pixel. Touching near a
//! particle grabs it: it is pinned (inverse mass 0) and follows the pen at
//! the depth it had when grabbed, and is let go (with the velocity of its
//! last move) when the pen lifts. Touching elsewhere shoots: the particle
//! nearest the touch, within [`SHOOT_RADIUS`], gets a kick away from the
//! camera.
//!
//! Rigid bodies: a tap shoots the box whose centre shows nearest (the
//! same radius and speed; the powered ragdoll's bodies get a fixed
//! strike instead, `scenes::powered::STRIKE`). In the Armed Mine's scene
//! the pen instead puts the creature's goal on the floor under it.

use crate::render::Camera;
use crate::scenes::{Rigid, Sim};
use dsphys::fx;
use dsphys::fx::{Fx1, Vec3};
use dsphys::scenario::ROOM;

/// Grab within this many pixels of a particle's projection.
const GRAB_RADIUS: i32 = 16;
/// Shoot the nearest particle within this many pixels.
const SHOOT_RADIUS: i32 = 48;
/// The shot's change of velocity, m/s.
const SHOT_SPEED: Fx1 = fx!(8.0);

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Grab {
    pub ragdoll: usize,
    pub particle: usize,
    /// Distance in front of the camera at which the particle follows.
    pub depth: Fx1,
}

#[derive(Default)]
pub struct Stylus {
    pub grab: Option<Grab>,
    was_down: bool,
    /// Shots fired since boot.
    pub shots: u32,
}

/// The particle whose projection is nearest (x, y): (ragdoll, particle,
/// squared pixel distance, depth).
fn nearest(sim: &Sim, cam: &Camera, x: i32, y: i32) -> Option<(usize, usize, i32, Fx1)> {
    let mut best: Option<(usize, usize, i32, Fx1)> = None;
    for (ri, r) in sim.ragdolls[..sim.count].iter().enumerate() {
        let Some(r) = r else { continue };
        for (pi, &p) in r.positions().iter().enumerate() {
            let Some(s) = cam.project(p) else { continue };
            let (dx, dy) = (s.x - x, s.y - y);
            let d2 = dx * dx + dy * dy;
            if best.is_none_or(|b| d2 < b.2) {
                best = Some((ri, pi, d2, s.depth));
            }
        }
    }
    best
}

impl Stylus {
    /// Lets go of whatever is held (a scene reset does this first).
    pub fn release(&mut self, sim: &mut Sim) {
        if let Some(g) = self.grab.take() {
            if let Some(Some(r)) = sim.ragdolls.get_mut(g.ragdoll) {
                r.unpin(g.particle);
            }
        }
    }

    /// One frame of the pen: `touch` is the pixel touched, if any.
    pub fn update(&mut self, touch: Option<(i32, i32)>, sim: &mut Sim, cam: &Camera) {
        let down = touch.is_some();
        if sim.rigid == Rigid::Mine {
            if let Some((x, y)) = touch {
                sim.goal = floor_point(cam, x, y).or(sim.goal);
            }
            self.was_down = down;
            return;
        }
        if let (Some((x, y)), false) = (touch, self.was_down) {
            if self.shoot_walker(x, y, sim, cam) || self.shoot_body(x, y, sim, cam) {
                self.was_down = down;
                return;
            }
        }
        match touch {
            Some((x, y)) if !self.was_down => match nearest(sim, cam, x, y) {
                Some((ri, pi, d2, depth)) if d2 <= GRAB_RADIUS * GRAB_RADIUS => {
                    if let Some(r) = sim.ragdolls[ri].as_mut() {
                        r.pin(pi);
                    }
                    self.grab = Some(Grab {
                        ragdoll: ri,
                        particle: pi,
                        depth,
                    });
                    self.follow(x, y, sim, cam);
                }
                Some((ri, pi, d2, _)) if d2 <= SHOOT_RADIUS * SHOOT_RADIUS => {
                    self.shoot(ri, pi, sim, cam);
                }
                _ => {}
            },
            Some((x, y)) => self.follow(x, y, sim, cam),
            None => self.release(sim),
        }
        self.was_down = down;
    }

    fn follow(&self, x: i32, y: i32, sim: &mut Sim, cam: &Camera) {
        if let Some(g) = self.grab {
            if let Some(r) = sim.ragdolls[g.ragdoll].as_mut() {
                r.move_pinned(g.particle, cam.unproject(x, y, g.depth));
            }
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
        for (i, &p) in w.now.iter().enumerate() {
            let Some(s) = cam.project(p) else { continue };
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
    fn shoot_body(&mut self, x: i32, y: i32, sim: &mut Sim, cam: &Camera) -> bool {
        let particle = nearest(sim, cam, x, y).map_or(i32::MAX, |n| n.2);
        let eye = cam.eye();
        let mut best: Option<(usize, i32)> = None;
        for (i, b) in sim.bodies().iter().enumerate() {
            if b.is_static() {
                continue;
            }
            let Some(s) = cam.project(b.position()) else {
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
        let impulse = if powered {
            dir.scale(crate::scenes::powered::STRIKE)
        } else {
            dir.scale(SHOT_SPEED.mul_lower(b.mass))
        };
        b.apply_impulse(Vec3::ZERO, dsphys::rigid::raise(impulse));
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
