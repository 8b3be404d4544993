//! Text on a screen surface, in the 6x11 font: 42 columns by 17 rows.

use crate::font::{GLYPHS, GLYPH_H, GLYPH_W};
use crate::hw::video::{Surface, HEIGHT, WIDTH};

pub const COLUMNS: usize = WIDTH / GLYPH_W;
pub const ROWS: usize = HEIGHT / GLYPH_H;

/// Draws `text` at character cell (col, row), clipped at the screen edge.
/// The background of each cell is painted too, so redrawing a line
/// overwrites what was there.
pub fn draw_text(s: &mut Surface, col: usize, row: usize, text: &str, fg: u16, bg: u16) {
    for (i, byte) in text.bytes().enumerate() {
        let c = col + i;
        if c >= COLUMNS || row >= ROWS {
            break;
        }
        draw_glyph(s, c * GLYPH_W, row * GLYPH_H, byte, fg, bg);
    }
}

/// What a cell of the screen shows, for [`TextGrid`].
#[derive(Clone, Copy, PartialEq, Eq)]
struct Cell {
    byte: u8,
    fg: u16,
    bg: u16,
}

impl Cell {
    /// Not known: byte 0 is never drawn as itself, so the next draw paints.
    const UNKNOWN: Cell = Cell {
        byte: 0,
        fg: 0,
        bg: 0,
    };
}

/// What every cell of a screen shows, so that a redrawn line paints only
/// the glyphs that changed: the demo's console redraws two rows a
/// frame, and painting every glyph of them was 2 ms a frame in DeSmuME
/// (`make profile`), most of it glyphs that had not changed.
pub struct TextGrid {
    cells: [[Cell; COLUMNS]; ROWS],
}

impl TextGrid {
    /// Nothing known: every cell is drawn the first time (byte 0 is never
    /// drawn as itself).
    pub const fn new() -> Self {
        TextGrid {
            cells: [[Cell::UNKNOWN; COLUMNS]; ROWS],
        }
    }

    /// [`draw_text`], skipping the cells that already show the same glyph
    /// in the same colours. Whoever paints the screen by other means must
    /// [`TextGrid::forget`] the rows it covered.
    pub fn draw(&mut self, s: &mut Surface, col: usize, row: usize, text: &str, fg: u16, bg: u16) {
        let Some(line) = self.cells.get_mut(row) else {
            return;
        };
        for (c, byte) in (col..COLUMNS).zip(text.bytes()) {
            let cell = Cell { byte, fg, bg };
            if line[c] != cell {
                line[c] = cell;
                draw_glyph(s, c * GLYPH_W, row * GLYPH_H, byte, fg, bg);
            }
        }
    }

    /// Forgets what row `row` shows (it was painted over).
    pub fn forget(&mut self, row: usize) {
        if let Some(line) = self.cells.get_mut(row) {
            // One row, not a whole 4 KB grid built on the DTCM stack.
            line.fill(Cell::UNKNOWN);
        }
    }
}

impl Default for TextGrid {
    fn default() -> Self {
        Self::new()
    }
}

fn draw_glyph(s: &mut Surface, x: usize, y: usize, byte: u8, fg: u16, bg: u16) {
    let index = if (32..127).contains(&byte) {
        byte - 32
    } else {
        b'?' - 32
    };
    let (fg, bg) = (fg | 0x8000, bg | 0x8000);
    for (dy, bits) in GLYPHS[index as usize].iter().enumerate() {
        // One clipped span a line, not a bounds check a pixel.
        for (dx, px) in s.span_mut(x, y + dy, GLYPH_W).iter_mut().enumerate() {
            *px = if bits & (1 << dx) != 0 { fg } else { bg };
        }
    }
}

/// Draws text wrapped at the screen width from (0, row); returns the row after it.
pub fn draw_wrapped(s: &mut Surface, mut row: usize, text: &str, fg: u16, bg: u16) -> usize {
    let bytes = text.as_bytes();
    let mut start = 0;
    while start < bytes.len() && row < ROWS {
        let end = (start + COLUMNS).min(bytes.len());
        // Cut at a newline if there is one in this line.
        let line_end = bytes[start..end]
            .iter()
            .position(|&b| b == b'\n')
            .map_or(end, |p| start + p);
        draw_text(
            s,
            0,
            row,
            core::str::from_utf8(&bytes[start..line_end]).unwrap_or("?"),
            fg,
            bg,
        );
        start = if line_end < end || (line_end < bytes.len() && bytes[line_end] == b'\n') {
            line_end + 1
        } else {
            end
        };
        row += 1;
    }
    row
}

/// A `core::fmt::Write` into a fixed buffer, cutting what does not fit.
pub struct TextBuf<const N: usize> {
    buf: [u8; N],
    len: usize,
}

impl<const N: usize> TextBuf<N> {
    pub const fn new() -> Self {
        TextBuf {
            buf: [0; N],
            len: 0,
        }
    }
    pub fn as_str(&self) -> &str {
        // Only whole UTF-8 sequences are ever copied in (see write_str).
        core::str::from_utf8(&self.buf[..self.len]).unwrap_or("")
    }
    pub fn as_bytes(&self) -> &[u8] {
        &self.buf[..self.len]
    }
}

impl<const N: usize> Default for TextBuf<N> {
    fn default() -> Self {
        Self::new()
    }
}

impl<const N: usize> core::fmt::Write for TextBuf<N> {
    /// As much of `s` as fits, cut at a character boundary. One copy, not
    /// a character at a time: the console's formatting was most of its
    /// 0.9 ms a frame in DeSmuME (`make profile SCENE=c`).
    fn write_str(&mut self, s: &str) -> core::fmt::Result {
        let mut take = s.len().min(N - self.len);
        while !s.is_char_boundary(take) {
            take -= 1;
        }
        self.buf[self.len..self.len + take].copy_from_slice(&s.as_bytes()[..take]);
        self.len += take;
        Ok(())
    }

    /// One byte for ASCII (padding is written a character at a time).
    fn write_char(&mut self, c: char) -> core::fmt::Result {
        if c.is_ascii() {
            if self.len < N {
                self.buf[self.len] = c as u8;
                self.len += 1;
            }
            Ok(())
        } else {
            self.write_str(c.encode_utf8(&mut [0; 4]))
        }
    }
}

/// `format!` into a stack buffer: `text!(64; "x = {}", x)`.
#[macro_export]
macro_rules! text {
    ($n:expr; $($arg:tt)*) => {{
        let mut b = $crate::console::TextBuf::<$n>::new();
        let _ = core::fmt::Write::write_fmt(&mut b, format_args!($($arg)*));
        b
    }};
}
