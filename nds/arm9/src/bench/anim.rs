//! Animation figures (issues 5 and 24): one 25-joint character's ragdoll
//! frame, the brads alone (`ragdoll_step_us.brads`); the brads and the
//! skinning palette built on the geometry engine, which expands the
//! joints without a brad (`anim_us.total`, as the ROM draws a limp
//! character), the palette's command writes alone
//! (`anim_us.palette_cpu`) and the frame with expand and the palette as
//! CPU products instead (`anim_us.cpu_palette`); and each stage of the
//! cycle on its own (`anim.*_us`: sample, blend, inject + expand, expand,
//! palette).

use super::{median_cycles, median_cycles_after, record, us_x10};
use crate::hw::gx;
use crate::hw::once::TakeOnce;
use crate::render::skinned::{load_palette, PalettePose, MESH_JOINTS};
use crate::render::GX_SHIFT;
use dsphys::anim::gx_palette::all_local_words;
use dsphys::anim::humanoid::{HUMANOID_RUN, HUMANOID_WALK};
use dsphys::anim::rsqrt::unit_fx1;
use dsphys::anim::workload::{character, tumbled_positions};
use dsphys::anim::{blend_poses, expand, sample_clip, skinning_palette, JointPose};
use dsphys::fx::{Fx1, Vec3};
use mailbox::Mailbox;

/// Frames the ragdoll tumbles before its pose is taken (mid-flight, so no
/// brad is in a special case).
const TUMBLE_FRAMES: u32 = 40;
/// Runs timed per figure; the median is reported.
const RUNS: usize = 9;
/// Joints of the humanoid (the character's default capacity).
const J: usize = 25;

/// Two sampled poses for the blend figure (1.4 KB): in a static, off the
/// 10 KiB DTCM stack that already holds the 4 KB character.
static POSES: TakeOnce<[[JointPose; J]; 2]> = TakeOnce::new([[JointPose::IDENTITY; J]; 2]);

/// The DS stack is 16 KB: the ragdoll (in `tumbled_positions`) and the
/// 4 KB character (in `time_stages`) are built in separate frames, each
/// out of line, so they are never on the stack together.
#[inline(never)]
pub fn figures(mb: &mut Mailbox) {
    crate::hw::itcm::verlet();
    let x = tumbled_positions(TUMBLE_FRAMES);
    time_stages(mb, &x);
}

#[inline(never)]
fn time_stages(mb: &mut Mailbox, x: &[Vec3; 16]) {
    let mut c = character();
    let n = c.joints();
    let brads = median_cycles(RUNS, || c.brads.build(core::hint::black_box(x)));
    record(mb, "ragdoll_step_us.brads", us_x10(brads), 1);
    // 15 unit vectors (one per brad's A pair) on the DS's divider and
    // square-root units, and by the table and Newton step the brads use.
    let units = median_cycles(RUNS, || {
        for d in c.brads.defs() {
            let v = x[d.a[1] as usize] - x[d.a[0] as usize];
            core::hint::black_box(core::hint::black_box(v).try_normalise());
        }
    });
    record(mb, "anim.unit15_divider_us", us_x10(units), 1);
    let table = median_cycles(RUNS, || {
        for d in c.brads.defs() {
            let v = x[d.a[1] as usize] - x[d.a[0] as usize];
            core::hint::black_box(unit_fx1(core::hint::black_box(v).raw()));
        }
    });
    record(mb, "anim.unit15_rsqrt_us", us_x10(table), 1);
    // The ROM's frame: brads, inject and expand on the CPU, the palette
    // built on the geometry engine (the CPU writes its commands).
    gx::power_geometry();
    gx::matrix_mode(gx::MatrixMode::PositionVector);
    // The joints without a brad are expanded on the engine, from their
    // local poses as words, which the ROM takes once as the walker goes
    // limp.
    let mut local_words = [[0; 12]; J];
    all_local_words(&c.local[..n], GX_SHIFT, &mut local_words);
    // Each run starts with the engine idle (waited for outside the
    // timing), so that it pays for its own commands, not the last run's.
    let total = median_cycles_after(RUNS, gx::wait_idle, || {
        let from_model = c.brads_from_ragdoll(core::hint::black_box(x));
        load_palette(&PalettePose {
            character: &c,
            from_model,
            local_words: &local_words,
            needed: MESH_JOINTS,
        });
    });
    record(mb, "anim_us.total", us_x10(total), 1);
    let from_model = c.brads_from_ragdoll(x);
    let pose = PalettePose {
        character: &c,
        from_model,
        local_words: &local_words,
        needed: MESH_JOINTS,
    };
    let palette_cpu = median_cycles_after(RUNS, gx::wait_idle, || {
        load_palette(core::hint::black_box(&pose))
    });
    record(mb, "anim_us.palette_cpu", us_x10(palette_cpu), 1);
    // The same frame with the palette as 25 CPU products instead.
    let full = median_cycles(RUNS, || c.pose_from_ragdoll(core::hint::black_box(x)));
    record(mb, "anim_us.cpu_palette", us_x10(full), 1);
    // The stages of `pose_from_ragdoll` after the brads, one at a time.
    let inject_expand = median_cycles(RUNS, || {
        let given = c.brads.inject(&mut c.model[..n]);
        let given = core::hint::black_box(given);
        expand(
            c.skeleton.parents,
            &c.local[..n],
            &c.placement,
            given,
            &mut c.model[..n],
        );
    });
    record(mb, "anim.inject_expand_us", us_x10(inject_expand), 1);
    let palette = median_cycles(RUNS, || {
        let model = core::hint::black_box(&c.model[..n]);
        skinning_palette(model, c.skeleton.inverse_bind, &mut c.palette[..n]);
    });
    record(mb, "anim.palette_us", us_x10(palette), 1);
    let t = Fx1::from_raw(1234);
    let sample = median_cycles(RUNS, || c.animate(&HUMANOID_WALK, core::hint::black_box(t)));
    record(mb, "anim.sample_us", us_x10(sample), 1);
    let expand_only = median_cycles(RUNS, || {
        let local = core::hint::black_box(&c.local[..n]);
        expand(
            c.skeleton.parents,
            local,
            &c.placement,
            0,
            &mut c.model[..n],
        );
    });
    record(mb, "anim.expand_us", us_x10(expand_only), 1);
    let expand_palette = median_cycles(RUNS, || c.pose_from_animation());
    record(mb, "anim.expand_palette_us", us_x10(expand_palette), 1);
    time_blend(mb, &c);
    core::hint::black_box(c.hash());
}

/// Cross-fading the walk and the run half way (25 nlerps), the
/// character's local pose the output.
#[inline(never)]
fn time_blend(mb: &mut Mailbox, c: &dsphys::anim::Character) {
    let [walk, run] = POSES.take().expect("anim bench poses taken once");
    let skel = c.skeleton;
    sample_clip(skel, &HUMANOID_WALK, Fx1::from_raw(1234), walk);
    sample_clip(skel, &HUMANOID_RUN, Fx1::from_raw(1234), run);
    let mut out = [JointPose::IDENTITY; J];
    let half = Fx1::from_raw(2048);
    let blend = median_cycles(RUNS, || {
        blend_poses(walk, run, core::hint::black_box(half), &mut out);
    });
    core::hint::black_box(&out);
    record(mb, "anim.blend_us", us_x10(blend), 1);
}
