//! Fixed animation workloads that the host and the DS both run: the ROM's
//! determinism tests compare [`expand_hash`] and [`brads_hash`] with the
//! host's bit for bit, and the bench times the frame of a character posed
//! by [`tumbled_positions`]. Each keeps its stack small: the DS runs them on a
//! 16 KB stack.

use crate::fx::{Fx1, Mat4x3, Vec3};
use crate::scenario;
use crate::verlet::{Fnv1a, Ragdoll};

use super::character::Character;
use super::humanoid::{HUMANOID, HUMANOID_WALK};
use super::humanoid_brads::HUMANOID as BRADS;

/// The default character at the origin, in its bind pose.
#[inline(never)]
pub fn character() -> Character<'static> {
    Character::new(&HUMANOID, &BRADS, Mat4x3::IDENTITY)
}

/// `frames` frames of the character walking (sample, expand, palette),
/// every model matrix and palette entry hashed.
pub fn expand_hash(frames: u32) -> u32 {
    let mut walker = character();
    let mut h = Fnv1a::new();
    for f in 0..frames {
        walker.animate(&HUMANOID_WALK, Fx1::from_raw((f * 4096 / 60) as i32));
        walker.pose_from_animation();
        h.write(&walker.hash().to_le_bytes());
    }
    h.finish()
}

/// `frames` frames of a character driven by the tumbling ragdoll of
/// [`scenario::tumbling_ragdoll`] (brads, expand with the brads injected,
/// palette), every brad matrix, model matrix and palette entry hashed.
pub fn brads_hash(frames: u32) -> u32 {
    let mut limp = character();
    let mut r: Ragdoll = scenario::tumbling_ragdoll(Vec3::ZERO);
    let mut h = Fnv1a::new();
    for _ in 0..frames {
        scenario::step_in_room(&mut r);
        limp.pose_from_ragdoll(r.positions());
        for m in limp.brads.matrices() {
            for w in m.to_gx_4x3() {
                h.write(&w.to_le_bytes());
            }
        }
        h.write(&limp.hash().to_le_bytes());
    }
    h.finish()
}

/// The tumbling ragdoll's particle positions after `frames` frames: the
/// bench's brads workload (mid-flight, so no brad is in a special case).
/// Out of line, so the ragdoll is off the stack once it returns.
#[inline(never)]
pub fn tumbled_positions(frames: u32) -> [Vec3; 16] {
    let mut r: Ragdoll = scenario::tumbling_ragdoll(Vec3::ZERO);
    for _ in 0..frames {
        scenario::step_in_room(&mut r);
    }
    let mut x = [Vec3::ZERO; 16];
    x[..r.positions().len()].copy_from_slice(r.positions());
    x
}
