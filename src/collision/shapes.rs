//! Static overlap of spheres with spheres and with oriented boxes.
//!
//! The seed's sphere test with its rule kept: squared distances are
//! compared in FX2 (sphere-sphere) or FX4 (sphere-box), never shifted
//! back to FX1 before the comparison. Only the answer (normal, depth) is
//! lowered to FX1.

use crate::fx::{Fx1, Fx2, Mat3, Vec3};

use super::triangle::unit_raw;

/// An overlap between two shapes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Overlap {
    /// Unit FX1 normal pointing from the other shape towards the sphere:
    /// moving the sphere by `normal * depth` separates them.
    pub normal: Vec3,
    /// Penetration depth, FX1 (`> 0`).
    pub depth: Fx1,
    /// The deepest point of the other shape, on its surface.
    pub point: Vec3,
}

/// Sphere `(c1, r1)` against sphere `(c2, r2)`: the overlap, seen from
/// sphere 1, or `None` when they do not overlap (touching is not
/// overlapping). Exact decision: `|c1 - c2|^2 < (r1 + r2)^2` in FX2;
/// needs `|c1 - c2| < 741455` units (any FX1 positions within ±100).
/// Concentric spheres get the normal +Y.
#[inline]
pub fn sphere_sphere(c1: Vec3, r1: Fx1, c2: Vec3, r2: Fx1) -> Option<Overlap> {
    let d = c1 - c2; // FX1
    let r = r1 + r2; // FX1
    let d2 = d.length_squared(); // FX2
    if d2 >= r * r {
        return None; // FX2 vs FX2, exact
    }
    let normal = d.try_normalise().unwrap_or(Vec3::Y);
    let depth = r - d2.sqrt(); // FX1
    Some(Overlap {
        normal,
        depth,
        point: c2 + (normal * r2).lower(),
    })
}

/// Pushes two overlapping spheres apart along their centre line, sharing
/// the correction by inverse mass: sphere 1 moves by
/// `depth * w1 / (w1 + w2)`, sphere 2 by the rest (`w = 0` is immovable).
/// Returns whether they overlapped. For Verlet particles, moving the
/// position alone (not `prev`) is the usual position-based response.
pub fn separate_spheres(c1: &mut Vec3, r1: Fx1, w1: Fx1, c2: &mut Vec3, r2: Fx1, w2: Fx1) -> bool {
    let Some(o) = sphere_sphere(*c1, r1, *c2, r2) else {
        return false;
    };
    let wsum = w1 + w2; // FX1
    if wsum <= Fx1::ZERO {
        return true;
    }
    let share1 = (o.depth * w1) / wsum; // FX2 / FX1 = FX1: sphere 1's part
    let share2 = o.depth - share1; // FX1
    *c1 += (o.normal * share1).lower(); // FX1
    *c2 -= (o.normal * share2).lower(); // FX1
    true
}

/// An oriented box: centre, rotation (columns are the box's axes in world
/// space, unit FX1) and half extents along those axes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Obb {
    /// Centre, FX1.
    pub center: Vec3,
    /// Rotation; `rot.cols[k]` is the box's k axis.
    pub rot: Mat3,
    /// Half extents along the box axes, FX1 (`>= 0`).
    pub half: Vec3,
}

/// Sphere `(c, r)` against an oriented box: the overlap, seen from the
/// sphere, or `None`. The decision is exact in FX2/FX4 for the stored
/// (FX1) rotation: the sphere centre is taken into box coordinates in FX2
/// without rounding, clamped to the box, and the squared distance of the
/// rest is compared with `r^2` in FX4. A centre inside the box is pushed
/// out through the nearest face.
pub fn sphere_box(c: Vec3, r: Fx1, b: &Obb) -> Option<Overlap> {
    let d = c - b.center; // FX1
    let [ax, ay, az] = b.rot.cols; // FX1 unit axes
    let local = [ax.dot(d), ay.dot(d), az.dot(d)]; // FX2: centre in box coordinates
    let half = b.half.to_array().map(Fx1::raise); // FX2
    let r2 = r.raise(); // FX2: r, scaled like the local coordinates

    // FX2: how far outside each slab the centre is (0 inside); a value
    // beyond r rejects before any further product.
    let mut out = [Fx2::ZERO; 3];
    let mut inside = true;
    for k in 0..3 {
        let o = if local[k] > half[k] {
            local[k] - half[k]
        } else if local[k] < -half[k] {
            local[k] + half[k]
        } else {
            Fx2::ZERO
        };
        if o.abs() >= r2 {
            return None;
        }
        inside &= o == Fx2::ZERO;
        out[k] = o;
    }
    if !inside {
        // FX4: squared distance from the box, vs r^2 in FX4.
        let dist2 = out[0] * out[0] + out[1] * out[1] + out[2] * out[2];
        if dist2 >= r2 * r2 {
            return None;
        }
        let depth = (r2 - dist2.sqrt()).lower(); // FX1 (FX2 lowered)

        // World direction of the offset: sum out_k axis_k, FX3.
        let dir = ax * out[0] + ay * out[1] + az * out[2]; // FX3
        let normal = unit_raw([dir.x.raw(), dir.y.raw(), dir.z.raw()], 12)
            .map(|[x, y, z]| Vec3::from_raw(x, y, z))
            .unwrap_or(Vec3::Y);
        let point = c - (normal * (r - depth)).lower(); // FX1
        return Some(Overlap {
            normal,
            depth,
            point,
        });
    }
    // Inside: leave through the face with the least penetration.
    let mut best = 0;
    let mut gap = half[0] - local[0].abs(); // FX2
    for k in 1..3 {
        let g = half[k] - local[k].abs(); // FX2
        if g < gap {
            gap = g;
            best = k;
        }
    }
    let axis = b.rot.cols[best];
    let normal = if local[best].is_negative() {
        -axis
    } else {
        axis
    };
    let depth = (gap + r2).lower(); // FX1 (FX2 lowered)
    let point = c + (normal * gap.lower()).lower(); // FX1: on the face
    Some(Overlap {
        normal,
        depth,
        point,
    })
}
