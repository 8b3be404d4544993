//! In-ROM tests of the rigid bodies (issues 6 and 20): the Armed Mine's
//! crawl and its recovery from upside down, the powered ragdoll's push,
//! the pyramid's shot and the box of boxes' shot, each hashed on the DS
//! against the host's hash of the same engine code (baked in by build.rs
//! as `rigid_host_results.rs`).

use super::Outcome;
use crate::hw::once::TakeOnce;
use crate::selftest::compare_hash;
use crate::text;
use dsphys::rigid::characters::armed_mine::{crawl_in, recover_in, ArmedMine, STAY_UPRIGHT};
use dsphys::rigid::characters::powered::{push_and_recover_in, PoweredRagdoll};
use dsphys::rigid::room::{box_of_boxes_shot_in, pyramid_shot_in, BoxWorld};
use dsphys::rigid::Settings;
use mailbox::Mailbox;

mod host {
    include!(concat!(env!("OUT_DIR"), "/rigid_host_results.rs"));
}

/// The creature is about 16 KB (its row buffer), more than the DTCM
/// stack can hold: each test has its own in a static, built in place.
static CRAWLER: TakeOnce<ArmedMine> = TakeOnce::new(ArmedMine::PLACEHOLDER);
static RECOVERER: TakeOnce<ArmedMine> = TakeOnce::new(ArmedMine::PLACEHOLDER);
/// The powered ragdoll (about 50 KB) and the box scenes' world (about
/// 90 KB), likewise.
static POWERED: TakeOnce<PoweredRagdoll> = TakeOnce::new(PoweredRagdoll::PLACEHOLDER);
static BOXES: TakeOnce<BoxWorld> = TakeOnce::new(BoxWorld::empty(Settings::DEFAULT));

/// The powered ragdoll standing, pushed (30 N s) at frame 20, reeling.
pub fn powered_push_hash(_: &mut Mailbox) -> Outcome {
    crate::hw::itcm::rigid();
    let (frames, want) = host::POWERED_PUSH;
    let r = POWERED.take().ok_or(text!(48; "ragdoll taken twice"))?;
    compare_hash(frames, push_and_recover_in(r, frames), want)
}

/// The pyramid settling, asleep, shot at frame 60, tumbling; then the
/// box of boxes, asleep, shot awake.
pub fn box_scenes_shot_hash(_: &mut Mailbox) -> Outcome {
    crate::hw::itcm::rigid();
    let (frames, want) = host::PYRAMID_SHOT;
    let w = BOXES.take().ok_or(text!(48; "box world taken twice"))?;
    let got = pyramid_shot_in(w, frames);
    let (frames2, want2) = host::BOX_OF_BOXES_SHOT;
    // The same world, rebuilt: the sleeping pile shot awake.
    let got2 = box_of_boxes_shot_in(w, frames2).ok_or(text!(48; "box world too small"))?;
    compare_hash(frames, got, want)?;
    compare_hash(frames2, got2, want2)
        .map(|_| text!(48; "{}+{} frames, hashes equal ({:#010x})", frames, frames2, got2))
}

/// 1200 frames (20 s) of crawling towards a goal 10 m ahead.
pub fn mine_crawl_hash(_: &mut Mailbox) -> Outcome {
    crate::hw::itcm::rigid();
    let (frames, want) = host::MINE_CRAWL;
    let mine = CRAWLER.take().ok_or(text!(48; "creature taken twice"))?;
    let got = crawl_in(mine, frames);
    if got != want {
        return Err(text!(48; "DS {:#010x} host {:#010x}", got, want));
    }
    Ok(text!(48; "{} frames, hashes equal ({:#010x})", frames, got))
}

/// 600 frames (10 s) from upside down: the state hash and the first
/// frame of the first upright second must be the host's, and that second
/// must end within the 10 s (issue 6: upright within 10 s).
pub fn mine_recover_hash(_: &mut Mailbox) -> Outcome {
    crate::hw::itcm::rigid();
    let (frames, want, want_upright) = host::MINE_RECOVER;
    let mine = RECOVERER.take().ok_or(text!(48; "creature taken twice"))?;
    let (got, upright) = recover_in(mine, frames);
    let upright = upright.map_or(-1, |f| f as i32);
    if got != want || upright != want_upright {
        return Err(text!(48; "DS {:#010x}/{} host {:#010x}/{}", got, upright, want, want_upright));
    }
    if upright < 0 || upright as u32 + STAY_UPRIGHT > frames {
        return Err(text!(48; "not upright within 10 s ({})", upright));
    }
    Ok(text!(48; "{} frames, equal ({:#010x}), up {}", frames, got, upright))
}
