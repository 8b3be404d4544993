//! Crowds (issue 8): `scaling` (physics time of n default ragdolls in the
//! arena, n = 1..64) and `ragdolls_at_60hz` (the largest n whose step
//! fits the frame, found by measuring, not by extrapolating).
//!
//! "Physics" is the crowd's whole step in the 2528-triangle arena
//! (`dsphys::verlet::step_crowd_in_world`: integrate, constraints,
//! ragdoll-vs-ragdoll contacts, broad and narrow phase) plus each
//! ragdoll's brads (the 16 joint matrices the renderer needs).

use super::{record, us_x10};
use crate::hw::once::TakeOnce;
use crate::hw::timer;
use dsphys::anim::brad::BradTable;
use dsphys::scenario::WORLD_FRICTION;
use dsphys::verlet::{Ragdoll, Settings, WorldContacts};
use mailbox::Mailbox;

/// The largest crowd measured.
pub const MAX: usize = dsphys::scenario::CROWD_CELLS;
/// The crowd sizes of `scaling`.
const COUNTS: [usize; 7] = [1, 2, 4, 8, 16, 32, 64];
/// Frames of each measured drop. Short, because melonDS emulates about 3
/// frames a second: 64 ragdolls x 30 frames is 3 s of DS time.
const FRAMES: u32 = dsphys::scenario::CROWD_FRAMES;
/// Every ragdoll of the largest crowd with its brad table, and the broad
/// phase's scratch: about 3 KiB per ragdoll, so in a static.
pub struct Crowd {
    ragdolls: [Option<Ragdoll>; MAX],
    /// The broad phase's scratch, used by one ragdoll at a time.
    contacts: WorldContacts,
    brads: [Option<BradTable>; MAX],
}

static CROWD: TakeOnce<Crowd> = TakeOnce::new(Crowd {
    ragdolls: [const { None }; MAX],
    contacts: WorldContacts::new(),
    brads: [const { None }; MAX],
});

/// One measured drop of a crowd: bus cycles per frame.
#[derive(Clone, Copy)]
struct Drop {
    mean: u32,
    worst: u32,
}

/// Drops a crowd of `n` and times every frame's physics.
#[inline(never)]
fn measure(crowd: &mut Crowd, n: usize) -> Drop {
    crate::hw::itcm::verlet();
    let brad_def = &dsphys::anim::humanoid_brads::HUMANOID;
    for i in 0..n {
        dsphys::scenario::crowd_spawn(i, Ragdoll::in_slot(&mut crowd.ragdolls[i]));
        crowd.brads[i] = Some(BradTable::new(brad_def));
    }
    let settings = Settings::DEFAULT;
    let (mut total, mut worst) = (0u64, 0u32);
    for frame in 0..FRAMES {
        dsphys::scenario::kick_crowd(&mut crowd.ragdolls[..n], frame);
        let t0 = timer::cycles();
        // One crowd step (ragdoll-vs-ragdoll contacts included), then
        // every ragdoll's brads.
        dsphys::verlet::step_crowd_in_world(
            &mut crowd.ragdolls[..n],
            &settings,
            &crate::worlds::ARENA,
            &mut crowd.contacts,
            WORLD_FRICTION,
            &mut dsphys::verlet::Untimed,
        );
        for (r, brads) in crowd.ragdolls[..n].iter().zip(&mut crowd.brads[..n]) {
            let (r, brads) = (r.as_ref().expect("spawned"), brads.as_mut().expect("built"));
            brads.build(r.positions());
        }
        let t = timer::cycles().wrapping_sub(t0);
        total += t as u64;
        worst = worst.max(t);
    }
    let mut h = 0u32;
    for r in crowd.ragdolls[..n].iter().flatten() {
        h ^= r.state_hash();
    }
    core::hint::black_box(h);
    Drop {
        mean: (total / FRAMES as u64) as u32,
        worst,
    }
}

/// The largest n in `fits..unfit` whose drop's mean frame fits the
/// budget, bisecting with a measured drop per probe; `fits` is known to
/// fit and `unfit` not to (or to be past [`MAX`]).
fn bisect(crowd: &mut Crowd, mut fits: usize, mut unfit: usize) -> usize {
    while unfit - fits > 1 {
        let mid = (fits + unfit) / 2;
        if measure(crowd, mid).mean <= timer::FRAME_CYCLES {
            fits = mid;
        } else {
            unfit = mid;
        }
    }
    fits
}

/// The largest count of [`COUNTS`] whose mean frame fits, and the next
/// one (or one past [`MAX`]).
fn bracket(drops: &[Drop; COUNTS.len()]) -> (usize, usize) {
    let mut fits = 0;
    for (&n, &d) in COUNTS.iter().zip(drops) {
        if d.mean > timer::FRAME_CYCLES {
            return (fits, n);
        }
        fits = n;
    }
    (fits, MAX + 1)
}

/// `scaling.N` (mean physics us per frame of N ragdolls; the report
/// turns these into a list), `crowd.worst_frame_us.N` (the slowest frame
/// of that drop) and `ragdolls_at_60hz` (the largest N whose mean fits).
#[inline(never)]
pub fn figures(mb: &mut Mailbox) {
    let crowd = CROWD.take().expect("crowd taken once");
    let mut drops = [Drop { mean: 0, worst: 0 }; COUNTS.len()];
    for (d, &n) in drops.iter_mut().zip(&COUNTS) {
        *d = measure(crowd, n);
        let key = crate::text!(40; "scaling.{}", n);
        record(mb, key.as_str(), us_x10(d.mean), 1);
        let key = crate::text!(40; "crowd.worst_frame_us.{}", n);
        record(mb, key.as_str(), us_x10(d.worst), 1);
    }
    let (lo, hi) = bracket(&drops);
    let n = bisect(crowd, lo, hi);
    record(mb, "ragdolls_at_60hz", n as i32, 0);
    record(mb, "crowd.frames_per_drop", FRAMES as i32, 0);
}
