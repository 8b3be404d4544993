//! Rigid bodies as boxes, drawn by the geometry engine from a display
//! list: per box its frame (the rotation, then its centre) and half
//! extents on the GX matrix stack, its material, and a unit cube, lit by
//! the hardware (light 0). The CPU writes a box's 16 changing words into
//! main RAM, the rest stays from frame to frame, and DMA sends them. Drawing
//! a box with every command written to its port, lit per face on the
//! CPU, cost about 25 us of CPU time a box in DeSmuME (`make profile
//! SCENE=c`). Static bodies (the room's walls) are part of the drawn
//! world already and are skipped.

use super::prims::{quad, VTX10_ONE as P};
use super::shade::{field10, material, Rgb, LIGHT_TRAVEL};
use super::{DrawMode, PolyBudget, GX_SHIFT};
use crate::hw::gx::{self, op, Primitive};
use crate::hw::gx_dma;
use dsphys::rigid::Body;

/// The cube -1..1 on every axis: faces anticlockwise seen from outside,
/// each with its outward normal (1.9 fields; +1 is 511, the largest),
/// `+x, -x, +y, -y, +z, -z`.
const FACES: [([u32; 4], [i32; 3]); 6] = [
    (
        quad([[P, -P, -P], [P, P, -P], [P, P, P], [P, -P, P]]),
        [511, 0, 0],
    ),
    (
        quad([[-P, -P, -P], [-P, -P, P], [-P, P, P], [-P, P, -P]]),
        [-512, 0, 0],
    ),
    (
        quad([[-P, P, -P], [-P, P, P], [P, P, P], [P, P, -P]]),
        [0, 511, 0],
    ),
    (
        quad([[-P, -P, -P], [P, -P, -P], [P, -P, P], [-P, -P, P]]),
        [0, -512, 0],
    ),
    (
        quad([[-P, -P, P], [P, -P, P], [P, P, P], [-P, P, P]]),
        [0, 0, 511],
    ),
    (
        quad([[-P, -P, -P], [-P, P, -P], [P, P, -P], [P, -P, -P]]),
        [0, 0, -512],
    ),
];

/// The faces a box sends: all six, from the template (the hardware culls
/// the back faces). Sending only the three on the eye's side halves the
/// DMA but made the CPU pick them per box: 0.66 ms against 0.57 ms for
/// scene (c)'s 27 cubes in DeSmuME, which charges a DMA to the CPU
/// (`make profile SCENE=c STRESS=1 EMULATOR=desmume`, `render`).
const FACES_SENT: usize = 6;

/// Commands a box sends.
const BOX_COMMANDS: usize = 6 + 5 * FACES_SENT;

/// One box's commands, in order, with their parameter counts: its
/// frame, scale and material; the quads (per face a NORMAL and four
/// VTX_10); the pop. MTX_PUSH, the only one without parameters, comes
/// first in its packed word, so that no packed word ends on it.
const BOX_OPS: [(u32, usize); BOX_COMMANDS] = {
    let mut ops = [(op::VTX_10, 1usize); BOX_COMMANDS];
    ops[0] = (op::MTX_PUSH, 0);
    ops[1] = (op::MTX_MULT_4X3, 12);
    ops[2] = (op::MTX_SCALE, 3);
    ops[3] = (op::DIF_AMB, 1);
    ops[4] = (op::BEGIN_VTXS, 1);
    let mut f = 0;
    while f < FACES_SENT {
        ops[5 + 5 * f] = (op::NORMAL, 1);
        f += 1;
    }
    ops[BOX_COMMANDS - 1] = (op::MTX_POP, 1);
    ops
};

/// One box's packed words: a header for every four commands, each
/// followed by its commands' parameters.
const BOX_WORDS: usize = {
    let mut n = BOX_COMMANDS.div_ceil(4);
    let mut c = 0;
    while c < BOX_COMMANDS {
        n += BOX_OPS[c].1;
        c += 1;
    }
    n
};

/// Packs [`BOX_OPS`] into headers with room for their parameters;
/// returns the words and where each command's parameters start.
const fn pack() -> ([u32; BOX_WORDS], [usize; BOX_COMMANDS]) {
    let mut words = [0u32; BOX_WORDS];
    let mut at_of = [0usize; BOX_COMMANDS];
    let (mut at, mut c) = (0, 0);
    while c < BOX_COMMANDS {
        let header = at;
        at += 1;
        let mut slot = 0;
        while slot < 4 && c < BOX_COMMANDS {
            words[header] |= BOX_OPS[c].0 << (8 * slot);
            at_of[c] = at;
            at += BOX_OPS[c].1;
            c += 1;
            slot += 1;
        }
    }
    (words, at_of)
}

/// Where each command's first parameter goes.
const PARAM_AT: [usize; BOX_COMMANDS] = pack().1;
const MATRIX_AT: usize = PARAM_AT[1];
const SCALE_AT: usize = PARAM_AT[2];
const MATERIAL_AT: usize = PARAM_AT[3];
/// Face `k`'s `j`-th parameter (its NORMAL's, then its corners').
const fn face_at(k: usize, j: usize) -> usize {
    PARAM_AT[5 + 5 * k + j]
}

/// The words with the headers and the constant parameters in place: all
/// but the frame, the scale and the material.
const BOX_TEMPLATE: [u32; BOX_WORDS] = {
    let mut w = pack().0;
    w[PARAM_AT[4]] = Primitive::Quads as u32;
    let mut f = 0;
    while f < FACES_SENT {
        let params = face_params(f);
        let mut j = 0;
        while j < 5 {
            w[face_at(f, j)] = params[j];
            j += 1;
        }
        f += 1;
    }
    w[PARAM_AT[BOX_COMMANDS - 1]] = 1;
    w
};

/// A face's five parameters: its normal, then its corners.
const fn face_params(f: usize) -> [u32; 5] {
    let (v, n) = FACES[f];
    [
        field10(n[0]) | field10(n[1]) << 10 | field10(n[2]) << 20,
        v[0],
        v[1],
        v[2],
        v[3],
    ]
}

const WHITE: u32 = 0x7FFF;

/// The list's first words: POLYGON_ATTR (its word set each frame), light
/// 0's direction and colour, and no specular or emission.
const PRELUDE: [u32; 5] = [
    op::POLYGON_ATTR | op::LIGHT_VECTOR << 8 | op::LIGHT_COLOR << 16 | op::SPE_EMI << 24,
    0,
    LIGHT_TRAVEL,
    WHITE,
    0,
];
/// POLYGON_ATTR's parameter in [`PRELUDE`].
const ATTR_AT: usize = 1;

/// The most boxes one list draws (a rigid world has at most 64 bodies).
pub const MAX_BOXES: usize = 64;
const CAPACITY: usize = PRELUDE.len() + MAX_BOXES * BOX_WORDS;

/// The boxes' display list (16 KB, main RAM). Only the words that change
/// are written each frame: the prelude and every box's template stay in
/// place from one frame to the next, so a box costs its 16 parameters.
pub struct BoxList {
    words: [u32; CAPACITY],
    /// Boxes whose template is in place.
    formatted: usize,
    /// Boxes in this frame's list.
    boxes: usize,
}

impl BoxList {
    pub const fn new() -> Self {
        let mut words = [0u32; CAPACITY];
        let mut k = 0;
        while k < PRELUDE.len() {
            words[k] = PRELUDE[k];
            k += 1;
        }
        BoxList {
            words,
            formatted: 0,
            boxes: 0,
        }
    }

    /// This frame's packed words, for the GXFIFO ([`gx_dma::send_cleaned`]:
    /// [`build`] cleans what it writes); empty when no box is drawn.
    pub fn words(&self) -> &[u32] {
        if self.boxes == 0 {
            return &[];
        }
        &self.words[..PRELUDE.len() + self.boxes * BOX_WORDS]
    }

    /// The next box's words, its template in place.
    fn next_box(&mut self) -> Option<&mut [u32; BOX_WORDS]> {
        if self.boxes == MAX_BOXES {
            return None;
        }
        let at = PRELUDE.len() + self.boxes * BOX_WORDS;
        let slot: &mut [u32; BOX_WORDS] = (&mut self.words[at..at + BOX_WORDS]).try_into().ok()?;
        if self.boxes == self.formatted {
            *slot = BOX_TEMPLATE;
            gx_dma::clean(slot);
            self.formatted += 1;
        }
        self.boxes += 1;
        Some(slot)
    }
}

/// Builds `list`: every dynamic body in `bodies`, colour `colors[i %
/// len]`; a box the budget has no room for is left out (and counted as
/// refused). Sent after the world's list, with the camera's view
/// current (the light turns with it, so it stays fixed in the world);
/// the list leaves the matrix stack as it found it.
#[inline(never)]
pub fn build(
    bodies: &[Body],
    colors: &[Rgb],
    mode: DrawMode,
    budget: &mut PolyBudget,
    list: &mut BoxList,
) {
    list.boxes = 0;
    list.words[ATTR_AT] = gx::attr_bits_lit(mode.solid_alpha(), super::prims::ID_BODY);
    gx_dma::clean(&list.words[..PRELUDE.len()]);
    for (i, b) in bodies.iter().enumerate().filter(|(_, b)| !b.is_static()) {
        if !budget.take(FACES_SENT as u32) {
            continue;
        }
        let Some(w) = list.next_box() else {
            budget.give_back(FACES_SENT as u32);
            budget.refused += FACES_SENT as u32;
            continue;
        };
        // Rotation (unit axes, so that the normals turn with it and keep
        // their length), then the centre in submission units (truncated:
        // a 4.12 step of 4 m is 1 mm).
        let pos = b.pos.to_array().map(|c| c.raw());
        let h = b.half.raw();
        for (k, col) in b.mat.cols.iter().enumerate() {
            let a = col.raw();
            for c in 0..3 {
                w[MATRIX_AT + 3 * k + c] = a[c] as u32;
            }
            w[MATRIX_AT + 9 + k] = (pos[k] >> (24 - 12 + GX_SHIFT)) as u32;
            // The half extents scale the position matrix only (MTX_SCALE
            // leaves the vector matrix alone: GBATEK; melonDS agrees).
            w[SCALE_AT + k] = (h[k] >> GX_SHIFT) as u32;
        }
        w[MATERIAL_AT] = material(colors[i % colors.len()]);
        // Only these parameters changed: the rest stays clean.
        gx_dma::clean(&w[..=MATERIAL_AT]);
    }
}
