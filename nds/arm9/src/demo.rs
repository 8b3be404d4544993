//! The demo ROM's main loop: the default ragdoll thrown into the room,
//! 60 Hz on VBlank, every phase profiled and published to the bottom
//! screen and the mailbox.
//!
//! Controls: A kicks the ragdoll, START resets it, SELECT pauses.

use crate::clock::{publish, BusClock, Profiler};
use crate::console::draw_text;
use crate::draw::{line, project};
use crate::hw::keys;
use crate::hw::timer::{self, cycles_to_us, FRAME_CYCLES};
use crate::hw::video::{self, rgb, Screen, Surface};
use crate::physics::{step_ragdoll, PhysicsPhases};
use crate::{profile_view, text};
use dsphys::fx;
use dsphys::fx::Vec3;
use dsphys::scenario::{tumbling_ragdoll, ROOM};
use dsphys::verlet::{Ragdoll, Settings};
use mailbox::Mailbox;

const SKY: u16 = rgb(20, 30, 60);
const ROOM_EDGE: u16 = rgb(90, 110, 160);
const BONE: u16 = rgb(250, 220, 120);
/// The scene restarts on its own after this many frames (10 s).
const SCENE_FRAMES: u32 = 600;
const MAX_SEGMENTS: usize = 48;

type Segment = ((i32, i32), (i32, i32));

/// The room's 12 edges, projected.
fn room_edges() -> [Segment; 12] {
    let (lo, hi) = (ROOM.min.to_array(), ROOM.max.to_array());
    let corner = |i: usize| {
        let pick = |axis: usize| {
            if i & (1 << axis) != 0 {
                hi[axis]
            } else {
                lo[axis]
            }
        };
        project(Vec3::new(pick(0), pick(1), pick(2)))
    };
    let mut edges = [((0, 0), (0, 0)); 12];
    let mut n = 0;
    for i in 0..8usize {
        for axis in 0..3 {
            if i & (1 << axis) == 0 {
                edges[n] = (corner(i), corner(i | (1 << axis)));
                n += 1;
            }
        }
    }
    edges
}

/// The ragdoll's sticks (links whose min and max length are equal).
fn bones(r: &Ragdoll, out: &mut [Segment; MAX_SEGMENTS]) -> usize {
    let x = r.positions();
    let mut n = 0;
    for link in r.constraints.links().iter().filter(|l| l.min == l.max) {
        if n == MAX_SEGMENTS {
            break;
        }
        out[n] = (project(x[link.a as usize]), project(x[link.b as usize]));
        n += 1;
    }
    n
}

pub fn run(mb: &'static mut Mailbox) -> ! {
    let mut top = Surface::take(Screen::Top).expect("top screen");
    let mut bottom = Surface::take(Screen::Bottom).expect("bottom screen");
    let bg = rgb(16, 16, 32);
    top.clear(SKY);
    bottom.clear(bg);
    let white = rgb(255, 255, 255);
    draw_text(&mut top, 1, 0, "dsphys: Verlet ragdoll, FX32", white, SKY);
    draw_text(
        &mut top,
        1,
        1,
        "A kick  START reset  SELECT pause",
        ROOM_EDGE,
        SKY,
    );
    let edges = room_edges();

    let mut prof = Profiler::new(BusClock);
    let frame = prof.phase("frame");
    let input = prof.phase("input");
    let phases = PhysicsPhases::register(&mut prof);
    let draw = prof.phase("draw");
    mb.header.profiler_overhead_cycles = crate::clock::measure_overhead();

    let settings = Settings::DEFAULT;
    let mut ragdoll = tumbling_ragdoll(Vec3::ZERO);
    let mut shown = [((0, 0), (0, 0)); MAX_SEGMENTS];
    let mut shown_n = 0;
    let (mut last_keys, mut scene_frame, mut paused) = (0u16, 0u32, false);
    loop {
        video::wait_vblank();
        mb.header.frame = mb.header.frame.wrapping_add(1);
        let start = timer::cycles();
        prof.time(frame, |p| {
            let held = p.time(input, |_| keys::held());
            let pressed = held & !last_keys;
            last_keys = held;
            if pressed & keys::START != 0 || scene_frame >= SCENE_FRAMES {
                ragdoll = tumbling_ragdoll(Vec3::ZERO);
                scene_frame = 0;
            }
            if pressed & keys::SELECT != 0 {
                paused = !paused;
            }
            if pressed & keys::A != 0 {
                ragdoll.apply_impulse(0, Vec3::new(fx!(-4.0), fx!(5.0), fx!(2.0)));
            }
            if !paused {
                step_ragdoll(&mut ragdoll, &settings, p, &phases);
                scene_frame += 1;
            }
            p.time(draw, |p| {
                // Erase last frame's bones by drawing them in the sky colour.
                for &(a, b) in &shown[..shown_n] {
                    line(&mut top, a, b, SKY);
                }
                for &(a, b) in &edges {
                    line(&mut top, a, b, ROOM_EDGE);
                }
                shown_n = bones(&ragdoll, &mut shown);
                for &(a, b) in &shown[..shown_n] {
                    line(&mut top, a, b, BONE);
                }
                if mb.header.frame.is_multiple_of(8) {
                    let f = p.frames();
                    profile_view::draw(
                        &mut bottom,
                        p,
                        mb.header.overruns,
                        mb.header.profiler_overhead_cycles,
                    );
                    let line = text!(42; "frame {}  {} us budget", f, cycles_to_us(FRAME_CYCLES));
                    draw_text(&mut bottom, 0, 1, line.as_str(), rgb(120, 120, 140), bg);
                }
            });
        });
        prof.end_frame();
        if timer::cycles().wrapping_sub(start) > FRAME_CYCLES {
            mb.header.overruns += 1;
        }
        publish(&prof, mb);
    }
}
