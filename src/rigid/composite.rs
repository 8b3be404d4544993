//! A composite rigid body: a set of bodies that move as one, summed into
//! a single body for the solver (seed 002's physics level of detail: the
//! kinematic DOF are known, only the root's 6 are solved).
//!
//! The sum is exact up to one rounding per product: the mass, the centre
//! of mass, the momentum and angular momentum about the centre, and the
//! inertia tensor about the centre (each member's `R I R^T` plus the
//! parallel-axis term), which is then inverted for the solver.
//!
//! # Ranges
//! | value | kept | why it fits |
//! |---|---|---|
//! | member mass | 0.05 - 1000 kg ([`Body::new_box`] clamps) | - |
//! | member offset from the centre | below [`MAX_REACH`] | else [`composite`] refuses |
//! | member inertia | below 256 kg m^2 | else refused: its spin product stays in `i64` |
//! | inertia entries | below 2^31 kg m^2 (Q24 in `i64`) | 1000 kg x 16 m^2 per member |
//! | cofactors, determinant | `i64`, the entries first scaled below 2^19 raw | 2^39, 2^60 |
//!
//! A composite whose inertia is singular (a single point mass) is refused.

use crate::fx::power::{round_shr, saturate_i32};
use crate::fx::{Fx1, Fx2, Fx3, Mat3, Vec3};

use super::body::{cross_fx2, mul_mat_fx2, Body};

/// The farthest a member's centre may lie from the composite's (m).
pub const MAX_REACH: Fx1 = Fx1::from_int(4);

/// One member's world inertia tensor `R diag(I) R^T`, entries in Q24
/// (xx, yy, zz, xy, xz, yz).
fn member_inertia(b: &Body) -> [i64; 6] {
    let d = b.inertia.to_array().map(|c| c.raw());
    let m = &b.mat;
    let entry = |i: usize, j: usize| -> i64 {
        let mut s = 0i64;
        for (k, dk) in d.iter().enumerate() {
            // Q12 x Q12 -> Q24, x Q24 >> 24 -> Q24: below 2^44.
            let rr = m.at(i, k).raw() as i64 * m.at(j, k).raw() as i64;
            s += round_shr(rr * *dk, 24);
        }
        s
    };
    [
        entry(0, 0),
        entry(1, 1),
        entry(2, 2),
        entry(0, 1),
        entry(0, 2),
        entry(1, 2),
    ]
}

/// The inverse of the symmetric tensor `t` (Q24: xx, yy, zz, xy, xz, yz)
/// in FX1, or `None` when it is singular.
pub fn invert_symmetric(t: [i64; 6]) -> Option<Mat3> {
    // Scale the entries below 2^19 raw: cofactors below 2^39, the
    // determinant's three products below 2^58 each. The inverse is scaled
    // back at the end.
    let largest = t.iter().map(|x| x.unsigned_abs()).max().unwrap_or(0);
    let mut scale = 0u32;
    while largest >> scale >= 1 << 19 {
        scale += 1;
    }
    if scale > 36 {
        return None;
    }
    let [a, b, c, d, e, f] = t.map(|x| x >> scale);
    // Cofactors of [[a d e] [d b f] [e f c]], products of two entries.
    let ca = b * c - f * f;
    let cb = a * c - e * e;
    let cc = a * b - d * d;
    let cd = e * f - d * c;
    let ce = d * f - b * e;
    let cf = d * e - a * f;
    let det = a * ca + d * cd + e * ce;
    if det <= 0 {
        return None;
    }
    // inverse (FX1) = cof / det x 2^(24 - scale) x 2^12: entries in units
    // of 2^-(24-scale); cof / det is in 2^(24 - scale) per raw unit.
    // Divide with as many fraction bits as the cofactor leaves room for.
    let cof_max = [ca, cb, cc, cd, ce, cf]
        .iter()
        .map(|x| x.unsigned_abs())
        .max()
        .unwrap_or(0);
    // The tensor is the scaled entries times u = 2^(scale - 24); cofactors
    // scale as u^2 and the determinant as u^3, so the inverse in FX1 is
    // cof / det x 2^(36 - scale).
    let want = 36 - scale as i32;
    let room = (cof_max.leading_zeros() as i32 - 2).clamp(0, want);
    let det_shift = want - room;
    let det_scaled = det >> det_shift;
    if det_scaled == 0 {
        return None;
    }
    let inv = |cof: i64| Fx1::from_raw(saturate_i32(divsqrt::div_auto(cof << room, det_scaled)));
    let (ia, ib, ic, id, ie, iff) = (inv(ca), inv(cb), inv(cc), inv(cd), inv(ce), inv(cf));
    Some(Mat3::from_cols(
        Vec3::new(ia, id, ie),
        Vec3::new(id, ib, iff),
        Vec3::new(ie, iff, ic),
    ))
}

/// The bodies of `members` (a bit per index) as one body: its mass,
/// centre, velocity, spin and world inverse inertia. `None` when the set
/// is empty, holds a static body, reaches beyond [`MAX_REACH`] or has a
/// singular inertia. With `motion` (velocity, spin) given, the members'
/// momenta are not summed: the composite moves as given (a composite
/// that already moved as one last step).
pub fn composite(
    bodies: &[Body],
    members: u32,
    motion: Option<(Vec3<Fx2>, Vec3<Fx2>)>,
) -> Option<Body> {
    let set = || {
        bodies
            .iter()
            .enumerate()
            .filter(move |(i, _)| members & (1 << i) != 0)
            .map(|(_, b)| b)
    };
    let mut mass = Fx1::ZERO;
    let mut moment = Vec3::<Fx3>::default();
    let mut momentum = Vec3::<Fx3>::default();
    for b in set() {
        if b.is_static() {
            return None;
        }
        mass += b.mass;
        moment += b.pos * b.mass;
        if motion.is_none() {
            momentum += b.vel * b.mass;
        }
    }
    if mass <= Fx1::ZERO {
        return None;
    }
    let centre: Vec3<Fx2> = moment.map(|c| c / mass);
    let vel: Vec3<Fx2> = momentum.map(|c| c / mass);
    let mut tensor = [0i64; 6];
    // Own spin products below: Q24 inertia x Q24 spin must stay in i64.
    if set().any(|b| b.inertia.to_array().iter().any(|c| c.raw() >= 1 << 32)) {
        return None;
    }
    let mut spin_momentum = Vec3::<Fx3>::default();
    for b in set() {
        let d = (b.pos - centre).lower();
        if d.to_array().iter().any(|c| c.abs() > MAX_REACH) {
            return None;
        }
        let t = member_inertia(b);
        // Parallel axis: m (|d|^2 E - d d^T), Q12 x Q24 -> Q36 -> Q24.
        let dd = |i: Fx1, j: Fx1| -> Fx2 { i * j };
        let [x, y, z] = d.to_array();
        let m = b.mass;
        let pa = |p: Fx2| round_shr((p * m).raw(), 12);
        tensor[0] += t[0] + pa(dd(y, y) + dd(z, z));
        tensor[1] += t[1] + pa(dd(x, x) + dd(z, z));
        tensor[2] += t[2] + pa(dd(x, x) + dd(y, y));
        tensor[3] += t[3] - pa(dd(x, y));
        tensor[4] += t[4] - pa(dd(x, z));
        tensor[5] += t[5] - pa(dd(y, z));
        if motion.is_some() {
            continue;
        }
        // Own spin: R diag(I) R^T w, Q24 x Q24 >> 24 -> Q24, raised.
        let w = b.spin.to_array().map(|c| c.raw());
        let row = |r: [usize; 3]| -> Fx3 {
            let s: i64 = r
                .iter()
                .zip(&w)
                .map(|(&k, &wk)| round_shr(t[k] * wk, 24))
                .sum();
            Fx2::from_raw(s).raise()
        };
        let own = Vec3::new(row([0, 3, 4]), row([3, 1, 5]), row([4, 5, 2]));
        // Orbit: d x m v (FX1 x FX2 -> FX3).
        let p: Vec3<Fx2> = (b.vel * m).lower();
        let orbit: Vec3<Fx3> = d.cross(p);
        spin_momentum += own + orbit;
    }
    let inv_inertia = invert_symmetric(tensor)?;
    let (vel, spin) = match motion {
        Some(m) => m,
        None => (
            vel,
            mul_mat_fx2(&inv_inertia, spin_momentum.lower()).lower(),
        ),
    };
    let mut c = Body::PLACEHOLDER;
    c.pos = centre;
    c.vel = vel;
    c.spin = spin;
    c.mass = mass;
    c.inv_mass = Fx1::ONE.div_fx1(mass);
    c.inv_inertia_world = inv_inertia;
    c.inertia = Vec3::new(tensor[0], tensor[1], tensor[2]).map(Fx2::from_raw);
    Some(c)
}

/// The velocity of a point `d` (m) from the composite's centre when it
/// moves as `c`.
pub fn rigid_velocity(c: &Body, d: Vec3) -> Vec3<Fx2> {
    c.vel + cross_fx2(c.spin, d)
}
