//! The Armed Mine (seed 000): it crawls forward by at least one body
//! length in 20 simulated seconds, upright, pushing on the ground with
//! real contact forces, and (not met yet) from upside down it is upright,
//! and stays so for a second, within 10 s with no scripted recovery.
//!
//! The creature is chaotic (a flat box flung by one arm), so one start
//! proves little: the last test repeats both scenarios at eight headings.

use dsphys::fx::{Angle, Fx1, Quat, Vec3};
use dsphys::rigid::characters::armed_mine::{crawl, recover, ArmedMine, BODY_LENGTH, STAY_UPRIGHT};
use dsphys::rigid::raise;

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
    // The scenario function the ROM runs gives the same state.
    assert_eq!(crawl(1200).world.state_hash(), m.world.state_hash());
}

/// NOT MET YET, so ignored (run with `--ignored`). Counted from the first
/// frame of a whole second upright (tumbling past upright does not
/// count: the first tuning "passed" the first-upright-frame criterion at
/// frame 396 in mid-tumble and was upside down again at 10 s).
///
/// Measured (`it_crawls_upright_at_eight_headings` prints it): from this
/// start, which is symmetric about the forward axis, it never rights
/// itself; from the seven other headings it does at 3 (at frames 199,
/// 216, 230): the cycle hangs from the actual shoulder, so upside down
/// its plant points lie 0.16 m under the ground and the arm does push-ups
/// that sometimes pitch the body over. A host sweep (16 headings) over
/// strength, drive rate, plant depth and pull length found no setting
/// that both crawls upright and rights itself reliably: drives strong or
/// stiff enough to right it 10-14 times in 16 also tumble it while
/// crawling (upright in 40-70 % of the frames); the chosen soft drive
/// crawls upright (96 %) and rights it 6 times in 16.
#[test]
#[ignore]
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
    let q = Quat::from_axis_angle(Vec3::Y, yaw);
    let centre = m.body().pos;
    for b in m.world.bodies_mut() {
        b.pos = centre + raise(q.rotate((b.pos - centre).lower()));
        b.rot = (q * b.rot).normalise();
        b.update_derived();
    }
}

/// Both scenarios at eight headings (0, then 50.6 + k 45 degrees), each
/// with its goal 10 m ahead. It crawls a body length closer to the goal
/// from at least 6 (measured 7; the first tuning 4), upright in at least
/// 80 % of the frames (measured 86 %; the first tuning 22 %). Righting
/// itself is printed, not asserted (measured 3 of 8; the first tuning,
/// by the same one-second criterion, 2).
#[test]
fn it_crawls_upright_at_eight_headings() {
    let start = Vec3::new(
        Fx1::ZERO,
        dsphys::rigid::characters::armed_mine::BODY_HALF.y,
        Fx1::ZERO,
    );
    let (mut righted, mut crawled, mut upright_frames) = (0, 0, 0);
    for k in 0..8u16 {
        let yaw =
            Angle::from_raw(
                k.wrapping_mul(0x2000)
                    .wrapping_add(if k == 0 { 0 } else { 0x400 }),
            );
        let goal = Quat::from_axis_angle(Vec3::Y, yaw).rotate(Vec3::new(
            dsphys::fx!(10.0),
            Fx1::ZERO,
            Fx1::ZERO,
        ));
        let mut m = ArmedMine::new(start, goal);
        turn(&mut m, yaw);
        let d0 = (m.body().position() - goal).length();
        for _ in 0..1200 {
            m.step();
            upright_frames += m.is_upright() as u32;
        }
        let closer = d0 - (m.body().position() - goal).length();
        crawled += (closer >= BODY_LENGTH) as u32;
        let mut m = ArmedMine::upside_down(start, goal);
        turn(&mut m, yaw);
        let (mut run, mut from) = (0, None);
        for f in 0..600 {
            m.step();
            run = if m.is_upright() { run + 1 } else { 0 };
            if from.is_none() && run == STAY_UPRIGHT {
                from = Some(f + 1 - STAY_UPRIGHT);
            }
        }
        righted += from.is_some() as u32;
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
}
