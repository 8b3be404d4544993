//! Shared helpers for the animation tests (included with `#[path]`).
#![allow(dead_code)]

use dsphys::anim::humanoid::HUMANOID;
use dsphys::anim::{expand, sample_clip, Clip, JointPose, MAX_JOINTS};
use dsphys::fx::{Fx1, Mat3, Mat4x3, Quat, Vec3};

/// Seconds to FX1 (tests only).
pub fn secs(t: f64) -> Fx1 {
    Fx1::from_raw((t * 4096.0).round() as i32)
}

/// The largest entry difference of two matrices, in FX1 steps.
pub fn mat_diff(a: &Mat3, b: &Mat3) -> i64 {
    let mut worst = 0;
    for c in 0..3 {
        for (x, y) in a.cols[c].raw().into_iter().zip(b.cols[c].raw()) {
            worst = worst.max((x as i64 - y as i64).abs());
        }
    }
    worst
}

/// The largest component difference of two vectors, in FX1 steps.
pub fn vec_diff(a: Vec3, b: Vec3) -> i64 {
    a.raw()
        .into_iter()
        .zip(b.raw())
        .map(|(x, y)| (x as i64 - y as i64).abs())
        .max()
        .unwrap()
}

/// The angle (radians) between two rotations.
pub fn quat_angle(a: Quat, b: Quat) -> f64 {
    let (a, b) = (a.to_f64(), b.to_f64());
    let d: f64 = (0..4).map(|i| a[i] * b[i]).sum::<f64>().abs();
    2.0 * d.min(1.0).acos()
}

/// The humanoid's pose at `t` of `clip`, expanded at `placement`.
pub fn posed(
    clip: &Clip,
    t: Fx1,
    placement: &Mat4x3,
) -> ([JointPose; MAX_JOINTS], [Mat4x3; MAX_JOINTS]) {
    let n = HUMANOID.len();
    let mut local = [JointPose::IDENTITY; MAX_JOINTS];
    let mut model = [Mat4x3::IDENTITY; MAX_JOINTS];
    sample_clip(&HUMANOID, clip, t, &mut local[..n]);
    expand(HUMANOID.parents, &local[..n], placement, 0, &mut model[..n]);
    (local, model)
}

/// xorshift64*: reproducible test randomness.
pub struct Rng(pub u64);

impl Rng {
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// Uniform in `[lo, hi)`.
    pub fn range(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// A point in a cube of half-size `h` metres, as FX1.
    pub fn point(&mut self, h: f64) -> Vec3 {
        let mut c = || Fx1::from_raw((self.range(-h, h) * 4096.0).round() as i32);
        Vec3::new(c(), c(), c())
    }

    /// A uniformly random rotation.
    pub fn quat(&mut self) -> Quat {
        loop {
            let q = [0; 4].map(|_: i32| self.range(-1.0, 1.0));
            let n = q.iter().map(|c| c * c).sum::<f64>().sqrt();
            if n > 0.1 && n <= 1.0 {
                let r = q.map(|c| (c / n * (1u64 << 30) as f64).round() as i32);
                return Quat::from_raw_q30(r[0], r[1], r[2], r[3]);
            }
        }
    }
}
