//! Batches of one primitive type: quads, and lines (a line is a triangle
//! with a repeated vertex, which the GX draws as a segment; GBATEK,
//! "Polygon Definitions by Vertices"). Each batch is one BEGIN_VTXS.
//!
//! Winding: faces come anticlockwise seen from the front (the side their
//! normal points to), as OpenGL has it; the GX agrees.

use super::{vertex, PolyBudget};
use crate::hw::gx::{self, pack10, Primitive};
use dsphys::fx::Vec3;

/// Polygon IDs: the world, characters, overlay (edge marking and
/// translucency would use them; kept distinct for that).
pub const ID_WORLD: u8 = 1;
pub const ID_BODY: u8 = 2;
pub const ID_OVERLAY: u8 = 3;

/// 1.0 in VTX_10's 6 fraction bits: the unit of the packed meshes.
pub const VTX10_ONE: i16 = 64;

/// A quad's four vertices packed as VTX_10 words.
pub const fn quad(v: [[i16; 3]; 4]) -> [u32; 4] {
    [
        pack10(v[0][0], v[0][1], v[0][2]),
        pack10(v[1][0], v[1][1], v[1][2]),
        pack10(v[2][0], v[2][1], v[2][2]),
        pack10(v[3][0], v[3][1], v[3][2]),
    ]
}

/// A batch of separate quads, or of lines.
pub struct Batch<'a> {
    budget: &'a mut PolyBudget,
    /// Polygons this batch may still draw (granted up front).
    granted: u32,
}

impl<'a> Batch<'a> {
    /// Opens a batch of up to `want` polygons; fewer if the budget is
    /// short (what is left of it).
    fn open(
        budget: &'a mut PolyBudget,
        p: Primitive,
        alpha: u8,
        both: bool,
        id: u8,
        want: u32,
    ) -> Self {
        let granted = budget.take_up_to(want);
        gx::polygon_attr(alpha, both, id);
        gx::begin(p);
        Batch { budget, granted }
    }

    /// Lines have no front or back, so they are always drawn.
    pub fn lines(budget: &'a mut PolyBudget, id: u8, want: u32) -> Self {
        Self::open(budget, Primitive::Triangles, 31, true, id, want)
    }

    /// Whether another polygon is granted (and takes it).
    fn grant(&mut self) -> bool {
        if self.granted == 0 {
            return false;
        }
        self.granted -= 1;
        true
    }

    pub fn line(&mut self, a: Vec3, b: Vec3, color: u16) {
        if self.grant() {
            gx::color(color);
            // GBATEK's form: the last vertex repeated. (DeSmuME 0.9.12 draws
            // a few nearly horizontal ones on to the screen edge; melonDS
            // draws them right. `a, b, a` is no line at all in DeSmuME.)
            vertex(a);
            vertex(b);
            vertex(b);
        }
    }
}

impl Drop for Batch<'_> {
    /// Closes the vertex list; ungranted polygons go back to the budget.
    fn drop(&mut self) {
        gx::end();
        let unused = self.granted;
        self.budget.give_back(unused);
    }
}
