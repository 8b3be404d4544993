//! The PC-profile ROM: runs one bench workload forever, never waiting for
//! VBlank, so that `nds/runner/pcprofile.py` can sample the ARM9's program
//! counter once per emulated frame and say where the cycles go, function
//! by function. The workload is chosen at build time
//! (`make pcprofile PCPROFILE=ragdoll|motor|anim|animframe`):
//! - ragdoll: the one-ragdoll arena drop, kicked every 2 s (the default;
//!   its us per step is per awake step, as `ragdoll_step_us`);
//! - crowd: the bench's crowd drop (`scaling`, `ragdolls_at_60hz`) of
//!   [`CROWD`] ragdolls with their brads, `CROWD_FRAMES` from the throw,
//!   again and again; a step is a frame of the whole crowd;
//! - motor: the powered ragdoll's push scenario (`motor_character_us`);
//! - motorfull: the same scenario with the level of detail off, so that
//!   every step is a full one (`motor_character_us.unfolded`);
//! - pyramid: scene (b)'s ten-box pyramid in the room, a box shot out of
//!   its bottom row every 4 s (`rigid::room::pyramid_shot`);
//! - anim: sample, blend, expand, palette and brads of one character;
//! - animframe: the bench's `anim_us.total` alone (the tumbled ragdoll's
//!   brads, then the palette's commands to the geometry engine), so its
//!   us per step is about that figure.

// Every workload but the one-ragdoll one (on the stack) and the
// animation frame keeps its state in a static.
#[cfg(any(
    feature = "pc-profile-crowd",
    feature = "pc-profile-motor",
    feature = "pc-profile-motorfull",
    feature = "pc-profile-pyramid",
    feature = "pc-profile-boxes",
    feature = "pc-profile-anim"
))]
use crate::hw::once::TakeOnce;
use mailbox::Mailbox;

fn tick(mb: &mut Mailbox) {
    mb.header.frame = mb.header.frame.wrapping_add(1);
}

#[cfg(not(any(
    feature = "pc-profile-crowd",
    feature = "pc-profile-motor",
    feature = "pc-profile-motorfull",
    feature = "pc-profile-pyramid",
    feature = "pc-profile-boxes",
    feature = "pc-profile-anim",
    feature = "pc-profile-animframe"
)))]
pub fn run(mb: &'static mut Mailbox) -> ! {
    crate::hw::itcm::verlet();
    use dsphys::verlet::{Ragdoll, WorldContacts};
    struct Workload {
        ragdoll: Ragdoll,
        contacts: WorldContacts,
    }
    // On the DTCM stack, as the bench's `ragdoll_step_us` has it.
    let w = &mut Workload {
        ragdoll: Ragdoll::EMPTY,
        contacts: WorldContacts::new(),
    };
    loop {
        dsphys::scenario::arena_drop_into(&mut w.ragdoll);
        for frame in 0..240u32 {
            // The bench's kick, which wakes it. Only awake steps count,
            // as in the bench (an asleep step does nothing).
            dsphys::scenario::kick_arena_drop(&mut w.ragdoll, frame);
            let awake = !w.ragdoll.is_asleep();
            dsphys::scenario::step_in_world(&mut w.ragdoll, &crate::worlds::ARENA, &mut w.contacts);
            if awake {
                tick(mb);
            }
        }
    }
}

/// Ragdolls in the crowd workload: about the crowd `ragdolls_at_60hz`
/// finds (23-37 at 2026-11-28), a size the bench's `scaling` measures.
#[cfg(feature = "pc-profile-crowd")]
pub const CROWD: usize = 16;

#[cfg(feature = "pc-profile-crowd")]
pub fn run(mb: &'static mut Mailbox) -> ! {
    crate::hw::itcm::verlet();
    use dsphys::anim::brad::BradTable;
    use dsphys::verlet::{Ragdoll, Settings, WorldContacts};
    struct Workload {
        ragdolls: [Option<Ragdoll>; CROWD],
        contacts: WorldContacts,
        brads: [Option<BradTable>; CROWD],
    }
    /// In a static: about 3 KiB a ragdoll.
    static WORKLOAD: TakeOnce<Workload> = TakeOnce::new(Workload {
        ragdolls: [const { None }; CROWD],
        contacts: WorldContacts::new(),
        brads: [const { None }; CROWD],
    });
    let w = WORKLOAD.take().expect("taken once");
    let brad_def = &dsphys::anim::humanoid_brads::HUMANOID;
    loop {
        for i in 0..CROWD {
            dsphys::scenario::crowd_spawn(i, Ragdoll::in_slot(&mut w.ragdolls[i]));
            w.brads[i] = Some(BradTable::new(brad_def));
        }
        // As `bench::crowd::measure`: the crowd's step, then the brads.
        for frame in 0..dsphys::scenario::CROWD_FRAMES {
            dsphys::scenario::kick_crowd(&mut w.ragdolls, frame);
            dsphys::verlet::step_crowd_in_world(
                &mut w.ragdolls,
                &Settings::DEFAULT,
                &crate::worlds::ARENA,
                &mut w.contacts,
                dsphys::scenario::WORLD_FRICTION,
                &mut dsphys::verlet::Untimed,
            );
            for (r, brads) in w.ragdolls.iter().zip(&mut w.brads) {
                let (r, brads) = (r.as_ref().expect("spawned"), brads.as_mut().expect("built"));
                brads.build(r.positions());
            }
            tick(mb);
        }
    }
}

#[cfg(any(feature = "pc-profile-motor", feature = "pc-profile-motorfull"))]
pub fn run(mb: &'static mut Mailbox) -> ! {
    crate::hw::itcm::rigid();
    use dsphys::fx::Vec3;
    use dsphys::rigid::characters::powered::{push, PoweredRagdoll, IDLE, PUSH_FRAME};
    /// About 40 KB (the row buffer): a static, never the DTCM stack.
    static CHARACTER: TakeOnce<PoweredRagdoll> = TakeOnce::new(PoweredRagdoll::PLACEHOLDER);
    let r = CHARACTER.take().expect("taken once");
    loop {
        r.reset(Vec3::ZERO);
        if cfg!(feature = "pc-profile-motorfull") {
            r.lod = false;
            r.set_strength(dsphys::fx::Fx1::ONE);
        }
        for frame in 0..240u32 {
            if frame == PUSH_FRAME {
                push(r);
            }
            r.step_marked(&IDLE, &mut |_| {});
            tick(mb);
        }
    }
}

#[cfg(feature = "pc-profile-pyramid")]
pub fn run(mb: &'static mut Mailbox) -> ! {
    crate::hw::itcm::rigid();
    use dsphys::rigid::room::{pyramid, pyramid_shot, PyramidWorld, SHOT_EVERY};
    /// About 40 KB (the row buffer): a static, never the DTCM stack.
    static WORLD: TakeOnce<PyramidWorld> =
        TakeOnce::new(PyramidWorld::empty(dsphys::rigid::Settings::DEFAULT));
    let w = WORLD.take().expect("taken once");
    loop {
        pyramid(w);
        for frame in 0..SHOT_EVERY {
            pyramid_shot(w, frame);
            w.step();
            tick(mb);
        }
    }
}

/// Scene (c)'s box of boxes, asleep, then shot (as `make bench`'s
/// `rigid_scene_us.box_of_boxes_moving`): 180 frames, again and again.
#[cfg(feature = "pc-profile-boxes")]
pub fn run(mb: &'static mut Mailbox) -> ! {
    crate::hw::itcm::rigid();
    use dsphys::rigid::room;
    static WORLD: TakeOnce<room::BoxWorld> =
        TakeOnce::new(room::BoxWorld::empty(dsphys::rigid::Settings::DEFAULT));
    let w = WORLD.take().expect("taken once");
    loop {
        let first = room::box_of_boxes(w).expect("box of boxes: the world is too small");
        room::box_of_boxes_shot(w, first);
        for _ in 0..180 {
            w.step();
            tick(mb);
        }
    }
}

#[cfg(feature = "pc-profile-anim")]
pub fn run(mb: &'static mut Mailbox) -> ! {
    crate::hw::itcm::verlet();
    use dsphys::anim::humanoid::{HUMANOID_RUN, HUMANOID_WALK};
    use dsphys::anim::workload::{character, tumbled_positions};
    use dsphys::anim::{blend_poses, sample_clip, Character, JointPose};
    use dsphys::fx::Fx1;
    const J: usize = 25;
    /// The 4 KB character and two sampled poses: statics, off the stack.
    static CHARACTER: TakeOnce<Option<Character>> = TakeOnce::new(None);
    static POSES: TakeOnce<[[JointPose; J]; 3]> = TakeOnce::new([[JointPose::IDENTITY; J]; 3]);
    let x = tumbled_positions(40);
    let c = CHARACTER.take().expect("taken once").insert(character());
    let [walk, run, out] = POSES.take().expect("taken once");
    let mut t = 0i32;
    loop {
        t = (t + 68) & 0xffff;
        let at = Fx1::from_raw(t);
        sample_clip(c.skeleton, &HUMANOID_WALK, at, walk);
        sample_clip(c.skeleton, &HUMANOID_RUN, at, run);
        blend_poses(walk, run, Fx1::from_raw(2048), out);
        c.animate(&HUMANOID_WALK, at);
        c.pose_from_animation();
        c.pose_from_ragdoll(core::hint::black_box(&x));
        core::hint::black_box(&*out);
        tick(mb);
    }
}

#[cfg(feature = "pc-profile-animframe")]
pub fn run(mb: &'static mut Mailbox) -> ! {
    crate::hw::itcm::verlet();
    use crate::render::skinned::{load_palette, PalettePose, MESH_JOINTS};
    use crate::render::GX_SHIFT;
    use dsphys::anim::gx_palette::all_local_words;
    use dsphys::anim::workload::{character, tumbled_positions};
    let x = tumbled_positions(40);
    // On the DTCM stack, as in the bench's `time_stages` (a static in
    // main RAM would add DeSmuME's data-cache misses to the figure).
    let mut c = character();
    let n = c.joints();
    // As the bench's `anim_us.total`: the brads, then the palette on the
    // geometry engine, which expands the joints without a brad.
    crate::hw::gx::power_geometry();
    crate::hw::gx::matrix_mode(crate::hw::gx::MatrixMode::PositionVector);
    let mut local_words = [[0; 12]; 25];
    all_local_words(&c.local[..n], GX_SHIFT, &mut local_words);
    loop {
        let from_model = c.brads_from_ragdoll(core::hint::black_box(&x));
        load_palette(&PalettePose {
            character: &c,
            from_model,
            local_words: &local_words,
            needed: MESH_JOINTS,
        });
        tick(mb);
    }
}
