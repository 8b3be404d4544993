//! `kdtree` (issue 8): one ragdoll's collision phase (broad and narrow)
//! in worlds of m = 64..4096 triangles, with the k-d tree and with brute
//! force (the same triangles as one leaf, so every query tests them all).
//!
//! The worlds and the drop's constants come from the build script
//! (`build_kd_worlds.rs`). Both runs of a world are the same drop bit for
//! bit (same triangles in the same order), which the ROM checks against
//! the host's hash: a panic here means the comparison would be unfair.

use super::{record, us_x10};
use crate::clock::{BusClock, Profiler};
use crate::physics::{step_ragdoll_in_world, PhysicsPhases};
use dsphys::collision::CollisionWorld;
use dsphys::verlet::Settings;
use mailbox::Mailbox;

mod worlds {
    include!(concat!(env!("OUT_DIR"), "/kd_bench_worlds.rs"));
}

/// Bus cycles of the collision phase and of its broad phase, over the
/// whole drop in `world`.
#[inline(never)]
fn collision_cycles(
    world: &CollisionWorld,
    w: &mut super::RagdollWorkload,
    host: u32,
) -> (u64, u64) {
    let mut prof = Profiler::new(BusClock);
    let ph = PhysicsPhases::register(&mut prof);
    let settings = Settings::DEFAULT;
    dsphys::scenario::arena_drop_into(&mut w.ragdoll);
    for frame in 0..worlds::FRAMES {
        dsphys::scenario::kick_every(&mut w.ragdoll, frame, worlds::KICK_EVERY);
        step_ragdoll_in_world(
            &mut w.ragdoll,
            &settings,
            world,
            &mut w.contacts,
            &mut prof,
            &ph,
        );
        prof.end_frame();
    }
    let hash = w.ragdoll.state_hash();
    assert!(hash == host, "kdtree drop {hash:#010x}, host {host:#010x}");
    let total = |id: profiler::PhaseId| {
        prof.phases()
            .nth(id.index())
            .map_or(0, |(_, s)| s.total_cycles)
    };
    (total(ph.collision), total(ph.broad))
}

/// `kdtree.M.kd_us` and `kdtree.M.brute_us`: the collision phase per
/// frame, averaged over the drop (the report turns them into a list);
/// `kd_broad_us` and `brute_broad_us`: its broad phase, the only part
/// that differs (the narrow phase gets the same candidates).
#[inline(never)]
pub fn figures(mb: &mut Mailbox, w: &mut super::RagdollWorkload) {
    let per_frame = |c: u64| us_x10((c / worlds::FRAMES as u64) as u32);
    for &(m, tree, brute, host) in &worlds::WORLDS {
        let kd = collision_cycles(tree, w, host);
        let bf = collision_cycles(brute, w, host);
        for (field, cycles) in [
            ("kd_us", kd.0),
            ("brute_us", bf.0),
            ("kd_broad_us", kd.1),
            ("brute_broad_us", bf.1),
        ] {
            let key = crate::text!(40; "kdtree.{}.{}", m, field);
            record(mb, key.as_str(), per_frame(cycles), 1);
        }
    }
    record(mb, "kdtree_frames_per_drop", worlds::FRAMES as i32, 0);
}
