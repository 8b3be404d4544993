//! The sample and blend stages' nlerp without the divider
//! (`anim::qlerp`): against an f64 nlerp of the same inputs, and against
//! `Quat::nlerp` (the DS units' version), over random pairs of rotations
//! at every weight, nearly opposite pairs (the shorter-arc flip), and keys
//! a few Q30 steps off unit. Measured with `--nocapture`.

#[path = "anim_support.rs"]
mod support;

use dsphys::anim::qlerp::nlerp;
use dsphys::fx::{Fx1, Quat};
use support::*;

/// The f64 nlerp of the same Q30 inputs and FX1 weight, in Q30 steps.
fn exact(a: Quat, b: Quat, t: Fx1) -> [f64; 4] {
    let (a, mut b) = (a.raw_q30().map(f64::from), b.raw_q30().map(f64::from));
    if (0..4).map(|i| a[i] * b[i]).sum::<f64>() < 0.0 {
        b = b.map(|c| -c);
    }
    let t = t.raw() as f64 / 4096.0;
    let c: [f64; 4] = core::array::from_fn(|i| a[i] + (b[i] - a[i]) * t);
    let len = c.iter().map(|v| v * v).sum::<f64>().sqrt();
    c.map(|v| v / len * (1u64 << 30) as f64)
}

fn steps_off(q: Quat, e: [f64; 4]) -> f64 {
    let r = q.raw_q30();
    (0..4)
        .map(|i| (r[i] as f64 - e[i]).abs())
        .fold(0.0, f64::max)
}

#[test]
fn nlerp_is_within_a_few_q30_steps_of_exact_and_of_quat_nlerp() {
    let mut rng = Rng(0x9_1e4b);
    let (mut worst, mut worst_norm, mut worst_vs_units) = (0.0f64, 0.0f64, 0i64);
    for k in 0..100_000u32 {
        let a = rng.quat();
        let b = match k % 4 {
            // Nearly opposite: the shorter arc flips b.
            0 => {
                let [w, x, y, z] = a.raw_q30();
                let j = (rng.next_u64() % 2001) as i32 - 1000;
                Quat::from_raw_q30(-w + j, -x, -y - j, -z)
            }
            // A few Q30 steps off unit, as interpolated keys are.
            1 => {
                let [w, x, y, z] = rng.quat().raw_q30();
                let mut j = || (rng.next_u64() % 7) as i32 - 3;
                Quat::from_raw_q30(w + j(), x + j(), y + j(), z + j())
            }
            _ => rng.quat(),
        };
        let t = Fx1::from_raw((rng.next_u64() % 4097) as i32);
        let q = nlerp(a, b, t);
        worst = worst.max(steps_off(q, exact(a, b, t)));
        let n = q.raw_q30().map(|c| c as f64 / (1u64 << 30) as f64);
        let norm = n.iter().map(|v| v * v).sum::<f64>().sqrt();
        worst_norm = worst_norm.max((norm - 1.0).abs() * (1u64 << 30) as f64);
        let u = a.nlerp(b, t).raw_q30();
        let d = (0..4)
            .map(|i| (q.raw_q30()[i] as i64 - u[i] as i64).abs())
            .max();
        worst_vs_units = worst_vs_units.max(d.unwrap());
    }
    println!(
        "qlerp::nlerp: within {worst:.2} Q30 steps of exact, |q| - 1 within {worst_norm:.2} steps, \
         {worst_vs_units} steps from Quat::nlerp"
    );
    assert!(worst <= 4.0, "{worst} steps from exact");
    assert!(worst_norm <= 4.0, "|q| off by {worst_norm} steps");
    assert!(
        worst_vs_units <= 6,
        "{worst_vs_units} steps from Quat::nlerp"
    );
}

#[test]
fn ends_and_degenerate_inputs() {
    let mut rng = Rng(0xe4d5);
    for _ in 0..1000 {
        let (a, b) = (rng.quat(), rng.quat());
        // t = 0 and t = 1 are the (renormalised) ends, within a step.
        let d0 = steps_off(nlerp(a, b, Fx1::ZERO), a.raw_q30().map(f64::from));
        let b_short = if a.dot_q60(b) < 0 { -b } else { b };
        let d1 = steps_off(nlerp(a, b, Fx1::ONE), b_short.raw_q30().map(f64::from));
        assert!(d0 <= 2.0 && d1 <= 2.0, "{d0} {d1}");
    }
    // Exact opposites half way: zero, the identity.
    let a = Quat::from_raw_q30(1 << 30, 0, 0, 0);
    let half = Fx1::from_raw(2048);
    assert_eq!(
        nlerp(a, Quat::from_raw_q30(0, 1 << 30, 0, 0), half).raw_q30()[0],
        759_250_125
    );
    // Components of exactly ±1/2 (the largest a unit mix can square-sum
    // to): the table's top entry, no overflow.
    let h = 1 << 29;
    let q = nlerp(
        Quat::from_raw_q30(h, h, h, h),
        Quat::from_raw_q30(h, h, -h, -h),
        Fx1::ZERO,
    );
    assert_eq!(q.raw_q30(), [h, h, h, h]);
}
