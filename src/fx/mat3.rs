//! 3x3 matrices of FX1 (rotations), stored as columns.
//!
//! Products sum three exact FX2 terms and lower once, so each entry of
//! `A * B` and of `M * v` is within half an FX1 step of the exact result
//! of the stored (already rounded) inputs.

use core::ops::Mul;

use super::power::{Fx1, Fx2, Fx3};
use super::vec3::Vec3;

/// A 3x3 matrix; `cols[j]` is column `j`, so `M * v = sum v_j cols[j]`.
/// For a rotation the columns are the rotated X, Y, Z axes.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash, Debug)]
pub struct Mat3 {
    /// The columns.
    pub cols: [Vec3; 3],
}

impl Mat3 {
    /// The identity.
    pub const IDENTITY: Mat3 = Mat3 {
        cols: [Vec3::X, Vec3::Y, Vec3::Z],
    };

    /// From three columns.
    #[inline]
    pub const fn from_cols(x: Vec3, y: Vec3, z: Vec3) -> Mat3 {
        Mat3 { cols: [x, y, z] }
    }

    /// From three rows.
    #[inline]
    pub fn from_rows(r0: Vec3, r1: Vec3, r2: Vec3) -> Mat3 {
        Mat3::from_cols(r0, r1, r2).transpose()
    }

    /// Entry at row `r`, column `c`.
    #[inline]
    pub fn at(&self, r: usize, c: usize) -> Fx1 {
        self.cols[c].to_array()[r]
    }

    /// Row `r`.
    #[inline]
    pub fn row(&self, r: usize) -> Vec3 {
        Vec3::new(self.at(r, 0), self.at(r, 1), self.at(r, 2))
    }

    /// The transpose (the inverse of a rotation).
    #[inline]
    pub fn transpose(&self) -> Mat3 {
        Mat3::from_cols(self.row(0), self.row(1), self.row(2))
    }

    /// `M * v`, exact, in FX2.
    #[inline]
    pub fn mul_vec_exact(&self, v: Vec3) -> Vec3<Fx2> {
        let [a, b, c] = self.cols;
        a * v.x + b * v.y + c * v.z
    }

    /// `M * v` lowered to FX1 (one rounding per component).
    #[inline]
    pub fn mul_vec(&self, v: Vec3) -> Vec3 {
        self.mul_vec_exact(v).lower()
    }

    /// `M^T * v` (the inverse rotation of `v`), lowered to FX1.
    #[inline]
    pub fn transpose_mul_vec(&self, v: Vec3) -> Vec3 {
        let [a, b, c] = self.cols;
        Vec3::<Fx2>::new(a.dot(v), b.dot(v), c.dot(v)).lower()
    }

    /// The determinant, exact (1 for a rotation, up to rounding).
    #[inline]
    pub fn determinant(&self) -> Fx3 {
        let [a, b, c] = self.cols;
        a.dot(b.cross(c))
    }
}

impl Mul for Mat3 {
    type Output = Mat3;
    /// `A * B`: each column is `A * b_j`, lowered once.
    #[inline]
    fn mul(self, b: Mat3) -> Mat3 {
        Mat3 {
            cols: b.cols.map(|c| self.mul_vec(c)),
        }
    }
}

impl Mul<Vec3> for Mat3 {
    type Output = Vec3;
    /// Same as [`Mat3::mul_vec`].
    #[inline]
    fn mul(self, v: Vec3) -> Vec3 {
        self.mul_vec(v)
    }
}
