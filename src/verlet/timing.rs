//! The phases of a ragdoll frame, named so that a caller's profiler can
//! time them: the ROM passes its hardware-timer profiler to
//! [`Ragdoll::step_with_timed`] / [`Ragdoll::step_in_world_timed`], so what
//! it times is exactly the step the host and the determinism tests run.
//!
//! [`Ragdoll::step_with_timed`]: super::Ragdoll::step_with_timed
//! [`Ragdoll::step_in_world_timed`]: super::Ragdoll::step_in_world_timed

/// A phase of one frame; `Physics` encloses the others, and `Collision`
/// encloses `BroadPhase` and `NarrowPhase` in a world, and
/// `RagdollContacts` in a crowd.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StepPhase {
    Physics,
    Integrate,
    /// Relaxation (and, after collision, the speed cap).
    Constraints,
    Collision,
    BroadPhase,
    NarrowPhase,
    /// Sphere contacts between the particles of different ragdolls.
    RagdollContacts,
}

/// Told when each phase begins and ends (properly nested).
pub trait PhaseTimer {
    fn begin(&mut self, phase: StepPhase);
    fn end(&mut self, phase: StepPhase);
}

/// No timing: the plain steps use this, and it compiles to nothing.
pub struct Untimed;

impl PhaseTimer for Untimed {
    #[inline(always)]
    fn begin(&mut self, _: StepPhase) {}
    #[inline(always)]
    fn end(&mut self, _: StepPhase) {}
}

/// `f` between `begin(phase)` and `end(phase)`.
#[inline(always)]
pub(crate) fn timed<T: PhaseTimer, R>(
    t: &mut T,
    phase: StepPhase,
    f: impl FnOnce(&mut T) -> R,
) -> R {
    t.begin(phase);
    let r = f(t);
    t.end(phase);
    r
}
