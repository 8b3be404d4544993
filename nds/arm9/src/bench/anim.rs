//! Animation figures (issue 5): one 25-joint character's ragdoll frame,
//! the brads alone (`ragdoll_step_us.brads`) and brads + expand +
//! skinning palette (`anim_us`), plus the animated frame without brads.

use super::{median_cycles, record, us_x10};
use dsphys::anim::workload::{character, tumbled_positions};
use dsphys::fx::{Fx1, Vec3};
use mailbox::Mailbox;

/// Frames the ragdoll tumbles before its pose is taken (mid-flight, so no
/// brad is in a special case).
const TUMBLE_FRAMES: u32 = 40;
/// Runs timed per figure; the median is reported.
const RUNS: usize = 9;

/// The DS stack is 16 KB: the ragdoll (in `tumbled_positions`) and the
/// 4 KB character (in `time_stages`) are built in separate frames, each
/// out of line, so they are never on the stack together.
#[inline(never)]
pub fn figures(mb: &mut Mailbox) {
    let x = tumbled_positions(TUMBLE_FRAMES);
    time_stages(mb, &x);
}

#[inline(never)]
fn time_stages(mb: &mut Mailbox, x: &[Vec3; 16]) {
    let mut c = character();
    let brads = median_cycles(RUNS, || c.brads.build(core::hint::black_box(x)));
    record(mb, "ragdoll_step_us.brads", us_x10(brads), 1);
    let full = median_cycles(RUNS, || c.pose_from_ragdoll(core::hint::black_box(x)));
    record(mb, "anim_us", us_x10(full), 1);
    let walk = &dsphys::anim::humanoid::HUMANOID_WALK;
    let t = Fx1::from_raw(1234);
    let sample = median_cycles(RUNS, || c.animate(walk, core::hint::black_box(t)));
    record(mb, "anim.sample_us", us_x10(sample), 1);
    let expand = median_cycles(RUNS, || c.pose_from_animation());
    record(mb, "anim.expand_palette_us", us_x10(expand), 1);
    core::hint::black_box(c.hash());
}
