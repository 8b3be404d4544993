//! Many ragdolls in one world, touching each other: sphere contacts
//! between the particles of different ragdolls (issue 4).
//!
//! A frame of a crowd runs each phase for every ragdoll in turn:
//! integrate and relax them all, push apart the particles of different
//! ragdolls that overlap, then collide each with the world. The push comes
//! **before** the world sweep, so a particle pushed towards a wall is swept
//! there like any other motion and cannot be pushed through it.
//!
//! A sleeping ragdoll does not move this frame: it counts as immovable
//! (inverse mass 0) in a contact, and the contact wakes it for the next.
//! Pairs are found with each ragdoll's bounding box; everything runs in a
//! fixed order (ragdoll index, then particle index), so a crowd is as
//! deterministic as one ragdoll.

use crate::collision::{separate_spheres, CollisionWorld};
use crate::fx::{Fx1, Vec3};

use super::timing::timed;
use super::{BoxRoom, PhaseTimer, Ragdoll, Settings, StepParams, StepPhase, WorldContacts};

/// The most ragdolls [`step_crowd_in_world`] takes (a bit each in its
/// masks).
pub const MAX_CROWD: usize = 64;

/// One frame of every ragdoll in `crowd` (empty slots are skipped) in
/// `world`, with contacts between them: as [`Ragdoll::step_in_world`] for
/// each, plus [`separate_ragdolls`] before the world collision of each
/// substep. `contacts` is scratch, used by one ragdoll at a time. Returns
/// how many particle pairs touched.
///
/// # Panics
/// If `crowd` has more than [`MAX_CROWD`] slots.
pub fn step_crowd_in_world<T: PhaseTimer, const N: usize, const C: usize>(
    crowd: &mut [Option<Ragdoll<N, C>>],
    settings: &Settings,
    world: &CollisionWorld,
    contacts: &mut WorldContacts<N>,
    friction: Fx1,
    timer: &mut T,
) -> usize {
    // A crowd of one keeps its lists from step to step, as a lone ragdoll
    // does (the same results, bit for bit: `WorldContacts::broad_phase_kept`);
    // a bigger crowd shares `contacts` between its ragdolls, whose lists a
    // margin would only lengthen.
    let alone = crowd.iter().filter(|r| r.is_some()).count() == 1;
    step_crowd(crowd, settings, timer, |r, t| {
        timed(t, StepPhase::BroadPhase, |_| {
            if alone {
                contacts.broad_phase_kept(world, &r.particles)
            } else {
                contacts.broad_phase(world, &r.particles)
            }
        });
        let n = timed(t, StepPhase::NarrowPhase, |_| {
            contacts.narrow_phase(world, &mut r.particles, friction)
        });
        n > 0
    })
}

/// [`step_crowd_in_world`] with any collision: `collide(i, prev, cur,
/// radius)` for every free particle, as [`Ragdoll::step_with`]. Nothing
/// here tells it whether a particle touched, so the crowd never sleeps.
pub fn step_crowd_with<T: PhaseTimer, const N: usize, const C: usize>(
    crowd: &mut [Option<Ragdoll<N, C>>],
    settings: &Settings,
    mut collide: impl FnMut(usize, &mut Vec3, &mut Vec3, Fx1),
    timer: &mut T,
) -> usize {
    step_crowd(crowd, settings, timer, |r, _| {
        r.particles.for_each_free(&mut collide);
        false
    })
}

/// One frame of a crowd in a box room, with contacts between them and
/// sleeping (a ragdoll resting on the room for [`super::SLEEP_FRAMES`]
/// sleeps); returns the particle pairs that touched.
pub fn step_crowd_in_room<T: PhaseTimer, const N: usize, const C: usize>(
    crowd: &mut [Option<Ragdoll<N, C>>],
    settings: &Settings,
    room: &BoxRoom,
    timer: &mut T,
) -> usize {
    step_crowd(crowd, settings, timer, |r, _| r.touch_room(room))
}

/// The crowd frame; `world(r, timer)` collides one ragdoll with the world
/// and says whether it touched it.
fn step_crowd<T: PhaseTimer, const N: usize, const C: usize>(
    crowd: &mut [Option<Ragdoll<N, C>>],
    settings: &Settings,
    timer: &mut T,
    mut world: impl FnMut(&mut Ragdoll<N, C>, &mut T) -> bool,
) -> usize {
    assert!(
        crowd.len() <= MAX_CROWD,
        "a crowd holds at most {MAX_CROWD}"
    );
    let p = StepParams::new(settings);
    let mut pairs = 0;
    timed(timer, StepPhase::Physics, |t| {
        // Bit i: ragdoll i was awake at the start of the frame and moves;
        // in `asleep`, it was asleep.
        let (mut moving, mut asleep) = (0u64, 0u64);
        for (i, slot) in crowd.iter_mut().enumerate() {
            match slot.as_mut() {
                Some(r) if !r.is_asleep() => {
                    r.begin_frame(settings);
                    moving |= 1 << i;
                }
                Some(_) => asleep |= 1 << i,
                None => {}
            }
        }
        let mut touching = 0u64;
        // Bit j of `leans[i]`: ragdolls i and j touched this frame.
        let mut leans = [0u64; MAX_CROWD];
        for _ in 0..p.substeps {
            for_each_moving(crowd, moving, |_, r| r.integrate_and_relax(settings, &p, t));
            timed(t, StepPhase::Collision, |t| {
                pairs += timed(t, StepPhase::RagdollContacts, |_| {
                    separate_ragdolls_touching(crowd, moving, &mut leans)
                });
                for_each_moving(crowd, moving, |i, r| {
                    // A settling ragdoll lay still on the world and does
                    // not fall (no gravity while it settles), so what
                    // rests on it rests on something, touching or not.
                    let rests = world(r, t) || r.is_settling();
                    touching |= (rests as u64) << i;
                    // At once, while its particles are in the cache: no
                    // other ragdoll's world collision reads them.
                    r.relax_after_collision(settings, &p, t);
                });
            });
        }
        // Resting on a ragdoll that rests on the world, or on a sleeper,
        // is resting on something; a group touching only itself is not
        // (in free space it would have slept where it floated).
        let resting = spread(touching | asleep, moving, &leans) & moving;
        let mut ready = 0u64;
        for_each_moving(crowd, moving, |i, r| {
            ready |= (r.count_still(resting >> i & 1 != 0, &p) as u64) << i;
        });
        // A touching group sleeps together or not at all: a ragdoll that
        // fell asleep alone became immovable under the others, whose
        // pushes jumped, which woke it again the next frame (the arena's
        // pile of four never slept).
        let sleepers = ready & !spread(moving & !ready, ready, &leans);
        for_each_moving(crowd, sleepers, |_, r| r.fall_asleep());
    });
    pairs
}

/// `from`, with every ragdoll of `through` joined to it by a chain of
/// ragdolls of `through` that touched (`leans`).
fn spread(from: u64, through: u64, leans: &[u64; MAX_CROWD]) -> u64 {
    let mut set = from;
    loop {
        let mut grown = set;
        let mut left = through & !set;
        while left != 0 {
            let i = left.trailing_zeros() as usize;
            left &= left - 1;
            if leans[i] & set != 0 {
                grown |= 1 << i;
            }
        }
        if grown == set {
            return set;
        }
        set = grown;
    }
}

fn for_each_moving<const N: usize, const C: usize>(
    crowd: &mut [Option<Ragdoll<N, C>>],
    moving: u64,
    mut f: impl FnMut(usize, &mut Ragdoll<N, C>),
) {
    for (i, slot) in crowd.iter_mut().enumerate() {
        if moving >> i & 1 != 0 {
            if let Some(r) = slot.as_mut() {
                f(i, r);
            }
        }
    }
}

/// An axis-aligned box, its least and greatest corners (raw FX1).
type Aabb = ([i32; 3], [i32; 3]);

/// The box around a ragdoll's spheres, at the current positions.
fn bounds<const N: usize, const C: usize>(r: &Ragdoll<N, C>) -> Aabb {
    let mut b = ([i32::MAX; 3], [i32::MIN; 3]);
    for (p, rad) in r.particles.positions().iter().zip(r.particles.radii()) {
        include(&mut b, p.raw(), rad.raw());
    }
    b
}

/// Grows `b` to hold the sphere of radius `r` about `p` (raw FX1).
fn include(b: &mut Aabb, p: [i32; 3], r: i32) {
    for ((lo, hi), c) in b.0.iter_mut().zip(&mut b.1).zip(p) {
        *lo = (*lo).min(c - r);
        *hi = (*hi).max(c + r);
    }
}

/// The box of the sphere of radius `r` about `p` (raw FX1).
fn sphere_box(p: [i32; 3], r: i32) -> Aabb {
    (p.map(|c| c - r), p.map(|c| c + r))
}

fn overlap(a: &Aabb, b: &Aabb) -> bool {
    (0..3).all(|k| a.0[k] <= b.1[k] && b.0[k] <= a.1[k])
}

/// Pushes apart every overlapping pair of particles of different ragdolls
/// along their centre line, shared by inverse mass (position only: in
/// Verlet that is also the velocity change). A ragdoll whose bit is clear
/// in `moving` (asleep at the start of the frame) does not move; a
/// contact with a ragdoll that moved faster than [`super::WAKE_SPEED`]
/// last frame wakes it (as still, so that it wakes others only once it
/// moves that fast itself), while a slower one leans on it as on the
/// world. Returns the number of pairs pushed.
pub fn separate_ragdolls<const N: usize, const C: usize>(
    crowd: &mut [Option<Ragdoll<N, C>>],
    moving: u64,
) -> usize {
    separate_ragdolls_touching(crowd, moving, &mut [0; MAX_CROWD])
}

/// [`separate_ragdolls`], also marking in `leans` which ragdolls touched
/// (bits `j` of `leans[i]` and `i` of `leans[j]`): a ragdoll resting on
/// others that rest on the world rests on something and may sleep, with
/// them, as one on the world does. Before, a pile's upper ragdolls never
/// slept, and each frame they woke the sleepers under them.
///
/// # Panics
/// If `crowd` has more than [`MAX_CROWD`] slots.
pub fn separate_ragdolls_touching<const N: usize, const C: usize>(
    crowd: &mut [Option<Ragdoll<N, C>>],
    moving: u64,
    leans: &mut [u64; MAX_CROWD],
) -> usize {
    let mut pairs = 0;
    // Each ragdoll's bounds once per pass (a push refreshes the pair's
    // two), not once per pair: with 64 ragdolls that was 2016 x 15
    // particles per substep.
    for r in crowd.iter_mut().flatten() {
        r.crowd_box = bounds(r);
    }
    for i in 0..crowd.len() {
        let (head, tail) = crowd.split_at_mut(i + 1);
        let Some(a) = head[i].as_mut() else { continue };
        let a_moves = moving >> i & 1 != 0;
        for (j, slot) in tail.iter_mut().enumerate() {
            let j = i + 1 + j;
            let Some(b) = slot.as_mut() else { continue };
            let b_moves = moving >> j & 1 != 0;
            if !(a_moves || b_moves) || !overlap(&a.crowd_box, &b.crowd_box) {
                continue;
            }
            let n = separate_pair(a, a_moves, b, b_moves);
            if n > 0 {
                pairs += n;
                leans[i] |= 1 << j;
                leans[j] |= 1 << i;
                // A sleeper pushed by a ragdoll that moved fast last
                // frame moves from the next; a slower one only leans.
                if !a_moves && b.is_shoving() {
                    a.wake_touched();
                }
                if !b_moves && a.is_shoving() {
                    b.wake_touched();
                }
                a.crowd_box = bounds(a);
                b.crowd_box = bounds(b);
            }
        }
    }
    pairs
}

fn separate_pair<const N: usize, const C: usize>(
    a: &mut Ragdoll<N, C>,
    a_moves: bool,
    b: &mut Ragdoll<N, C>,
    b_moves: bool,
) -> usize {
    let mut n = 0;
    // `b`'s bounds, grown as its particles are pushed: a particle of `a`
    // whose sphere's box misses them touches none of `b`'s (the same
    // pairs as testing each, for a ragdoll's 15 particle tests).
    let mut b_box = b.crowd_box;
    for ia in 0..a.particles.len() {
        let ra = a.particles.radii()[ia];
        if !overlap(
            &sphere_box(a.particles.position(ia).raw(), ra.raw()),
            &b_box,
        ) {
            continue;
        }
        let wa = if a_moves {
            a.particles.inv_masses()[ia]
        } else {
            Fx1::ZERO
        };
        for ib in 0..b.particles.len() {
            let rb = b.particles.radii()[ib];
            let (pa, pb) = (a.particles.position(ia), b.particles.position(ib));
            // Per axis first: most pairs are farther apart than r_a + r_b.
            let reach = ra.raw() + rb.raw();
            let d = (pa - pb).raw();
            if d.iter().any(|c| c.abs() >= reach) {
                continue;
            }
            let wb = if b_moves {
                b.particles.inv_masses()[ib]
            } else {
                Fx1::ZERO
            };
            let (mut ca, mut cb) = (pa, pb);
            if separate_spheres(&mut ca, ra, wa, &mut cb, rb, wb) {
                n += 1;
                a.particles.push_to(ia, ca);
                b.particles.push_to(ib, cb);
                include(&mut b_box, b.particles.position(ib).raw(), rb.raw());
            }
        }
    }
    n
}

#[cfg(test)]
#[path = "crowd_tests.rs"]
mod tests;
