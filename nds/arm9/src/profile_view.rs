//! The bottom screen's profiler: one bar per phase against the 16.7 ms
//! frame, with the budget marked, and the figures in microseconds.

use crate::clock::Profiler;
use crate::console::{draw_text, ROWS};
use crate::font::GLYPH_H;
use crate::hw::timer::{cycles_to_us, FRAME_CYCLES};
use crate::hw::video::{rgb, Surface, WIDTH};
use crate::text;

const BAR_X: usize = 120;
const BAR_W: usize = WIDTH - BAR_X - 8;
const FIRST_ROW: usize = 2;

pub fn draw(s: &mut Surface, p: &Profiler, overruns: u32, overhead_cycles: u32) {
    let (fg, bg, dim) = (rgb(230, 230, 230), rgb(16, 16, 32), rgb(120, 120, 140));
    draw_text(s, 0, 0, "PHASE          us  /16715 us frame", fg, bg);
    for (row, (name, stats)) in (FIRST_ROW..ROWS - 1).zip(p.phases()) {
        let us = cycles_to_us(stats.last_frame_cycles);
        let indent = (stats.depth as usize).min(3);
        let line = text!(20; "{:indent$}{:<12} {:>5}", "", name, us, indent = indent);
        draw_text(s, 0, row, line.as_str(), fg, bg);
        let over = stats.last_frame_cycles > FRAME_CYCLES;
        let fill = (stats.last_frame_cycles as u64 * BAR_W as u64 / FRAME_CYCLES as u64)
            .min(BAR_W as u64) as usize;
        let y = row * GLYPH_H + 2;
        let color = if over {
            rgb(230, 40, 40)
        } else {
            rgb(60, 200, 90)
        };
        s.fill_rect(BAR_X, y, fill, GLYPH_H - 4, color);
        s.fill_rect(BAR_X + fill, y, BAR_W - fill, GLYPH_H - 4, rgb(40, 40, 60));
        s.fill_rect(BAR_X + BAR_W, y - 2, 2, GLYPH_H, rgb(250, 200, 0)); // the budget
    }
    let footer = text!(48; "overruns {}  profiler {} cyc/pair  ", overruns, overhead_cycles);
    draw_text(s, 0, ROWS - 1, footer.as_str(), dim, bg);
}
