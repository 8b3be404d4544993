//! Which edges and vertices of a mesh a sphere can touch first.
//!
//! An edge shared by two triangles that meet flat or in a valley
//! (concave) is never touched before one of the two faces: the edge lies
//! in both planes, and a centre in front of a plane is at least as far
//! from any line in it as from the plane. So the sweep can skip it. That
//! saves its quadratic, and it removes the "ghost" hits a sphere sliding
//! over a tessellated floor gets on internal edges: an edge hit's normal
//! points from the edge line to the centre, tilted off the floor's, and
//! the sphere hops. A vertex whose every edge is skipped is skipped too
//! (the surface around it is flat or a valley). Boundary edges, edges of
//! three or more triangles, edges between triangles wound inconsistently
//! and convex edges are kept.
//!
//! The test is exact: `i128` products of the FX1 vertices, no tolerance,
//! so a floor is flat only where its vertices really are coplanar, and a
//! very slightly convex edge is kept (correct, only slower).
//!
//! Build time, `O(n^2)` with a bounding-box rejection (the asset compiler
//! marks compiled worlds; the precision benchmark marks its own). No
//! allocation, so the DS can run it on a small mesh too.

use crate::fx::Vec3;

use super::triangle::{Triangle, ALL_FEATURES};
use super::wide::{dot, normal, sub, wide};

/// How each edge of `tris[i]` meets the rest of the mesh: true when it is
/// shared with exactly one other triangle, wound the other way along it,
/// and the two meet flat or concave.
fn edge_is_internal(tris: &[Triangle], i: usize) -> [bool; 3] {
    let t = &tris[i];
    let n = normal(t);
    let (lo, hi) = t.raw_bounds();
    let mut out = [false; 3];
    for (e, internal) in out.iter_mut().enumerate() {
        let (a, b) = (t.v[e], t.v[(e + 1) % 3]);
        let mut found: Option<usize> = None;
        let mut kept = false;
        for (j, o) in tris.iter().enumerate() {
            if j == i || !o.overlaps_box(lo, hi) {
                continue;
            }
            for f in 0..3 {
                let (c, d) = (o.v[f], o.v[(f + 1) % 3]);
                if (c, d) == (b, a) {
                    kept |= found.is_some(); // a third triangle
                    found = Some(j * 3 + f);
                } else if (c, d) == (a, b) {
                    kept = true; // wound the same way: no consistent side
                }
            }
        }
        let Some(k) = found.filter(|_| !kept) else {
            continue;
        };
        let o = &tris[k / 3];
        // The other triangle's vertex off the shared edge.
        let w = wide(o.v[(k % 3 + 2) % 3]);
        let s = dot(n, sub(w, wide(a)));
        // In front of this plane: a valley. In it, and facing the same
        // way: flat. Behind it: convex, a real feature.
        *internal = s > 0 || (s == 0 && dot(n, normal(o)) > 0);
    }
    out
}

/// Marks `tris`' feature bits (see the module docs); the edges first,
/// then each vertex from the edges of every triangle around it.
pub fn mark(tris: &mut [Triangle]) {
    for i in 0..tris.len() {
        let internal = edge_is_internal(tris, i);
        let mut bits = ALL_FEATURES;
        for (e, &skip) in internal.iter().enumerate() {
            if skip {
                bits &= !(1 << e);
            }
        }
        tris[i].features = bits;
    }
    for i in 0..tris.len() {
        let mut bits = tris[i].features;
        for k in 0..3 {
            if vertex_is_internal(tris, tris[i].v[k]) {
                bits &= !(8 << k);
            }
        }
        tris[i].features = bits;
    }
}

/// True when every edge at vertex `p`, in every triangle that has it, is
/// skipped (edge bits already marked).
fn vertex_is_internal(tris: &[Triangle], p: Vec3) -> bool {
    let at = p.raw();
    tris.iter().filter(|t| t.overlaps_box(&at, &at)).all(|t| {
        match t.v.iter().position(|&v| v == p) {
            // The two edges at vertex k: k (from it) and k + 2 (into it).
            Some(k) => t.features & (1 << k) == 0 && t.features & (1 << ((k + 2) % 3)) == 0,
            None => true,
        }
    })
}
