//! A rigid box: mass, inertia, pose and velocities, and the world-space
//! data derived from the pose once per step (rotation matrix and inverse
//! inertia tensor).

use crate::divsqrt::div_auto;
use crate::fx::power::{round_shr, saturate_i32};
use crate::fx::{Fx1, Fx2, Fx3, Mat3, Quat, Vec3};

use super::raise;
use super::sleep::SLEEP_FRAMES;

/// The index that stands for the static world in rows and joints.
pub const STATIC: u8 = u8::MAX;

/// A box-shaped rigid body. Dynamic state is FX2 (see [`super`] for the
/// ranges); `inv_mass == 0` makes it static or kinematic.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
// In C order, what the contact tests read of a body first and together
// (pose, frame, extents, bounds), then what the solver's preparation
// reads (flags, world inverse inertia): a woken pile's 31 bodies (7 KB)
// do not fit the 4 KB data cache, and the pair loop read each body's
// fields from five lines. `make insn-count`, DeSmuME model: boxes -1.1 %,
// pyramid -0.3 %, motorfull +0.4 % a step.
#[repr(C)]
pub struct Body {
    /// Centre of mass, m.
    pub pos: Vec3<Fx2>,
    /// Derived: the rotation matrix of `rot`.
    pub mat: Mat3,
    /// Half extents of the box, m.
    pub half: Vec3,
    /// Derived: half extents of the world-axis bounding box about `pos`,
    /// `sum_m |mat[k][m]| half_m`, rounded up (the contact broad phase).
    pub bound: Vec3,
    /// Derived: the bounding sphere's radius, `|half|` (contact and wake
    /// tests; a square root each, once a step instead of once a pair).
    pub radius: Fx1,
    /// 1 / mass; 0 for a static body.
    pub inv_mass: Fx1,
    /// Steps it has rested; asleep from [`SLEEP_FRAMES`] on (only in
    /// worlds with sleeping on, [`super::sleep`]).
    pub rest: u8,
    /// Bodies with the same non-zero group do not collide with each other.
    pub group: u8,
    /// Derived: equal principal moments (a cube), so that the world
    /// inverse inertia is `inv_inertia.x` times the identity whatever the
    /// orientation, and the solver's `I^-1 r` is one product a component.
    pub isotropic: bool,
    /// Coulomb friction coefficient.
    pub friction: Fx1,
    /// Derived: `mat * diag(inv_inertia) * mat^T`.
    pub inv_inertia_world: Mat3,
    /// Linear velocity, m/s.
    pub vel: Vec3<Fx2>,
    /// Angular velocity in world axes, rad/s.
    pub spin: Vec3<Fx2>,
    /// Orientation (body to world).
    pub rot: Quat,
    /// Inverse principal moments, 1/(kg m^2), in body axes.
    pub inv_inertia: Vec3,
    /// Principal moments of inertia, kg m^2, in FX2 (a hand's 1e-4 is
    /// 0.4 FX1 steps, 1700 FX2 steps).
    pub inertia: Vec3<Fx2>,
    /// Mass, kg (for reports and energy; the solver uses `inv_mass`).
    pub mass: Fx1,
}

impl Body {
    /// A static unit box at the origin: fills fixed arrays before the real
    /// bodies are added (a `const`, so that a world can be built in a
    /// static rather than on the small DS stack).
    pub const PLACEHOLDER: Body = Body {
        pos: Vec3::new(Fx2::ZERO, Fx2::ZERO, Fx2::ZERO),
        rot: Quat::IDENTITY,
        vel: Vec3::new(Fx2::ZERO, Fx2::ZERO, Fx2::ZERO),
        spin: Vec3::new(Fx2::ZERO, Fx2::ZERO, Fx2::ZERO),
        half: Vec3::new(Fx1::ONE, Fx1::ONE, Fx1::ONE),
        mass: Fx1::ZERO,
        inv_mass: Fx1::ZERO,
        inertia: Vec3::new(Fx2::ZERO, Fx2::ZERO, Fx2::ZERO),
        inv_inertia: Vec3::ZERO,
        friction: crate::fx!(0.6),
        group: 0,
        rest: 0,
        isotropic: false,
        mat: Mat3::IDENTITY,
        inv_inertia_world: Mat3::from_cols(Vec3::ZERO, Vec3::ZERO, Vec3::ZERO),
        bound: Vec3::new(Fx1::ONE, Fx1::ONE, Fx1::ONE),
        // |(1, 1, 1)| as `Vec3::length` gives it (sqrt(3), floored).
        radius: Fx1::from_raw(7094),
    };

    /// A solid box of `mass` kg (0: static) with half extents `half`,
    /// at rest at `pos` with orientation `rot`. Mass is clamped to
    /// `[0.05, 1000]` kg; the inverse inertia saturates at the FX1 maximum.
    pub fn new_box(half: Vec3, mass: Fx1, pos: Vec3, rot: Quat) -> Body {
        let (mass, inv_mass, inertia, inv_inertia) = if mass <= Fx1::ZERO {
            (Fx1::ZERO, Fx1::ZERO, Vec3::<Fx2>::default(), Vec3::ZERO)
        } else {
            let mass = mass.clamp(Fx1::from_raw(205), Fx1::from_int(1000));
            let [x, y, z] = half.to_array().map(|h| h * h);
            // I = m (b^2 + c^2) / 3 for half extents b, c (FX3, exact).
            let moments = [y + z, x + z, x + y].map(|s| mass * s);
            let inertia = moments.map(|m| Fx2::from_raw(div_auto(m.raw(), 3 << 12)));
            let inv = moments.map(inv_moment);
            (
                mass,
                Fx1::ONE.div_fx1(mass),
                Vec3::from_array(inertia),
                Vec3::from_array(inv),
            )
        };
        let mut b = Body {
            pos: raise(pos),
            rot,
            vel: Vec3::default(),
            spin: Vec3::default(),
            half,
            mass,
            inv_mass,
            inertia,
            inv_inertia,
            friction: crate::fx!(0.6),
            group: 0,
            rest: 0,
            isotropic: false,
            mat: Mat3::IDENTITY,
            inv_inertia_world: Mat3::default(),
            bound: Vec3::ZERO,
            radius: Fx1::ZERO,
        };
        b.update_derived();
        b
    }

    /// True for a body that no impulse moves.
    #[inline]
    pub fn is_static(&self) -> bool {
        self.inv_mass == Fx1::ZERO
    }

    /// True for a sleeping body ([`super::sleep`]): static to the solver
    /// until something wakes it.
    #[inline]
    pub fn is_asleep(&self) -> bool {
        self.rest >= SLEEP_FRAMES
    }

    /// The centre of mass in FX1.
    #[inline]
    pub fn position(&self) -> Vec3 {
        self.pos.lower()
    }

    /// Recomputes the rotation matrix and world inverse inertia from the
    /// pose. Each entry of the tensor is a sum of three exact FX3 terms
    /// rounded once (error 0.5 step plus the matrix's rounding); with
    /// equal moments it is the moment times the identity, exactly (what
    /// `R D R^T` is for an orthonormal `R`, without the rounding of `R`).
    #[inline(never)]
    pub fn update_derived(&mut self) {
        self.radius = self.half.length();
        let d = self.inv_inertia.to_array();
        self.isotropic = d[0] == d[1] && d[1] == d[2];
        self.update_turned(true);
    }

    /// [`Body::update_derived`] after a change of pose alone (the
    /// extents and the moments as they were): the radius and the
    /// isotropy stay, and an isotropic body's world inverse inertia too.
    /// The radius was a square root a body a step in the box scenes.
    #[inline(never)]
    pub fn update_pose(&mut self) {
        self.update_turned(false);
    }

    /// The derived data that turns with the body; with `moments`, the
    /// world inverse inertia also when it does not.
    #[inline(always)]
    fn update_turned(&mut self, moments: bool) {
        self.mat = self.rot.to_mat3();
        let d = self.inv_inertia.to_array();
        let bound = self.world_bound();
        self.bound = bound;
        if self.isotropic {
            if !moments {
                return;
            }
            let z = Fx1::ZERO;
            self.inv_inertia_world = Mat3::from_cols(
                Vec3::new(d[0], z, z),
                Vec3::new(z, d[0], z),
                Vec3::new(z, z, d[0]),
            );
            return;
        }
        let m = &self.mat;
        // `m_ik m_jk` (Q24, at most 2^24) is exact in an `i32`, so each
        // term is one 32 x 32 multiply-accumulate: the same sum as the
        // FX products, whose `i64 x i64` multiplies made this a third of
        // the body's update (`make insn-mix INSN_FN=update_derived`).
        let entry = |i: usize, j: usize| -> Fx1 {
            let mut s = 0i64;
            for (k, dk) in d.iter().enumerate() {
                let mm = m.at(i, k).raw() * m.at(j, k).raw();
                s += mm as i64 * dk.raw() as i64;
            }
            Fx3::from_raw(s).lower_to_fx1()
        };
        let (a, b, c) = (entry(0, 0), entry(1, 1), entry(2, 2));
        let (ab, ac, bc) = (entry(0, 1), entry(0, 2), entry(1, 2));
        self.inv_inertia_world = Mat3::from_cols(
            Vec3::new(a, ab, ac),
            Vec3::new(ab, b, bc),
            Vec3::new(ac, bc, c),
        );
    }

    /// Half extents of the world-axis bounding box (see `bound`).
    fn world_bound(&self) -> Vec3 {
        let h = self.half.to_array();
        let bound = |k: usize| -> Fx1 {
            let mut s = Fx2::ZERO;
            for (m, hm) in h.iter().enumerate() {
                s += self.mat.at(k, m).abs() * *hm;
            }
            // Rounded up: the box lies inside whatever the test compares.
            Fx1::from_raw(saturate_i32((s.raw() + 0xfff) >> 12))
        };
        Vec3::new(bound(0), bound(1), bound(2))
    }

    /// A world-space point of the body, from body-local coordinates.
    #[inline]
    pub fn world_point(&self, local: Vec3) -> Vec3<Fx2> {
        self.pos + self.mat.mul_vec_exact(local)
    }

    /// A world-space direction from a body-local one (FX1).
    #[inline]
    pub fn world_dir(&self, local: Vec3) -> Vec3 {
        self.mat.mul_vec(local)
    }

    /// The velocity of the body's material point at world lever `r`
    /// (from the centre of mass).
    #[inline]
    pub fn point_velocity(&self, r: Vec3) -> Vec3<Fx2> {
        self.vel + cross_fx2(self.spin, r)
    }

    /// Applies a linear impulse (N s) at world lever `r` from the centre.
    pub fn apply_impulse(&mut self, r: Vec3, impulse: Vec3<Fx2>) {
        if self.is_static() {
            return;
        }
        // Wakes it, and counts as moving (it wakes its neighbours).
        self.rest = 0;
        self.vel += (impulse * self.inv_mass).lower();
        self.apply_angular_impulse(cross_fx2(impulse, r).map(|c| -c));
    }

    /// Applies an angular impulse (N m s) in world axes.
    pub fn apply_angular_impulse(&mut self, l: Vec3<Fx2>) {
        if self.is_static() {
            return;
        }
        self.spin += mul_mat_fx2(&self.inv_inertia_world, l).lower();
    }

    /// Kinetic energy in joules, for tests and reports (uses floats).
    pub fn kinetic_energy_f64(&self) -> f64 {
        let v = self.vel.map(|c| c.to_f64());
        let lin = 0.5 * self.mass.to_f64() * (v.x * v.x + v.y * v.y + v.z * v.z);
        // Angular: 0.5 w_body . I w_body, with w in body axes.
        let wb = self.mat.transpose().mul_vec(self.spin.lower());
        let w = wb.map(|c| c.to_f64());
        let i = self.inertia.map(|c| c.to_f64());
        lin + 0.5 * (i.x * w.x * w.x + i.y * w.y * w.y + i.z * w.z * w.z)
    }
}

/// `3 / moment` as FX1 for a moment given as `mass * (b^2 + c^2)` in FX3:
/// `1/I = 3 / moment`, raw `3 * 2^48 / moment_raw`, saturating.
fn inv_moment(moment: Fx3) -> Fx1 {
    if moment.raw() <= 0 {
        return Fx1::MAX;
    }
    Fx1::from_raw(saturate_i32(div_auto(3i64 << 48, moment.raw())))
}

/// `a x r` for an FX2 vector and an FX1 lever, rounded to FX2.
#[inline]
pub fn cross_fx2(a: Vec3<Fx2>, r: Vec3) -> Vec3<Fx2> {
    a.cross(r).lower()
}

/// `m * v` for an FX1 matrix and an FX2 vector, exact in FX3.
#[inline]
pub fn mul_mat_fx2(m: &Mat3, v: Vec3<Fx2>) -> Vec3<Fx3> {
    let [a, b, c] = m.cols;
    a * v.x + b * v.y + c * v.z
}

/// Rounds an FX2 value to FX1 raw with a plain shift (for hashing only).
#[inline]
pub fn fx2_to_raw1(x: Fx2) -> i32 {
    saturate_i32(round_shr(x.raw(), 12))
}
