//! One frame of the scene's rigid bodies under the profiler: the world's
//! own step phases (`dsphys::rigid::World::step` runs the same five
//! calls in the same order), each timed, so the bottom screen shows where
//! the rigid time goes.

use crate::clock::Profiler;
use crate::scenes::{Rigid, Sim};
use dsphys::rigid::characters::powered::IDLE;
use dsphys::rigid::world::Phase;
use dsphys::rigid::World;
use profiler::PhaseId;

/// `rigid` encloses the others.
pub struct RigidPhases {
    pub rigid: PhaseId,
    /// Motor and joint rows (and the step's gravity and damping).
    pub joints: PhaseId,
    /// Contact detection: box-ground and box-box rows.
    pub contacts: PhaseId,
    pub solve: PhaseId,
    pub integrate: PhaseId,
}

impl RigidPhases {
    pub fn register(p: &mut Profiler) -> Self {
        RigidPhases {
            rigid: p.phase("rigid"),
            joints: p.phase("rb joints"),
            contacts: p.phase("rb contacts"),
            solve: p.phase("rb solve"),
            integrate: p.phase("rb integrate"),
        }
    }
}

/// Steps the scene's rigid world, if it has one (a character's
/// controller first, as `ArmedMine::step` and `PoweredRagdoll::step` do).
pub fn step(sim: &mut Sim, p: &mut Profiler, ph: &RigidPhases) {
    match sim.rigid {
        Rigid::None => {}
        Rigid::Boxes => p.time(ph.rigid, |p| step_world(&mut sim.boxes, p, ph)),
        Rigid::Mine => p.time(ph.rigid, |p| {
            p.time(ph.joints, |_| sim.mine.control());
            step_world(&mut sim.mine.world, p, ph)
        }),
        // The character's own step: it folds into one body while it
        // stands (seed 002's level of detail), which a bare world step
        // would bypass. Its control is timed with the joint rows.
        Rigid::Powered => p.time(ph.rigid, |p| {
            crate::hw::itcm::rigid();
            p.begin(ph.joints);
            sim.powered.step_marked(&IDLE, &mut |phase| match phase {
                Phase::Control => {}
                Phase::Joints => {
                    p.end(ph.joints);
                    p.begin(ph.contacts);
                }
                Phase::Contacts => {
                    p.end(ph.contacts);
                    p.begin(ph.solve);
                }
                Phase::Solve => {
                    p.end(ph.solve);
                    p.begin(ph.integrate);
                }
                Phase::Integrate => p.end(ph.integrate),
            });
        }),
    }
}

#[inline(never)]
fn step_world<const B: usize, const J: usize, const R: usize>(
    w: &mut World<B, J, R>,
    p: &mut Profiler,
    ph: &RigidPhases,
) {
    crate::hw::itcm::rigid();
    p.time(ph.joints, |_| {
        w.begin_step();
        w.push_joint_rows();
    });
    // Contacts and solve in one frame: the box scenes' rows are built in
    // a DTCM buffer on its stack and swept there (World::contacts_and_solve).
    p.begin(ph.contacts);
    w.contacts_and_solve(&mut |phase| match phase {
        Phase::Contacts => {
            p.end(ph.contacts);
            p.begin(ph.solve);
        }
        Phase::Solve => p.end(ph.solve),
        _ => {}
    });
    p.time(ph.integrate, |_| w.integrate());
}
