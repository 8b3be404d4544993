//! Joints between two bodies (or a body and the static world): the
//! ball-and-socket (3 linear rows) and the hinge (3 linear + 2 angular
//! rows), each with an optional limit, and a motor drive ([`super::motor`]).
//! Drift is corrected through the row targets: `c = -erp * error / dt`.

use crate::fx::atan::{acos_radians, atan2_radians};
use crate::fx::{Fx1, Fx2, Mat3, Quat, Vec3};

use super::body::{Body, STATIC};
use super::div_dt;
use super::motor::Motor;
use super::row::{Row, Rows, UNBOUNDED};

/// The joint's type and its limit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum JointKind {
    /// Three rotational DOF; the optional cone keeps the angle between the
    /// two twist axes (body-local, equal in the neutral pose) below `cone`
    /// radians.
    Ball {
        /// Twist axis in `a`'s frame.
        twist_a: Vec3,
        /// Twist axis in `b`'s frame.
        twist_b: Vec3,
        /// Cone half-angle in radians, or `None` for no limit.
        cone: Option<Fx1>,
    },
    /// One rotational DOF about `axis`; the angle is measured between the
    /// two reference vectors (perpendicular to the axis, equal in the
    /// neutral pose), positive by the right hand about the axis.
    Hinge {
        /// Hinge axis in `a`'s frame.
        axis_a: Vec3,
        /// Hinge axis in `b`'s frame.
        axis_b: Vec3,
        /// Reference vector in `a`'s frame.
        ref_a: Vec3,
        /// Reference vector in `b`'s frame.
        ref_b: Vec3,
        /// `(lo, hi)` angle limits in radians, or `None`.
        limits: Option<(Fx1, Fx1)>,
    },
}

/// A joint between bodies `a` and `b`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Joint {
    /// First (parent) body, or [`STATIC`].
    pub a: u8,
    /// Second (child) body.
    pub b: u8,
    /// The anchor in `a`'s frame.
    pub anchor_a: Vec3,
    /// The anchor in `b`'s frame.
    pub anchor_b: Vec3,
    /// Type and limit.
    pub kind: JointKind,
    /// `q_a^-1 q_b` in the neutral pose (seed 000's `N1^T N2`).
    pub neutral: Quat,
    /// The motor drive (disabled by default).
    pub motor: Motor,
}

/// Position, rotation matrix and quaternion of body `i` (the static world
/// is the identity at the origin).
#[inline]
pub fn frame(bodies: &[Body], i: u8) -> (Vec3<Fx2>, Mat3, Quat) {
    if i == STATIC {
        (Vec3::default(), Mat3::IDENTITY, Quat::IDENTITY)
    } else {
        let b = &bodies[i as usize];
        (b.pos, b.mat, b.rot)
    }
}

/// A world point in the frame of body `i`.
fn to_local(bodies: &[Body], i: u8, p: Vec3) -> Vec3 {
    let (pos, m, _) = frame(bodies, i);
    m.transpose_mul_vec(p - pos.lower())
}

/// A world direction in the frame of body `i`.
fn dir_to_local(bodies: &[Body], i: u8, d: Vec3) -> Vec3 {
    frame(bodies, i).1.transpose_mul_vec(d)
}

/// Two unit vectors perpendicular to unit `n` and to each other
/// (`t1 x t2 = n` up to rounding).
pub fn perpendicular_basis(n: Vec3) -> (Vec3, Vec3) {
    let [x, y, z] = n.raw().map(i32::unsigned_abs);
    let helper = if x <= y && x <= z {
        Vec3::X
    } else if y <= z {
        Vec3::Y
    } else {
        Vec3::Z
    };
    let t1 = helper.cross(n).normalise();
    let t2 = n.cross(t1).lower();
    (t1, t2)
}

impl Joint {
    /// An unlimited ball joint between the static world and itself, with
    /// no motor: fills fixed arrays before the real joints are added.
    pub const PLACEHOLDER: Joint = Joint {
        a: STATIC,
        b: STATIC,
        anchor_a: Vec3::ZERO,
        anchor_b: Vec3::ZERO,
        kind: JointKind::Ball {
            twist_a: Vec3::Y,
            twist_b: Vec3::Y,
            cone: None,
        },
        neutral: Quat::IDENTITY,
        motor: Motor::OFF,
    };

    /// A ball-and-socket joint at world point `anchor` in the bodies'
    /// current pose (which becomes the neutral pose); `twist` is the
    /// world twist axis for the cone limit.
    pub fn ball(
        bodies: &[Body],
        a: u8,
        b: u8,
        anchor: Vec3,
        twist: Vec3,
        cone: Option<Fx1>,
    ) -> Joint {
        Joint::at(
            bodies,
            a,
            b,
            anchor,
            JointKind::Ball {
                twist_a: dir_to_local(bodies, a, twist),
                twist_b: dir_to_local(bodies, b, twist),
                cone,
            },
        )
    }

    /// A hinge at world point `anchor` about world `axis` (unit) in the
    /// current pose; the angle is zero in this pose.
    pub fn hinge(
        bodies: &[Body],
        a: u8,
        b: u8,
        anchor: Vec3,
        axis: Vec3,
        limits: Option<(Fx1, Fx1)>,
    ) -> Joint {
        let (reference, _) = perpendicular_basis(axis);
        Joint::at(
            bodies,
            a,
            b,
            anchor,
            JointKind::Hinge {
                axis_a: dir_to_local(bodies, a, axis),
                axis_b: dir_to_local(bodies, b, axis),
                ref_a: dir_to_local(bodies, a, reference),
                ref_b: dir_to_local(bodies, b, reference),
                limits,
            },
        )
    }

    fn at(bodies: &[Body], a: u8, b: u8, anchor: Vec3, kind: JointKind) -> Joint {
        let (_, _, qa) = frame(bodies, a);
        let (_, _, qb) = frame(bodies, b);
        Joint {
            a,
            b,
            anchor_a: to_local(bodies, a, anchor),
            anchor_b: to_local(bodies, b, anchor),
            kind,
            neutral: qa.conjugate() * qb,
            motor: Motor::OFF,
        }
    }

    /// The world hinge axis (from `a`), or `None` for a ball.
    pub fn world_axis(&self, bodies: &[Body]) -> Option<Vec3> {
        match self.kind {
            JointKind::Hinge { axis_a, .. } => Some(frame(bodies, self.a).1.mul_vec(axis_a)),
            JointKind::Ball { .. } => None,
        }
    }

    /// The hinge angle in radians (`(-pi, pi]`); zero for a ball.
    pub fn hinge_angle(&self, bodies: &[Body]) -> Fx1 {
        let JointKind::Hinge {
            axis_a,
            ref_a,
            ref_b,
            ..
        } = self.kind
        else {
            return Fx1::ZERO;
        };
        let ma = frame(bodies, self.a).1;
        let mb = frame(bodies, self.b).1;
        let (axis, ra, rb) = (ma.mul_vec(axis_a), ma.mul_vec(ref_a), mb.mul_vec(ref_b));
        let sin = ra.cross(rb).lower().dot(axis).lower();
        let cos = ra.dot(rb).lower();
        atan2_radians(sin, cos)
    }

    /// The anchor separation `p_b - p_a` in m (the drift).
    pub fn separation(&self, bodies: &[Body]) -> Vec3<Fx2> {
        let (pa, ma, _) = frame(bodies, self.a);
        let (pb, mb, _) = frame(bodies, self.b);
        (pb + mb.mul_vec_exact(self.anchor_b)) - (pa + ma.mul_vec_exact(self.anchor_a))
    }

    /// Pushes the joint's rows (positional, alignment, limit).
    pub fn push_rows<const R: usize>(
        &self,
        bodies: &[Body],
        rows: &mut Rows<R>,
        erp: Fx1,
        key: u16,
    ) {
        self.push_rows_at(bodies, rows, erp, key, self.hinge_angle(bodies));
    }

    /// [`Joint::push_rows`] with the hinge's angle already known (what
    /// [`Joint::hinge_angle`] gives; ignored for a ball): the world finds
    /// it once a step for the motor and the limit.
    #[inline(never)]
    pub fn push_rows_at<const R: usize>(
        &self,
        bodies: &[Body],
        rows: &mut Rows<R>,
        erp: Fx1,
        key: u16,
        hinge_angle: Fx1,
    ) {
        let (pa, ma, _) = frame(bodies, self.a);
        let (pb, mb, _) = frame(bodies, self.b);
        let ra = ma.mul_vec(self.anchor_a);
        let rb = mb.mul_vec(self.anchor_b);
        // The drift from exact anchors: FX1 levers would add 0.12 mm of
        // rounding noise to the error each step.
        let err = (pb + mb.mul_vec_exact(self.anchor_b)) - (pa + ma.mul_vec_exact(self.anchor_a));
        let bias = |e: Fx2| -> Fx2 { Fx2::from_raw(-div_dt((e * erp).lower().raw())) };
        let axes = [(Vec3::X, err.x), (Vec3::Y, err.y), (Vec3::Z, err.z)];
        for (k, (axis, e)) in axes.into_iter().enumerate() {
            let ang_a = -ra.cross(axis).lower();
            let ang_b = rb.cross(axis).lower();
            let row = Row::new(self.a, self.b, axis, ang_a, ang_b, bias(e));
            rows.push(row.keyed(key | k as u16));
        }
        match self.kind {
            JointKind::Ball {
                twist_a,
                twist_b,
                cone: Some(cone),
            } => {
                let ta = ma.mul_vec(twist_a);
                let tb = mb.mul_vec(twist_b);
                let angle = acos_radians(ta.dot(tb).lower());
                if angle > cone {
                    let n = ta.cross(tb).normalise();
                    let target = bias(-(angle - cone).raise());
                    rows.push(
                        Row::angular(self.a, self.b, -n, target).bounded(Fx2::ZERO, UNBOUNDED),
                    );
                }
            }
            JointKind::Ball { cone: None, .. } => {}
            JointKind::Hinge {
                axis_a,
                axis_b,
                limits,
                ..
            } => {
                let a1 = ma.mul_vec(axis_a);
                let a2 = mb.mul_vec(axis_b);
                let tilt = a1.cross(a2).lower();
                let (u, w) = perpendicular_basis(a1);
                rows.push(Row::angular(self.a, self.b, u, bias(tilt.dot(u))).keyed(key | 3));
                rows.push(Row::angular(self.a, self.b, w, bias(tilt.dot(w))).keyed(key | 4));
                if let Some((lo, hi)) = limits {
                    let angle = hinge_angle;
                    let one_sided = |axis: Vec3, over: Fx1| {
                        Row::angular(self.a, self.b, axis, bias(-over.raise()))
                            .bounded(Fx2::ZERO, UNBOUNDED)
                    };
                    if angle < lo {
                        rows.push(one_sided(a1, lo - angle));
                    } else if angle > hi {
                        rows.push(one_sided(-a1, angle - hi));
                    }
                }
            }
        }
    }
}
