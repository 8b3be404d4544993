//! One ragdoll frame, phase by phase under the profiler: the same calls in
//! the same order as `Ragdoll::step_with` (which the host and the in-ROM
//! determinism test run), so what is timed is what is tested.

use crate::clock::Profiler;
use dsphys::scenario::ROOM;
use dsphys::verlet::{Ragdoll, Settings};
use profiler::PhaseId;

/// The profiler phases of the physics step; `physics` encloses the others.
pub struct PhysicsPhases {
    pub physics: PhaseId,
    pub integrate: PhaseId,
    pub constraints: PhaseId,
    pub collision: PhaseId,
}

impl PhysicsPhases {
    pub fn register(p: &mut Profiler) -> Self {
        PhysicsPhases {
            physics: p.phase("physics"),
            integrate: p.phase("integrate"),
            constraints: p.phase("constraints"),
            collision: p.phase("collision"),
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
