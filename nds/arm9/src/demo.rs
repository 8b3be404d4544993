//! The demo ROM's main loop: 60 Hz on VBlank, every phase profiled and
//! published to the bottom screen and the mailbox.

use crate::clock::{publish, BusClock, Profiler};
use crate::console::draw_text;
use crate::hw::timer::{self, FRAME_CYCLES};
use crate::hw::video::{self, rgb, Screen, Surface};
use crate::hw::{keys, timer::cycles_to_us};
use crate::{profile_view, text};
use mailbox::Mailbox;

pub fn run(mb: &'static mut Mailbox) -> ! {
    let mut top = Surface::take(Screen::Top).expect("top screen");
    let mut bottom = Surface::take(Screen::Bottom).expect("bottom screen");
    let bg = rgb(16, 16, 32);
    top.clear(rgb(20, 30, 60));
    bottom.clear(bg);
    draw_text(
        &mut top,
        1,
        1,
        "dsphys: fixed-point ragdolls on DS",
        rgb(255, 255, 255),
        rgb(20, 30, 60),
    );

    let mut prof = Profiler::new(BusClock);
    let frame = prof.phase("frame");
    let input = prof.phase("input");
    let logic = prof.phase("logic");
    let draw = prof.phase("draw");
    mb.header.profiler_overhead_cycles = crate::clock::measure_overhead();

    let mut x: i32 = 8;
    let mut dx: i32 = 2;
    loop {
        video::wait_vblank();
        mb.header.frame = mb.header.frame.wrapping_add(1);
        let start = timer::cycles();
        prof.time(frame, |p| {
            let held = p.time(input, |_| keys::held());
            p.time(logic, |_| {
                // Placeholder motion until the physics scenes land: a block
                // that bounces, faster while A is held.
                let speed = if held & keys::A != 0 { 3 } else { 1 };
                x += dx * speed;
                if !(8..=232).contains(&x) {
                    dx = -dx;
                    x = x.clamp(8, 232);
                }
            });
            p.time(draw, |p| {
                top.fill_rect(0, 90, 256, 16, rgb(20, 30, 60));
                top.fill_rect(x as usize, 90, 16, 16, rgb(250, 200, 0));
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
