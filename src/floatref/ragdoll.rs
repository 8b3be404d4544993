//! The twin itself: particles, links and one frame, all `f32`.

use super::math::{FloatMath, Libm, V3};
use crate::fx::{Fx1, Vec3};
use crate::verlet::{BoxRoom, Gravity, Ragdoll, Settings, STEPS_PER_SECOND};

/// FX1 (20.12) to `f32`: exact below 2^11 m.
fn f(x: Fx1) -> f32 {
    x.raw() as f32 / 4096.0
}

fn v3(v: Vec3) -> V3 {
    V3(v.to_array().map(f))
}

/// The per-frame values of [`Settings`] (one substep, gravity down).
#[derive(Clone, Copy, Debug)]
pub struct FloatSettings {
    /// `g dt^2` (m).
    pub g_dt2: f32,
    /// Velocity kept per frame.
    pub damping: f32,
    /// Largest move per frame (m) and its square.
    pub max_disp: f32,
    max_disp2: f32,
    /// Relaxation passes before and after collision.
    pub iterations: u32,
    pub post_collision_iterations: u32,
}

impl FloatSettings {
    /// The float form of `s`.
    ///
    /// # Panics
    /// With substeps or gravity towards a point (the twin has neither).
    pub fn new(s: &Settings) -> Self {
        assert!(s.substeps <= 1, "floatref: one substep only");
        assert!(s.gravity == Gravity::Down, "floatref: gravity down only");
        let rate = STEPS_PER_SECOND as f32;
        let max_disp = f(s.max_speed) / rate;
        FloatSettings {
            g_dt2: f(s.gravity_strength) / (rate * rate),
            damping: f(s.damping).clamp(0.0, 1.0),
            max_disp,
            max_disp2: max_disp * max_disp,
            iterations: s.iterations as u32,
            post_collision_iterations: s.post_collision_iterations as u32,
        }
    }
}

/// [`BoxRoom`] in `f32`.
#[derive(Clone, Copy, Debug)]
pub struct FloatRoom {
    min: [f32; 3],
    max: [f32; 3],
    keep: f32,
}

impl FloatRoom {
    /// The float form of `room`.
    pub fn new(room: &BoxRoom) -> Self {
        FloatRoom {
            min: v3(room.min).0,
            max: v3(room.max).0,
            keep: 1.0 - f(room.friction),
        }
    }

    /// [`BoxRoom::collide`]: back inside, no velocity into a wall,
    /// friction along it.
    #[inline]
    fn collide(&self, prev: &mut V3, cur: &mut V3, radius: f32) {
        let (c, p) = (&mut cur.0, &mut prev.0);
        for axis in 0..3 {
            let target = if c[axis] < self.min[axis] + radius {
                self.min[axis] + radius
            } else if c[axis] > self.max[axis] - radius {
                self.max[axis] - radius
            } else {
                continue;
            };
            c[axis] = target;
            p[axis] = target;
            for t in [(axis + 1) % 3, (axis + 2) % 3] {
                p[t] = c[t] - (c[t] - p[t]) * self.keep;
            }
        }
    }
}

/// One distance constraint, as the fixed [`Link`](crate::verlet::Link)
/// keeps it: squared bounds, the approximation's windows and factors,
/// the mass split.
#[derive(Clone, Copy, Debug, Default)]
struct FLink {
    a: u8,
    b: u8,
    min: f32,
    max: f32,
    min2: f32,
    max2: f32,
    min2_lo: f32,
    max2_hi: f32,
    inv_2min2: f32,
    inv_2max2: f32,
    ratio_a: f32,
}

/// The approximation serves target lengths in `[1/64, 2]` m, as the
/// fixed one does (`constraints::inv_2t2`).
fn approx_factor(t: f32) -> Option<f32> {
    (1.0 / 64.0..=2.0).contains(&t).then(|| 1.0 / (2.0 * t * t))
}

impl FLink {
    fn new(a: u8, b: u8, min: f32, max: f32, w: &[f32], window: f32) -> Option<FLink> {
        let (wa, wb) = (w[a as usize], w[b as usize]);
        if wa + wb <= 0.0 {
            return None; // both pinned: never moves
        }
        let mut l = FLink {
            a,
            b,
            min,
            max,
            min2: min * min,
            max2: if max.is_finite() {
                max * max
            } else {
                f32::INFINITY
            },
            min2_lo: f32::INFINITY,
            max2_hi: f32::NEG_INFINITY,
            ratio_a: wa / (wa + wb),
            ..FLink::default()
        };
        if let Some(k) = approx_factor(min) {
            l.inv_2min2 = k;
            l.min2_lo = l.min2 - l.min2 * window;
        }
        if let Some(k) = approx_factor(max) {
            l.inv_2max2 = k;
            l.max2_hi = l.max2 + l.max2 * window;
        }
        Some(l)
    }

    /// One projection (see `verlet::constraints`), square roots from `M`.
    #[inline]
    fn project<M: FloatMath>(&self, x: &mut [V3]) {
        let (ia, ib) = (self.a as usize, self.b as usize);
        let delta = x[ib] - x[ia];
        let d2 = delta.length_squared();
        let frac = if d2 > self.max2 {
            if d2 > self.max2_hi {
                let len = M::sqrt(d2);
                (len - self.max) / len
            } else {
                (d2 - self.max2) * self.inv_2max2
            }
        } else if d2 < self.min2 {
            if d2 < self.min2_lo {
                let len = M::sqrt(d2);
                if len == 0.0 {
                    return;
                }
                (len - self.min) / len
            } else {
                (d2 - self.min2) * self.inv_2min2
            }
        } else {
            return;
        };
        let corr = delta * frac;
        let corr_a = corr * self.ratio_a;
        x[ia] += corr_a;
        x[ib] -= corr - corr_a;
    }
}

/// A ragdoll in `f32`: up to 16 particles and 40 constraints, like the
/// default [`Ragdoll`].
#[derive(Clone, Debug)]
pub struct FloatRagdoll {
    len: usize,
    cur: [V3; 16],
    prev: [V3; 16],
    inv_mass: [f32; 16],
    radius: [f32; 16],
    /// The constraints that still constrain in `f32` (at most the fixed
    /// ragdoll's 40).
    links: heapless::Vec<FLink, 40>,
}

impl FloatRagdoll {
    /// A copy of `r`'s state (positions, velocities, masses, radii,
    /// constraints) in `f32`.
    pub fn from_ragdoll(r: &Ragdoll) -> Self {
        let p = &r.particles;
        let mut out = FloatRagdoll {
            len: p.len(),
            cur: [V3::ZERO; 16],
            prev: [V3::ZERO; 16],
            inv_mass: [0.0; 16],
            radius: [0.0; 16],
            links: heapless::Vec::new(),
        };
        for i in 0..p.len() {
            out.cur[i] = v3(p.positions()[i]);
            out.prev[i] = v3(p.prev_positions()[i]);
            out.inv_mass[i] = f(p.inv_masses()[i]);
            out.radius[i] = f(p.radii()[i]);
        }
        let window = f(r.constraints.window());
        for l in r.constraints.links() {
            let max = if l.max == Fx1::MAX {
                f32::INFINITY
            } else {
                f(l.max)
            };
            if let Some(fl) = FLink::new(l.a, l.b, f(l.min), max, &out.inv_mass, window) {
                // A Ragdoll holds at most 40 constraints.
                let _ = out.links.push(fl);
            }
        }
        out
    }

    /// Current positions (m).
    pub fn positions(&self) -> &[V3] {
        &self.cur[..self.len]
    }

    /// One frame: integrate, relax, collide with `room`, relax, cap the
    /// speed ([`Ragdoll::step_with`] with one substep); square roots from
    /// [`Libm`].
    pub fn step(&mut self, s: &FloatSettings, room: &FloatRoom) {
        self.step_with::<Libm>(s, room);
    }

    /// [`FloatRagdoll::step`] with the square roots of library `M`.
    #[inline(never)]
    pub fn step_with<M: FloatMath>(&mut self, s: &FloatSettings, room: &FloatRoom) {
        self.integrate::<M>(s);
        self.relax::<M>(s.iterations);
        for i in 0..self.len {
            if self.inv_mass[i] != 0.0 {
                room.collide(&mut self.prev[i], &mut self.cur[i], self.radius[i]);
            }
        }
        self.relax::<M>(s.post_collision_iterations);
        self.clamp_velocities::<M>(s);
    }

    fn integrate<M: FloatMath>(&mut self, s: &FloatSettings) {
        let gravity = V3([0.0, -s.g_dt2, 0.0]);
        for i in 0..self.len {
            if self.inv_mass[i] == 0.0 {
                continue;
            }
            let x = self.cur[i];
            let mut disp = (x - self.prev[i]) * s.damping + gravity;
            let d2 = disp.length_squared();
            if d2 > s.max_disp2 {
                disp = disp * (s.max_disp / M::sqrt(d2));
            }
            self.prev[i] = x;
            self.cur[i] = x + disp;
        }
    }

    fn relax<M: FloatMath>(&mut self, iterations: u32) {
        let x = &mut self.cur[..self.len];
        for _ in 0..iterations {
            for l in &self.links {
                l.project::<M>(x);
            }
        }
    }

    fn clamp_velocities<M: FloatMath>(&mut self, s: &FloatSettings) {
        for i in 0..self.len {
            let d = self.cur[i] - self.prev[i];
            let d2 = d.length_squared();
            if d2 > s.max_disp2 {
                self.prev[i] = self.cur[i] - d * (s.max_disp / M::sqrt(d2));
            }
        }
    }
}
