//! The FX power types: [`Fx1`] (20.12 in `i32`) and its integer-multiply
//! powers [`Fx2`] .. [`Fx5`] (in `i64`, 24/36/48/60 fraction bits).
//!
//! The rule of seed 004, made mechanical:
//! - `+`, `-`, `==`, `<` exist only between two values of one power;
//! - `a * b` is the plain integer product, with no shift: its power is the
//!   sum of the powers (`Fx1 * Fx1 -> Fx2`, `Fx2 * Fx2 -> Fx4`), so it is exact;
//! - going up a power ([`Fx2::raise`], `From`) is exact;
//! - going down a power ([`Fx2::lower`]) is the only rounding step, and it
//!   must be written out. It rounds to nearest, ties away from zero
//!   ([`round_shr`]), so `lower(-x) == -lower(x)`;
//! - `P / Q` (P > Q) divides the raw integers with the DS divider and gives
//!   power `P - Q`, truncated towards zero (`Fx2 / Fx1 -> Fx1`);
//! - `sqrt` halves an even power, floor-rounded (`Fx2::sqrt -> Fx1`).
//!
//! Overflow: `+`, `-`, `*` and `raise` behave like Rust integers (they panic
//! in debug builds and wrap in release builds). Operations whose result type
//! is narrower than their exact result saturate instead, and say so:
//! `lower` to `Fx1`, `lower_to_fx1`, division and `sqrt`. Division by zero
//! saturates (see `divsqrt`).

use core::fmt;
use core::ops::{Add, AddAssign, Div, Mul, Neg, Sub, SubAssign};

use fixed::types::{I16F48, I20F12, I28F36, I40F24, I4F60};

use divsqrt::{div_auto, div_i32, sqrt_u64};

/// [`round_shr`] for an `i32`, for `1 <= s <= 31`: the same result in
/// 32-bit instructions.
#[inline]
pub const fn round_shr32(x: i32, s: u32) -> i32 {
    let q = x >> s;
    let rem = x & (i32::MAX >> (31 - s));
    let half = 1i32 << (s - 1);
    // `rem - 1` for a negative quotient: never overflows (`rem >= 0`),
    // and the threshold stays `half`, which an ARM immediate encodes
    // (`half - 1` does not: 4096 - 1 cost every lowering an instruction).
    q + (rem - (q < 0) as i32 >= half) as i32
}

/// `x / 2^s` rounded to nearest, ties away from zero, for `1 <= s <= 63`.
///
/// Written as floor plus a carry so that it cannot overflow near `i64::MAX`
/// (the textbook `(x + half) >> s` can). `tests/fx_power.rs` checks it
/// against the exact rounding at every shift, at the edges and at random.
#[inline]
pub const fn round_shr(x: i64, s: u32) -> i64 {
    let q = x >> s;
    let rem = x & (i64::MAX >> (63 - s));
    let half = 1i64 << (s - 1);
    // Above half rounds up; exactly half rounds away from zero, i.e. up
    // when the value `q + 0.5` is positive. (Written `rem + 1 > half`,
    // this overflowed for `rem` near `i64::MAX` at `s` = 63; `rem - 1`
    // cannot, since `rem >= 0`.)
    q + (rem - (q < 0) as i64 >= half) as i64
}

/// [`round_shr`] of an `x` whose rounded result fits an `i32` (the
/// caller's written bound), for `1 <= s <= 31`: the same result from the
/// low word and one shifted high word, with no 64-bit add and no
/// saturation. (At the bottom edge the floor can be `i32::MIN - 1` and
/// the result `i32::MIN`: the low word wraps and so does the add.)
#[inline]
pub const fn round_shr_fits32(x: i64, s: u32) -> i32 {
    let lo = x as u32;
    // The low word of `x >> s`, which is all of it when it fits.
    let q = ((lo >> s) | (((x >> 32) as u32) << (32 - s))) as i32;
    // Below 2^31, so an `i32` (see `round_shr32`).
    let rem = (lo & (u32::MAX >> (32 - s))) as i32;
    let half = 1i32 << (s - 1);
    q.wrapping_add((rem - (q < 0) as i32 >= half) as i32)
}

/// Clamps an `i64` into `i32`. One compare when it fits (the high word
/// is the low word's sign), as it does in every bounded lowering.
#[inline]
pub const fn saturate_i32(x: i64) -> i32 {
    let low = x as i32;
    if low as i64 == x {
        low
    } else if x < 0 {
        i32::MIN
    } else {
        i32::MAX
    }
}

/// Lowers a value by one power (or to `Fx1`), in generic code.
pub trait Lower {
    /// The power one below.
    type Lower;
    /// See the inherent `lower` of each type.
    fn lower(self) -> Self::Lower;
}

/// Raises a value by one power, in generic code.
pub trait Raise {
    /// The power one above.
    type Raise;
    /// See the inherent `raise` of each type.
    fn raise(self) -> Self::Raise;
}

macro_rules! fx_power {
    (
        $(#[$attr:meta])*
        $Name:ident($Fixed:ty, $Raw:ty), power $POWER:expr, frac $FRAC:expr
    ) => {
        $(#[$attr])*
        #[derive(Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
        #[repr(transparent)]
        pub struct $Name($Fixed);

        impl $Name {
            /// The power of FX this type holds.
            pub const POWER: u32 = $POWER;
            /// Fraction bits of the raw integer (12 per power).
            pub const FRAC_BITS: u32 = $FRAC;
            /// Zero.
            pub const ZERO: Self = Self::from_raw(0);
            /// One.
            pub const ONE: Self = Self::from_raw(1 << $FRAC);
            /// The smallest step, `2^-FRAC_BITS`.
            pub const EPSILON: Self = Self::from_raw(1);
            /// The most negative value.
            pub const MIN: Self = Self::from_raw(<$Raw>::MIN);
            /// The most positive value.
            pub const MAX: Self = Self::from_raw(<$Raw>::MAX);

            /// Wraps a raw integer (`value * 2^FRAC_BITS`).
            #[inline]
            pub const fn from_raw(raw: $Raw) -> Self {
                Self(<$Fixed>::from_bits(raw))
            }

            /// The raw integer (`value * 2^FRAC_BITS`).
            #[inline]
            pub const fn raw(self) -> $Raw {
                self.0.to_bits()
            }

            /// An integer value; overflow panics in debug builds.
            #[inline]
            pub const fn from_int(i: $Raw) -> Self {
                Self::from_raw(i * (1 << $FRAC))
            }

            /// The underlying `fixed` number.
            #[inline]
            pub const fn to_fixed(self) -> $Fixed {
                self.0
            }

            /// From a `fixed` number of the same layout.
            #[inline]
            pub const fn from_fixed(f: $Fixed) -> Self {
                Self(f)
            }

            /// The value as `f64`, for tests and reports only (floats are
            /// soft-float on the DS; keep this out of the engine).
            pub fn to_f64(self) -> f64 {
                self.raw() as f64 / (1u64 << $FRAC) as f64
            }

            /// Compile-time conversion behind `dsphys::fx!`: rounds to
            /// nearest, ties away from zero; out of range is a compile error.
            /// Calling it at run time would use floats: use the macro.
            #[doc(hidden)]
            pub const fn __from_f64_const(x: f64) -> Self {
                let scaled = x * (1u64 << $FRAC) as f64;
                let limit = (1u64 << (<$Raw>::BITS - 1)) as f64;
                assert!(scaled >= -limit && scaled < limit, "fx!: value out of range for this power");
                let trunc = scaled as i64;
                let frac = scaled - trunc as f64;
                let rounded = if frac >= 0.5 {
                    trunc + 1
                } else if frac <= -0.5 {
                    trunc - 1
                } else {
                    trunc
                };
                Self::from_raw(rounded as $Raw)
            }

            /// `|self|`; `MIN.abs()` overflows (panics in debug builds).
            #[inline]
            pub fn abs(self) -> Self {
                Self(self.0.abs())
            }

            /// True below zero.
            #[inline]
            pub const fn is_negative(self) -> bool {
                self.raw() < 0
            }

            /// Saturating conversion from a raw `i64`.
            #[inline]
            pub fn from_raw_i64_saturating(raw: i64) -> Self {
                Self::from_raw(raw.clamp(<$Raw>::MIN as i64, <$Raw>::MAX as i64) as $Raw)
            }
        }

        impl Add for $Name {
            type Output = Self;
            #[inline]
            fn add(self, rhs: Self) -> Self {
                Self(self.0 + rhs.0)
            }
        }

        impl Sub for $Name {
            type Output = Self;
            #[inline]
            fn sub(self, rhs: Self) -> Self {
                Self(self.0 - rhs.0)
            }
        }

        impl Neg for $Name {
            type Output = Self;
            #[inline]
            fn neg(self) -> Self {
                Self(-self.0)
            }
        }

        impl AddAssign for $Name {
            #[inline]
            fn add_assign(&mut self, rhs: Self) {
                self.0 += rhs.0;
            }
        }

        impl SubAssign for $Name {
            #[inline]
            fn sub_assign(&mut self, rhs: Self) {
                self.0 -= rhs.0;
            }
        }

        /// Scaling by a plain integer keeps the power.
        impl Mul<i32> for $Name {
            type Output = Self;
            #[inline]
            fn mul(self, rhs: i32) -> Self {
                Self::from_raw(self.raw() * rhs as $Raw)
            }
        }

        /// Dividing by a plain integer keeps the power; truncates towards
        /// zero, saturates on `/ 0`.
        impl Div<i32> for $Name {
            type Output = Self;
            #[inline]
            fn div(self, rhs: i32) -> Self {
                Self::from_raw_i64_saturating(div_auto(self.raw() as i64, rhs as i64))
            }
        }

        impl fmt::Debug for $Name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, "{}({})", stringify!($Name), self.0)
            }
        }

        impl fmt::Display for $Name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                fmt::Display::fmt(&self.0, f)
            }
        }
    };
}

fx_power! {
    /// FX1: 20.12 fixed point in `i32`, the engine's storage format and
    /// what the DS GX takes (the SDK's `fx32`).
    ///
    /// Range `[-524288, 524288 - 2^-12]`, step `2^-12 ≈ 0.000244`.
    /// Built on [`fixed::types::I20F12`]; `Fx1 * Fx1` is
    /// `I20F12::wide_mul`, an exact [`Fx2`].
    Fx1(I20F12, i32), power 1, frac 12
}

fx_power! {
    /// FX2: the exact product of two [`Fx1`]s, 24 fraction bits in `i64`
    /// ([`fixed::types::I40F24`]).
    ///
    /// Range `±2^39 ≈ ±5.5e11`, step `2^-24 ≈ 6e-8`. Every `Fx1 * Fx1` fits;
    /// a sum of three such products fits while each factor is below
    /// `428000` in magnitude.
    Fx2(I40F24, i64), power 2, frac 24
}

fx_power! {
    /// FX3: 36 fraction bits in `i64` ([`fixed::types::I28F36`]), e.g. a
    /// triple product `a · (b × c)`.
    ///
    /// Range `±2^27 ≈ ±1.3e8`, step `2^-36 ≈ 1.5e-11`.
    Fx3(I28F36, i64), power 3, frac 36
}

fx_power! {
    /// FX4: 48 fraction bits in `i64` ([`fixed::types::I16F48`]), e.g. the
    /// discriminant `b^2 - a c` of a swept-sphere quadratic whose
    /// coefficients are dot products.
    ///
    /// Range `±2^15 = ±32768`, step `2^-48 ≈ 3.6e-15`.
    Fx4(I16F48, i64), power 4, frac 48
}

fx_power! {
    /// FX5: 60 fraction bits in `i64` ([`fixed::types::I4F60`]).
    ///
    /// Range `±8`, step `2^-60 ≈ 8.7e-19`: only for products of small values.
    Fx5(I4F60, i64), power 5, frac 60
}

/// The engine's everyday scalar.
pub type Fx = Fx1;

// ---- multiplication: powers add, no shift, no rounding ----

impl Mul for Fx1 {
    type Output = Fx2;
    /// Exact: `i32 * i32` always fits in `i64`.
    #[inline]
    fn mul(self, rhs: Fx1) -> Fx2 {
        Fx2(self.0.wide_mul(rhs.0))
    }
}

macro_rules! mul_power {
    ($($A:ident * $B:ident => $Out:ident;)*) => {$(
        impl Mul<$B> for $A {
            type Output = $Out;
            /// Exact integer product; overflow panics in debug builds.
            #[inline]
            fn mul(self, rhs: $B) -> $Out {
                $Out::from_raw(self.raw() as i64 * rhs.raw() as i64)
            }
        }
    )*};
}

mul_power! {
    Fx1 * Fx2 => Fx3;
    Fx2 * Fx1 => Fx3;
    Fx1 * Fx3 => Fx4;
    Fx3 * Fx1 => Fx4;
    Fx2 * Fx2 => Fx4;
    Fx1 * Fx4 => Fx5;
    Fx4 * Fx1 => Fx5;
    Fx2 * Fx3 => Fx5;
    Fx3 * Fx2 => Fx5;
}

// ---- division: powers subtract; raw quotient truncated towards zero ----

macro_rules! div_power {
    ($($A:ident / $B:ident => $Out:ident;)*) => {$(
        impl Div<$B> for $A {
            type Output = $Out;
            /// Raw integer quotient on the divider, truncated towards zero;
            /// saturates when it does not fit and on division by zero.
            #[inline]
            fn div(self, rhs: $B) -> $Out {
                $Out::from_raw_i64_saturating(div_auto(self.raw() as i64, rhs.raw() as i64))
            }
        }
    )*};
}

div_power! {
    Fx2 / Fx1 => Fx1;
    Fx3 / Fx1 => Fx2;
    Fx3 / Fx2 => Fx1;
    Fx4 / Fx1 => Fx3;
    Fx4 / Fx2 => Fx2;
    Fx4 / Fx3 => Fx1;
    Fx5 / Fx1 => Fx4;
    Fx5 / Fx2 => Fx3;
    Fx5 / Fx3 => Fx2;
    Fx5 / Fx4 => Fx1;
}

// ---- raising: exact ----

impl From<Fx1> for Fx2 {
    /// Exact and always in range.
    #[inline]
    fn from(x: Fx1) -> Fx2 {
        x.raise()
    }
}

impl From<Fx1> for Fx3 {
    /// Exact and always in range (`2^31 * 2^24 < 2^63`).
    #[inline]
    fn from(x: Fx1) -> Fx3 {
        Fx3::from_raw((x.raw() as i64) << 24)
    }
}

impl Raise for Fx1 {
    type Raise = Fx2;
    #[inline]
    fn raise(self) -> Fx2 {
        Fx1::raise(self)
    }
}

impl Fx1 {
    /// To FX2, exact and always in range.
    #[inline]
    pub const fn raise(self) -> Fx2 {
        Fx2::from_raw((self.raw() as i64) << 12)
    }

    /// `sqrt(self)` (via FX2), floor-rounded; negative gives zero.
    #[inline]
    pub fn sqrt(self) -> Fx1 {
        self.raise().sqrt()
    }
}

macro_rules! raise_lower {
    ($($Low:ident <-> $High:ident;)*) => {$(
        impl $Low {
            /// One power up, exact. The range shrinks by `2^12`: overflow
            /// panics in debug builds (and wraps in release builds); use
            /// `checked_raise` when unsure.
            #[inline]
            pub fn raise(self) -> $High {
                let r = self.raw() << 12;
                debug_assert!(r >> 12 == self.raw(), "raise overflow");
                $High::from_raw(r)
            }

            /// One power up, or `None` if out of range.
            #[inline]
            pub fn checked_raise(self) -> Option<$High> {
                let r = self.raw() << 12;
                if r >> 12 == self.raw() {
                    Some($High::from_raw(r))
                } else {
                    None
                }
            }
        }

        impl Raise for $Low {
            type Raise = $High;
            #[inline]
            fn raise(self) -> $High {
                $Low::raise(self)
            }
        }

        impl $High {
            /// One power down, rounded to nearest, ties away from zero
            /// (error at most half a step of the lower power). Never
            /// overflows.
            #[inline]
            pub fn lower(self) -> $Low {
                $Low::from_raw(round_shr(self.raw(), 12))
            }

            /// [`lower`](Self::lower) of a value the caller has bounded
            /// so that the result fits an `i32` (`|raw| < 2^43 - 2^11`;
            /// checked in debug builds): the same result from 32-bit work
            /// ([`round_shr_fits32`]), and one the compiler knows is a
            /// sign-extended `i32`, so that its products are single
            /// `smull`s rather than 64-bit multiplies.
            #[inline]
            pub fn lower_in_range(self) -> $Low {
                $Low::from_raw(lower_fits32(self.raw(), 12).raw() as i64)
            }
        }

        impl Lower for $High {
            type Lower = $Low;
            #[inline]
            fn lower(self) -> $Low {
                $High::lower(self)
            }
        }
    )*};
}

raise_lower! {
    Fx2 <-> Fx3;
    Fx3 <-> Fx4;
    Fx4 <-> Fx5;
}

impl Fx2 {
    /// To FX1, rounded to nearest, ties away from zero (error at most
    /// `2^-13`). **Saturates** to `Fx1::MIN`/`Fx1::MAX` outside the FX1
    /// range.
    #[inline]
    pub fn lower(self) -> Fx1 {
        Fx1::from_raw(saturate_i32(round_shr(self.raw(), 12)))
    }

    /// Same as [`Fx2::lower`].
    #[inline]
    pub fn lower_to_fx1(self) -> Fx1 {
        self.lower()
    }

    /// [`Fx2::lower`] of a value the caller has bounded to the FX1 range
    /// (`|raw| < 2^43 - 2^11`; checked in debug builds): the same result,
    /// cheaper ([`round_shr_fits32`]).
    #[inline]
    pub fn lower_in_range(self) -> Fx1 {
        lower_fits32(self.raw(), 12)
    }

    /// `floor(sqrt(self))` as FX1, exact to the floor, via `sqrt_u64`.
    /// Negative gives zero; above `2^31 - 1` raw it saturates.
    #[inline]
    pub fn sqrt(self) -> Fx1 {
        let r = sqrt_u64(self.raw().max(0) as u64);
        Fx1::from_raw(r.min(i32::MAX as u32) as i32)
    }
}

impl Lower for Fx2 {
    type Lower = Fx1;
    #[inline]
    fn lower(self) -> Fx1 {
        Fx2::lower(self)
    }
}

impl Fx4 {
    /// `floor(sqrt(self))` as FX2, via `sqrt_u64`. Negative gives zero.
    #[inline]
    pub fn sqrt(self) -> Fx2 {
        Fx2::from_raw(sqrt_u64(self.raw().max(0) as u64) as i64)
    }
}

impl Fx3 {
    /// Straight to FX1 with a single rounding (nearest, ties away from
    /// zero); **saturates** outside the FX1 range.
    #[inline]
    pub fn lower_to_fx1(self) -> Fx1 {
        Fx1::from_raw(saturate_i32(round_shr(self.raw(), 24)))
    }

    /// [`Fx3::lower_to_fx1`] of a value the caller has bounded to the FX1
    /// range (`|raw| < 2^55 - 2^23`; checked in debug builds): the same
    /// result, cheaper ([`round_shr_fits32`]).
    #[inline]
    pub fn lower_to_fx1_in_range(self) -> Fx1 {
        lower_fits32(self.raw(), 24)
    }
}

/// The in-range lowerings: [`round_shr_fits32`], which debug builds check
/// against the saturating lowering (a bound that does not hold fails
/// there, not silently in release).
#[inline]
fn lower_fits32(raw: i64, s: u32) -> Fx1 {
    let r = round_shr_fits32(raw, s);
    debug_assert!(
        r == saturate_i32(round_shr(raw, s)),
        "an in-range lowering out of range"
    );
    Fx1::from_raw(r)
}

macro_rules! lower_to_fx1 {
    ($($Name:ident, $shift:expr;)*) => {$(
        impl $Name {
            /// Straight to FX1 with a single rounding (nearest, ties away
            /// from zero); **saturates** outside the FX1 range.
            #[inline]
            pub fn lower_to_fx1(self) -> Fx1 {
                Fx1::from_raw(saturate_i32(round_shr(self.raw(), $shift)))
            }
        }
    )*};
}

lower_to_fx1! {
    Fx4, 36;
    Fx5, 48;
}

impl Fx1 {
    /// `self / rhs` in FX1 with the divider's truncation: the same as
    /// `self.raise() / rhs`. Saturates on overflow and on division by zero.
    #[inline]
    pub fn div_fx1(self, rhs: Fx1) -> Fx1 {
        self.raise() / rhs
    }

    /// `self * rhs` lowered back to FX1 (one rounding). This is the SDK's
    /// `FX_Mul`, but rounded instead of floored; prefer keeping the
    /// product in FX2 when it is compared or summed.
    #[inline]
    pub fn mul_lower(self, rhs: Fx1) -> Fx1 {
        (self * rhs).lower()
    }

    /// `self / rhs` for a plain `i32` divisor in the 32/32 divider mode.
    #[inline]
    pub fn div_int(self, rhs: i32) -> Fx1 {
        Fx1::from_raw(div_i32(self.raw(), rhs))
    }
}
