//! 3D vectors of any FX power; geometry is done on `Vec3<Fx1>`.
//!
//! `dot` and `cross` multiply without shifting, so they are exact and their
//! power is the sum of the operands' powers: `Vec3<Fx1>·Vec3<Fx1> -> Fx2`,
//! `Vec3<Fx1> × Vec3<Fx1> -> Vec3<Fx2>`.

use core::ops::{Add, AddAssign, Mul, Neg, Sub, SubAssign};

use divsqrt::sqrt_u64;

use crate::power::{Fx1, Fx2, Lower, Raise};
use crate::unit::normalise_raw;

/// A 3D vector; components are FX1 unless a power is named.
///
/// `repr(C)`: `x`, `y`, `z` in that order, so that the hardware layer's
/// kernels can read an array of them as words.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash, Debug)]
#[repr(C)]
pub struct Vec3<T = Fx1> {
    /// X component.
    pub x: T,
    /// Y component.
    pub y: T,
    /// Z component.
    pub z: T,
}

impl<T> Vec3<T> {
    /// From components.
    #[inline]
    pub const fn new(x: T, y: T, z: T) -> Self {
        Vec3 { x, y, z }
    }

    /// Applies `f` to each component.
    #[inline]
    pub fn map<U>(self, mut f: impl FnMut(T) -> U) -> Vec3<U> {
        Vec3::new(f(self.x), f(self.y), f(self.z))
    }

    /// `[x, y, z]`.
    #[inline]
    pub fn to_array(self) -> [T; 3] {
        [self.x, self.y, self.z]
    }

    /// From `[x, y, z]`.
    #[inline]
    pub fn from_array([x, y, z]: [T; 3]) -> Self {
        Vec3::new(x, y, z)
    }
}

impl<T: Copy> Vec3<T> {
    /// Exact dot product; the power is the sum of the operands' powers.
    #[inline]
    pub fn dot<U, P>(self, o: Vec3<U>) -> P
    where
        T: Mul<U, Output = P>,
        U: Copy,
        P: Add<Output = P>,
    {
        self.x * o.x + self.y * o.y + self.z * o.z
    }

    /// Exact cross product; the power is the sum of the operands' powers.
    #[inline]
    pub fn cross<U, P>(self, o: Vec3<U>) -> Vec3<P>
    where
        T: Mul<U, Output = P>,
        U: Copy,
        P: Sub<Output = P>,
    {
        Vec3::new(
            self.y * o.z - self.z * o.y,
            self.z * o.x - self.x * o.z,
            self.x * o.y - self.y * o.x,
        )
    }

    /// Each component one power down (see the scalar `lower`).
    #[inline]
    pub fn lower(self) -> Vec3<T::Lower>
    where
        T: Lower,
    {
        self.map(Lower::lower)
    }

    /// Each component one power up, exact (see the scalar `raise`).
    #[inline]
    pub fn raise(self) -> Vec3<T::Raise>
    where
        T: Raise,
    {
        self.map(Raise::raise)
    }
}

impl Vec3<Fx1> {
    /// The zero vector.
    pub const ZERO: Self = Vec3::new(Fx1::ZERO, Fx1::ZERO, Fx1::ZERO);
    /// Unit X.
    pub const X: Self = Vec3::new(Fx1::ONE, Fx1::ZERO, Fx1::ZERO);
    /// Unit Y.
    pub const Y: Self = Vec3::new(Fx1::ZERO, Fx1::ONE, Fx1::ZERO);
    /// Unit Z.
    pub const Z: Self = Vec3::new(Fx1::ZERO, Fx1::ZERO, Fx1::ONE);

    /// From raw 20.12 integers.
    #[inline]
    pub const fn from_raw(x: i32, y: i32, z: i32) -> Self {
        Vec3::new(Fx1::from_raw(x), Fx1::from_raw(y), Fx1::from_raw(z))
    }

    /// Raw 20.12 integers.
    #[inline]
    pub const fn raw(self) -> [i32; 3] {
        [self.x.raw(), self.y.raw(), self.z.raw()]
    }

    /// `|v|^2`, exact. Fits while `|v| < 741455` (the FX2 range).
    #[inline]
    pub fn length_squared(self) -> Fx2 {
        self.dot(self)
    }

    /// `|v|`, floor-rounded like `Fx2::sqrt`. Valid for every vector: the
    /// squared length is summed in `u64` here, so it cannot overflow.
    #[inline]
    pub fn length(self) -> Fx1 {
        let [x, y, z] = self.raw().map(|c| c.unsigned_abs() as u64);
        let r = sqrt_u64(x * x + y * y + z * z);
        Fx1::from_raw(r.min(i32::MAX as u32) as i32)
    }

    /// The unit vector along `self`, or `None` for the zero vector.
    /// Each component is within `0.5 + 1e-5` FX1 steps of the exact
    /// quotient (one square root and one division on the DS units).
    #[inline]
    pub fn try_normalise(self) -> Option<Vec3> {
        let [x, y, z] = self.raw();
        normalise_raw([x as i64, y as i64, z as i64], 12).map(|[x, y, z]| Vec3::from_raw(x, y, z))
    }

    /// The unit vector along `self`; **the zero vector gives the zero
    /// vector** (check [`Vec3::try_normalise`] when that matters).
    #[inline]
    pub fn normalise(self) -> Vec3 {
        self.try_normalise().unwrap_or(Vec3::ZERO)
    }

    /// `self * s` lowered back to FX1 (one rounding per component).
    #[inline]
    pub fn scale(self, s: Fx1) -> Vec3 {
        (self * s).lower()
    }

    /// Component-wise scaling by a plain integer (same power).
    #[inline]
    pub fn scale_int(self, s: i32) -> Vec3 {
        self.map(|c| c * s)
    }
}

impl Vec3<Fx2> {
    /// The unit FX1 vector along `self` (for example a cross product), or
    /// `None` for zero. Same accuracy as `Vec3<Fx1>::try_normalise`.
    #[inline]
    pub fn try_normalise(self) -> Option<Vec3> {
        normalise_raw([self.x.raw(), self.y.raw(), self.z.raw()], 12)
            .map(|[x, y, z]| Vec3::from_raw(x, y, z))
    }

    /// As [`Vec3::<Fx2>::try_normalise`], zero for zero.
    #[inline]
    pub fn normalise(self) -> Vec3 {
        self.try_normalise().unwrap_or(Vec3::ZERO)
    }
}

impl<T: Add<Output = T>> Add for Vec3<T> {
    type Output = Self;
    #[inline]
    fn add(self, o: Self) -> Self {
        Vec3::new(self.x + o.x, self.y + o.y, self.z + o.z)
    }
}

impl<T: Sub<Output = T>> Sub for Vec3<T> {
    type Output = Self;
    #[inline]
    fn sub(self, o: Self) -> Self {
        Vec3::new(self.x - o.x, self.y - o.y, self.z - o.z)
    }
}

impl<T: Neg<Output = T>> Neg for Vec3<T> {
    type Output = Self;
    #[inline]
    fn neg(self) -> Self {
        Vec3::new(-self.x, -self.y, -self.z)
    }
}

impl<T: AddAssign> AddAssign for Vec3<T> {
    #[inline]
    fn add_assign(&mut self, o: Self) {
        self.x += o.x;
        self.y += o.y;
        self.z += o.z;
    }
}

impl<T: SubAssign> SubAssign for Vec3<T> {
    #[inline]
    fn sub_assign(&mut self, o: Self) {
        self.x -= o.x;
        self.y -= o.y;
        self.z -= o.z;
    }
}

/// Scaling by a scalar: exact, powers add (`Vec3<Fx1> * Fx1 -> Vec3<Fx2>`).
impl<T, S, P> Mul<S> for Vec3<T>
where
    T: Mul<S, Output = P>,
    S: Copy,
{
    type Output = Vec3<P>;
    #[inline]
    fn mul(self, s: S) -> Vec3<P> {
        Vec3::new(self.x * s, self.y * s, self.z * s)
    }
}
