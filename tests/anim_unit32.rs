//! The brads' 32-bit unit vectors (`anim::unit32`): within one FX1 step
//! of the exact quotient over vectors of every length the brads produce
//! (1 raw unit to 2^29 per component), odd (`-v` gives exactly the
//! negated result), and exact on the axes. Measured with `--nocapture`.

#[path = "anim_support.rs"]
mod support;

use dsphys::anim::unit32::{unit_q12, unit_q12_pair};
use support::*;

/// A vector with components up to `2^bits`.
fn vector(rng: &mut Rng, bits: u32) -> [i32; 3] {
    let m = 1i64 << bits;
    [0; 3].map(|_: i32| ((rng.next_u64() % (2 * m as u64 + 1)) as i64 - m) as i32)
}

fn worst_error(v: [i32; 3], u: [i32; 3]) -> f64 {
    let len = v
        .iter()
        .map(|&c| (c as f64) * (c as f64))
        .sum::<f64>()
        .sqrt();
    (0..3)
        .map(|i| (u[i] as f64 - v[i] as f64 / len * 4096.0).abs())
        .fold(0.0, f64::max)
}

#[test]
fn unit_vectors_are_within_one_step_of_exact_and_odd() {
    let mut rng = Rng(0x0003_2b17);
    let mut worst = 0.0f64;
    for k in 0..300_000u32 {
        let v = vector(&mut rng, k % 30);
        let Some(u) = unit_q12(v) else {
            assert_eq!(v, [0; 3]);
            continue;
        };
        worst = worst.max(worst_error(v, u));
        assert_eq!(unit_q12(v.map(|c| -c)), Some(u.map(|c| -c)), "{v:?}");
    }
    println!("unit_q12: within {worst:.4} steps of exact");
    // The documented bound is one step; the measured worst is below it.
    assert!(worst < 1.0, "{worst} steps");
}

#[test]
fn edges_zero_axes_and_the_largest_components() {
    assert_eq!(unit_q12([0; 3]), None);
    assert_eq!(unit_q12([1, 0, 0]), Some([4096, 0, 0]));
    assert_eq!(unit_q12([0, -1, 0]), Some([0, -4096, 0]));
    assert_eq!(unit_q12([0, 0, 1 << 29]), Some([0, 0, 4096]));
    assert_eq!(unit_q12([0, 0, -(1 << 29)]), Some([0, 0, -4096]));
    for bits in 0..30 {
        // Every shift, on an axis and on the diagonal (4096 / sqrt 3 =
        // 2364.83).
        let m = 1i32 << bits;
        assert_eq!(unit_q12([m, 0, 0]), Some([4096, 0, 0]), "2^{bits}");
        let d = unit_q12([m, -m, m]).unwrap();
        assert_eq!(d, [2365, -2365, 2365], "2^{bits}");
        // Just below a power: the largest shifted magnitude (rounded up
        // to 2^15 when bits are shifted out).
        let n = m - 1;
        if n > 0 {
            let e = worst_error([n, -n, n], unit_q12([n, -n, n]).unwrap());
            assert!(e < 1.0, "2^{bits} - 1: {e}");
        }
    }
    assert_eq!(unit_q12([3, 4, 0]), Some([2458, 3277, 0]));
}

#[test]
fn pair_unit_vectors_are_within_one_step_of_exact_and_odd() {
    let mut rng = Rng(0x0003_20a1);
    let mut worst = 0.0f64;
    for k in 0..300_000u32 {
        let v = vector(&mut rng, k % 16);
        let Some(u) = unit_q12_pair(v) else {
            assert_eq!(v, [0; 3]);
            continue;
        };
        worst = worst.max(worst_error(v, u));
        assert_eq!(unit_q12_pair(v.map(|c| -c)), Some(u.map(|c| -c)), "{v:?}");
    }
    println!("unit_q12_pair: within {worst:.4} steps of exact");
    assert!(worst < 1.0, "{worst} steps");
    // The clamp's corner: every component at 2^15, |v|^2 = 3 * 2^30.
    let m = 1 << 15;
    assert_eq!(unit_q12_pair([m, -m, m]), Some([2365, -2365, 2365]));
    assert_eq!(unit_q12_pair([0, 0, -m]), Some([0, 0, -4096]));
    assert_eq!(unit_q12_pair([3, 4, 0]), Some([2458, 3277, 0]));
    assert_eq!(unit_q12_pair([0; 3]), None);
}
