//! The demo ROM: the scenes on the 3D engine (top screen), the console and
//! the profiler (bottom screen), buttons and stylus. 60 Hz on VBlank;
//! every phase is profiled, a frame that overruns is counted and shown.
//!
//! One frame, in order (data flows one way): input, scene logic and the
//! stylus, physics, render submission (then SWAP_BUFFERS, which the
//! hardware carries out at the next VBlank), the console, the mailbox.

mod anim;
mod controls;
mod live;
mod rigid;
mod screen;
mod stylus;
mod touch_camera;

use crate::clock::{publish, BusClock, Profiler};
use crate::hw::gx_dma::{self, Transfer};
use crate::hw::once::TakeOnce;
use crate::hw::timer::{self, cycles_to_us, FRAME_CYCLES};
use crate::hw::video::{rgb, Screen, Surface};
use crate::hw::{arm7_input, gx, keys};
use crate::physics::{step_crowd, step_crowd_in_room, PhysicsPhases};
use crate::render::display_list::DisplayList;
use crate::render::lit_list::LitList;
use crate::render::shade::Rgb;
use crate::render::world::Shape;
use crate::render::{self, bodies, ragdoll, skinned, world, DrawMode, PolyBudget};
use crate::scenes::{self, FrameStats, Sim, SCENES};
use controls::Controls;
use dsphys::fx;
use dsphys::fx::{Fx1, Fx2, Vec3};
use dsphys::verlet::Gravity;
use live::Live;
use mailbox::Mailbox;
use profiler::PhaseId;
use stylus::{Held, Stylus};
use touch_camera::TouchCamera;

static SIM: TakeOnce<Sim> = TakeOnce::new(Sim::new());
/// The world's display list, rebuilt at each scene reset (32 KiB).
static WORLD_LIST: TakeOnce<DisplayList> = TakeOnce::new(DisplayList::new());
/// The lit boxes' display list (rigid bodies and ragdoll bones, then the
/// far characters' lines), refreshed every frame (about 120 KB).
static LIT_LIST: TakeOnce<LitList> = TakeOnce::new(LitList::new());
/// The bottom screen's text cells (4 KB, main RAM).
static TEXT_GRID: TakeOnce<crate::console::TextGrid> =
    TakeOnce::new(crate::console::TextGrid::new());

const SKY: u16 = rgb(24, 32, 64);
const GRAB_MARK: u16 = rgb(255, 80, 255);
/// Character colours, in turn.
const PALETTE: [Rgb; 4] = [
    Rgb(240, 200, 110),
    Rgb(120, 190, 250),
    Rgb(240, 120, 120),
    Rgb(160, 230, 140),
];
/// Box colours, in turn.
const BOX_PALETTE: [Rgb; 3] = [Rgb(220, 150, 90), Rgb(200, 110, 80), Rgb(230, 190, 120)];
const GOAL_MARK: u16 = rgb(255, 230, 60);
/// Point gravity pulls towards the middle of the room, 1.5 m up.
const GRAVITY_POINT: Vec3 = Vec3::new(fx!(0.0), fx!(1.5), fx!(0.0));
const MAX_GRAVITY: Fx1 = fx!(30.0);
const MIN_DAMPING: Fx1 = fx!(0.9);
/// The mailbox's host command word the runner changes (adds one to) to
/// turn the Armed Mine upside down in scene (f): `nds/runner/stress.py`.
const HOST_FLIP_MINE: usize = 1;

/// The demo's state besides the simulation.
struct Demo {
    scene: usize,
    cam: render::Camera,
    mode: DrawMode,
    paused: bool,
    point_gravity: bool,
    controls: Controls,
    stylus: Stylus,
    touch_cam: TouchCamera,
    last: FrameStats,
    max_submitted: u32,
    max_stored: u32,
    /// The most vertices the hardware stored in one frame.
    max_vertices: u32,
    /// Frames whose colour buffer underflowed.
    underflows: u32,
    gx_errors: u32,
    /// Cycles the CPU slept in the last wait for VBlank.
    idle: u32,
    /// Polygons the hardware stored last frame (the console shows them).
    last_stored: u32,
    /// The last value of host command [`HOST_FLIP_MINE`] acted on, and
    /// the flips carried out since boot.
    flip_seen: u32,
    mine_flips: u32,
    /// Times the lid was closed (the console slept).
    lid_sleeps: u32,
}

/// Every scene's ragdolls as one crowd: they touch each other. None in
/// the rigid scenes, whose frames then copy no Verlet code into ITCM.
/// Out of line: inlined, it grew the frame loop's stack by 304 bytes,
/// which scene (b) needs for its solver rows (`make stress-test`).
#[inline(never)]
fn step_ragdolls(sim: &mut Sim, p: &mut Profiler, phases: &PhysicsPhases) {
    let settings = sim.settings;
    let crowd = &mut sim.ragdolls[..sim.count];
    if crowd.is_empty() {
        return;
    }
    crate::hw::itcm::verlet();
    match sim.world {
        Shape::Room(_) => step_crowd_in_room(crowd, &settings, p, phases),
        Shape::Mesh(w) => step_crowd(crowd, &settings, w, &mut sim.contacts, p, phases),
    };
}

pub fn run(mb: &'static mut Mailbox) -> ! {
    let mut bottom = Surface::take(Screen::Bottom).expect("bottom screen");
    bottom.clear(crate::profile_view::BG);
    gx::init_top_screen();
    let sim = SIM.take().expect("scene memory");
    let world_list = WORLD_LIST.take().expect("world display list");
    let lit_list = LIT_LIST.take().expect("lit display list");

    let mut prof = Profiler::new(BusClock);
    let frame = prof.phase("frame");
    let input = prof.phase("input");
    let scene_phase = prof.phase("scene");
    let rigid_phases = rigid::RigidPhases::register(&mut prof);
    let phases = PhysicsPhases::register(&mut prof);
    let anim_phases = anim::AnimPhases::register(&mut prof);
    let render_phase = prof.phase("render");
    let rp = RenderPhases {
        world: prof.phase("world"),
        bodies: prof.phase("bodies"),
        gx_wait: prof.phase("gx wait"),
    };
    let console = prof.phase("console");
    // The bars on the bottom screen: the frame and its main phases (the
    // sub-phases are in the mailbox and `make run`'s table).
    let shown = [
        frame,
        input,
        anim_phases.anim,
        rigid_phases.rigid,
        phases.physics,
        phases.collision,
        anim_phases.brads,
        anim_phases.expand,
        render_phase,
        console,
    ];
    mb.header.profiler_overhead_cycles = crate::clock::measure_overhead();
    live::init(mb);

    let mut d = Demo {
        scene: 0,
        cam: scenes::reset(0, sim),
        mode: DrawMode::Filled,
        paused: false,
        point_gravity: false,
        controls: Controls::default(),
        stylus: Stylus::default(),
        touch_cam: TouchCamera::default(),
        last: FrameStats::default(),
        max_submitted: 0,
        max_stored: 0,
        max_vertices: 0,
        underflows: 0,
        gx_errors: 0,
        idle: 0,
        last_stored: 0,
        flip_seen: 0,
        mine_flips: 0,
        lid_sleeps: 0,
    };
    compile_world(d.scene, sim, world_list);
    let dsi_mode = crate::hw::boot::dsi_mode();
    live::set(mb, Live::DsiMode, dsi_mode as i32);
    let grid = TEXT_GRID.take().expect("text grid taken once");
    let mut screen = screen::Screen::new(shown, grid);
    // Between frames the CPU sleeps until the VBlank interrupt.
    crate::hw::irq::enable_vblank();
    loop {
        let waited = timer::cycles();
        crate::hw::irq::wait_vblank();
        let idle = timer::cycles().wrapping_sub(waited);
        // The ARM7's block, read once a frame (a few us of uncached reads,
        // before the frame's timing: the lid decides whether there is a
        // frame at all).
        let arm7 = arm7_input::read();
        if arm7.is_some_and(|b| b.ext_keys & arm7_input::EXT_LID_CLOSED != 0) {
            // Closed: parked until it opens (the ARM7 sleeps the console
            // meanwhile), then a fresh frame, so the gap is neither idle
            // time nor an overrun.
            d.lid_sleeps += 1;
            live::set(mb, Live::LidSleeps, d.lid_sleeps as i32);
            crate::hw::lid::sleep_until_open();
            continue;
        }
        d.idle = idle;
        crate::hw::stack_guard::check();
        mb.header.frame = mb.header.frame.wrapping_add(1);
        let start = timer::cycles();
        let mut stored = render::Stored::default();
        let mut budget = PolyBudget::new();
        let mut busy = 0;
        prof.time(frame, |p| {
            let req = p.time(input, |_| {
                let ext = arm7.map_or(0, |b| b.ext_keys);
                let xy = ((ext & arm7_input::EXT_X != 0) as u16 * controls::X)
                    | ((ext & arm7_input::EXT_Y != 0) as u16 * controls::Y);
                d.controls.update(keys::held() | xy)
            });
            if req.exit {
                crate::hw::exit::leave(|path| live::set(mb, Live::ExitPath, path as i32));
            }
            let mut step = !d.paused;
            p.time(scene_phase, |_| {
                apply(&mut d, sim, world_list, &req, &mut step);
                host_requests(&mut d, sim, mb);
                let touch = arm7
                    .filter(|b| b.touching != 0)
                    .map(|b| (b.px as i32, b.py as i32));
                // A touch in the camera strips moves the camera only.
                let on_camera = d.touch_cam.update(touch, &mut d.cam);
                d.stylus.update(touch.filter(|_| !on_camera), sim, &d.cam);
                if step {
                    (SCENES[d.scene].update)(sim, &d.last);
                }
            });
            if step {
                rigid::step(sim, p, &rigid_phases);
                step_ragdolls(sim, p, &phases);
                anim::pose(sim, p, &anim_phases);
                sim.frame += 1;
            }
            // The world's DMA runs on while the console is drawn.
            let world_dma = p.time(render_phase, |p| {
                draw_top(&d, sim, world_list, lit_list, &mut budget, p, &rp)
            });
            busy = timer::cycles().wrapping_sub(start);
            p.time(console, |p| {
                let view = screen::View {
                    scene: d.scene,
                    gravity_point: d.point_gravity,
                    gravity: sim.settings.gravity_strength,
                    damping: sim.settings.damping,
                    paused: d.paused,
                    draw_mode: d.mode.name(),
                    ragdolls: sim.count,
                    bodies: sim.bodies().iter().filter(|b| !b.is_static()).count(),
                    polys_submitted: budget.used(),
                    polys_stored: d.last_stored,
                    rain_full: sim.rain.full,
                    grabbing: d.stylus.grab.is_some(),
                    overran: d.last.overran,
                    overruns: mb.header.overruns,
                    profiler_overhead: mb.header.profiler_overhead_cycles,
                    dsi_mode,
                };
                screen.draw(&mut bottom, &view, p);
            });
            stored = p.time(rp.gx_wait, |_| {
                if let Some(t) = world_dma {
                    t.wait();
                }
                render::end_frame()
            });
            d.last_stored = stored.polygons;
            publish_live(mb, &mut d, sim, &budget, &stored, busy, arm7);
        });
        prof.end_frame();
        let overran = timer::cycles().wrapping_sub(start) > FRAME_CYCLES;
        if overran {
            mb.header.overruns += 1;
        }
        d.last = FrameStats {
            busy_cycles: busy,
            overran,
        };
        publish(&prof, mb);
        crate::clock::publish_timeline(&prof, mb, d.idle, overran);
    }
}

/// Resets the world's display list to scene `scene`'s world.
fn compile_world(scene: usize, sim: &Sim, list: &mut DisplayList) {
    if world::compile(&sim.world, list).is_err() {
        panic!(
            "scene ({}): its world needs more than {} display-list words",
            SCENES[scene].letter,
            render::display_list::CAPACITY
        );
    }
}

/// Carries out this frame's button requests.
fn apply(
    d: &mut Demo,
    sim: &mut Sim,
    world_list: &mut DisplayList,
    req: &controls::Requests,
    step: &mut bool,
) {
    if req.next_scene || req.reset {
        d.stylus.release(sim);
        if req.next_scene {
            d.scene = (d.scene + 1) % SCENES.len();
        }
        let cam = scenes::reset(d.scene, sim);
        compile_world(d.scene, sim, world_list);
        if req.next_scene {
            d.cam = cam; // a reset keeps the user's view
        }
        d.max_submitted = 0;
        d.max_stored = 0;
        d.max_vertices = 0;
    }
    if req.next_draw_mode {
        d.mode = d.mode.next();
    }
    if req.toggle_pause {
        d.paused = !d.paused;
    }
    if req.step {
        // B pauses, then each press advances one frame.
        *step = d.paused;
        d.paused = true;
    }
    if req.toggle_gravity_mode {
        d.point_gravity = !d.point_gravity;
    }
    let s = &mut sim.settings;
    s.gravity = if d.point_gravity {
        Gravity::TowardsPoint(GRAVITY_POINT)
    } else {
        Gravity::Down
    };
    s.gravity_strength = (s.gravity_strength + req.gravity_delta).clamp(Fx1::ZERO, MAX_GRAVITY);
    s.damping = (s.damping + req.damping_delta).clamp(MIN_DAMPING, Fx1::ONE);
    scenes::powered::change_strength(sim, req.strength_delta);
    d.cam.orbit(req.yaw, req.pitch, req.zoom);
}

/// Carries out the runner's requests through the mailbox: a new value in
/// host command [`HOST_FLIP_MINE`] turns the Armed Mine upside down
/// (scene f; elsewhere the request is dropped).
fn host_requests(d: &mut Demo, sim: &mut Sim, mb: &Mailbox) {
    let flip = crate::hw::mailbox::host_command(mb, HOST_FLIP_MINE);
    if flip == d.flip_seen {
        return;
    }
    d.flip_seen = flip;
    if sim.rigid == scenes::Rigid::Mine {
        // The creature is rebuilt: nothing of it stays held.
        d.stylus.release(sim);
    }
    d.mine_flips += scenes::armed_mine::turn_upside_down(sim) as u32;
}

/// The render phase's parts: the world (frame set-up and the display
/// list's DMA start), the characters; and, after the console, the wait
/// for the DMA and the geometry engine to finish the queued commands.
struct RenderPhases {
    world: PhaseId,
    bodies: PhaseId,
    gx_wait: PhaseId,
}

/// Submits the top screen: the characters and the markers, then the
/// world's display list by DMA; while it runs, builds the rigid bodies'
/// list, which follows it. The last DMA is still running when this
/// returns. Out of line: its locals (the characters' distances) stay
/// off the stack while the physics, whose deepest frames are within a
/// few hundred bytes of DTCM's end, runs.
#[inline(never)]
fn draw_top<'a>(
    d: &Demo,
    sim: &Sim,
    world_list: &'a DisplayList,
    lit_list: &'a mut LitList,
    budget: &mut PolyBudget,
    p: &mut Profiler,
    rp: &RenderPhases,
) -> Option<Transfer<'a>> {
    let world_drawn = p.time(rp.world, |_| {
        render::begin_frame(&d.cam, SKY);
        world::reserve(world_list, budget)
    });
    p.time(rp.bodies, |_| {
        lit_list.begin(d.mode.solid_alpha());
        let eye = d.cam.eye();
        let near = |r: &dsphys::verlet::Ragdoll| (eye - r.positions()[0]).length_squared();
        if let (true, Some(c)) = (sim.walker.active, &sim.character) {
            // Walking, every model matrix is current; limp, the brads'.
            let from_model = if sim.walker.limp {
                c.brads.joints_mask()
            } else {
                u32::MAX
            };
            let pose = skinned::PalettePose {
                character: c,
                from_model,
                local_words: &sim.walker.local_words,
                needed: skinned::MESH_JOINTS,
            };
            skinned::draw(&pose, d.mode, budget);
        }
        // The limp character's ragdoll shows through its mesh; its
        // particles and constraints only in the constraints mode.
        let walker = sim.walker.active && d.mode != DrawMode::Constraints;
        // Each character's rank by distance: how many are nearer.
        let mut d2 = [Fx2::ZERO; scenes::MAX_RAGDOLLS];
        for (o, r) in d2.iter_mut().zip(sim.iter()) {
            *o = near(r);
        }
        let d2 = &d2[..sim.count];
        for (i, r) in sim.iter().enumerate().filter(|_| !walker) {
            let rank = d2.iter().filter(|&&o| o < d2[i]).count();
            let detail = ragdoll::detail_for_rank(rank);
            ragdoll::draw(
                r,
                PALETTE[i % PALETTE.len()],
                d2[i],
                d.mode,
                detail,
                budget,
                lit_list,
            );
        }
        if sim.rigid == scenes::Rigid::Mine {
            let goal = sim.mine.goal;
            ragdoll::marker(goal, fx!(0.1), GOAL_MARK, budget);
        }
        if let Some(p) = d.stylus.held_point(sim) {
            ragdoll::marker(p, fx!(0.08), GRAB_MARK, budget);
        }
    });
    let world_dma = p.time(rp.world, |_| {
        // The characters' matrices were pushed and popped; load the view
        // again all the same, so the world never depends on them.
        render::load_view(&d.cam);
        if !world_drawn {
            return None;
        }
        let world_mode = match d.mode {
            DrawMode::Constraints => DrawMode::Wireframe,
            m => m,
        };
        world::submit(world_list, world_mode)
    });
    p.time(rp.bodies, |_| {
        bodies::draw(sim.bodies(), &BOX_PALETTE, budget, lit_list);
        lit_list.finish();
    });
    let lit_list: &'a LitList = lit_list;
    if lit_list.words().is_empty() {
        return world_dma;
    }
    // One DMA at a time: the lit list follows the world's (its boxes were
    // added while the world's ran).
    p.time(rp.world, |_| {
        drop(world_dma);
        gx_dma::send_cleaned(lit_list.words())
    })
}

#[allow(clippy::too_many_arguments)]
fn publish_live(
    mb: &mut Mailbox,
    d: &mut Demo,
    sim: &Sim,
    budget: &PolyBudget,
    stored: &render::Stored,
    busy: u32,
    arm7: Option<arm7_input::InputBlock>,
) {
    d.max_submitted = d.max_submitted.max(budget.used());
    d.max_stored = d.max_stored.max(stored.polygons);
    d.max_vertices = d.max_vertices.max(stored.vertices);
    d.underflows += stored.underflow as u32;
    d.gx_errors += (stored.overflow || stored.stack_error) as u32;
    live::set(mb, Live::Scene, d.scene as i32);
    live::set(
        mb,
        Live::ScenePending,
        SCENES[d.scene].pending.is_some() as i32,
    );
    live::set(mb, Live::Ragdolls, sim.count as i32);
    let dynamic = sim.bodies().iter().filter(|b| !b.is_static()).count();
    live::set(mb, Live::Bodies, dynamic as i32);
    live::set(mb, Live::RowsDropped, sim.rows_dropped() as i32);
    // Set once the crowd the rain left has settled (`scenes/rain.rs`).
    live::set(mb, Live::RainFull, sim.rain.settled(sim.frame) as i32);
    // The powered ragdoll's level of detail: 0 full, 1 folded, 2 resting,
    // 3 folded above its ankles (-1 in the other scenes).
    let lod = match sim.rigid {
        scenes::Rigid::Powered if sim.powered.is_partly_folded() => 3,
        scenes::Rigid::Powered => sim.powered.is_folded() as i32 + sim.powered.is_resting() as i32,
        _ => -1,
    };
    live::set(mb, Live::PoweredLod, lod);
    live::set(mb, Live::PolysSubmitted, budget.used() as i32);
    live::set(mb, Live::PolysStored, stored.polygons as i32);
    live::set(mb, Live::PolysMaxSubmitted, d.max_submitted as i32);
    live::set(mb, Live::PolysMaxStored, d.max_stored as i32);
    live::set(mb, Live::VertsMaxStored, d.max_vertices as i32);
    live::set(mb, Live::GxUnderflows, d.underflows as i32);
    live::set(mb, Live::PolysRefused, budget.refused as i32);
    live::set(mb, Live::Paused, d.paused as i32);
    live::set(mb, Live::DrawMode, d.mode as i32);
    live::set(mb, Live::GravityMode, d.point_gravity as i32);
    live::set_fx(mb, Live::GravityStrength, sim.settings.gravity_strength);
    live::set_fx(mb, Live::Damping, sim.settings.damping);
    live::set(mb, Live::BusyUs, cycles_to_us(busy) as i32);
    live::set(mb, Live::IdleUs, cycles_to_us(d.idle) as i32);
    live::set(mb, Live::Vblanks, crate::hw::irq::vblanks() as i32);
    let block = arm7.unwrap_or_default();
    live::set(mb, Live::TouchDown, block.touching as i32);
    live::set(mb, Live::TouchX, block.px as i32);
    live::set(mb, Live::TouchY, block.py as i32);
    live::set(
        mb,
        Live::TouchCalibration,
        arm7.map_or(-1, |b| b.calibration as i32),
    );
    live::set(mb, Live::Arm7Updates, block.updates as i32);
    live::set(mb, Live::ExtKeys, block.ext_keys as i32);
    // What the pen holds, and where the held point shows.
    let (particle, body) = match d.stylus.grab.map(|g| g.held) {
        Some(Held::Particle { particle, .. }) => (particle as i32, -1),
        Some(Held::Body(i)) => (-1, i as i32),
        None => (-1, -1),
    };
    let shown = d.stylus.held_point(sim).and_then(|p| d.cam.project(p));
    live::set(mb, Live::GrabParticle, particle);
    live::set(mb, Live::GrabBody, body);
    live::set(mb, Live::GrabScreenX, shown.map_or(-1, |s| s.x));
    live::set(mb, Live::GrabScreenY, shown.map_or(-1, |s| s.y));
    live::set(mb, Live::Shots, d.stylus.shots as i32);
    live::set(mb, Live::GxErrors, d.gx_errors as i32);
    live::set(mb, Live::CamYaw, d.cam.yaw.raw() as i32);
    live::set(mb, Live::CamPitch, d.cam.pitch.raw() as i16 as i32);
    live::set_fx(mb, Live::CamDistance, d.cam.distance);
    // Where the first character's head shows (the walking character's
    // while it walks), for the runner's stylus tests.
    let walking = sim.walker.active && !sim.walker.limp;
    let head = if walking {
        Some(sim.walker.now[0])
    } else {
        sim.iter().next().map(|r| r.positions()[0])
    };
    let probe = head.and_then(|p| d.cam.project(p));
    live::set(mb, Live::ProbeX, probe.map_or(-1, |s| s.x));
    live::set(mb, Live::ProbeY, probe.map_or(-1, |s| s.y));
    // Where the last dynamic body's centre shows (the pyramid's top box),
    // for the runner's box drag test.
    let body_probe = sim
        .bodies()
        .iter()
        .rev()
        .find(|b| !b.is_static())
        .and_then(|b| d.cam.project(b.position()));
    live::set(mb, Live::BodyProbeX, body_probe.map_or(-1, |s| s.x));
    live::set(mb, Live::BodyProbeY, body_probe.map_or(-1, |s| s.y));
    live::set(mb, Live::MineFlips, d.mine_flips as i32);
}
