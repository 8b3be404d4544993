//! The FX power types against exact integer (`i128`) and `f64` references.
//!
//! Measured worst cases (deterministic proptest runs; each test prints its
//! own), with the asserted bound in brackets:
//! - products `Fx1*Fx1`, `Fx1*Fx2`, `Fx2*Fx2`, `Fx1*Fx3`: exact, relative
//!   error 0 [0];
//! - `Fx2::lower` and the other lowerings: 0.5 steps of the lower power
//!   [0.5], ties away from zero, `lower(-x) == -lower(x)`;
//! - `Fx1::mul_lower` (product then lower): 0.5 FX1 steps [0.5]; the SDK's
//!   floored `FX_MUL`: 0.99976 steps [1];
//! - division: the truncated exact quotient, bit for bit;
//! - `Fx2::sqrt`, `Fx4::sqrt`: the floor of the exact root, bit for bit.

#[path = "fx_support.rs"]
mod support;

use dsphys::fx;
use dsphys::fx::{Fx1, Fx2, Fx3, Fx4, Fx5};
use proptest::prelude::*;
use support::*;

#[test]
fn products_are_exact_integer_products() {
    let worst = worst_error(
        "Fx1*Fx1 relative error",
        20_000,
        (any::<i32>(), any::<i32>()),
        0.0,
        |(a, b)| {
            let p = Fx1::from_raw(a) * Fx1::from_raw(b);
            (p.raw() as i128 - a as i128 * b as i128).abs() as f64
        },
    );
    assert_eq!(worst, 0.0);
    // Higher powers, inside their documented ranges.
    worst_error(
        "Fx1*Fx2, Fx2*Fx2, Fx1*Fx3 exactness",
        20_000,
        (any::<i32>(), -(1i64 << 31)..(1i64 << 31)),
        0.0,
        |(a, b)| {
            let (x, y) = (Fx1::from_raw(a), Fx2::from_raw(b));
            let p3: Fx3 = x * y;
            let p4: Fx4 = y * y;
            let p4b: Fx4 = x * Fx3::from_raw(b);
            let e3 = p3.raw() as i128 - a as i128 * b as i128;
            let e4 = p4.raw() as i128 - b as i128 * b as i128;
            let e4b = p4b.raw() as i128 - a as i128 * b as i128;
            (e3.abs() + e4.abs() + e4b.abs()) as f64
        },
    );
}

#[test]
fn lower_rounds_to_nearest_ties_away_from_zero() {
    let bound = 0.5;
    worst_error(
        "Fx2::lower error (FX1 steps)",
        50_000,
        -(1i64 << 43)..(1i64 << 43),
        bound,
        |raw| {
            let x = Fx2::from_raw(raw);
            let l = x.lower();
            assert_eq!((-x).lower(), -l, "lower is odd");
            let err = l.to_f64() - x.to_f64();
            if err.abs() == 0.5 * STEP {
                assert_eq!(err.signum(), x.to_f64().signum(), "ties go away from zero");
            }
            err.abs() / STEP
        },
    );
    for (raw, want) in [
        (2048i64, 1i32),
        (-2048, -1),
        (2047, 0),
        (-2047, 0),
        (6144, 2),
        (-6144, -2),
    ] {
        assert_eq!(Fx2::from_raw(raw).lower().raw(), want, "{raw}");
    }
    // Every lowering, including at the i64 extremes (no overflow).
    for raw in [
        i64::MAX,
        i64::MIN,
        i64::MAX - 2047,
        i64::MIN + 1,
        1 << 62,
        -(1 << 62),
    ] {
        let exact = |shift: u32| (raw as f64 / 2f64.powi(shift as i32)).round();
        assert!((Fx3::from_raw(raw).lower().raw() as f64 - exact(12)).abs() <= 1.0);
        assert!((Fx4::from_raw(raw).lower().raw() as f64 - exact(12)).abs() <= 1.0);
        assert!((Fx5::from_raw(raw).lower().raw() as f64 - exact(12)).abs() <= 1.0);
        assert!((Fx5::from_raw(raw).lower_to_fx1().raw() as f64 - exact(48)).abs() <= 1.0);
    }
}

#[test]
fn lower_saturates_into_fx1() {
    assert_eq!(Fx2::MAX.lower(), Fx1::MAX);
    assert_eq!(Fx2::MIN.lower(), Fx1::MIN);
    assert_eq!(Fx3::MAX.lower_to_fx1(), Fx1::MAX);
    assert_eq!(
        Fx4::MIN.lower_to_fx1(),
        Fx1::from_int(-32768),
        "FX4 fits FX1"
    );
    assert_eq!(Fx3::MIN.lower_to_fx1(), Fx1::MIN);
    assert_eq!((Fx1::MAX * Fx1::MAX).lower(), Fx1::MAX);
}

#[test]
fn mul_lower_vs_sdk_fx_mul() {
    let strategy = (fx1(-(1 << 20), 1 << 20), fx1(-(1 << 20), 1 << 20));
    let exact = |a: Fx1, b: Fx1| a.to_f64() * b.to_f64();
    worst_error(
        "Fx1::mul_lower error (FX1 steps)",
        20_000,
        strategy.clone(),
        0.5,
        |(a, b)| (a.mul_lower(b).to_f64() - exact(a, b)).abs() / STEP,
    );
    worst_error(
        "SDK FX_MUL (floor) error (FX1 steps)",
        20_000,
        strategy,
        1.0,
        |(a, b)| {
            let floored = (a.raw() as i64 * b.raw() as i64) >> 12;
            (floored as f64 * STEP - exact(a, b)).abs() / STEP
        },
    );
}

#[test]
fn raise_is_exact_and_checked() {
    worst_error("raise exactness", 20_000, any::<i32>(), 0.0, |a| {
        let x = Fx1::from_raw(a);
        let two: Fx2 = x.into();
        let three: Fx3 = x.into();
        assert_eq!(two, x.raise());
        assert_eq!(three, x.raise().raise());
        assert_eq!(two.lower(), x);
        assert_eq!(three.lower().lower(), x);
        assert_eq!(three.lower_to_fx1(), x);
        0.0
    });
    assert_eq!(
        Fx2::from_raw(1 << 50).checked_raise(),
        Some(Fx3::from_raw(1 << 62))
    );
    assert_eq!(Fx2::from_raw(1 << 51).checked_raise(), None);
    assert_eq!(
        Fx4::from_raw(-(1 << 51)).checked_raise(),
        Some(Fx5::from_raw(i64::MIN))
    );
}

/// The three overflow tests below exist only with debug assertions (the
/// checks they reach are `debug_assert!`s and overflow checks, both off
/// in release), so `cargo test --release` would drop them without a
/// word. This test fails there instead. `make test` runs the host tests
/// with plain `cargo test`, the debug build, where all four run.
#[test]
fn debug_only_panic_tests_are_compiled_in() {
    if !cfg!(debug_assertions) {
        panic!(
            "fx_power's should-panic tests are compiled out: run it without --release \
             (`cargo test --test fx_power`; make test does)"
        );
    }
}

#[test]
#[cfg(debug_assertions)]
#[should_panic(expected = "raise overflow")]
fn raise_overflow_panics_in_debug() {
    let _ = Fx2::from_raw(1 << 51).raise();
}

#[test]
#[cfg(debug_assertions)]
#[should_panic]
fn add_overflow_panics_in_debug() {
    let _ = Fx2::MAX + Fx2::EPSILON;
}

#[test]
#[cfg(debug_assertions)]
#[should_panic]
fn product_overflow_panics_in_debug() {
    let _ = Fx2::MAX * Fx2::MAX;
}

#[test]
fn division_truncates_the_raw_quotient() {
    worst_error(
        "Fx2/Fx1, Fx3/Fx2, Fx4/Fx2 (raw quotient difference)",
        30_000,
        (-(1i64 << 42)..(1i64 << 42), any::<i32>()),
        0.0,
        |(n, d)| {
            if d == 0 {
                return 0.0;
            }
            let q1 = (Fx2::from_raw(n) / Fx1::from_raw(d)).raw() as i128;
            let want = (n as i128 / d as i128).clamp(i32::MIN as i128, i32::MAX as i128);
            let q2 = (Fx3::from_raw(n) / Fx2::from_raw(d as i64)).raw() as i128;
            let q3 = (Fx4::from_raw(n) / Fx2::from_raw(d as i64)).raw() as i128;
            ((q1 - want).abs() + (q2 - want).abs() + (q3 - n as i128 / d as i128).abs()) as f64
        },
    );
    assert_eq!(fx!(3.0).raise() / fx!(2.0), fx!(1.5));
    assert_eq!(fx!(-3.0).div_fx1(fx!(2.0)), fx!(-1.5));
    assert_eq!(fx!(1.0).div_fx1(Fx1::ZERO), Fx1::MAX, "x / 0 saturates");
    assert_eq!(fx!(-1.0).div_fx1(Fx1::ZERO), Fx1::MIN, "x / 0 saturates");
    assert_eq!(
        Fx1::MAX.div_fx1(Fx1::EPSILON),
        Fx1::MAX,
        "an oversized quotient saturates"
    );
    assert_eq!(fx!(7.0) / 2, fx!(3.5));
}

#[test]
fn sqrt_is_the_floor_of_the_exact_root() {
    worst_error(
        "Fx2::sqrt, Fx4::sqrt (raw difference from floor)",
        30_000,
        0i64..i64::MAX,
        0.0,
        |x| {
            let floor = |v: i64| {
                let r = (v as f64).sqrt() as i128;
                (r - 2..=r + 2)
                    .filter(|c| c * c <= v as i128)
                    .max()
                    .unwrap()
            };
            let r2 = Fx2::from_raw(x).sqrt().raw() as i128;
            let r4 = Fx4::from_raw(x).sqrt().raw() as i128;
            let f = floor(x);
            ((r2 - f.min(i32::MAX as i128)).abs() + (r4 - f).abs()) as f64
        },
    );
    assert_eq!(Fx2::from_raw(-5).sqrt(), Fx1::ZERO, "negative gives zero");
    assert_eq!(fx!(2.25).sqrt(), fx!(1.5));
    assert_eq!(Fx2::MAX.sqrt(), Fx1::MAX, "saturates");
}

#[test]
fn fx_macro_rounds_at_compile_time() {
    const HALF: Fx1 = fx!(0.5);
    assert_eq!(HALF.raw(), 2048);
    assert_eq!(fx!(1.5).raw(), 6144);
    assert_eq!(fx!(-1.5).raw(), -6144);
    assert_eq!(fx!(3).raw(), 3 << 12);
    assert_eq!(fx!(0.1).raw(), 410, "0.1 * 4096 = 409.6 rounds up");
    assert_eq!(fx!(1.5 / 4096.0).raw(), 2, "ties away from zero");
    assert_eq!(fx!(-1.5 / 4096.0).raw(), -2, "ties away from zero");
    assert_eq!(fx!(0.25, Fx2).raw(), 1 << 22);
    assert_eq!(fx!(-1.0, Fx5).raw(), -(1 << 60));
    assert_eq!(Fx1::from_int(-3), fx!(-3.0));
    assert_eq!(Fx3::from_int(2).raw(), 2 << 36);
    assert_eq!(fx!(2.5).to_f64(), 2.5);
    assert_eq!(format!("{:?}", fx!(2.5)), "Fx1(2.5)");
}

/// `round_shr` against the exact quotient rounded half away from zero
/// (`i128`): at every shift, at the edges of `i64` (where its add would
/// overflow and it takes the floor-plus-carry form), at ties and beside
/// them, and at random.
#[test]
fn round_shr_rounds_half_away_from_zero_everywhere() {
    use dsphys::fx::power::round_shr;
    let exact = |x: i64, s: u32| -> i64 {
        let (q, half) = (x as i128, 1i128 << (s - 1));
        let r = if q >= 0 {
            (q + half) >> s
        } else {
            -((-q + half) >> s)
        };
        r as i64
    };
    let mut rng = dsphys::xorshift::XorShift32::new(0x9e37_79b9);
    let mut next = move || (rng.next_u32() as u64) << 32 | rng.next_u32() as u64;
    let mut checked = 0u32;
    for s in 1..=63u32 {
        let half = 1i64 << (s - 1);
        let mut xs = vec![
            0,
            1,
            -1,
            half,
            -half,
            i64::MAX,
            i64::MIN,
            i64::MIN + 1,
            i64::MAX - half,
            i64::MAX - half + 1,
            i64::MAX - half - 1,
        ];
        for k in [-3i64, -2, -1, 1, 2, 3] {
            // Ties (k 2^s + half) and their neighbours.
            let tie = k.wrapping_shl(s).wrapping_add(half);
            xs.extend([tie, tie.wrapping_sub(1), tie.wrapping_add(1)]);
        }
        for _ in 0..2000 {
            let r = next() as i64;
            xs.extend([r, r >> (next() % 64), r.wrapping_shl(s) | half]);
        }
        for x in xs {
            assert_eq!(round_shr(x, s), exact(x, s), "round_shr({x}, {s})");
            checked += 1;
        }
    }
    println!("round_shr: {checked} cases equal the exact rounding");
    // The 32-bit form agrees with the 64-bit one at every shift it takes.
    for s in 1..=31u32 {
        let half = 1i32 << (s - 1);
        for _ in 0..2000 {
            let r = next() as i32;
            for x in [
                r,
                r >> (next() % 32),
                i32::MAX,
                i32::MIN,
                half,
                -half,
                half - 1,
                -half - 1,
            ] {
                let wide = round_shr(x as i64, s);
                assert_eq!(
                    dsphys::fx::power::round_shr32(x, s) as i64,
                    wide,
                    "round_shr32({x}, {s})"
                );
            }
        }
    }
}

/// The word-wise lowering `round_shr_fits32` (shifts 1-31) gives
/// `round_shr`'s result wherever that fits an `i32`: at ties, their
/// neighbours, the edges and at random.
#[test]
fn word_wise_lowerings_equal_round_shr() {
    use dsphys::fx::power::{round_shr, round_shr_fits32};
    let mut rng = dsphys::xorshift::XorShift32::new(0x2545_f491);
    let mut next = move || (rng.next_u32() as u64) << 32 | rng.next_u32() as u64;
    let mut checked = 0u32;
    for s in 1..=31u32 {
        let half = 1i64 << (s - 1);
        let mut xs = vec![0, 1, -1, half, -half, i64::MAX, i64::MIN, i64::MIN + 1];
        for k in [-3i64, -2, -1, 1, 2, 3, i32::MAX as i64, i32::MIN as i64] {
            let tie = k.wrapping_shl(s).wrapping_add(half);
            xs.extend([tie, tie.wrapping_sub(1), tie.wrapping_add(1)]);
            xs.extend([k.wrapping_shl(s), k.wrapping_shl(s).wrapping_sub(1)]);
        }
        for _ in 0..3000 {
            // Quotients across all of i32 with random low bits, ties among
            // them, and random words (mostly out of range, skipped).
            let (r, q) = (next() as i64, next() as i32 as i64);
            let low = r & ((1i64 << s) - 1);
            xs.extend([q << s | low, q << s | half, r, r >> (next() % 64)]);
        }
        for x in xs {
            let want = round_shr(x, s);
            if want == want as i32 as i64 {
                assert_eq!(
                    round_shr_fits32(x, s) as i64,
                    want,
                    "round_shr_fits32({x}, {s})"
                );
                checked += 1;
            }
        }
    }
    println!("{checked} word-wise lowerings equal round_shr");
    assert!(checked > 100_000);
}

/// The lowerings saturate at both ends and pass through everything that
/// fits, also just inside and outside `i32` after the shift.
#[test]
fn lowering_saturates_exactly_at_the_edges_of_i32() {
    let fx2 = |raw: i64| Fx2::from_raw(raw).lower().raw();
    let top = (i32::MAX as i64) << 12;
    let bottom = (i32::MIN as i64) << 12;
    assert_eq!(fx2(top), i32::MAX);
    assert_eq!(fx2(top - 2048), i32::MAX, "rounds up to the top");
    assert_eq!(fx2(top - 2049), i32::MAX - 1);
    assert_eq!(fx2(top + 2048), i32::MAX, "saturates");
    assert_eq!(fx2(i64::MAX), i32::MAX);
    assert_eq!(fx2(bottom), i32::MIN);
    assert_eq!(fx2(bottom - 2048), i32::MIN, "a tie below saturates");
    assert_eq!(fx2(bottom + 2048), i32::MIN, "a tie rounds away from zero");
    assert_eq!(fx2(bottom + 2049), i32::MIN + 1);
    assert_eq!(fx2(i64::MIN), i32::MIN);
    assert_eq!(fx2(-2048), -1);
    assert_eq!(fx2(2047), 0);
}
