//! One ragdoll frame, phase by phase under the profiler: the engine's own
//! step (the one the host and the in-ROM determinism tests run), told of
//! each phase through `dsphys::verlet::PhaseTimer`, so what is timed is
//! what is tested.

use crate::clock::Profiler;
use dsphys::collision::CollisionWorld;
use dsphys::scenario::ROOM;
use dsphys::scenario::WORLD_FRICTION;
use dsphys::verlet::{
    step_crowd_in_world, PhaseTimer, Ragdoll, Settings, StepPhase, WorldContacts,
};
use profiler::PhaseId;

/// The profiler phases of the physics step; `physics` encloses the others.
pub struct PhysicsPhases {
    pub physics: PhaseId,
    pub integrate: PhaseId,
    pub constraints: PhaseId,
    pub collision: PhaseId,
    pub broad: PhaseId,
    pub narrow: PhaseId,
    /// Ragdoll-vs-ragdoll sphere contacts (crowds only).
    pub ragdolls: PhaseId,
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
            ragdolls: p.phase("ragdoll contacts"),
        }
    }
}

/// The profiler as the engine's phase timer.
struct Timed<'a> {
    prof: &'a mut Profiler,
    ph: &'a PhysicsPhases,
}

impl Timed<'_> {
    fn id(&self, phase: StepPhase) -> PhaseId {
        match phase {
            StepPhase::Physics => self.ph.physics,
            StepPhase::Integrate => self.ph.integrate,
            StepPhase::Constraints => self.ph.constraints,
            StepPhase::Collision => self.ph.collision,
            StepPhase::BroadPhase => self.ph.broad,
            StepPhase::NarrowPhase => self.ph.narrow,
            StepPhase::RagdollContacts => self.ph.ragdolls,
        }
    }
}

impl PhaseTimer for Timed<'_> {
    #[inline(always)]
    fn begin(&mut self, phase: StepPhase) {
        let id = self.id(phase);
        self.prof.begin(id);
    }
    #[inline(always)]
    fn end(&mut self, phase: StepPhase) {
        let id = self.id(phase);
        self.prof.end(id);
    }
}

/// One ragdoll frame in a k-d tree world (nothing while it sleeps): the
/// bench's one-ragdoll figure (the demo steps every scene as a crowd).
#[cfg(feature = "bench-rom")]
pub fn step_ragdoll_in_world(
    r: &mut Ragdoll,
    settings: &Settings,
    world: &CollisionWorld,
    contacts: &mut WorldContacts,
    prof: &mut Profiler,
    ph: &PhysicsPhases,
) {
    crate::hw::itcm::verlet();
    r.step_in_world_timed(
        settings,
        world,
        contacts,
        WORLD_FRICTION,
        &mut Timed { prof, ph },
    );
}

/// One frame of a crowd of ragdolls in the box room ([`ROOM`]), with
/// contacts between them and sleeping; returns the particle pairs that
/// touched.
pub fn step_crowd_in_room(
    crowd: &mut [Option<Ragdoll>],
    settings: &Settings,
    prof: &mut Profiler,
    ph: &PhysicsPhases,
) -> usize {
    dsphys::verlet::step_crowd_in_room(crowd, settings, &ROOM, &mut Timed { prof, ph })
}

/// One frame of a crowd of ragdolls in a k-d tree world, with contacts
/// between them (`dsphys::verlet::step_crowd_in_world`); returns the
/// particle pairs that touched.
pub fn step_crowd(
    crowd: &mut [Option<Ragdoll>],
    settings: &Settings,
    world: &CollisionWorld,
    contacts: &mut WorldContacts,
    prof: &mut Profiler,
    ph: &PhysicsPhases,
) -> usize {
    step_crowd_in_world(
        crowd,
        settings,
        world,
        contacts,
        WORLD_FRICTION,
        &mut Timed { prof, ph },
    )
}
