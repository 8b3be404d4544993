//! The Armed Mine (seed 000): it crawls forward by at least one body
//! length in 20 simulated seconds, upright, pushing on the ground with
//! real contact forces, and from upside down it is upright, and stays
//! so for a second, within 10 s with no scripted recovery.
//!
//! The creature is chaotic (a flat box flung by one arm), so one start
//! proves little: the last test repeats both scenarios at eight headings.

use dsphys::fx::{Angle, Fx1, Quat, Vec3};
use dsphys::rigid::characters::armed_mine::{
    crawl, recover, resting_start, step_counting_upright, ArmedMine, BODY_LENGTH, STAY_UPRIGHT,
};

#[test]
fn it_crawls_at_least_one_body_length_in_20_seconds() {
    let mut m = crawl(0);
    let x0 = m.body().position().x;
    let mut upright = 0;
    for s in 0..20 {
        for _ in 0..60 {
            m.step();
            upright += m.is_upright() as u32;
        }
        let p = m.body().position();
        println!(
            "t {:2} s: body at ({:.3}, {:.3}, {:.3}) up.y {:.2}",
            s + 1,
            p.x.to_f64(),
            p.y.to_f64(),
            p.z.to_f64(),
            m.up().y.to_f64()
        );
    }
    let moved = m.body().position().x - x0;
    println!(
        "crawled {:.3} m in 20 s (body length {:.2} m), upright {} of 1200 frames",
        moved.to_f64(),
        BODY_LENGTH.to_f64(),
        upright
    );
    assert!(moved >= BODY_LENGTH, "{moved:?}");
    // Crawling, not tumbling: upright in 90 % of the frames (measured
    // 1200 of 1200; the first tuning, which crawled 4.2 m by tumbling,
    // 244).
    assert!(upright >= 1080, "{upright}");
    // Its determinism is checked against an independent build: the ROM
    // runs `crawl_in` and compares its hash with the host's
    // (`mine_crawl_hash`), not by calling it twice here.
}

/// Counted from the first frame of a whole second upright (tumbling
/// past upright does not count: the first tuning "passed" the
/// first-upright-frame criterion at frame 396 in mid-tumble and was
/// upside down again at 10 s), and it must still be upright at 10 s.
///
/// From this start, which is symmetric about the forward axis, the old
/// controller (the cycle hung from the actual shoulder in the heading
/// frame, with no tilt skew) never righted itself: it rocked on its rear
/// edge doing push-ups straight ahead. With the tilt skew
/// (`src/rigid/characters/tilt_skew.rs`) it presses down beside its body
/// on the right, rolls over its edge, and is upright for good from
/// frame 264 (4.4 s).
#[test]
fn from_upside_down_it_is_upright_within_10_seconds() {
    let (m, from) = recover(600);
    println!(
        "upright for {STAY_UPRIGHT} frames from frame {from:?}; up at 10 s {:?}",
        m.up()
    );
    assert!(from.is_some_and(|f| f + STAY_UPRIGHT <= 600), "{from:?}");
    assert!(m.is_upright(), "upright at 10 s");
}

/// Turns the whole creature by `yaw` about the vertical through its body.
fn turn(m: &mut ArmedMine, yaw: Angle) {
    let centre = m.body().pos;
    m.rotate_about(Quat::from_axis_angle(Vec3::Y, yaw), centre);
}

/// Heading `k` of a sweep in steps of `step` (raw angle), offset by
/// 5.6 degrees except for `k = 0`, and a goal 10 m ahead along it.
fn heading(k: u16, step: u16) -> (Angle, Vec3) {
    let offset = if k == 0 { 0 } else { 0x400 };
    let yaw = Angle::from_raw(k.wrapping_mul(step).wrapping_add(offset));
    let ahead = Vec3::new(dsphys::fx!(10.0), Fx1::ZERO, Fx1::ZERO);
    (yaw, Quat::from_axis_angle(Vec3::Y, yaw).rotate(ahead))
}

/// From upside down at heading `yaw`: the first frame of the first
/// upright second within 10 s, and whether it counts as righted (that
/// second done by 10 s, and upright at 10 s).
fn right_itself(yaw: Angle, goal: Vec3) -> (Option<u32>, bool, ArmedMine) {
    let mut m = ArmedMine::upside_down(resting_start(), goal);
    turn(&mut m, yaw);
    let from = step_counting_upright(&mut m, 600);
    let ok = from.is_some_and(|f| f + STAY_UPRIGHT <= 600) && m.is_upright();
    (from, ok, m)
}

/// Both scenarios at eight headings (0, then 50.6 + k 45 degrees), each
/// with its goal 10 m ahead. It crawls a body length closer to the goal
/// from at least 6 (measured 7 since the FX2 two-bone IK, 8 before it;
/// before the tilt skew 7, the first tuning 4), upright in at least 80 %
/// of the frames (measured 99 %; 97 % with the FX1 IK, before the tilt
/// skew 86 %, the first tuning 22 %). From upside down it rights itself,
/// by the criterion of the test above, at least 6 times (a measured
/// bound: 6 since the FX2 IK, at 140.6 degrees never and at 50.6 upright
/// from frame 260 but on its back again by 10 s; 8 with the FX1 IK, at
/// frames 264, 73, 67, 172, 195, 106, 61, 161, but also 6 with the FX1
/// IK when every heading is turned by 1/65536 of a turn, so the count is
/// chaotic and 8 was one sample of it; before the tilt skew 2 of 8).
#[test]
fn it_crawls_upright_at_eight_headings() {
    let (mut righted, mut crawled, mut upright_frames) = (0, 0, 0);
    for k in 0..8u16 {
        let (yaw, goal) = heading(k, 0x2000);
        let mut m = ArmedMine::new(resting_start(), goal);
        turn(&mut m, yaw);
        let d0 = (m.body().position() - goal).length();
        for _ in 0..1200 {
            m.step();
            upright_frames += m.is_upright() as u32;
        }
        let closer = d0 - (m.body().position() - goal).length();
        crawled += (closer >= BODY_LENGTH) as u32;
        let (from, ok, _) = right_itself(yaw, goal);
        righted += ok as u32;
        println!(
            "heading {:5.1} deg: crawled {:.2} m closer, righted from frame {from:?}",
            yaw.raw() as f64 * 360.0 / 65536.0,
            closer.to_f64()
        );
    }
    println!(
        "crawled a body length at {crawled} of 8 headings, upright {:.0} % of the crawl frames; righted at {righted} of 8",
        upright_frames as f64 / 96.0
    );
    assert!(crawled >= 6, "{crawled}");
    assert!(upright_frames * 10 >= 8 * 9600, "{upright_frames}");
    assert!(righted >= 6, "{righted}");
}

/// Righting only, at 32 headings (k 11.25 degrees + 5.6, and 0), a
/// superset of the eight above: printed per heading; asserted at 28 or
/// more (measured 29 of 32 since the FX2 two-bone IK: at 73.1 and 140.6
/// degrees it is still on its back at 10 s; at 50.6 it is upright from
/// frame 260 but its crawl has flipped it over again by 10 s. With the
/// FX1 IK 30, failing at 61.9 and 39.4 instead, and 28 with every
/// heading turned by 1/65536 of a turn).
#[test]
fn it_rights_itself_at_32_headings() {
    let mut righted = 0;
    for k in 0..32u16 {
        let (yaw, goal) = heading(k, 0x800);
        let (from, ok, m) = right_itself(yaw, goal);
        righted += ok as u32;
        println!(
            "heading {:5.1} deg: upright from frame {from:?}, up.y at 10 s {:.2}",
            yaw.raw() as f64 * 360.0 / 65536.0,
            m.up().y.to_f64()
        );
    }
    println!("righted at {righted} of 32 headings");
    assert!(righted >= 28, "{righted}");
}
