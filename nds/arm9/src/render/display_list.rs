//! A GX display list built once and replayed every frame: packed
//! commands (four command bytes in one word, then their parameters, as the
//! GXFIFO at 0x04000400 takes them; GBATEK "DS 3D Geometry Commands"),
//! for DMA to the FIFO ([`crate::hw::gx_dma`]).
//!
//! Each vertex goes in the cheapest exact form: VTX_DIFF (one word, a
//! step of up to +-511 in every 4.12 coordinate from the last vertex),
//! VTX_XY/XZ/YZ (one word, when one coordinate repeats), else VTX_16 (two
//! words). The hardware ends up with the same 4.12 coordinates as if every
//! vertex were a VTX_16. A colour is sent only when it changes.
//!
//! Only commands with parameters go in (END_VTXS, which has none and does
//! nothing, is left out), so no packed word ever ends on a
//! parameterless command.

use crate::hw::gx::Primitive;

/// Words a list holds: 32 KiB, enough for about 1000 triangles in the
/// worst case (every vertex a VTX_16 and every triangle a new colour).
pub const CAPACITY: usize = 8192;

const BEGIN_VTXS: u32 = 0x40;
const COLOR: u32 = 0x20;
const VTX_16: u32 = 0x23;
const VTX_XY: u32 = 0x25;
const VTX_XZ: u32 = 0x26;
const VTX_YZ: u32 = 0x27;
const VTX_DIFF: u32 = 0x28;

/// The list ran out of room: it needs more than [`CAPACITY`] words.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Full;

pub struct DisplayList {
    words: [u32; CAPACITY],
    len: usize,
    /// The packed command word being filled, and how many commands it has.
    header: usize,
    in_header: u32,
    polygons: u32,
    /// The hardware's current vertex once the list has run (VTX_DIFF and
    /// VTX_XY/XZ/YZ build on it); `None` at the start of the list.
    last_vertex: Option<[i16; 3]>,
    last_color: Option<u16>,
    /// Vertices of the current polygon so far, and per polygon.
    in_polygon: u32,
    per_polygon: u32,
    full: bool,
}

impl DisplayList {
    pub const fn new() -> Self {
        DisplayList {
            words: [0; CAPACITY],
            len: 0,
            header: 0,
            in_header: 4,
            polygons: 0,
            last_vertex: None,
            last_color: None,
            in_polygon: 0,
            per_polygon: 3,
            full: false,
        }
    }

    /// Empties the list.
    pub fn clear(&mut self) {
        self.len = 0;
        self.in_header = 4;
        self.polygons = 0;
        self.last_vertex = None;
        self.last_color = None;
        self.in_polygon = 0;
        self.full = false;
    }

    /// The packed words, for the GXFIFO.
    pub fn words(&self) -> &[u32] {
        &self.words[..self.len]
    }

    /// Complete polygons in the list (the GX may still cull some).
    pub fn polygons(&self) -> u32 {
        self.polygons
    }

    /// Whether everything added fitted.
    pub fn result(&self) -> Result<(), Full> {
        if self.full {
            Err(Full)
        } else {
            Ok(())
        }
    }

    fn push_word(&mut self, w: u32) {
        if self.len < CAPACITY {
            self.words[self.len] = w;
            self.len += 1;
        } else {
            self.full = true;
        }
    }

    /// One command and its parameters (at least one).
    fn command(&mut self, op: u32, params: &[u32]) {
        debug_assert!(!params.is_empty());
        if self.in_header == 4 {
            self.header = self.len;
            self.in_header = 0;
            self.push_word(0);
        }
        if self.full {
            return;
        }
        self.words[self.header] |= op << (8 * self.in_header);
        self.in_header += 1;
        for &p in params {
            self.push_word(p);
        }
    }

    /// Starts a run of separate triangles or quads (BEGIN_VTXS); the
    /// polygon attributes are whatever was set before the list runs.
    pub fn begin(&mut self, p: Primitive) {
        debug_assert_eq!(self.in_polygon, 0, "BEGIN_VTXS inside a polygon");
        self.command(BEGIN_VTXS, &[p as u32]);
        self.per_polygon = match p {
            Primitive::Triangles => 3,
            Primitive::Quads => 4,
        };
    }

    /// The colour of the vertices that follow (BGR555).
    pub fn color(&mut self, bgr555: u16) {
        let c = bgr555 & 0x7FFF;
        if self.last_color != Some(c) {
            self.command(COLOR, &[c as u32]);
            self.last_color = Some(c);
        }
    }

    /// One vertex in submission units (4.12), in its cheapest exact form.
    pub fn vertex(&mut self, v: [i16; 3]) {
        let h = |c: i16| c as u16 as u32;
        if let Some(d) = self.last_vertex.and_then(|p| diff10(p, v)) {
            self.command(VTX_DIFF, &[d]);
        } else {
            match self.last_vertex {
                Some(p) if p[2] == v[2] => self.command(VTX_XY, &[h(v[0]) | h(v[1]) << 16]),
                Some(p) if p[1] == v[1] => self.command(VTX_XZ, &[h(v[0]) | h(v[2]) << 16]),
                Some(p) if p[0] == v[0] => self.command(VTX_YZ, &[h(v[1]) | h(v[2]) << 16]),
                _ => self.command(VTX_16, &[h(v[0]) | h(v[1]) << 16, h(v[2])]),
            }
        }
        self.last_vertex = Some(v);
        self.in_polygon += 1;
        if self.in_polygon == self.per_polygon {
            self.in_polygon = 0;
            self.polygons += 1;
        }
    }
}

/// VTX_DIFF's parameter for the step from `from` to `to`: three signed
/// 10-bit differences in 4.12 units; `None` if a step leaves -512..511.
fn diff10(from: [i16; 3], to: [i16; 3]) -> Option<u32> {
    let mut word = 0;
    for k in 0..3 {
        let d = to[k] as i32 - from[k] as i32;
        if !(-512..=511).contains(&d) {
            return None;
        }
        word |= (d as u32 & 0x3FF) << (10 * k);
    }
    Some(word)
}
