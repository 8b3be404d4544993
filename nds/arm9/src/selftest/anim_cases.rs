//! In-ROM tests of the animation module (issue 5): the expand phase and
//! the brad build, each hashed on the DS against the host's hash of the
//! same engine code (baked in by build.rs as `anim_host_results.rs`).

use super::Outcome;
use crate::selftest::compare_hash;
use mailbox::Mailbox;

mod host {
    include!(concat!(env!("OUT_DIR"), "/anim_host_results.rs"));
}

/// The 25-joint humanoid walking: sample, expand, skinning palette.
pub fn anim_expand_hash(_: &mut Mailbox) -> Outcome {
    let (frames, want) = host::ANIM_EXPAND;
    compare_hash(frames, dsphys::anim::workload::expand_hash(frames), want)
}

/// The humanoid driven by the tumbling ragdoll: brads, expand with the
/// brads injected, skinning palette.
pub fn anim_brads_hash(_: &mut Mailbox) -> Outcome {
    crate::hw::itcm::verlet();
    let (frames, want) = host::ANIM_BRADS;
    compare_hash(frames, dsphys::anim::workload::brads_hash(frames), want)
}
