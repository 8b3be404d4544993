//! Sleeping in the box room (`Ragdoll::step_in_room`,
//! `verlet::step_crowd_in_room`): a ragdoll that rests on the room falls
//! asleep within 3 s of landing, and a push wakes it. Until the room
//! reported its contacts it never slept there (issue 21), and the bench's
//! single ragdoll, the ROM's crowd in the room and the soak ran every
//! frame of a pile at rest.
//!
//! Measured (`cargo test --release --test verlet_sleep -- --nocapture`):
//! see the printed lines.

use dsphys::fx;
use dsphys::fx::Vec3;
use dsphys::scenario::{tumbling_ragdoll, ROOM};
use dsphys::verlet::{step_crowd_in_room, Ragdoll, Settings, Untimed, SLEEP_FRAMES};

/// True when a particle touches the room's floor.
fn touches_floor(r: &Ragdoll) -> bool {
    let floor = ROOM.min.y;
    r.positions()
        .iter()
        .zip(r.particles.radii())
        .any(|(p, &rad)| p.y <= floor + rad)
}

#[test]
fn a_ragdoll_in_the_room_sleeps_within_3_s_of_landing_and_wakes_when_pushed() {
    for offset in [Vec3::ZERO, Vec3::new(fx!(0.5), fx!(0.3), fx!(-0.4))] {
        let mut r = tumbling_ragdoll(offset);
        let mut landed = None;
        let mut asleep = None;
        for k in 0..600u32 {
            r.step_in_room(&Settings::DEFAULT, &ROOM);
            if landed.is_none() && touches_floor(&r) {
                landed = Some(k);
            }
            if r.is_asleep() {
                asleep = Some(k);
                break;
            }
        }
        println!("offset {offset:?}: landed at frame {landed:?}, asleep at {asleep:?}");
        let (landed, asleep) = (landed.expect("never landed"), asleep.expect("never slept"));
        assert!(asleep >= landed + SLEEP_FRAMES as u32);
        assert!(
            asleep - landed <= 180,
            "asleep {} frames after landing",
            asleep - landed
        );
        // Asleep, a step changes nothing; a push wakes it and it moves.
        let before = r.state_hash();
        r.step_in_room(&Settings::DEFAULT, &ROOM);
        assert_eq!(r.state_hash(), before);
        r.apply_impulse(0, Vec3::new(fx!(2.0), fx!(1.0), fx!(0.0)));
        assert!(!r.is_asleep());
        r.step_in_room(&Settings::DEFAULT, &ROOM);
        assert_ne!(r.state_hash(), before);
    }
}

#[test]
fn a_crowd_in_the_room_falls_asleep() {
    let mut crowd: [Option<Ragdoll>; 3] = [None, None, None];
    for (k, slot) in crowd.iter_mut().enumerate() {
        let x = fx!(0.8) * (k as i32 - 1);
        *slot = Some(tumbling_ragdoll(Vec3::new(
            x,
            fx!(0.4) * k as i32,
            fx!(0.0),
        )));
    }
    let mut all_asleep = None;
    for k in 0..900u32 {
        step_crowd_in_room(&mut crowd, &Settings::DEFAULT, &ROOM, &mut Untimed);
        if crowd.iter().flatten().all(|r| r.is_asleep()) {
            all_asleep = Some(k);
            break;
        }
    }
    println!("crowd of 3 in the room: all asleep at frame {all_asleep:?}");
    assert!(all_asleep.is_some(), "the crowd never slept");
}
