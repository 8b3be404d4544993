//! Rigid bodies as boxes: each box's frame (its rotation matrix's axes
//! scaled by the half extents, and its centre) goes on the GX matrix
//! stack, and the one centred unit cube is drawn under it, six quads of
//! packed VTX_10 vertices, lit per face on the CPU. Static bodies (the
//! room's walls) are part of the drawn world already and are skipped.

use super::prims::{quad, Batch, ID_BODY, VTX10_ONE as P};
use super::shade::{lit, lit_opposite, Rgb};
use super::{DrawMode, PolyBudget, GX_SHIFT};
use crate::hw::gx;
use dsphys::fx::Vec3;
use dsphys::rigid::Body;

/// The cube -1..1 on every axis: faces anticlockwise seen from outside,
/// with their outward normal as (axis, negative).
const CUBE: [([u32; 4], usize, bool); 6] = [
    (
        quad([[P, -P, -P], [P, P, -P], [P, P, P], [P, -P, P]]),
        0,
        false,
    ),
    (
        quad([[-P, -P, -P], [-P, -P, P], [-P, P, P], [-P, P, -P]]),
        0,
        true,
    ),
    (
        quad([[-P, P, -P], [-P, P, P], [P, P, P], [P, P, -P]]),
        1,
        false,
    ),
    (
        quad([[-P, -P, -P], [P, -P, -P], [P, -P, P], [-P, -P, P]]),
        1,
        true,
    ),
    (
        quad([[-P, -P, P], [P, -P, P], [P, P, P], [-P, P, P]]),
        2,
        false,
    ),
    (
        quad([[-P, -P, -P], [-P, P, -P], [P, P, -P], [P, -P, -P]]),
        2,
        true,
    ),
];

/// The box's frame as MTX_MULT_4x3 words in submission units: its axes
/// times its half extents, then its centre.
fn frame(b: &Body) -> [i32; 12] {
    let half = b.half.to_array();
    let mut m = [0i32; 12];
    for (k, (col, h)) in b.mat.cols.iter().zip(half).enumerate() {
        let axis = col.scale(h).raw();
        for c in 0..3 {
            m[3 * k + c] = axis[c] >> GX_SHIFT;
        }
    }
    let t = b.position().raw();
    for c in 0..3 {
        m[9 + c] = t[c] >> GX_SHIFT;
    }
    m
}

/// Draws every dynamic body in `bodies`, colour `colors[i % len]`; a box
/// the budget has no room for is left out (and counted as refused).
pub fn draw(bodies: &[Body], colors: &[Rgb], mode: DrawMode, budget: &mut PolyBudget) {
    for (i, b) in bodies.iter().enumerate().filter(|(_, b)| !b.is_static()) {
        if budget.left() < CUBE.len() as u32 {
            budget.refused += CUBE.len() as u32;
            continue;
        }
        let color = colors[i % colors.len()];
        let ambient = lit(color, [0; 3], 12);
        let shades = b
            .mat
            .cols
            .map(|a: Vec3| lit_opposite(color, a.raw(), 12, ambient));
        gx::push();
        gx::mult_4x3(&frame(b));
        {
            let mut q = Batch::quads(budget, mode.solid_alpha(), ID_BODY, CUBE.len() as u32);
            for (v, axis, negative) in &CUBE {
                let (pos, neg) = shades[*axis];
                q.quad_packed(v, if *negative { neg } else { pos });
            }
        }
        gx::pop(1);
    }
}
