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
use dsphys::fx::Vec3;
use dsphys::scenario::WORLD_FRICTION;
use dsphys::verlet::{humanoid::HUMANOID, Ragdoll, Settings, WorldContacts};
use mailbox::Mailbox;

/// The largest crowd measured.
pub const MAX: usize = 64;
/// The crowd sizes of `scaling`.
const COUNTS: [usize; 7] = [1, 2, 4, 8, 16, 32, 64];
/// Frames of each measured drop (0.5 s from a low throw: the landing and
/// the tumble, the part of a drop that costs). Short, because melonDS
/// emulates about 3 frames a second: 64 ragdolls x 30 frames is 3 s of
/// DS time.
const FRAMES: u32 = 30;
/// Metres between neighbouring ragdolls' spawn points (an 8 x 8 grid
/// inside the 24 m x 24 m arena).
const SPACING: i32 = 10240; // 2.5 m, FX1 raw

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

/// The grid cell of the `i`-th ragdoll, innermost cells first, so that
/// small crowds drop in the middle of the arena like the single ragdoll.
fn cell(i: usize) -> (i32, i32) {
    // Cells (c, r) in 0..8, ranked by squared distance of (2c - 7, 2r - 7)
    // from the centre, ties by index: the i-th of that order.
    let d2 = |k: usize| {
        let (c, r) = ((k % 8) as i32 * 2 - 7, (k / 8) as i32 * 2 - 7);
        c * c + r * r
    };
    let mut order = [0u8; MAX];
    for (k, o) in order.iter_mut().enumerate() {
        *o = k as u8;
    }
    order.sort_unstable_by_key(|&k| (d2(k as usize), k));
    let k = order[i] as usize;
    ((k % 8) as i32 * 2 - 7, (k / 8) as i32 * 2 - 7)
}

/// Ragdoll `i` of a crowd: lifted 0.3-0.6 m above its cell, thrown sideways
/// (each one a different way, so they do not land in step) with a kick
/// to the head, like `dsphys::scenario::tumbling_ragdoll`.
fn spawn(i: usize, rd: &mut Ragdoll) {
    let (c, r) = cell(i);
    let at = Vec3::from_raw(
        c * SPACING / 2,
        5734 + (i as i32 % 4) * 819,
        r * SPACING / 2,
    );
    rd.rebuild(&HUMANOID, at);
    let sx = if i.is_multiple_of(2) { 1 } else { -1 };
    let sz = if i % 4 < 2 { -1 } else { 1 };
    rd.set_velocity_all(Vec3::from_raw(sx * 10240, 4096, sz * 6144));
    rd.apply_impulse(0, Vec3::from_raw(-sx * 12288, 0, -sz * 8192));
}

/// Drops a crowd of `n` and times every frame's physics.
#[inline(never)]
fn measure(crowd: &mut Crowd, n: usize) -> Drop {
    crate::hw::itcm::verlet();
    let brad_def = &dsphys::anim::humanoid_brads::HUMANOID;
    for i in 0..n {
        spawn(i, Ragdoll::in_slot(&mut crowd.ragdolls[i]));
        crowd.brads[i] = Some(BradTable::new(brad_def));
    }
    let settings = Settings::DEFAULT;
    let (mut total, mut worst) = (0u64, 0u32);
    for frame in 0..FRAMES {
        // A kick now and then keeps every ragdoll awake (asleep it costs
        // nothing), each at its own frame.
        for (i, r) in crowd.ragdolls[..n].iter_mut().flatten().enumerate() {
            if frame == 12 + (i as u32 % 8) * 2 {
                r.apply_impulse(0, dsphys::scenario::KICK);
            }
        }
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
