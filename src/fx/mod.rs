//! FX32 fixed point with the power of FX tracked in the type system (issue 3).
//!
//! Seed 004's rule, made mechanical: an integer multiply of two FX values
//! leaves the product in a higher "FX space", and values may only be added
//! or compared within one space. Here every space is its own type
//! ([`Fx1`] .. [`Fx5`]), so mixing them does not compile, products are
//! exact, and the one lossy step, [`Fx2::lower`], is written out.
//!
//! - [`power`]: the scalar types, their ranges and overflow rules.
//! - [`vec3`], [`mat3`], [`mat4`], [`basis`]: geometry in FX1, with exact
//!   FX2 dot and cross products.
//! - [`quat`], [`expmap`]: rotations, stored in Q30 for precision.
//! - [`trig`], [`atan`]: table-based sine/cosine and arc functions.
//! - [`selftest`]: a hash of many operations, to compare DS and host.
//! - [`seed_case`]: seed 004's sphere test, naive and tracked.
//!
//! Accuracy, measured by the `tests/fx_*.rs` property tests against `f64`
//! (one FX1 step is `2^-12`; each file's header lists all of them):
//!
//! | operation | worst error |
//! |---|---|
//! | `Fx1 * Fx1`, any `FxP * FxQ`, `dot`, `cross` | exact |
//! | `lower`, `mul_lower`, `Mat3 * Mat3`, `transform_point` | 0.5 step |
//! | `Vec3::normalise` (per component) | 0.50 step |
//! | `Angle::sin`/`cos`, `sin_cos_radians` | 0.50 step |
//! | `atan2`, `asin`, `acos` | 0.5007 angle step (`2^-16` turn) |
//! | `Quat * Quat` | 0.5 Q30 step (`2^-30`) |
//! | `Quat::rotate` (up to 1024 units) | 0.511 step |
//! | `Quat::slerp` | 1.3e-8 rad |
//! | `Quat::exp` / `Quat::log` | 5e-9 rad per rad / 0.5004 step |
//! | Gram-Schmidt basis: unit / orthogonal | 0.84 / 1.6 steps |
//!
//! Every division and square root goes through [`crate::divsqrt`] (the DS
//! hardware units on the ARM9, identical software on the host). There are
//! no floats at run time: float literals are converted by [`fx!`](crate::fx!) at
//! compile time, and the tables are `const`.

pub mod atan;
pub mod basis;
pub mod expmap;
pub mod mat3;
pub mod mat4;
pub use fxcore::power;
pub mod quat;
pub mod rsqrt;
pub mod seed_case;
pub mod selftest;
#[doc(hidden)]
pub mod tables;
pub mod trig;
use fxcore::unit;
pub use fxcore::vec3;

pub use atan::{acos, asin, atan2};
pub use mat3::Mat3;
pub use mat4::Mat4x3;
pub use power::{Fx, Fx1, Fx2, Fx3, Fx4, Fx5, Lower, Raise};
pub use quat::Quat;
pub use trig::Angle;
pub use vec3::Vec3;

/// A compile-time FX constant from a float (or integer) literal or
/// constant expression, rounded to nearest (ties away from zero).
///
/// `fx!(1.5)` is an [`Fx1`]; `fx!(0.25, Fx2)` picks the power. The float
/// arithmetic runs in the compiler (`const` block), never on the DS; a
/// value out of range is a compile error.
///
/// ```
/// use dsphys::fx;
/// use dsphys::fx::{Fx1, Fx2};
/// assert_eq!(fx!(1.5), Fx1::from_raw(6144));
/// assert_eq!(fx!(-0.25, Fx2), Fx2::from_raw(-(1 << 22)));
/// ```
#[macro_export]
macro_rules! fx {
    ($x:expr) => {
        $crate::fx!($x, Fx1)
    };
    ($x:expr, $power:ident) => {
        const {
            #[allow(clippy::unnecessary_cast)]
            let value = $crate::fx::$power::__from_f64_const(($x) as f64);
            value
        }
    };
}
