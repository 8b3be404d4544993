//! In-ROM tests of the animation module (issue 5): the expand phase and
//! the brad build, each hashed on the DS against the host's hash of the
//! same engine code (baked in by build.rs as `anim_host_results.rs`).

use super::Outcome;
use crate::text;
use mailbox::Mailbox;

mod host {
    include!(concat!(env!("OUT_DIR"), "/anim_host_results.rs"));
}

/// Compares a hash with the host's.
fn compare(frames: u32, got: u32, want: u32) -> Outcome {
    if got != want {
        return Err(text!(48; "DS {:#010x} host {:#010x}", got, want));
    }
    Ok(text!(48; "{} frames, hashes equal ({:#010x})", frames, got))
}

/// The 25-joint humanoid walking: sample, expand, skinning palette.
pub fn anim_expand_hash(_: &mut Mailbox) -> Outcome {
    let (frames, want) = host::ANIM_EXPAND;
    compare(frames, dsphys::anim::workload::expand_hash(frames), want)
}

/// The humanoid driven by the tumbling ragdoll: brads, expand with the
/// brads injected, skinning palette.
pub fn anim_brads_hash(_: &mut Mailbox) -> Outcome {
    let (frames, want) = host::ANIM_BRADS;
    compare(frames, dsphys::anim::workload::brads_hash(frames), want)
}
