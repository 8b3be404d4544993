//! Affine transforms: a rotation [`Mat3`] plus a translation, the 4x3
//! matrix of 20.12 values that the DS geometry engine loads.

use core::ops::Mul;

use super::mat3::Mat3;
use super::vec3::Vec3;

/// `p -> rot * p + trans`.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash, Debug)]
pub struct Mat4x3 {
    /// The linear part (a rotation for the rigid operations).
    pub rot: Mat3,
    /// The translation.
    pub trans: Vec3,
}

impl Mat4x3 {
    /// The identity.
    pub const IDENTITY: Mat4x3 = Mat4x3 {
        rot: Mat3::IDENTITY,
        trans: Vec3::ZERO,
    };

    /// From a linear part and a translation.
    #[inline]
    pub const fn new(rot: Mat3, trans: Vec3) -> Mat4x3 {
        Mat4x3 { rot, trans }
    }

    /// A pure translation.
    #[inline]
    pub const fn from_translation(trans: Vec3) -> Mat4x3 {
        Mat4x3 {
            rot: Mat3::IDENTITY,
            trans,
        }
    }

    /// `rot * p + trans`, with one rounding per component (the translation
    /// is added in FX2 before lowering).
    #[inline]
    pub fn transform_point(&self, p: Vec3) -> Vec3 {
        (self.rot.mul_vec_exact(p) + self.trans.raise()).lower()
    }

    /// `rot * v` (directions ignore the translation).
    #[inline]
    pub fn transform_vector(&self, v: Vec3) -> Vec3 {
        self.rot.mul_vec(v)
    }

    /// The inverse of a rigid transform (`rot` a rotation):
    /// `(rot^T, -rot^T * trans)`. Not the inverse of a scaling matrix.
    #[inline]
    pub fn rigid_inverse(&self) -> Mat4x3 {
        let rt = self.rot.transpose();
        Mat4x3 {
            rot: rt,
            trans: -rt.mul_vec(self.trans),
        }
    }

    /// The 12 raw words of `MTX_LOAD_4x3`/`MTX_MULT_4x3`, in command
    /// order. The DS multiplies row vectors (`v * M`), so its rows are our
    /// columns: X axis, Y axis, Z axis, then the translation.
    #[inline]
    pub fn to_gx_4x3(&self) -> [i32; 12] {
        let [x, y, z] = self.rot.cols.map(Vec3::raw);
        let t = self.trans.raw();
        [
            x[0], x[1], x[2], y[0], y[1], y[2], z[0], z[1], z[2], t[0], t[1], t[2],
        ]
    }
}

impl Mul for Mat4x3 {
    type Output = Mat4x3;
    /// `self` after `b`: `(A * B)(p) = A(B(p))`.
    #[inline]
    fn mul(self, b: Mat4x3) -> Mat4x3 {
        Mat4x3 {
            rot: self.rot * b.rot,
            trans: self.transform_point(b.trans),
        }
    }
}

impl Mul<Vec3> for Mat4x3 {
    type Output = Vec3;
    /// Same as [`Mat4x3::transform_point`].
    #[inline]
    fn mul(self, p: Vec3) -> Vec3 {
        self.transform_point(p)
    }
}
