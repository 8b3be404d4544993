//! The short soak (issue 8) in the ROM: `dsphys::soak` for a few thousand
//! frames, its invariants checked and its hash equal to the host's
//! (baked in by build.rs as `soak_host_results.rs`). `make bench` runs
//! the long one.

use super::{ok, Outcome};
use crate::text;
use dsphys::soak::{soak, SOAK_RAGDOLLS};
use dsphys::verlet::{Ragdoll, Settings};
use mailbox::Mailbox;

mod host {
    include!(concat!(env!("OUT_DIR"), "/soak_host_results.rs"));
}

/// The soak's crowd (about 3 KiB): a static, not the DTCM stack.
static CROWD: crate::hw::once::TakeOnce<[Option<Ragdoll>; SOAK_RAGDOLLS]> =
    crate::hw::once::TakeOnce::new([const { None }; SOAK_RAGDOLLS]);

/// Frames of random stylus impulses on two ragdolls in the box room: no
/// particle out, none past the speed cap, no energy gained once the
/// impulses stop, and the same final state as on the host.
#[inline(never)]
pub fn soak_short(_: &mut Mailbox) -> Outcome {
    crate::hw::itcm::verlet();
    let (frames, seed, want) = host::SOAK;
    let crowd = CROWD.take().expect("soak crowd taken once");
    let r = soak(crowd, frames, seed);
    if let Err(e) = r.check(&Settings::DEFAULT) {
        return Err(text!({ mailbox::TEST_DETAIL_BYTES }; "{}", e));
    }
    if r.hash != want {
        return Err(
            text!({ mailbox::TEST_DETAIL_BYTES }; "DS {:#010x} host {:#010x}", r.hash, want),
        );
    }
    ok(text!(48; "{} frames, invariants hold, hash equal", frames))
}
