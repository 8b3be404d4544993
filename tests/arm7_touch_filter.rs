//! The ARM7's touch filter (`nds/arm7/src/touch_filter.rs`, shared by
//! path): the pressure check, the median with its spread limit, and the
//! hold that keeps a touch through a noisy frame but never starts one on
//! it. Readings are modelled on DeSmuME's (Z1 from 79 while touching)
//! and melonDS's (0xFFF for both pressure channels).

#[path = "../nds/arm7/src/touch_filter.rs"]
mod touch_filter;

use touch_filter::*;

/// A firm press at `(x, y)`, as DeSmuME reads the middle of the screen.
fn firm(x: u16, y: u16) -> Sample {
    Sample {
        x,
        y,
        z1: 600,
        z2: 2900,
    }
}

fn frame(s: Sample) -> [Sample; SAMPLES] {
    [s; SAMPLES]
}

#[test]
fn contact_decides_what_counts() {
    let s = firm(2000, 2000);
    assert!(pressed(&s));
    // melonDS: 0xFFF for Z1 and Z2.
    assert!(pressed(&Sample {
        z1: 0xFFF,
        z2: 0xFFF,
        ..s
    }));
    // DeSmuME's lowest Z1 while touching, whatever Z2 says.
    assert!(pressed(&Sample {
        z1: 79,
        z2: 1779,
        ..s
    }));
    // No contact: Z1 near zero.
    assert!(!pressed(&Sample {
        z1: MIN_Z1 - 1,
        ..s
    }));
    // The lift markers of the old single-sample path.
    assert!(!pressed(&Sample { x: 0, ..s }));
    assert!(!pressed(&Sample { y: 0xFFF, ..s }));
}

#[test]
fn the_median_rejects_outliers_and_spread() {
    let mut f = frame(firm(2000, 1500));
    // Two wild samples (a bounce) do not move the median.
    f[0].x = 100;
    f[4].y = 4000;
    assert_eq!(steady_median(&f), Some((2000, 1500)));
    // A middle three wider than the limit is unsteady.
    let mut g = frame(firm(2000, 1500));
    for (s, x) in g
        .iter_mut()
        .zip([1900, 1990, 2000, 1990 + MAX_SPREAD + 1, 2100])
    {
        s.x = x;
    }
    assert_eq!(steady_median(&g), None);
    g[3].x = 1990 + MAX_SPREAD;
    assert_eq!(steady_median(&g), Some((2000, 1500)));
    // Fewer than three sets that count.
    let mut h = frame(firm(2000, 1500));
    for s in &mut h[..3] {
        s.z1 = 0;
    }
    assert_eq!(steady_median(&h), None);
}

#[test]
fn a_touch_starts_steady_holds_through_noise_and_ends_with_the_pen() {
    let mut t = TouchFilter::default();
    let noisy = {
        let mut f = frame(firm(2000, 1500));
        for (k, s) in f.iter_mut().enumerate() {
            s.x = 1800 + 100 * k as u16;
        }
        f
    };
    // Landing: the noisy first frame reports nothing.
    assert_eq!(t.update(true, &noisy), None);
    assert_eq!(t.update(true, &frame(firm(2000, 1500))), Some((2000, 1500)));
    // Noise while touching: the last position, for HOLD_FRAMES frames.
    for _ in 0..HOLD_FRAMES {
        assert_eq!(t.update(true, &noisy), Some((2000, 1500)));
    }
    assert_eq!(t.update(true, &noisy), None);
    // A new steady frame starts a touch again.
    assert_eq!(t.update(true, &frame(firm(2100, 1400))), Some((2100, 1400)));
    // The pen bit going up ends it at once, whatever the samples.
    assert_eq!(t.update(false, &frame(firm(2100, 1400))), None);
    assert_eq!(t.update(true, &noisy), None);
}
