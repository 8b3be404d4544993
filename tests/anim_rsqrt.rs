//! The brads' unit vectors without the divider (`anim::rsqrt`): within
//! 0.6 FX1 steps of the exact quotient over vectors of every length the
//! brads produce (1 raw unit to 2^29 per component), and within one step
//! of `Vec3::try_normalise` on the DS units. Measured with `--nocapture`.

#[path = "anim_support.rs"]
mod support;

use dsphys::anim::rsqrt::unit_fx1;
use dsphys::fx::Vec3;
use support::*;

/// A vector with components up to `2^bits`.
fn vector(rng: &mut Rng, bits: u32) -> [i32; 3] {
    let m = 1i64 << bits;
    [0; 3].map(|_: i32| ((rng.next_u64() % (2 * m as u64 + 1)) as i64 - m) as i32)
}

#[test]
fn unit_vectors_are_within_0_6_steps_of_exact() {
    let mut rng = Rng(0x75_9e7);
    let (mut worst, mut worst_vs_units) = (0.0f64, 0i64);
    for k in 0..200_000u32 {
        let c = vector(&mut rng, k % 30);
        let Some(u) = unit_fx1(c) else {
            assert_eq!(c, [0; 3]);
            continue;
        };
        let len = c
            .iter()
            .map(|&v| (v as f64) * (v as f64))
            .sum::<f64>()
            .sqrt();
        for i in 0..3 {
            let exact = c[i] as f64 / len * 4096.0;
            worst = worst.max((u[i] as f64 - exact).abs());
        }
        let units = Vec3::from_raw(c[0], c[1], c[2]).try_normalise().unwrap();
        worst_vs_units = worst_vs_units.max(vec_diff(Vec3::from_raw(u[0], u[1], u[2]), units));
    }
    println!("unit_fx1: within {worst:.4} steps of exact, {worst_vs_units} of try_normalise");
    assert!(worst <= 0.6, "{worst} steps");
    assert!(worst_vs_units <= 1);
}

#[test]
fn edges_zero_axes_and_the_largest_components() {
    assert_eq!(unit_fx1([0; 3]), None);
    assert_eq!(unit_fx1([1, 0, 0]), Some([4096, 0, 0]));
    assert_eq!(unit_fx1([0, -1, 0]), Some([0, -4096, 0]));
    assert_eq!(unit_fx1([0, 0, 1 << 29]), Some([0, 0, 4096]));
    let m = 1 << 29;
    let d = unit_fx1([m, -m, m]).unwrap();
    // 4096 / sqrt 3 = 2364.83
    assert_eq!(d, [2365, -2365, 2365]);
    let d = unit_fx1([3, 4, 0]).unwrap();
    assert_eq!(d, [2458, 3277, 0]); // 0.6 and 0.8: 2457.6, 3276.8
}

/// `rsqrt::sqrt_floor_u32` is the exact floor root (as the DS unit and
/// `divsqrt`'s software give it) at every power of two and its
/// neighbours, at every perfect square's neighbours up to 2^16 roots,
/// and at a million random points.
#[test]
fn table_root_is_the_exact_floor() {
    use dsphys::fx::rsqrt::sqrt_floor_u32;
    let check = |x: u32| assert_eq!(sqrt_floor_u32(x), divsqrt::soft::sqrt_u32(x), "sqrt {x}");
    for b in 0..32 {
        let p = 1u32 << b;
        for x in [p - 1, p, p + 1] {
            check(x);
        }
    }
    check(u32::MAX);
    for r in 0..=65535u32 {
        let sq = r * r;
        check(sq);
        check(sq.wrapping_sub(1));
        check(sq + 1);
    }
    let mut rng = Rng(0x5427);
    for _ in 0..1_000_000 {
        check(rng.next_u64() as u32);
    }
}
