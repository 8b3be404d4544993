//! Fixed scenarios that the host and the DS both run. The ROM's
//! determinism tests compare their hashes bit for bit with the host's, and
//! the benchmark and the demo use them as workloads, so each is defined
//! exactly once, here.

use crate::collision::CollisionWorld;
use crate::fx;
use crate::fx::{Fx1, Vec3};
use crate::verlet::{humanoid::HUMANOID, BoxRoom, Ragdoll, Settings, SideDef, WorldContacts};

/// A 4 m x 3 m x 4 m room with the floor at y = 0: the world with no
/// triangles, for tests of the solver alone.
pub const ROOM: BoxRoom = BoxRoom::new(
    Vec3::new(fx!(-2.0), fx!(0.0), fx!(-2.0)),
    Vec3::new(fx!(2.0), fx!(3.0), fx!(2.0)),
    fx!(0.3),
);

/// The default humanoid at `offset` (its pose is standing, feet at the
/// origin) lifted 1 m, thrown sideways with a spin from a kick to the
/// head, so it tumbles into a wall and onto the floor.
pub fn tumbling_ragdoll(offset: Vec3) -> Ragdoll {
    let mut r = Ragdoll::EMPTY;
    tumbling_ragdoll_into(&mut r, offset);
    r
}

/// [`tumbling_ragdoll`], built in place (see [`Ragdoll::rebuild`]).
pub fn tumbling_ragdoll_into(r: &mut Ragdoll, offset: Vec3) {
    let lift = Vec3::new(Fx1::ZERO, fx!(1.0), Fx1::ZERO);
    r.rebuild(&HUMANOID, offset + lift);
    throw_tumbling(r);
}

/// [`tumbling_ragdoll`]'s throw, for a ragdoll already built (of any
/// definition whose particle 0 is its head): sideways, and a kick to the
/// head.
pub fn throw_tumbling(r: &mut Ragdoll) {
    r.set_velocity_all(Vec3::new(fx!(2.5), fx!(1.0), fx!(-1.5)));
    r.apply_impulse(0, Vec3::new(fx!(-3.0), Fx1::ZERO, fx!(2.0)));
}

/// One frame of the default ragdoll in [`ROOM`] (it sleeps once it rests).
pub fn step_in_room(r: &mut Ragdoll) {
    r.step_in_room(&Settings::DEFAULT, &ROOM);
}

/// The state hash of [`tumbling_ragdoll`] after `frames` frames in the room.
pub fn ragdoll_drop_hash(frames: u32) -> u32 {
    let mut r = tumbling_ragdoll(Vec3::ZERO);
    for _ in 0..frames {
        step_in_room(&mut r);
    }
    r.state_hash()
}

/// Coulomb friction of every world surface.
pub const WORLD_FRICTION: Fx1 = fx!(0.5);

/// The default humanoid standing on the top step of `assets/worlds/
/// stairs.obj` (8 steps of 0.2 m rise and 0.35 m run along +x, at
/// z 1..3, the top at x 7.65..8, y 1.6), lifted 0.4 m and thrown down the
/// flight with a kick to the head.
pub fn stairs_drop() -> Ragdoll {
    let mut r = Ragdoll::EMPTY;
    stairs_drop_into(&mut r);
    r
}

/// [`stairs_drop`], built in place (see [`Ragdoll::rebuild`]).
pub fn stairs_drop_into(r: &mut Ragdoll) {
    r.rebuild(&HUMANOID, Vec3::new(fx!(7.3), fx!(2.0), fx!(2.0)));
    r.set_velocity_all(Vec3::new(fx!(-2.0), fx!(0.5), fx!(0.4)));
    r.apply_impulse(0, Vec3::new(fx!(-2.0), Fx1::ZERO, fx!(-1.0)));
}

/// The default humanoid over the middle of `assets/worlds/arena.obj` (a
/// bumpy floor at y -0.35..0.35), lifted 1 m and tumbling.
pub fn arena_drop() -> Ragdoll {
    let mut r = Ragdoll::EMPTY;
    arena_drop_into(&mut r);
    r
}

/// [`arena_drop`], built in place (see [`Ragdoll::rebuild`]).
pub fn arena_drop_into(r: &mut Ragdoll) {
    tumbling_ragdoll_into(r, Vec3::new(Fx1::ZERO, fx!(0.4), Fx1::ZERO));
}

/// Two side constraints for the humanoid (not shipped: `verlet::sides`
/// says why): the chest kept 4.5 cm in front of the shoulders and pelvis
/// (4.8 cm in the pose), the pelvis 3.5 cm behind the hips and chest
/// (3.6 cm). By particle index: chest 1, pelvis 2, shoulders 3 and 4,
/// hips 9 and 10 (`humanoid_sides_name_the_torso` checks them).
pub const HUMANOID_SIDES: [SideDef; 2] = [
    SideDef::new(1, 3, 4, 2, Fx1::from_raw(184)),
    SideDef::new(2, 9, 10, 1, Fx1::from_raw(143)),
];

/// `r`, a humanoid, with [`HUMANOID_SIDES`].
///
/// # Panics
/// If `r` has no room for them, or is not the humanoid.
pub fn add_humanoid_sides(r: &mut Ragdoll) {
    let mut pose = [Vec3::ZERO; 16];
    for (p, d) in pose.iter_mut().zip(HUMANOID.particles) {
        *p = d.position;
    }
    for side in &HUMANOID_SIDES {
        let inv = r.particles.inv_masses();
        r.constraints
            .push_side(side, inv, &pose[..HUMANOID.particles.len()])
            .expect("the humanoid's pose keeps its sides");
    }
}

/// [`arena_drop`] with [`HUMANOID_SIDES`]: the ROM's `braced_drop_hash`
/// runs the side constraints on the DS against the host.
pub fn braced_arena_drop() -> Ragdoll {
    let mut r = arena_drop();
    add_humanoid_sides(&mut r);
    r
}

/// The kick the benches give a ragdoll's head (particle 0) to keep it
/// tumbling: (2, 3, -1) m/s, added to its velocity.
pub const KICK: Vec3 = Vec3::from_raw(8192, 12288, -4096);

/// Frames between the one-ragdoll bench's kicks (2 s).
pub const ARENA_KICK_EVERY: u32 = 120;

/// The benches' kick, before step `frame` of a drop: [`KICK`] on the
/// last frame of every `every` (it wakes a sleeping ragdoll).
pub fn kick_every(r: &mut Ragdoll, frame: u32, every: u32) {
    if frame % every == every - 1 {
        r.apply_impulse(0, KICK);
    }
}

/// The one-ragdoll bench's kick, before step `frame` of [`arena_drop`]:
/// [`kick_every`] [`ARENA_KICK_EVERY`] frames. The bench and the
/// PC-profile ROM share it, so that they time the same tumble.
pub fn kick_arena_drop(r: &mut Ragdoll, frame: u32) {
    kick_every(r, frame, ARENA_KICK_EVERY);
}

/// One frame of a ragdoll in a k-d tree world.
pub fn step_in_world(r: &mut Ragdoll, world: &CollisionWorld, contacts: &mut WorldContacts) {
    r.step_in_world(&Settings::DEFAULT, world, contacts, WORLD_FRICTION);
}

/// Ragdolls in [`crowd_drop`].
pub const CROWD_DROP_RAGDOLLS: usize = 4;

/// Four default humanoids standing in a row 0.6 m apart over the middle
/// of the arena, lifted 0.5 m and thrown at each other (the outer two
/// faster), so that they collide and fall into a pile: the crowd test of
/// ragdoll-vs-ragdoll contacts.
pub fn crowd_drop(crowd: &mut [Option<Ragdoll>; CROWD_DROP_RAGDOLLS]) {
    for (i, slot) in crowd.iter_mut().enumerate() {
        let k = 2 * i as i32 - 3; // -3, -1, 1, 3
        let offset = Vec3::new(fx!(0.3) * k, fx!(0.5), fx!(0.1) * k);
        let r = Ragdoll::in_slot(slot);
        r.rebuild(&HUMANOID, offset);
        r.set_velocity_all(Vec3::new(fx!(-0.6) * k, fx!(0.5), Fx1::ZERO));
        r.apply_impulse(0, Vec3::new(Fx1::ZERO, Fx1::ZERO, fx!(1.0) * k));
    }
}

/// The state hash of [`crowd_drop`] after `frames` frames in `world`,
/// with ragdoll-vs-ragdoll contacts. The crowd and the broad phase's
/// scratch are the caller's (about 10 KiB: on the DS, statics).
pub fn crowd_drop_hash(
    world: &CollisionWorld,
    crowd: &mut [Option<Ragdoll>; CROWD_DROP_RAGDOLLS],
    contacts: &mut WorldContacts,
    frames: u32,
) -> u32 {
    crowd_drop(crowd);
    for _ in 0..frames {
        crate::verlet::step_crowd_in_world(
            crowd,
            &Settings::DEFAULT,
            world,
            contacts,
            WORLD_FRICTION,
            &mut crate::verlet::Untimed,
        );
    }
    let mut h = crate::verlet::Fnv1a::new();
    for r in crowd.iter().flatten() {
        h.write(&r.state_hash().to_le_bytes());
    }
    h.finish()
}

/// The bench's crowds (`scaling`, `ragdolls_at_60hz`): metres between
/// neighbouring ragdolls' spawn points, an 8 x 8 grid inside the 24 m x
/// 24 m arena (2.5 m, FX1 raw).
pub const CROWD_SPACING: i32 = 10240;

/// The bench's crowds' largest size: the cells of the grid.
pub const CROWD_CELLS: usize = 64;

/// Frames of each bench crowd drop (0.5 s from a low throw: the landing
/// and the tumble, the part of a drop that costs); `make insn-count
/// PCPROFILE=crowd` counts the same frames.
pub const CROWD_FRAMES: u32 = 30;

/// The grid cell of the `i`-th ragdoll of a bench crowd, innermost cells
/// first, so that small crowds drop in the middle of the arena like the
/// single ragdoll.
fn crowd_cell(i: usize) -> (i32, i32) {
    // Cells (c, r) in 0..8, ranked by squared distance of (2c - 7, 2r - 7)
    // from the centre, ties by index: the i-th of that order.
    let d2 = |k: usize| {
        let (c, r) = ((k % 8) as i32 * 2 - 7, (k / 8) as i32 * 2 - 7);
        c * c + r * r
    };
    let mut order = [0u8; CROWD_CELLS];
    for (k, o) in order.iter_mut().enumerate() {
        *o = k as u8;
    }
    order.sort_unstable_by_key(|&k| (d2(k as usize), k));
    let k = order[i] as usize;
    ((k % 8) as i32 * 2 - 7, (k / 8) as i32 * 2 - 7)
}

/// Ragdoll `i` (below [`CROWD_CELLS`]) of a bench crowd: lifted 0.3-0.6 m
/// above its cell, thrown sideways (each one a different way, so they do
/// not land in step) with a kick to the head, like [`tumbling_ragdoll`].
pub fn crowd_spawn(i: usize, rd: &mut Ragdoll) {
    let (c, r) = crowd_cell(i);
    let at = Vec3::from_raw(
        c * CROWD_SPACING / 2,
        5734 + (i as i32 % 4) * 819,
        r * CROWD_SPACING / 2,
    );
    rd.rebuild(&HUMANOID, at);
    let sx = if i.is_multiple_of(2) { 1 } else { -1 };
    let sz = if i % 4 < 2 { -1 } else { 1 };
    rd.set_velocity_all(Vec3::from_raw(sx * 10240, 4096, sz * 6144));
    rd.apply_impulse(0, Vec3::from_raw(-sx * 12288, 0, -sz * 8192));
}

/// The bench crowd's kick in `frame`, to each of `crowd`'s ragdolls at
/// its own frame: a kick now and then keeps every ragdoll awake (asleep
/// it costs nothing).
pub fn kick_crowd(crowd: &mut [Option<Ragdoll>], frame: u32) {
    for (i, r) in crowd.iter_mut().flatten().enumerate() {
        if frame == 12 + (i as u32 % 8) * 2 {
            r.apply_impulse(0, KICK);
        }
    }
}

/// The state hash of the ragdoll `start` makes after `frames` frames in
/// `world`.
pub fn world_drop_hash(world: &CollisionWorld, start: fn() -> Ragdoll, frames: u32) -> u32 {
    let mut r = start();
    let mut contacts = WorldContacts::new();
    for _ in 0..frames {
        step_in_world(&mut r, world, &mut contacts);
    }
    r.state_hash()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn humanoid_sides_name_the_torso() {
        let at = |name: &str| HUMANOID.particle_index(name).expect("a particle") as u8;
        let [chest, pelvis] = HUMANOID_SIDES;
        let parts = |s: SideDef| [s.apex, s.a, s.b, s.c];
        assert_eq!(
            parts(chest),
            ["chest", "shoulder_l", "shoulder_r", "pelvis"].map(at)
        );
        assert_eq!(parts(pelvis), ["pelvis", "hip_l", "hip_r", "chest"].map(at));
        assert_eq!(braced_arena_drop().constraints.sides().len(), 2);
    }

    #[test]
    fn the_drop_never_leaves_the_room() {
        let mut r = tumbling_ragdoll(Vec3::ZERO);
        let start = r.state_hash();
        // Collision runs last (`Settings::DEFAULT`), so after every frame
        // every sphere is inside the room: its centre at least its radius
        // from each wall.
        for _ in 0..600 {
            step_in_room(&mut r);
            let radii = r.particles.radii();
            for (p, &rad) in r.positions().iter().zip(radii) {
                let (lo, hi) = (ROOM.min.to_array(), ROOM.max.to_array());
                for (axis, c) in p.to_array().into_iter().enumerate() {
                    assert!(
                        c >= lo[axis] + rad && c <= hi[axis] - rad,
                        "{p:?} r {rad:?}"
                    );
                }
            }
        }
        assert_ne!(r.state_hash(), start);
    }
}
