//! The bottom screen: the scene, the live settings and the controls on
//! top, the profiler below. A few rows are redrawn per frame, in turn
//! ([`ROWS_PER_FRAME`]), so the console costs about the same every frame
//! instead of a spike every few frames.

use crate::clock::Profiler;
use crate::console::{TextGrid, ROWS};
use crate::hw::video::{rgb, Surface};
use crate::profile_view::{self, BG};
use crate::scenes::SCENES;
use crate::text;
use dsphys::fx::Fx1;
use profiler::PhaseId;

pub const ROWS_PER_FRAME: usize = 2;
/// The profiler's first row.
const PROFILE_ROW: usize = 6;
/// Rows for phases, between the text and the footer (10 of 11-pixel
/// glyphs): the demo picks which phases fill them ([`Screen::new`]).
pub const PHASE_ROWS: usize = ROWS - PROFILE_ROW - 1;

const FG: u16 = rgb(230, 230, 230);
const DIM: u16 = rgb(150, 150, 170);
const WARN: u16 = rgb(255, 170, 60);
const TITLE: u16 = rgb(120, 220, 255);

/// What the console shows; the demo fills it in every frame.
pub struct View {
    pub scene: usize,
    pub gravity_point: bool,
    pub gravity: Fx1,
    pub damping: Fx1,
    pub paused: bool,
    pub draw_mode: &'static str,
    pub ragdolls: usize,
    pub bodies: usize,
    pub polys_submitted: u32,
    pub polys_stored: u32,
    pub rain_full: bool,
    pub grabbing: bool,
    pub overran: bool,
    pub overruns: u32,
    pub profiler_overhead: u32,
    /// Started in DSi mode, where the touch screen is not read (see
    /// `hw::boot::dsi_mode`).
    pub dsi_mode: bool,
}

/// `raw` FX1 as `int.frac` with `digits` decimals (rounded down).
fn fixed(v: Fx1, digits: u32) -> crate::console::TextBuf<12> {
    let scale = 10i64.pow(digits);
    let scaled = (v.raw() as i64 * scale) >> 12;
    let (int, frac) = (scaled / scale, (scaled % scale).abs());
    text!(12; "{}.{:0w$}", int, frac, w = digits as usize)
}

pub struct Screen {
    next_row: usize,
    /// A frame overran since the frame's bar was last drawn: the bar is
    /// redrawn only every few frames, and must not miss one.
    overran_since_bar: bool,
    /// The phases with a bar, top to bottom (the frame's first).
    shown: [PhaseId; PHASE_ROWS],
    /// What the text cells and the bars show, so a redraw paints only
    /// what changed.
    grid: &'static mut TextGrid,
    bars: [profile_view::Bar; PHASE_ROWS],
}

impl Screen {
    /// `shown`: the phases that get a bar; the others (sub-phases) are in
    /// the mailbox and `make run`'s table.
    pub fn new(shown: [PhaseId; PHASE_ROWS], grid: &'static mut TextGrid) -> Self {
        Screen {
            next_row: 0,
            overran_since_bar: false,
            shown,
            grid,
            bars: [profile_view::Bar::default(); PHASE_ROWS],
        }
    }

    /// Redraws the next few rows.
    pub fn draw(&mut self, s: &mut Surface, v: &View, prof: &Profiler) {
        self.overran_since_bar |= v.overran;
        // The frame's bar turns red on the frame after an overrun, not up
        // to a rotation later; while it shows red already, the frame's row
        // waits for its turn, so that the frames over the budget draw no
        // more rows than the others. (`bars[0]` is the frame's.)
        if v.overran && !self.bars[0].shows_red() {
            self.draw_row(s, PROFILE_ROW, v, prof);
        }
        for _ in 0..ROWS_PER_FRAME {
            self.draw_row(s, self.next_row, v, prof);
            self.next_row = (self.next_row + 1) % ROWS;
        }
    }

    fn draw_row(&mut self, s: &mut Surface, row: usize, v: &View, prof: &Profiler) {
        let grid = &mut *self.grid;
        if row < PROFILE_ROW {
            return text_row(s, grid, row, v);
        }
        if row == ROWS - 1 {
            return profile_view::footer(s, grid, row, v.overruns, v.profiler_overhead);
        }
        let id = self.shown[row - PROFILE_ROW];
        let bar = &mut self.bars[row - PROFILE_ROW];
        match prof.phases().nth(id.index()) {
            // The frame's bar (the first) is red when a frame overran
            // since it was last drawn.
            Some((name, stats)) => {
                let frame = row == PROFILE_ROW;
                let red = frame && self.overran_since_bar;
                if frame {
                    self.overran_since_bar = false;
                }
                profile_view::phase_row(s, grid, bar, row, name, &stats, red)
            }
            None => profile_view::blank(s, grid, bar, row),
        }
    }
}

fn line(s: &mut Surface, grid: &mut TextGrid, row: usize, text: &str, fg: u16) {
    // Pad to the full width so a shorter line erases a longer one.
    let padded = text!(42; "{:<42}", text);
    grid.draw(s, 0, row, padded.as_str(), fg, BG);
}

/// One of the text rows above the profiler.
fn text_row(s: &mut Surface, grid: &mut TextGrid, row: usize, v: &View) {
    let scene = SCENES[v.scene];
    match row {
        0 => {
            let t =
                text!(42; "({}) {}  {}/{}", scene.letter, scene.name, v.scene + 1, SCENES.len());
            line(s, grid, row, t.as_str(), TITLE)
        }
        1 => {
            let mode = if v.gravity_point { "point" } else { "down" };
            let state = if v.paused { "PAUSED" } else { "" };
            let t = text!(42; "grav {} {} m/s2  keep {}/f  {}", mode,
                fixed(v.gravity, 1).as_str(), fixed(v.damping, 3).as_str(), state);
            line(s, grid, row, t.as_str(), FG)
        }
        2 => {
            let t = text!(42; "{} chr {} box {} poly {} hw {}", v.draw_mode, v.ragdolls,
                v.bodies, v.polys_submitted, v.polys_stored);
            line(s, grid, row, t.as_str(), FG)
        }
        3 => match (scene.pending, v.rain_full) {
            _ if v.dsi_mode => line(
                s,
                grid,
                row,
                "DSi mode: no touch; start it in DS mode",
                WARN,
            ),
            (Some(msg), _) => line(s, grid, row, msg, WARN),
            (None, true) => {
                let t = text!(42; "budget reached at {} ragdolls", v.ragdolls);
                line(s, grid, row, t.as_str(), WARN)
            }
            _ if v.grabbing => line(
                s,
                grid,
                row,
                "stylus: holding (lift the pen to let go)",
                DIM,
            ),
            _ => line(s, grid, row, scene.stylus, DIM),
        },
        4 => line(
            s,
            grid,
            row,
            "START scn SEL draw A pause B step X reset",
            DIM,
        ),
        _ => line(
            s,
            grid,
            row,
            "Y grav, Y+pad grav/wind; cam: pad L R edge",
            DIM,
        ),
    }
}
