//! The top screen, drawn by the DS 3D engine: the world's triangles, the
//! ragdolls as rigid segments placed with the matrix stack, the animated
//! character as a skinned mesh (its palette in the stack), and a debug
//! overlay of particles and constraints, in three draw modes. Every
//! polygon goes through a [`PolyBudget`], so a frame never asks the
//! hardware for more than its 2048.
//!
//! Coordinates: the GX takes vertices in 4.12 (-8..8), so everything is
//! submitted in units of 4 m ([`to_gx`]) under a x4 scale in the model
//! matrix: worlds up to +-32 m fit, to 1 mm.

pub mod bodies;
pub mod budget;
pub mod camera;
pub mod display_list;
pub mod lit_list;
pub mod prims;
pub mod ragdoll;
pub mod shade;
pub mod skinned;
pub mod world;

pub use budget::PolyBudget;
pub use camera::Camera;

use crate::hw::gx;
use dsphys::fx::{Fx1, Vec3};

/// What the top screen shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DrawMode {
    /// Lit, filled polygons.
    Filled,
    /// The same polygons' edges only.
    Wireframe,
    /// The world in wireframe, the particles and every constraint.
    Constraints,
}

impl DrawMode {
    pub fn next(self) -> DrawMode {
        match self {
            DrawMode::Filled => DrawMode::Wireframe,
            DrawMode::Wireframe => DrawMode::Constraints,
            DrawMode::Constraints => DrawMode::Filled,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            DrawMode::Filled => "filled",
            DrawMode::Wireframe => "wireframe",
            DrawMode::Constraints => "constraints",
        }
    }

    /// POLYGON_ATTR alpha for solid geometry in this mode (0: edges only).
    pub fn solid_alpha(self) -> u8 {
        match self {
            DrawMode::Filled => 31,
            _ => 0,
        }
    }
}

/// Submission units: 4 m in 4.12 (a right shift by 2 of an FX1 value).
pub const GX_SHIFT: u32 = 2;

/// An FX1 world coordinate in submission units, saturated to the 4.12
/// range (+-32 m in the world).
#[inline]
pub fn to_gx(c: Fx1) -> i16 {
    (c.raw() >> GX_SHIFT).clamp(i16::MIN as i32, i16::MAX as i32) as i16
}

#[inline]
pub fn vertex(p: Vec3) {
    let [x, y, z] = p.to_array();
    gx::vertex(to_gx(x), to_gx(y), to_gx(z));
}

/// Starts a frame: projection, the camera's view with the x4 scale, and
/// the rear-plane colour.
pub fn begin_frame(cam: &Camera, sky: u16) {
    gx::set_clear_color(sky);
    gx::matrix_mode(gx::MatrixMode::Projection);
    gx::load_4x4(&Camera::projection());
    load_view(cam);
}

/// Makes the camera's view (with the x4 scale) the current position
/// matrix, as for world coordinates.
pub fn load_view(cam: &Camera) {
    gx::matrix_mode(gx::MatrixMode::PositionVector);
    gx::load_4x3(&cam.view().to_gx_4x3());
    let s = 1 << (12 + GX_SHIFT);
    gx::scale(s, s, s);
}

/// Ends a frame, once every command is queued (a display list's DMA
/// finished): waits for the geometry engine, reads back how many
/// polygons it stored, then swaps at the next VBlank.
pub fn end_frame() -> Stored {
    gx::wait_idle();
    let (polygons, vertices) = gx::ram_count();
    let overflow = gx::take_overflow();
    let underflow = gx::take_underflow();
    let stack_error = gx::take_stack_error();
    gx::swap_buffers();
    Stored {
        polygons,
        vertices,
        overflow,
        underflow,
        stack_error,
    }
}

/// What the hardware kept of a frame (after its own clipping and culling).
#[derive(Clone, Copy, Debug, Default)]
pub struct Stored {
    pub polygons: u32,
    /// Vertices in Vertex RAM (the hardware holds 6144 a frame, GBATEK;
    /// clipping adds vertices).
    pub vertices: u32,
    pub overflow: bool,
    /// The renderer fell behind the scanlines (lines drawn incomplete).
    pub underflow: bool,
    pub stack_error: bool,
}
