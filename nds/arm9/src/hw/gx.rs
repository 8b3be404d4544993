//! The 3D geometry engine (GX) on the top screen: power-up, the command
//! ports, and the polygon counter. Addresses and bit meanings from GBATEK
//! ("DS 3D Display Control", "Polygon Attributes", "Polygon Definitions by
//! Vertices", "DS 3D Status"). Untextured polygons need no VRAM.
//!
//! Every command here is written to its own port (0x04000440..0x04000580),
//! which the hardware queues in the GX FIFO; a write to a full FIFO stalls
//! the CPU until there is room, so no command is ever lost. Commands with
//! no parameter still take one (ignored) write.

use super::reg::Reg;
use super::regs::{DISPCNT, POWCNT1};
use dsphys::fx::Mat4x3;

const DISP3DCNT: Reg<u32> = Reg::at(0x0400_0060);
const CLEAR_COLOR: Reg<u32> = Reg::at(0x0400_0350);
const CLEAR_DEPTH: Reg<u16> = Reg::at(0x0400_0354);
const MTX_MODE: Reg<u32> = Reg::at(0x0400_0440);
const MTX_IDENTITY: Reg<u32> = Reg::at(0x0400_0454);
const MTX_POP: Reg<u32> = Reg::at(0x0400_0448);
const MTX_STORE: Reg<u32> = Reg::at(0x0400_044C);
const MTX_RESTORE: Reg<u32> = Reg::at(0x0400_0450);
const LIGHT_VECTOR: Reg<u32> = Reg::at(0x0400_04C8);
const LIGHT_COLOR: Reg<u32> = Reg::at(0x0400_04CC);
const MTX_LOAD_4X4: Reg<u32> = Reg::at(0x0400_0458);
const MTX_LOAD_4X3: Reg<u32> = Reg::at(0x0400_045C);
const MTX_MULT_4X3: Reg<u32> = Reg::at(0x0400_0464);
const MTX_SCALE: Reg<u32> = Reg::at(0x0400_046C);
const COLOR: Reg<u32> = Reg::at(0x0400_0480);
const VTX_16: Reg<u32> = Reg::at(0x0400_048C);
const POLYGON_ATTR: Reg<u32> = Reg::at(0x0400_04A4);
const BEGIN_VTXS: Reg<u32> = Reg::at(0x0400_0500);
const END_VTXS: Reg<u32> = Reg::at(0x0400_0504);
const SWAP_BUFFERS: Reg<u32> = Reg::at(0x0400_0540);
const VIEWPORT: Reg<u32> = Reg::at(0x0400_0580);
const GXSTAT: Reg<u32> = Reg::at(0x0400_0600);
const RAM_COUNT: Reg<u32> = Reg::at(0x0400_0604);

/// The most polygons the hardware stores per frame (Polygon List RAM).
pub const MAX_POLYGONS: u32 = 2048;

/// GXSTAT bit 15: matrix stack over/underflow (write 1 to acknowledge).
const STACK_ERROR: u32 = 1 << 15;
/// GXSTAT bit 27: commands still executing.
const BUSY: u32 = 1 << 27;
/// DISP3DCNT bit 13: Polygon/Vertex RAM overflow (write 1 to acknowledge).
const RAM_OVERFLOW: u32 = 1 << 13;
/// DISP3DCNT bit 12: colour buffer underflow, the renderer fell behind
/// the scanlines (write 1 to acknowledge).
const UNDERFLOW: u32 = 1 << 12;

/// Which matrix the matrix commands act on.
#[derive(Clone, Copy)]
#[repr(u32)]
pub enum MatrixMode {
    Projection = 0,
    /// Position and direction matrices together (so normals follow).
    PositionVector = 2,
}

/// How BEGIN_VTXS groups the vertices that follow.
#[derive(Clone, Copy)]
#[repr(u32)]
pub enum Primitive {
    Triangles = 0,
    Quads = 1,
}

/// Turns the 3D engine on and shows it as the main engine's BG0 on the
/// top screen. Call after `video::init` (it keeps the 2D setup of the
/// bottom screen): this replaces the top screen's VRAM bitmap.
pub fn init_top_screen() {
    // Bits 2 and 3: 3D rendering and geometry engines.
    POWCNT1.write(POWCNT1.read() | 0x000C);
    // Graphics display mode (1), BG mode 0, BG0 from the 3D engine (bit 3)
    // and enabled (bit 8).
    DISPCNT.write(0x0001_0000 | (1 << 3) | (1 << 8));
    // No texturing, fog or edge marking; anti-aliasing smooths the lines of
    // the debug overlay. Acknowledge any stale overflow flag.
    DISP3DCNT.write((1 << 4) | RAM_OVERFLOW);
    reset_matrix_stacks();
    CLEAR_DEPTH.write(0x7FFF);
    VIEWPORT.write(255 << 16 | 191 << 24);
}

/// Empties the matrix stacks a loader may have left levels on (else the
/// first pops underflow or the last pushes overflow), acknowledges a
/// stale stack error, and loads the identity into each matrix (as
/// libnds's `glResetMatrixStack`): GXSTAT bits 8-12 are the position
/// stack's level, bit 13 the projection stack's.
fn reset_matrix_stacks() {
    while GXSTAT.read() & BUSY != 0 {}
    GXSTAT.write(STACK_ERROR);
    let levels = GXSTAT.read();
    for (mode, level) in [(0, (levels >> 13) & 1), (2, (levels >> 8) & 0x1F), (3, 0)] {
        MTX_MODE.write(mode);
        if level != 0 {
            MTX_POP.write(level);
        }
        MTX_IDENTITY.write(0);
    }
    while GXSTAT.read() & BUSY != 0 {}
}

/// The rear plane: an opaque BGR555 colour.
pub fn set_clear_color(bgr555: u16) {
    CLEAR_COLOR.write((bgr555 & 0x7FFF) as u32 | 31 << 16);
}

pub fn matrix_mode(mode: MatrixMode) {
    MTX_MODE.write(mode as u32);
}

/// Replaces the current matrix: 16 words, 20.12, in command order.
pub fn load_4x4(m: &[i32; 16]) {
    for &w in m {
        MTX_LOAD_4X4.write(w as u32);
    }
}

/// Replaces the current matrix: 12 words, 20.12, in command order (the
/// DS multiplies row vectors, so these are the X, Y, Z axes, then the
/// translation; `Mat4x3::to_gx_4x3` gives them).
pub fn load_4x3(m: &[i32; 12]) {
    for &w in m {
        MTX_LOAD_4X3.write(w as u32);
    }
}

/// Current = `m` applied first, then the current matrix.
pub fn mult_4x3(m: &[i32; 12]) {
    for &w in m {
        MTX_MULT_4X3.write(w as u32);
    }
}

/// [`mult_4x3`] of `m`'s words with its translation shifted right by
/// `shift` (`gx_palette::words_shifted`), read from `m` in one go (a
/// load-multiple from DTCM costs a cycle a word in DeSmuME, a load
/// three) and written to the port. Written out rather than calling
/// `words_shifted`: that call cost the palette 59 instructions a frame
/// more (`make insn-count PCPROFILE=animframe`, `load_palette` 745 ->
/// 804).
#[inline(always)]
pub fn mult_4x3_shifted(m: &Mat4x3, shift: u32) {
    let mut w = m.to_gx_4x3();
    for t in &mut w[9..] {
        *t >>= shift;
    }
    for w in w {
        MTX_MULT_4X3.write(w as u32);
    }
}

/// Current = scale applied first, then the current matrix (20.12 factors).
pub fn scale(x: i32, y: i32, z: i32) {
    for w in [x, y, z] {
        MTX_SCALE.write(w as u32);
    }
}

/// Stores the current matrix (both, in `PositionVector` mode) in stack
/// slot `slot` (0..=30; the stack pointer does not move).
pub fn store(slot: u32) {
    MTX_STORE.write(slot & 0x1F);
}

/// Makes stack slot `slot` (0..=30) the current matrix.
pub fn restore(slot: u32) {
    MTX_RESTORE.write(slot & 0x1F);
}

/// Light 0: its direction of travel (a unit vector in 1.9, three 10-bit
/// fields, as NORMAL takes), turned by the current direction matrix as
/// it is sent, and its BGR555 colour.
pub fn light0(direction: u32, bgr555: u16) {
    LIGHT_VECTOR.write(direction & 0x3FFF_FFFF);
    LIGHT_COLOR.write((bgr555 & 0x7FFF) as u32);
}

/// Polygon attributes for lit polygons (light 0, front faces only):
/// `alpha` 31 is solid, 0 is wireframe.
pub fn polygon_attr_lit(alpha: u8, id: u8) {
    POLYGON_ATTR.write(attr_bits_lit(alpha, id));
}

/// POLYGON_ATTR's word for [`polygon_attr_lit`], for a display list.
pub const fn attr_bits_lit(alpha: u8, id: u8) -> u32 {
    // Bit 0: light 0 enabled.
    attr_bits(alpha, false, id) | 1
}

/// Command numbers for packed display lists: a port's offset from
/// 0x04000400, in words (GBATEK "DS 3D Geometry Commands").
pub mod op {
    pub const MTX_PUSH: u32 = 0x11;
    pub const MTX_POP: u32 = 0x12;
    pub const MTX_MULT_4X3: u32 = 0x19;
    pub const MTX_SCALE: u32 = 0x1B;
    pub const COLOR: u32 = 0x20;
    pub const NORMAL: u32 = 0x21;
    pub const VTX_16: u32 = 0x23;
    pub const VTX_10: u32 = 0x24;
    pub const POLYGON_ATTR: u32 = 0x29;
    pub const DIF_AMB: u32 = 0x30;
    pub const SPE_EMI: u32 = 0x31;
    pub const LIGHT_VECTOR: u32 = 0x32;
    pub const LIGHT_COLOR: u32 = 0x33;
    pub const BEGIN_VTXS: u32 = 0x40;
}

/// Powers the geometry engine alone (no rendering, no display change):
/// for the bench and the profiler, which time what sending commands
/// costs the CPU.
#[cfg(any(feature = "bench-rom", feature = "pc-profile"))]
pub fn power_geometry() {
    POWCNT1.write(POWCNT1.read() | 1 << 3);
    reset_matrix_stacks();
}

/// The colour of the vertices that follow (BGR555; bit 15 ignored).
pub fn color(bgr555: u16) {
    COLOR.write((bgr555 & 0x7FFF) as u32);
}

/// Polygon attributes for the next BEGIN_VTXS. `alpha` 31 is solid, 0 is
/// wireframe (edges only); both faces are drawn when `both_sides`.
pub fn polygon_attr(alpha: u8, both_sides: bool, id: u8) {
    POLYGON_ATTR.write(attr_bits(alpha, both_sides, id));
}

/// POLYGON_ATTR's word for [`polygon_attr`], no light enabled.
pub const fn attr_bits(alpha: u8, both_sides: bool, id: u8) -> u32 {
    let faces = if both_sides { 3 << 6 } else { 1 << 7 };
    // Bit 12: keep polygons that cross the far plane (clipped, not hidden).
    faces | 1 << 12 | ((alpha as u32 & 31) << 16) | ((id as u32 & 63) << 24)
}

pub fn begin(p: Primitive) {
    BEGIN_VTXS.write(p as u32);
}

pub fn end() {
    END_VTXS.write(0);
}

/// One vertex, in 4.12 (each coordinate must be within -8..8; the caller
/// scales the model matrix so that it is).
#[inline]
pub fn vertex(x: i16, y: i16, z: i16) {
    VTX_16.write((x as u16 as u32) | (y as u16 as u32) << 16);
    VTX_16.write(z as u16 as u32);
}

/// Three signed 10-bit fields in one word: a VTX_10 vertex from
/// coordinates in 1/64 units, or a NORMAL or LIGHT_VECTOR direction in
/// 1.9 (-512..511 each).
pub const fn pack10(x: i16, y: i16, z: i16) -> u32 {
    (x as u32 & 0x3FF) | (y as u32 & 0x3FF) << 10 | (z as u32 & 0x3FF) << 20
}

/// Hands this frame's polygons to the renderer at the next VBlank (Z
/// buffering, automatic translucent sorting). Never call it inside
/// begin/end: an incomplete polygon list locks up the 3D hardware.
pub fn swap_buffers() {
    SWAP_BUFFERS.write(0);
}

/// CLIPMTX_RESULT: the clip matrix (position x projection), 16 words row
/// by row, readable once the engine is idle.
#[cfg(feature = "test-rom")]
const CLIPMTX_RESULT: usize = 0x0400_0640;

/// The clip matrix, after every queued command has run (the in-ROM test
/// of the matrix unit reads its products back through it).
#[cfg(feature = "test-rom")]
pub fn clip_matrix() -> [i32; 16] {
    wait_idle();
    let mut m = [0; 16];
    for (k, w) in m.iter_mut().enumerate() {
        *w = Reg::<u32>::at(CLIPMTX_RESULT + 4 * k).read() as i32;
    }
    m
}

/// Sets the current matrix to the identity.
#[cfg(feature = "test-rom")]
pub fn identity() {
    MTX_IDENTITY.write(0);
}

/// Waits until the geometry engine has run every queued command.
pub fn wait_idle() {
    while GXSTAT.read() & BUSY != 0 {}
}

/// Polygons and vertices stored so far this frame (valid after
/// `wait_idle`, until the counters reset just after the next VBlank).
pub fn ram_count() -> (u32, u32) {
    let c = RAM_COUNT.read();
    (c & 0xFFF, (c >> 16) & 0x1FFF)
}

/// Whether the Polygon/Vertex RAM overflowed since the last call (and
/// acknowledges the flag).
pub fn take_overflow() -> bool {
    take_flag(RAM_OVERFLOW)
}

/// Whether the colour buffer underflowed since the last call (and
/// acknowledges that flag only).
pub fn take_underflow() -> bool {
    take_flag(UNDERFLOW)
}

/// Reads and acknowledges one of DISP3DCNT's write-1-to-clear flags,
/// leaving the other as it is (writing back what was read would clear
/// both, and lose the one not asked for).
fn take_flag(flag: u32) -> bool {
    let v = DISP3DCNT.read();
    let set = v & flag != 0;
    if set {
        DISP3DCNT.write((v & !(RAM_OVERFLOW | UNDERFLOW)) | flag);
    }
    set
}

/// Whether the matrix stack over- or underflowed (and acknowledges it).
pub fn take_stack_error() -> bool {
    let err = GXSTAT.read() & STACK_ERROR != 0;
    if err {
        GXSTAT.write(STACK_ERROR);
    }
    err
}
