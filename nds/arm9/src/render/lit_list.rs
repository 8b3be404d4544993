//! Boxes drawn by the geometry engine from a display list that stays in
//! place from frame to frame: per box its frame (the rotation, then a
//! point) and scale on the GX matrix stack, its material, and a unit
//! mesh with face normals, lit by the hardware (light 0, as `shade` lights
//! on the CPU). A slot's commands are written once; each frame the CPU
//! writes a box's 16 changing parameters, cleans their cache lines, and
//! DMA sends the list after the world's.
//!
//! Drawing a box with every command written to its port, lit per face on
//! the CPU, cost about 25 us of CPU time a box in DeSmuME; from this list
//! about 9 us, and DeSmuME charges the DMA (about 5 cycles a word) to the
//! CPU as well (`make profile SCENE=c STRESS=1 EMULATOR=desmume`).

use super::prims::{quad, ID_BODY, VTX10_ONE as P};
use super::shade::LIGHT_TRAVEL;
use crate::hw::gx::{self, op, pack10, Primitive};
use crate::hw::gx_dma;

/// The unit meshes a slot can draw.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mesh {
    /// The cube -1..1 on every axis (rigid boxes).
    Cube,
    /// The box -1..1 in x and y, 0..1 in z (a ragdoll's bone).
    Bone,
    /// [`Mesh::Bone`] without its end caps (a bone further away).
    OpenBone,
}

impl Mesh {
    /// Polygons the mesh draws.
    pub const fn polygons(self) -> u32 {
        match self {
            Mesh::Cube | Mesh::Bone => 6,
            Mesh::OpenBone => 4,
        }
    }

    const fn template(self) -> &'static [u32] {
        match self {
            Mesh::Cube => &CUBE,
            Mesh::Bone => &BONE,
            Mesh::OpenBone => &OPEN_BONE,
        }
    }
}

/// A face: its quad (anticlockwise seen from outside) and its outward
/// normal as NORMAL's word (1.9 fields; +1 is 511, the largest).
type Face = ([u32; 4], u32);

/// The faces of the box -1..1 in x and y and `z0`..1 in z: the sides
/// first, then the end caps (+z, then -z).
const fn box_faces(z0: i16) -> [Face; 6] {
    [
        (
            quad([[P, -P, z0], [P, P, z0], [P, P, P], [P, -P, P]]),
            pack10(511, 0, 0),
        ),
        (
            quad([[-P, -P, z0], [-P, -P, P], [-P, P, P], [-P, P, z0]]),
            pack10(-512, 0, 0),
        ),
        (
            quad([[-P, P, z0], [-P, P, P], [P, P, P], [P, P, z0]]),
            pack10(0, 511, 0),
        ),
        (
            quad([[-P, -P, z0], [P, -P, z0], [P, -P, P], [-P, -P, P]]),
            pack10(0, -512, 0),
        ),
        (
            quad([[-P, -P, P], [P, -P, P], [P, P, P], [-P, P, P]]),
            pack10(0, 0, 511),
        ),
        (
            quad([[-P, -P, z0], [-P, P, z0], [P, P, z0], [P, -P, z0]]),
            pack10(0, 0, -512),
        ),
    ]
}

const CUBE_FACES: [Face; 6] = box_faces(-P);
const BONE_FACES: [Face; 6] = box_faces(0);

/// The parameters every slot sets, in its first packed word's commands
/// (MTX_PUSH, MTX_MULT_4x3, MTX_SCALE, DIF_AMB: the push first, so that
/// no packed word ends on a command without parameters).
const MATRIX_AT: usize = 1;
const SCALE_AT: usize = 13;
const MATERIAL_AT: usize = 16;
const HEAD_WORDS: usize = 17;

/// A slot's packed words for `faces` faces: the head, BEGIN_VTXS, per
/// face a NORMAL and four VTX_10, MTX_POP; a header for every four
/// commands, each followed by its commands' parameters.
const fn slot_words(faces: usize) -> usize {
    let tail = 1 + 5 * faces + 1;
    HEAD_WORDS + tail + tail.div_ceil(4)
}

/// The template of a slot drawing the first `N`-word's worth of `faces`.
const fn template<const N: usize>(faces: &[Face]) -> [u32; N] {
    let mut w = [0u32; N];
    w[0] = op::MTX_PUSH | op::MTX_MULT_4X3 << 8 | op::MTX_SCALE << 16 | op::DIF_AMB << 24;
    let n = 1 + 5 * faces.len() + 1;
    let (mut at, mut c) = (HEAD_WORDS, 0);
    let mut header = 0;
    while c < n {
        if c % 4 == 0 {
            header = at;
            at += 1;
        }
        let (cmd, param) = if c == 0 {
            (op::BEGIN_VTXS, Primitive::Quads as u32)
        } else if c == n - 1 {
            (op::MTX_POP, 1)
        } else {
            let (v, normal) = faces[(c - 1) / 5];
            match (c - 1) % 5 {
                0 => (op::NORMAL, normal),
                k => (op::VTX_10, v[k - 1]),
            }
        };
        w[header] |= cmd << (8 * (c % 4));
        w[at] = param;
        at += 1;
        c += 1;
    }
    assert!(at == N);
    w
}

const CUBE_WORDS: usize = slot_words(6);
static CUBE: [u32; CUBE_WORDS] = template(&CUBE_FACES);
static BONE: [u32; CUBE_WORDS] = template(&BONE_FACES);
static OPEN_BONE: [u32; slot_words(4)] = template(BONE_FACES.split_at(4).0);

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

/// The most slots a list holds: the ten nearest characters' 14 bones in
/// boxes (`ragdoll::detail_for_rank`) and a rigid world's 64 bodies, with
/// room to spare.
pub const MAX_SLOTS: usize = 384;

/// Lines a frame's list holds (unlit, after the boxes): the rain's far
/// characters' 14 bones each.
pub const MAX_LINES: usize = 1024;
/// A line's words: one header (COLOR, then three VTX_16: the segment as
/// a triangle with its last vertex repeated, GBATEK's form) and its seven
/// parameters.
const LINE_WORDS: usize = 8;
/// The lines' run: POLYGON_ATTR (unlit, both sides) and BEGIN_VTXS.
const LINES_HEAD: [u32; 3] = [
    op::POLYGON_ATTR | op::BEGIN_VTXS << 8,
    gx::attr_bits(31, true, ID_BODY),
    Primitive::Triangles as u32,
];
const CAPACITY: usize =
    PRELUDE.len() + MAX_SLOTS * CUBE_WORDS + LINES_HEAD.len() + MAX_LINES * LINE_WORDS;

/// The display list (about 120 KB, main RAM).
pub struct LitList {
    words: [u32; CAPACITY],
    /// The mesh of each slot whose template is in place.
    meshes: [Mesh; MAX_SLOTS],
    /// Slots whose template is in place, from the first.
    formatted: usize,
    /// Slots and words in this frame's list.
    slots: usize,
    len: usize,
    /// This frame's lines' words, appended by [`LitList::finish`].
    lines: [u32; MAX_LINES * LINE_WORDS],
    n_lines: usize,
}

impl LitList {
    pub const fn new() -> Self {
        let mut words = [0u32; CAPACITY];
        let mut k = 0;
        while k < PRELUDE.len() {
            words[k] = PRELUDE[k];
            k += 1;
        }
        LitList {
            words,
            meshes: [Mesh::Cube; MAX_SLOTS],
            formatted: 0,
            slots: 0,
            len: PRELUDE.len(),
            lines: [0; MAX_LINES * LINE_WORDS],
            n_lines: 0,
        }
    }

    /// Starts this frame's list: no slots, polygons drawn with `alpha`
    /// (31 solid, 0 wireframe).
    pub fn begin(&mut self, alpha: u8) {
        self.slots = 0;
        self.n_lines = 0;
        self.len = PRELUDE.len();
        self.words[ATTR_AT] = gx::attr_bits_lit(alpha, ID_BODY);
        gx_dma::clean(&self.words[..PRELUDE.len()]);
    }

    /// Adds `mesh` placed by `frame` (MTX_MULT_4x3's words: unit axes, so
    /// that the normals keep their length, then a point in submission
    /// units), scaled by `scale` (the position matrix only: MTX_SCALE
    /// leaves the vector matrix alone, GBATEK; melonDS agrees), in DIF_AMB
    /// `material`. False when the list is full.
    pub fn add(&mut self, mesh: Mesh, frame: &[i32; 12], scale: [i32; 3], material: u32) -> bool {
        let template = mesh.template();
        let (at, end) = (self.len, self.len + template.len());
        if self.slots == MAX_SLOTS || end > CAPACITY {
            return false;
        }
        let k = self.slots;
        if k >= self.formatted || self.meshes[k] != mesh {
            // A slot of another mesh moves every later one: they are
            // formatted again as they come.
            self.words[at..end].copy_from_slice(template);
            gx_dma::clean(&self.words[at..end]);
            self.meshes[k] = mesh;
            self.formatted = k + 1;
        }
        let w = &mut self.words[at..at + HEAD_WORDS];
        for (o, &f) in w[MATRIX_AT..MATRIX_AT + 12].iter_mut().zip(frame) {
            *o = f as u32;
        }
        for (o, &s) in w[SCALE_AT..SCALE_AT + 3].iter_mut().zip(&scale) {
            *o = s as u32;
        }
        w[MATERIAL_AT] = material;
        // Only the head changed: the rest of the slot stays clean.
        gx_dma::clean(w);
        self.slots += 1;
        self.len = end;
        true
    }

    /// Adds the segment `a`-`b` (submission units), unlit in BGR555
    /// `color`; false when the list's lines are full.
    pub fn line(&mut self, a: [i16; 3], b: [i16; 3], color: u16) -> bool {
        let at = self.n_lines * LINE_WORDS;
        let Some(w) = self.lines.get_mut(at..at + LINE_WORDS) else {
            return false;
        };
        let xy = |v: [i16; 3]| v[0] as u16 as u32 | (v[1] as u16 as u32) << 16;
        let z = |v: [i16; 3]| v[2] as u16 as u32;
        w.copy_from_slice(&[
            op::COLOR | op::VTX_16 << 8 | op::VTX_16 << 16 | op::VTX_16 << 24,
            (color & 0x7FFF) as u32,
            xy(a),
            z(a),
            xy(b),
            z(b),
            xy(b),
            z(b),
        ]);
        self.n_lines += 1;
        true
    }

    /// Appends the lines after the boxes. Their words overwrite the slots
    /// beyond this frame's, which are formatted again when next used.
    pub fn finish(&mut self) {
        if self.n_lines == 0 {
            return;
        }
        let lines = &self.lines[..self.n_lines * LINE_WORDS];
        let at = self.len;
        let end = at + LINES_HEAD.len() + lines.len();
        self.words[at..at + LINES_HEAD.len()].copy_from_slice(&LINES_HEAD);
        self.words[at + LINES_HEAD.len()..end].copy_from_slice(lines);
        gx_dma::clean(&self.words[at..end]);
        self.formatted = self.formatted.min(self.slots);
        self.len = end;
    }

    /// This frame's packed words, for [`gx_dma::send_cleaned`] (every
    /// word written was cleaned); empty when nothing was added.
    pub fn words(&self) -> &[u32] {
        if self.len == PRELUDE.len() {
            return &[];
        }
        &self.words[..self.len]
    }
}

/// Parameters a command of these lists takes; `None` for any other.
#[cfg(feature = "test-rom")]
const fn params_of(cmd: u32) -> Option<usize> {
    Some(match cmd {
        0 | op::MTX_PUSH => 0,
        op::MTX_MULT_4X3 => 12,
        op::MTX_SCALE => 3,
        op::VTX_16 => 2,
        op::MTX_POP
        | op::COLOR
        | op::NORMAL
        | op::VTX_10
        | op::POLYGON_ATTR
        | op::DIF_AMB
        | op::SPE_EMI
        | op::LIGHT_VECTOR
        | op::LIGHT_COLOR
        | op::BEGIN_VTXS => 1,
        _ => return None,
    })
}

/// Walks packed `words` as the GXFIFO reads them: returns the commands
/// (NOPs left out) and the matrix stack's depth at the end, or what is
/// wrong: an unknown command, a packed word that ends on a command
/// without parameters (its next word would be taken for a header), or
/// parameters that run past the end.
#[cfg(feature = "test-rom")]
pub fn walk(words: &[u32], out: &mut [u32]) -> Result<(usize, i32), &'static str> {
    let (mut at, mut n, mut depth) = (0, 0, 0);
    while at < words.len() {
        let header = words[at];
        at += 1;
        let mut last_bare = false;
        for slot in 0..4 {
            let cmd = header >> (8 * slot) & 0xFF;
            let p = params_of(cmd).ok_or("a command these lists do not use")?;
            if cmd == 0 {
                continue;
            }
            last_bare = p == 0;
            depth += (cmd == op::MTX_PUSH) as i32;
            depth -= (cmd == op::MTX_POP) as i32;
            *out.get_mut(n).ok_or("more commands than room")? = cmd;
            n += 1;
            at += p;
        }
        if last_bare {
            return Err("a packed word ends on a command without parameters");
        }
    }
    if at != words.len() {
        return Err("parameters run past the end");
    }
    Ok((n, depth))
}

/// The templates walked: each slot's commands in order and its matrix
/// stack balanced; the prelude and the lines' head. For the in-ROM test.
#[cfg(feature = "test-rom")]
pub fn check_templates() -> Result<usize, &'static str> {
    let mut cmds = [0u32; 64];
    let mut total = 0;
    for (t, faces) in [(&CUBE[..], 6), (&BONE[..], 6), (&OPEN_BONE[..], 4)] {
        let (n, depth) = walk(t, &mut cmds)?;
        if depth != 0 {
            return Err("a slot leaves the matrix stack unbalanced");
        }
        let head = [
            op::MTX_PUSH,
            op::MTX_MULT_4X3,
            op::MTX_SCALE,
            op::DIF_AMB,
            op::BEGIN_VTXS,
        ];
        if n != head.len() + 5 * faces + 1 || cmds[..5] != head || cmds[n - 1] != op::MTX_POP {
            return Err("a slot's commands are not push, frame, scale, material, quads, pop");
        }
        let quads_ok =
            (0..5 * faces).all(|k| cmds[5 + k] == if k % 5 == 0 { op::NORMAL } else { op::VTX_10 });
        if !quads_ok {
            return Err("a face is not a normal and four vertices");
        }
        total += n;
    }
    for t in [&PRELUDE[..], &LINES_HEAD[..]] {
        total += walk(t, &mut cmds)?.0;
    }
    Ok(total)
}
