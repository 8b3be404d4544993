//! One ragdoll frame, phase by phase under the profiler: the same calls in
//! the same order as `Ragdoll::step_with` (which the host and the in-ROM
//! determinism test run), so what is timed is what is tested.

use crate::clock::Profiler;
use dsphys::collision::CollisionWorld;
use dsphys::scenario::ROOM;
use dsphys::scenario::WORLD_FRICTION;
use dsphys::verlet::{Ragdoll, Settings, WorldContacts};
use profiler::PhaseId;

/// The profiler phases of the physics step; `physics` encloses the others.
pub struct PhysicsPhases {
    pub physics: PhaseId,
    pub integrate: PhaseId,
    pub constraints: PhaseId,
    pub collision: PhaseId,
    pub broad: PhaseId,
    pub narrow: PhaseId,
}

impl PhysicsPhases {
    pub fn register(p: &mut Profiler) -> Self {
        PhysicsPhases {
            physics: p.phase("physics"),
            integrate: p.phase("integrate"),
            constraints: p.phase("constraints"),
            collision: p.phase("collision"),
            broad: p.phase("broad phase"),
            narrow: p.phase("narrow phase"),
        }
    }
}

pub fn step_ragdoll(r: &mut Ragdoll, settings: &Settings, prof: &mut Profiler, ph: &PhysicsPhases) {
    prof.time(ph.physics, |prof| {
        let params = r.begin_frame(settings);
        for _ in 0..params.substeps {
            prof.time(ph.integrate, |_| r.particles.integrate(&params));
            prof.time(ph.constraints, |_| r.relax(settings.iterations));
            prof.time(ph.collision, |_| {
                r.particles
                    .for_each_free(|_, prev, cur, radius| ROOM.collide(prev, cur, radius))
            });
            prof.time(ph.constraints, |_| {
                r.relax(settings.post_collision_iterations);
                r.particles.clamp_velocities(&params);
            });
        }
    });
}

/// One ragdoll frame in a k-d tree world, as `Ragdoll::step_in_world`
/// (which the host and the in-ROM test run): integrate, constraints,
/// collision (broad phase, narrow phase), then the sleep bookkeeping.
pub fn step_ragdoll_in_world(
    r: &mut Ragdoll,
    settings: &Settings,
    world: &CollisionWorld,
    contacts: &mut WorldContacts,
    prof: &mut Profiler,
    ph: &PhysicsPhases,
) {
    if r.is_asleep() {
        return;
    }
    prof.time(ph.physics, |prof| {
        let params = r.begin_frame(settings);
        let mut touching = 0;
        for _ in 0..params.substeps {
            prof.time(ph.integrate, |_| r.particles.integrate(&params));
            prof.time(ph.constraints, |_| r.relax(settings.iterations));
            prof.time(ph.collision, |prof| {
                prof.time(ph.broad, |_| contacts.broad_phase(world, &r.particles));
                touching = prof.time(ph.narrow, |_| {
                    contacts.narrow_phase(world, &mut r.particles, WORLD_FRICTION)
                });
            });
            prof.time(ph.constraints, |_| {
                r.relax(settings.post_collision_iterations);
                r.particles.clamp_velocities(&params);
            });
        }
        r.update_sleep(touching > 0, &params);
    });
}
