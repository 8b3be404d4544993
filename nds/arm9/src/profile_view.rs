//! The bottom screen's profiler: one bar per phase against the 16.7 ms
//! frame, with the budget marked, and the figures in microseconds. The
//! frame's own bar turns red on a frame that overran. Drawn a row at a
//! time, so the redraw costs the same small amount every frame.

use crate::console::TextGrid;
use crate::font::GLYPH_H;
use crate::hw::timer::{cycles_to_us, FRAME_CYCLES};
use crate::hw::video::{rgb, Surface, WIDTH};
use crate::text;
use profiler::PhaseStats;

const BAR_X: usize = 120;
const BAR_W: usize = WIDTH - BAR_X - 8;
pub const BG: u16 = rgb(16, 16, 32);
const FG: u16 = rgb(230, 230, 230);
const DIM: u16 = rgb(120, 120, 140);

/// What a row's bar shows, so an unchanged bar is not painted again.
#[derive(Clone, Copy, Default, PartialEq, Eq)]
pub struct Bar {
    fill: usize,
    color: u16,
    drawn: bool,
}

/// The colour of a bar over the budget.
const OVER: u16 = rgb(230, 40, 40);

impl Bar {
    /// True when the bar was last drawn red (over the budget).
    pub fn shows_red(&self) -> bool {
        self.drawn && self.color == OVER
    }
}

/// One phase: name (indented by depth), microseconds last frame, and its
/// bar. `overran`: the bar is red (the frame, or a phase on its own, went
/// over the budget). `bar` is what the row's bar showed.
pub fn phase_row(
    s: &mut Surface,
    grid: &mut TextGrid,
    bar: &mut Bar,
    row: usize,
    name: &str,
    stats: &PhaseStats,
    overran: bool,
) {
    let us = cycles_to_us(stats.last_frame_cycles);
    let indent = (stats.depth as usize).min(3);
    let line = text!(20; "{:indent$}{:<12} {:>5} ", "", name, us, indent = indent);
    grid.draw(s, 0, row, line.as_str(), FG, BG);
    let over = overran || stats.last_frame_cycles > FRAME_CYCLES;
    let fill = (stats.last_frame_cycles as u64 * BAR_W as u64 / FRAME_CYCLES as u64)
        .min(BAR_W as u64) as usize;
    let color = if over { OVER } else { rgb(60, 200, 90) };
    let now = Bar {
        fill,
        color,
        drawn: true,
    };
    if *bar == now {
        return;
    }
    let y = row * GLYPH_H + 2;
    let (h, empty) = (GLYPH_H - 4, rgb(40, 40, 60));
    if bar.drawn && bar.color == color {
        // Only the pixels between the old end and the new one change (the
        // bars are most of what the console paints in a frame).
        if fill > bar.fill {
            s.fill_rect(BAR_X + bar.fill, y, fill - bar.fill, h, color);
        } else {
            s.fill_rect(BAR_X + fill, y, bar.fill - fill, h, empty);
        }
    } else {
        s.fill_rect(BAR_X, y, fill, h, color);
        s.fill_rect(BAR_X + fill, y, BAR_W - fill, h, empty);
    }
    if !bar.drawn {
        s.fill_rect(BAR_X + BAR_W, y - 2, 2, GLYPH_H, rgb(250, 200, 0)); // the budget
    }
    *bar = now;
}

pub fn footer(s: &mut Surface, grid: &mut TextGrid, row: usize, overruns: u32, overhead: u32) {
    let footer = text!(48; "us of 16715  overruns {}  prof {} cyc     ", overruns, overhead);
    grid.draw(s, 0, row, footer.as_str(), DIM, BG);
}

/// A row with nothing in it.
pub fn blank(s: &mut Surface, grid: &mut TextGrid, bar: &mut Bar, row: usize) {
    s.fill_rect(0, row * GLYPH_H, WIDTH, GLYPH_H, BG);
    grid.forget(row);
    *bar = Bar::default();
}
