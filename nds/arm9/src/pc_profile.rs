//! The PC-profile ROM: runs the bench's one-ragdoll workload (the arena
//! drop, kicked every 2 s) forever, never waiting for VBlank, so that
//! `nds/runner/pcprofile.py` can sample the ARM9's program counter once
//! per emulated frame and say where the cycles go, function by function.

use crate::hw::once::TakeOnce;
use dsphys::fx::Vec3;
use dsphys::verlet::{Ragdoll, WorldContacts};
use mailbox::Mailbox;

struct Workload {
    ragdoll: Ragdoll,
    contacts: WorldContacts,
}

/// In a static: the ragdoll and its broad-phase scratch are too big for
/// the DTCM stack.
static WORKLOAD: TakeOnce<Option<Workload>> = TakeOnce::new(None);

pub fn run(mb: &'static mut Mailbox) -> ! {
    let w = WORKLOAD.take().expect("taken once").insert(Workload {
        ragdoll: dsphys::scenario::arena_drop(),
        contacts: WorldContacts::new(),
    });
    loop {
        w.ragdoll = dsphys::scenario::arena_drop();
        for frame in 0..240u32 {
            // The bench's kick: it keeps the ragdoll tumbling, not asleep.
            if frame % 120 == 119 {
                w.ragdoll
                    .apply_impulse(0, Vec3::from_raw(8192, 12288, -4096));
            }
            dsphys::scenario::step_in_world(&mut w.ragdoll, &crate::worlds::ARENA, &mut w.contacts);
            mb.header.frame = mb.header.frame.wrapping_add(1);
        }
    }
}
