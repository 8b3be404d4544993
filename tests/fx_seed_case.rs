//! Seed 004's sphere test: the naive `FX_MUL` version against the tracked
//! FX2 version, on small spheres (radius 0.01-0.05) placed around contact,
//! judged against an exact reference.
//!
//! Measured over 100,000 cases (deterministic xorshift inputs, printed):
//! the tracked test misses 0; the naive one misses 8,622 (8.6 %).

use dsphys::fx::seed_case::{spheres_touch_naive, spheres_touch_tracked};
use dsphys::fx::{Fx1, Vec3};

/// Deterministic inputs.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// Uniform raw integer in `lo..=hi`.
    fn range(&mut self, lo: i32, hi: i32) -> i32 {
        lo + (self.next() % (hi - lo + 1) as u64) as i32
    }
}

/// The exact answer for the stored FX1 values (f64 is exact here: the raw
/// values are below 2^20, their squares below 2^40).
fn touch_reference(c1: Vec3, r1: Fx1, c2: Vec3, r2: Fx1) -> bool {
    let d: Vec<f64> = (0..3)
        .map(|i| (c1.to_array()[i].raw() - c2.to_array()[i].raw()) as f64)
        .collect();
    let r = (r1.raw() + r2.raw()) as f64;
    d.iter().map(|x| x * x).sum::<f64>() <= r * r
}

#[test]
fn naive_fx_mul_misjudges_small_spheres_tracked_never_does() {
    let mut rng = Rng(0x2545_F491_4F6C_DD1D);
    let (cases, mut naive_misses, mut tracked_misses) = (100_000, 0, 0);
    for _ in 0..cases {
        // Radii 0.01 to 0.05 (41 to 205 raw steps).
        let (r1, r2) = (
            Fx1::from_raw(rng.range(41, 205)),
            Fx1::from_raw(rng.range(41, 205)),
        );
        let c1 = Vec3::from_raw(
            rng.range(-40_000, 40_000),
            rng.range(-40_000, 40_000),
            rng.range(-40_000, 40_000),
        );
        // The second centre within r1 + r2 on every axis, so that about
        // half the pairs touch and many sit near the contact distance.
        let reach = r1.raw() + r2.raw();
        let offset = Vec3::from_raw(
            rng.range(-reach, reach),
            rng.range(-reach, reach),
            rng.range(-reach, reach),
        );
        let c2 = c1 + offset;
        let want = touch_reference(c1, r1, c2, r2);
        naive_misses += (spheres_touch_naive(c1, r1, c2, r2) != want) as u32;
        tracked_misses += (spheres_touch_tracked(c1, r1, c2, r2) != want) as u32;
    }
    println!("small spheres, {cases} cases: naive FX_MUL misses {naive_misses}, tracked FX2 misses {tracked_misses}");
    assert_eq!(tracked_misses, 0, "the FX2 comparison is exact");
    assert!(
        naive_misses > cases / 100,
        "the naive shifts should misjudge small spheres"
    );
}

#[test]
fn a_pair_the_naive_test_gets_wrong() {
    // Two spheres of radius 0.01 (41 steps) with centres 48 steps apart on
    // every axis: |d|^2 = 6912 > (r1 + r2)^2 = 6724 raw^2, so they are
    // apart. The naive test floors every term into FX1:
    // FX_MUL(48, 48) = 0 three times, FX_MUL(82, 82) = 1, and 0 <= 1.
    let r = Fx1::from_raw(41);
    let (c1, c2) = (Vec3::ZERO, Vec3::from_raw(48, 48, 48));
    assert!(!touch_reference(c1, r, c2, r));
    assert!(!spheres_touch_tracked(c1, r, c2, r));
    assert!(spheres_touch_naive(c1, r, c2, r), "naive: 0 + 0 + 0 <= 1");
}
