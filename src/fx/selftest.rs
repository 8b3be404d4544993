//! A determinism check for the ROM: run many pseudo-random FX operations
//! and hash every result's raw bits. The DS and the host must print the
//! same value for the same `(seed, count)`.

use super::atan::{acos, asin, atan2};
use super::basis::orthonormal_basis;
use super::mat4::Mat4x3;
use super::power::{Fx1, Fx2};
use super::quat::Quat;
use super::trig::{sin_cos_radians, Angle};
use super::vec3::Vec3;
use crate::xorshift::XorShift32;

/// FX operands drawn from the generator.
struct Operands(XorShift32);

impl Operands {
    fn next(&mut self) -> u32 {
        self.0.next_u32()
    }

    /// FX1 in `[-256, 256)`: products, sums of three squares and cross
    /// products stay far inside FX2.
    fn fx(&mut self) -> Fx1 {
        Fx1::from_raw(self.next() as i32 >> 11)
    }

    /// FX1 in `[-1, 1)`.
    fn unit_fx(&mut self) -> Fx1 {
        Fx1::from_raw(self.next() as i32 >> 19)
    }

    /// FX1 in `[0, 1)`.
    fn t(&mut self) -> Fx1 {
        Fx1::from_raw((self.next() >> 20) as i32)
    }

    fn vec(&mut self) -> Vec3 {
        Vec3::new(self.fx(), self.fx(), self.fx())
    }

    /// A rotation by up to about 7 rad about a random axis.
    fn quat(&mut self) -> Quat {
        let v = Vec3::from_raw(
            self.next() as i32 >> 17,
            self.next() as i32 >> 17,
            self.next() as i32 >> 17,
        );
        Quat::exp(v)
    }
}

/// FNV-1a over the bytes of each word.
struct Fnv1a(u32);

impl Fnv1a {
    fn word(&mut self, w: u32) {
        for b in w.to_le_bytes() {
            self.0 = (self.0 ^ b as u32).wrapping_mul(0x0100_0193);
        }
    }

    fn i64(&mut self, v: i64) {
        self.word(v as u32);
        self.word((v >> 32) as u32);
    }

    fn vec(&mut self, v: Vec3) {
        for c in v.raw() {
            self.word(c as u32);
        }
    }

    fn quat(&mut self, q: Quat) {
        for c in q.raw_q30() {
            self.word(c as u32);
        }
    }
}

/// Runs `count` pseudo-random operations (seeded xorshift32) over the FX
/// library and returns the FNV-1a hash of all their raw results.
///
/// Covers multiply, lower, divide, square root, normalise, cross, the
/// quaternion product, normalise, slerp, log and exp, sine/cosine, atan2,
/// asin/acos, Gram-Schmidt, and quaternion/matrix/affine conversions.
/// Inputs stay inside each operation's documented range, so it never
/// panics, for any seed, in debug or release builds.
///
/// On the host, `selftest_hash(1, 4000) == 0xA82A_F257`
/// (`tests/fx_selftest.rs`); the DS must print the same.
pub fn selftest_hash(seed: u32, count: u32) -> u32 {
    let mut rng = Operands(XorShift32::new(seed));
    let mut h = Fnv1a(0x811C_9DC5);
    for _ in 0..count {
        match rng.next() >> 28 {
            0 => h.i64((rng.fx() * rng.fx()).raw()),
            1 => {
                let wide =
                    Fx2::from_raw(((rng.next() as i32 as i64) << 8) | (rng.next() as i64 & 0xFF));
                h.word(wide.lower().raw() as u32);
            }
            2 => h.word(((rng.fx() * rng.fx()) / rng.fx()).raw() as u32),
            3 => {
                let (a, b) = (rng.fx(), rng.fx());
                h.word((a * a + b * b).sqrt().raw() as u32);
            }
            4 => h.vec(rng.vec().normalise()),
            5 => {
                let c = rng.vec().cross(rng.vec());
                h.i64(c.x.raw());
                h.i64(c.y.raw());
                h.i64(c.z.raw());
            }
            6 => h.quat((rng.quat() * rng.quat()).normalise()),
            7 => {
                let (a, b) = (rng.quat(), rng.quat());
                h.quat(a.slerp(b, rng.t()));
            }
            8 => h.vec(rng.quat().log()),
            // Up to ~440 rad: exercises the angle wrap.
            9 => h.quat(Quat::exp(rng.vec())),
            10 => {
                let a = Angle::from_raw(rng.next() as u16);
                let (s, c) = sin_cos_radians(rng.fx());
                for v in [a.sin(), a.cos(), s, c] {
                    h.word(v.raw() as u32);
                }
            }
            11 => h.word(atan2(rng.fx(), rng.fx()).raw() as u32),
            12 => {
                let x = rng.unit_fx();
                h.word(asin(x).raw() as u32 | (acos(x).raw() as u32) << 16);
            }
            13 => {
                let m = orthonormal_basis(rng.vec(), rng.vec());
                m.cols.iter().for_each(|&c| h.vec(c));
            }
            14 => {
                let q = Quat::from_mat3(&rng.quat().to_mat3());
                h.quat(q);
                h.vec(q.rotate(rng.vec()));
            }
            _ => {
                let m = Mat4x3::new(rng.quat().to_mat3(), rng.vec());
                let p = rng.vec();
                h.vec((m * m.rigid_inverse()).transform_point(p));
            }
        }
    }
    h.0
}
