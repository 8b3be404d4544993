//! Build-time `f64` rigid-transform math for the skeleton tools: rotation
//! matrices, quaternions, and their conversions to the engine's FX types.
//! Floats are fine here: this runs on the host, at build time only.

use dsphys::fx::{Fx1, Mat3, Mat4x3, Quat, Vec3};

/// A 3-vector.
pub type V3 = [f64; 3];

/// `a - b`.
pub fn sub(a: V3, b: V3) -> V3 {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

/// `a + b`.
pub fn add(a: V3, b: V3) -> V3 {
    [a[0] + b[0], a[1] + b[1], a[2] + b[2]]
}

/// `a * s`.
pub fn scale(a: V3, s: f64) -> V3 {
    [a[0] * s, a[1] * s, a[2] * s]
}

/// Dot product.
pub fn dot(a: V3, b: V3) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

/// Cross product.
pub fn cross(a: V3, b: V3) -> V3 {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

/// Length.
pub fn len(a: V3) -> f64 {
    dot(a, a).sqrt()
}

/// `a / |a|` (zero stays zero).
pub fn unit(a: V3) -> V3 {
    let l = len(a);
    if l == 0.0 {
        a
    } else {
        scale(a, 1.0 / l)
    }
}

/// A rotation matrix as three columns.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rot(pub [V3; 3]);

impl Rot {
    /// The identity.
    pub const IDENTITY: Rot = Rot([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]]);

    /// `R v`.
    pub fn apply(&self, v: V3) -> V3 {
        add(
            add(scale(self.0[0], v[0]), scale(self.0[1], v[1])),
            scale(self.0[2], v[2]),
        )
    }

    /// `R^T`.
    pub fn transpose(&self) -> Rot {
        let c = self.0;
        Rot([
            [c[0][0], c[1][0], c[2][0]],
            [c[0][1], c[1][1], c[2][1]],
            [c[0][2], c[1][2], c[2][2]],
        ])
    }

    /// `self * o`.
    pub fn mul(&self, o: &Rot) -> Rot {
        Rot(o.0.map(|c| self.apply(c)))
    }

    /// The largest angle (radians) between a column of `self` and the
    /// same column of `o`.
    pub fn max_column_angle(&self, o: &Rot) -> f64 {
        (0..3)
            .map(|i| dot(unit(self.0[i]), unit(o.0[i])).clamp(-1.0, 1.0).acos())
            .fold(0.0, f64::max)
    }

    /// The unit quaternion `[w, x, y, z]` (w >= 0).
    pub fn to_quat(&self) -> [f64; 4] {
        let m = |r: usize, c: usize| self.0[c][r];
        let t = m(0, 0) + m(1, 1) + m(2, 2);
        let q = if t > 0.0 {
            let s = (t + 1.0).sqrt() * 2.0;
            [
                0.25 * s,
                (m(2, 1) - m(1, 2)) / s,
                (m(0, 2) - m(2, 0)) / s,
                (m(1, 0) - m(0, 1)) / s,
            ]
        } else if m(0, 0) > m(1, 1) && m(0, 0) > m(2, 2) {
            let s = (1.0 + m(0, 0) - m(1, 1) - m(2, 2)).sqrt() * 2.0;
            [
                (m(2, 1) - m(1, 2)) / s,
                0.25 * s,
                (m(0, 1) + m(1, 0)) / s,
                (m(0, 2) + m(2, 0)) / s,
            ]
        } else if m(1, 1) > m(2, 2) {
            let s = (1.0 + m(1, 1) - m(0, 0) - m(2, 2)).sqrt() * 2.0;
            [
                (m(0, 2) - m(2, 0)) / s,
                (m(0, 1) + m(1, 0)) / s,
                0.25 * s,
                (m(1, 2) + m(2, 1)) / s,
            ]
        } else {
            let s = (1.0 + m(2, 2) - m(0, 0) - m(1, 1)).sqrt() * 2.0;
            [
                (m(1, 0) - m(0, 1)) / s,
                (m(0, 2) + m(2, 0)) / s,
                (m(1, 2) + m(2, 1)) / s,
                0.25 * s,
            ]
        };
        let n = q.iter().map(|c| c * c).sum::<f64>().sqrt();
        let s = if q[0] < 0.0 { -1.0 / n } else { 1.0 / n };
        q.map(|c| c * s)
    }

    /// From a unit quaternion `[w, x, y, z]`.
    pub fn from_quat(q: [f64; 4]) -> Rot {
        let [w, x, y, z] = q;
        Rot([
            [
                1.0 - 2.0 * (y * y + z * z),
                2.0 * (x * y + w * z),
                2.0 * (x * z - w * y),
            ],
            [
                2.0 * (x * y - w * z),
                1.0 - 2.0 * (x * x + z * z),
                2.0 * (y * z + w * x),
            ],
            [
                2.0 * (x * z + w * y),
                2.0 * (y * z - w * x),
                1.0 - 2.0 * (x * x + y * y),
            ],
        ])
    }

    /// The rotation by `angle` radians about the unit `axis`.
    pub fn axis_angle(axis: V3, angle: f64) -> Rot {
        let a = unit(axis);
        let (s, c) = (angle / 2.0).sin_cos();
        Rot::from_quat([c, a[0] * s, a[1] * s, a[2] * s])
    }
}

/// A rigid transform `p -> rot p + trans`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rigid {
    /// Rotation.
    pub rot: Rot,
    /// Translation.
    pub trans: V3,
}

impl Rigid {
    /// The identity.
    pub const IDENTITY: Rigid = Rigid {
        rot: Rot::IDENTITY,
        trans: [0.0; 3],
    };

    /// `self * o`.
    pub fn mul(&self, o: &Rigid) -> Rigid {
        Rigid {
            rot: self.rot.mul(&o.rot),
            trans: self.apply(o.trans),
        }
    }

    /// `self` applied to the point `p`.
    pub fn apply(&self, p: V3) -> V3 {
        add(self.rot.apply(p), self.trans)
    }

    /// The inverse.
    pub fn inverse(&self) -> Rigid {
        let rt = self.rot.transpose();
        Rigid {
            rot: rt,
            trans: scale(rt.apply(self.trans), -1.0),
        }
    }

    /// As the 16 floats of a glTF column-major 4x4 matrix.
    pub fn to_gltf_mat4(&self) -> [f64; 16] {
        let c = self.rot.0;
        let t = self.trans;
        [
            c[0][0], c[0][1], c[0][2], 0.0, c[1][0], c[1][1], c[1][2], 0.0, c[2][0], c[2][1],
            c[2][2], 0.0, t[0], t[1], t[2], 1.0,
        ]
    }
}

/// Metres to FX1, rounded to nearest.
pub fn fx1(x: f64) -> Fx1 {
    Fx1::from_raw((x * 4096.0).round() as i32)
}

/// A vector to FX1.
pub fn fx_vec(v: V3) -> Vec3 {
    Vec3::new(fx1(v[0]), fx1(v[1]), fx1(v[2]))
}

/// An FX1 vector to floats.
pub fn vec_f64(v: Vec3) -> V3 {
    [v.x.to_f64(), v.y.to_f64(), v.z.to_f64()]
}

/// A unit quaternion `[w, x, y, z]` to Q30 (each component rounded).
pub fn fx_quat(q: [f64; 4]) -> Quat {
    const ONE: f64 = (1u64 << 30) as f64;
    let [w, x, y, z] = q.map(|c| (c * ONE).round().clamp(-ONE, ONE) as i32);
    Quat::from_raw_q30(w, x, y, z)
}

/// A rigid transform to the engine's 4x3 matrix.
pub fn fx_mat4x3(m: &Rigid) -> Mat4x3 {
    let c = m.rot.0.map(fx_vec);
    Mat4x3::new(Mat3::from_cols(c[0], c[1], c[2]), fx_vec(m.trans))
}

/// An engine matrix to floats.
pub fn mat4x3_f64(m: &Mat4x3) -> Rigid {
    Rigid {
        rot: Rot(m.rot.cols.map(vec_f64)),
        trans: vec_f64(m.trans),
    }
}

/// Seed 004's brad frame in floats: A along `a`, B the unit vector
/// orthogonal to A closest to `goal`, as the columns named by the axes
/// (index 0..3 and sign), the third column completing a right-handed frame.
/// `None` when `goal` is parallel to `a` (within `min_sin`).
pub fn brad_frame(
    a: V3,
    goal: V3,
    axis_a: (usize, bool),
    axis_b: (usize, bool),
    min_sin: f64,
) -> Option<Rot> {
    let a_hat = unit(a);
    let c = cross(a_hat, goal);
    if len(a) == 0.0 || len(c) <= min_sin * len(goal) {
        return None;
    }
    let c_hat = unit(c);
    let b_hat = cross(c_hat, a_hat);
    let sign = |v: V3, neg: bool| if neg { scale(v, -1.0) } else { v };
    let mut cols = [[0.0; 3]; 3];
    cols[axis_a.0] = sign(a_hat, axis_a.1);
    cols[axis_b.0] = sign(b_hat, axis_b.1);
    let k = 3 - axis_a.0 - axis_b.0;
    cols[k] = cross(cols[(k + 1) % 3], cols[(k + 2) % 3]);
    Some(Rot(cols))
}
