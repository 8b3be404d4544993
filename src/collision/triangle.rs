//! World triangles with a precomputed plane, and FX2 unit vectors.

use crate::divsqrt::{div_i64_i32, sqrt_u64};
use crate::fx::power::{round_shr, round_shr32};
use crate::fx::{Fx1, Fx2, Fx3, Vec3};

use super::WORLD_LIMIT;

/// A unit vector in **FX2** (24 fraction bits), stored in `i32`
/// (`|component| <= 2^24`), the seed's high-precision "FX32e" idea.
///
/// Its direction is good to about `2^-24` rad. Multiplying an FX1 value by
/// a component gives an exact FX3 value; on the ARM9 that is one `smull`.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash, Debug)]
pub struct Dir2 {
    /// X, raw FX2.
    pub x: i32,
    /// Y, raw FX2.
    pub y: i32,
    /// Z, raw FX2.
    pub z: i32,
}

impl Dir2 {
    /// From raw FX2 components (the caller vouches that it is unit).
    #[inline]
    pub const fn from_raw(x: i32, y: i32, z: i32) -> Dir2 {
        Dir2 { x, y, z }
    }

    /// As an FX2 vector.
    #[inline]
    pub fn fx2(self) -> Vec3<Fx2> {
        Vec3::new(
            Fx2::from_raw(self.x as i64),
            Fx2::from_raw(self.y as i64),
            Fx2::from_raw(self.z as i64),
        )
    }

    /// Rounded to an FX1 unit vector (half a step per component): what
    /// [`Fx2::lower`] gives, in 32-bit work (an `i32` shifted by 12 needs
    /// no saturation).
    #[inline]
    pub fn to_fx1(self) -> Vec3 {
        let r = |c: i32| round_shr32(c, 12);
        Vec3::from_raw(r(self.x), r(self.y), r(self.z))
    }

    /// The unit vector along any integer vector (whatever its power), or
    /// `None` for zero. Each component is within about 0.55 FX2 steps of
    /// the exact quotient.
    pub fn along(c: [i64; 3]) -> Option<Dir2> {
        unit_raw(c, 24).map(|[x, y, z]| Dir2 { x, y, z })
    }
}

/// `c * 2^out_frac / |c|` per component, rounded to nearest, or `None` for
/// the zero vector; any component size, `out_frac <= 28`. One square root
/// and one division (DS units).
///
/// Error: within `0.5 + 2^(out_frac - 29)` steps of the exact quotient.
pub fn unit_raw(c: [i64; 3], out_frac: u32) -> Option<[i32; 3]> {
    let bits = c[0].unsigned_abs() | c[1].unsigned_abs() | c[2].unsigned_abs();
    if bits == 0 {
        return None;
    }
    // Components to at most 2^29: |c|^2 < 2^61, and c * inv < 2^61.
    let pre = (64 - bits.leading_zeros()).saturating_sub(29);
    let c = c.map(|v| v >> pre);
    let len2: u64 = c.iter().map(|v| v.unsigned_abs() * v.unsigned_abs()).sum();
    if len2 == 0 {
        return None;
    }
    // An even shift into [2^60, 2^62): the root is in [2^30, 2^31).
    let e = (len2.leading_zeros() - 2) & !1;
    let root = sqrt_u64(len2 << e) as i32;
    let inv = div_i64_i32(1i64 << 61, root);
    let shift = 61 - out_frac - e / 2;
    Some(c.map(|v| round_shr(v * inv, shift) as i32))
}

/// Why [`Triangle::new`] refused a triangle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TriangleError {
    /// The FX1 vertices are collinear (zero area in FX).
    Degenerate,
    /// A coordinate is outside `±WORLD_LIMIT`.
    OutOfRange,
}

/// A world triangle: FX1 vertices (counter-clockwise seen from the front)
/// and its plane, precomputed at build time.
///
/// All fields are plain data so that worlds are `static` tables; build
/// them with [`Triangle::new`] (the asset compiler does, and emits
/// [`Triangle::from_raw`] calls with the same numbers).
///
/// The layout is fixed (`repr(C)`, 128 bytes, aligned to the DS's
/// 32-byte cache lines) so that what every candidate test reads first
/// comes in one line: the bounding box and the plane offset (the box
/// test), then the normal (the plane test). With Rust's own layout (120
/// bytes, the box last) half the box tests straddled two lines.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(C, align(32))]
pub struct Triangle {
    /// The bounding box of the vertices, raw FX1, derived once by the
    /// constructors: the broad and narrow phases test it for every
    /// candidate, and reading it beats nine vertex loads and twelve
    /// comparisons each time.
    lo: [i32; 3],
    /// See `lo`.
    hi: [i32; 3],
    /// The plane offset `n · v0`, FX3 (exact for the stored `n`).
    pub d: Fx3,
    /// The unit front normal, FX2 (direction of `(v1 - v0) x (v2 - v0)`).
    pub n: Dir2,
    /// The vertices, FX1.
    pub v: [Vec3; 3],
    /// Unit edge directions, FX2: `u[i]` along `v[i+1] - v[i]`.
    pub u: [Dir2; 3],
    /// The axis the inside test drops (the largest `|n|` component,
    /// 0..=2), plus 4 when that component is negative.
    pub proj: u8,
    /// Which edges (bit `i`: edge `i`) and vertices (bit `3 + i`) a
    /// sweep tests: [`ALL_FEATURES`] unless [`super::features::mark`]
    /// found an edge flat or concave, or a vertex with only such edges
    /// (no sphere touches those before a face).
    pub features: u8,
}

/// Every edge and vertex tested (bits 0-2 edges, 3-5 vertices).
pub const ALL_FEATURES: u8 = 0x3F;

/// The smaller of two `i32` (`Ord::min` is not `const`).
const fn min_i32(a: i32, b: i32) -> i32 {
    if a < b {
        a
    } else {
        b
    }
}

/// The larger of two `i32`.
const fn max_i32(a: i32, b: i32) -> i32 {
    if a > b {
        a
    } else {
        b
    }
}

/// The raw FX1 bounding box of three raw FX1 points.
const fn box_of(v: &[[i32; 3]; 3]) -> ([i32; 3], [i32; 3]) {
    let mut lo = [0; 3];
    let mut hi = [0; 3];
    let mut k = 0;
    while k < 3 {
        lo[k] = min_i32(min_i32(v[0][k], v[1][k]), v[2][k]);
        hi[k] = max_i32(max_i32(v[0][k], v[1][k]), v[2][k]);
        k += 1;
    }
    (lo, hi)
}

impl Triangle {
    /// From raw numbers, as the asset compiler emits them.
    #[allow(clippy::too_many_arguments)]
    pub const fn from_raw(
        v: [[i32; 3]; 3],
        n: [i32; 3],
        d: i64,
        u: [[i32; 3]; 3],
        proj: u8,
    ) -> Triangle {
        let (lo, hi) = box_of(&v);
        Triangle {
            v: [
                Vec3::from_raw(v[0][0], v[0][1], v[0][2]),
                Vec3::from_raw(v[1][0], v[1][1], v[1][2]),
                Vec3::from_raw(v[2][0], v[2][1], v[2][2]),
            ],
            n: Dir2::from_raw(n[0], n[1], n[2]),
            d: Fx3::from_raw(d),
            u: [
                Dir2::from_raw(u[0][0], u[0][1], u[0][2]),
                Dir2::from_raw(u[1][0], u[1][1], u[1][2]),
                Dir2::from_raw(u[2][0], u[2][1], u[2][2]),
            ],
            proj,
            features: ALL_FEATURES,
            lo,
            hi,
        }
    }

    /// The same triangle with the feature bits `features` (the asset
    /// compiler emits `from_raw(..).with_features(..)`).
    pub const fn with_features(mut self, features: u8) -> Triangle {
        self.features = features & ALL_FEATURES;
        self
    }

    /// True when edge `i` is tested.
    #[inline]
    pub fn tests_edge(&self, i: usize) -> bool {
        self.features & (1 << i) != 0
    }

    /// True when vertex `i` is tested.
    #[inline]
    pub fn tests_vertex(&self, i: usize) -> bool {
        self.features & (8 << i) != 0
    }

    /// Builds the triangle `a, b, c` (counter-clockwise seen from the
    /// front), computing its plane with the DS units (so the host and the
    /// DS get the same bits).
    pub fn new(a: Vec3, b: Vec3, c: Vec3) -> Result<Triangle, TriangleError> {
        let lim = WORLD_LIMIT.raw();
        for p in [a, b, c] {
            if p.raw().iter().any(|&x| x < -lim || x > lim) {
                return Err(TriangleError::OutOfRange);
            }
        }
        // FX2: the exact (unnormalised) normal.
        let nn = (b - a).cross(c - a);
        let n =
            Dir2::along([nn.x.raw(), nn.y.raw(), nn.z.raw()]).ok_or(TriangleError::Degenerate)?;
        let v = [a, b, c];
        let mut u = [Dir2::default(); 3];
        for (i, ui) in u.iter_mut().enumerate() {
            let e = v[(i + 1) % 3] - v[i]; // FX1

            // Non-zero: a zero edge would have made the normal zero.
            *ui = Dir2::along(e.raw().map(|x| x as i64)).ok_or(TriangleError::Degenerate)?;
        }
        let d: Fx3 = a.dot(n.fx2()); // FX3 = FX1 · FX2
        let abs = [nn.x.raw().abs(), nn.y.raw().abs(), nn.z.raw().abs()];
        let k = if abs[0] >= abs[1] && abs[0] >= abs[2] {
            0
        } else if abs[1] >= abs[2] {
            1
        } else {
            2
        };
        let neg = [nn.x, nn.y, nn.z][k].is_negative();
        let (lo, hi) = box_of(&v.map(|p| p.raw()));
        Ok(Triangle {
            v,
            n,
            d,
            u,
            proj: k as u8 | if neg { 4 } else { 0 },
            features: ALL_FEATURES,
            lo,
            hi,
        })
    }

    /// The unit front normal rounded to FX1.
    #[inline]
    pub fn normal(&self) -> Vec3 {
        self.n.to_fx1()
    }

    /// Edge `i`: `v[i+1] - v[i]`, FX1, exact.
    #[inline]
    pub fn edge(&self, i: usize) -> Vec3 {
        self.v[(i + 1) % 3] - self.v[i]
    }

    /// Signed distance of `p` from the plane, FX3 (positive in front).
    #[inline]
    pub fn signed_distance(&self, p: Vec3) -> Fx3 {
        p.dot(self.n.fx2()) - self.d // FX3
    }

    /// The bounding box of the vertices.
    #[inline]
    pub fn bounds(&self) -> (Vec3, Vec3) {
        let (lo, hi) = (self.lo, self.hi);
        (
            Vec3::from_raw(lo[0], lo[1], lo[2]),
            Vec3::from_raw(hi[0], hi[1], hi[2]),
        )
    }

    /// The bounding box of the vertices, raw FX1 (`lo`, `hi`).
    #[inline]
    pub fn raw_bounds(&self) -> (&[i32; 3], &[i32; 3]) {
        (&self.lo, &self.hi)
    }

    /// True when the bounding box overlaps the box `[lo, hi]` (raw FX1,
    /// inclusive). Compares only, no products.
    #[inline]
    pub fn overlaps_box(&self, lo: &[i32; 3], hi: &[i32; 3]) -> bool {
        (0..3).all(|k| self.lo[k] <= hi[k] && self.hi[k] >= lo[k])
    }

    /// True when `q`, projected along the normal, lies inside the triangle
    /// or on its boundary. Exact: 2D cross products in FX2 on the two axes
    /// the normal is least aligned with.
    #[inline]
    pub fn contains_projected(&self, q: Vec3) -> bool {
        self.locate(q, 0, None, i32::MAX) == Place::Inside
    }

    /// Where a point moving from `qa` to `qb` (in the plane, seen along
    /// the normal) first lies inside the triangle: the fraction of the way
    /// (FX1 in `[0, 1]`, rounded down) and the edge it enters through
    /// (`None` if `qa` is already inside), or `None` if it never does.
    /// Exact 2D clipping in FX2; one division per edge crossed.
    pub fn clip_entry(&self, qa: Vec3, qb: Vec3) -> Option<(Fx1, Option<u8>)> {
        let k = (self.proj & 3) as usize;
        let (i, j) = ((k + 1) % 3, (k + 2) % 3);
        let neg = self.proj & 4 != 0;
        let (qa, qb) = (qa.raw(), qb.raw());
        let p = [self.v[0].raw(), self.v[1].raw(), self.v[2].raw()];
        let (mut enter, mut exit, mut edge) = (Fx1::ZERO, Fx1::ONE, None);
        for e in 0..3 {
            let (s, t) = (p[e], p[(e + 1) % 3]);
            let (ei, ej) = (Fx1::from_raw(t[i] - s[i]), Fx1::from_raw(t[j] - s[j])); // FX1

            // FX2: the 2D cross at each end, positive on the inner side.
            let side = |q: [i32; 3]| {
                let c = ei * Fx1::from_raw(q[j] - s[j]) - ej * Fx1::from_raw(q[i] - s[i]);
                if neg {
                    -c
                } else {
                    c
                }
            };
            let (ca, cb) = (side(qa), side(qb));
            if ca.is_negative() && cb.is_negative() {
                return None;
            }
            if ca.is_negative() {
                let f: Fx1 = (-ca).raise() / (cb - ca); // FX3 / FX2 = FX1, crossing in
                if f > enter {
                    enter = f;
                    edge = Some(e as u8);
                }
            } else if cb.is_negative() {
                let f: Fx1 = ca.raise() / (ca - cb); // FX1, crossing out
                exit = exit.min(f);
            }
        }
        (enter <= exit).then_some((enter, edge))
    }

    /// Where `q` (in the plane) lies, seen along the normal:
    /// [`Place::Inside`] the triangle, or outside one edge by up to about
    /// `tol` raw FX1 steps (in the projection plane, at most
    /// `tol * 1.5 * sqrt(3)` in 3D) and beside that edge, a strip along
    /// each edge with no tips at the vertices; [`Place::Far`] when it is
    /// outside some edge by more than `far` raw steps (in 3D, in the plane;
    /// so nothing within `far` of `q` touches the triangle);
    /// [`Place::Beside`] when it is outside some edge by more than `reach`
    /// raw steps (so a point moving at most `reach` from `q` never gets
    /// onto the face); else [`Place::Near`]. Exact 2D cross products in
    /// FX2.
    #[inline]
    pub fn locate(&self, q: Vec3, tol: i32, far: Option<i32>, reach: i32) -> Place {
        // The inside tests keep the two axes the normal is least aligned
        // with, `(i, j)`, ordered so that the 2D cross `e_i q_j - e_j q_i`
        // is positive on the inner side. A negative dropped component
        // swaps the pair, which negates every cross; walking the edges
        // the other way round negates them too (`(-e) x (q - t)` is `-(e
        // x (q - s))` exactly), and gives the same answer (see
        // `locate_on`), so the six cases are three, each with its axes
        // known at compile time: indexing by a run-time axis had copied
        // the projected vertices through the stack, about 40 instructions
        // a call.
        let ring = self.inner_ring();
        match self.proj & 3 {
            0 => locate_on::<1, 2>(ring, q, tol, far, reach),
            1 => locate_on::<2, 0>(ring, q, tol, far, reach),
            _ => locate_on::<0, 1>(ring, q, tol, far, reach),
        }
    }

    /// The vertices in the order whose 2D crosses on the projection axes
    /// (see [`Triangle::locate`]) are positive on the inner side.
    #[inline]
    fn inner_ring(&self) -> [&Vec3; 3] {
        let [a, b, c] = &self.v;
        if self.proj & 4 == 0 {
            [a, b, c]
        } else {
            [a, c, b]
        }
    }

    /// True when `q`, seen along the normal, lies inside the triangle and
    /// at least `margin` raw FX1 steps from each edge's line in the
    /// projection plane, counted so that every point within `margin` of
    /// `q` in the L1 norm of that plane is inside too: each 2D cross
    /// (the projected distance times `|e|`) against `margin` times the
    /// edge's projected L1 length, which is at least `|e|`. Exact, in FX2;
    /// cheaper than [`Triangle::locate`], which also says how far off the
    /// face a point is.
    #[inline]
    pub fn contains_with_margin(&self, q: Vec3, margin: i32) -> bool {
        let ring = self.inner_ring();
        match self.proj & 3 {
            0 => inside_on::<1, 2>(ring, q, margin),
            1 => inside_on::<2, 0>(ring, q, margin),
            _ => inside_on::<0, 1>(ring, q, margin),
        }
    }
}

/// [`Triangle::contains_with_margin`] on the axes `(I, J)` (see
/// [`locate_on`]). A point moved by `(di, dj)` changes the cross of an
/// edge `(ei, ej)` by `ei dj - ej di`, at most `max(|ei|, |ej|) (|di| +
/// |dj|)`, within the edge's L1 length times the move's.
#[inline]
fn inside_on<const I: usize, const J: usize>(ring: [&Vec3; 3], q: Vec3, margin: i32) -> bool {
    let p = ring.map(|v| {
        let v = v.raw();
        [v[I], v[J]]
    });
    let q = q.raw();
    let q = [q[I], q[J]];
    (0..3).all(|e| {
        let (s, t) = (p[e], p[(e + 1) % 3]);
        let (ei, ej) = (t[0] - s[0], t[1] - s[1]); // FX1
        let (qi, qj) = (q[0] - s[0], q[1] - s[1]); // FX1
                                                   // FX2: the cross, against FX1 * FX1.
        let c = Fx1::from_raw(ei) * Fx1::from_raw(qj) - Fx1::from_raw(ej) * Fx1::from_raw(qi);
        c >= Fx1::from_raw(margin) * Fx1::from_raw(ei.abs() + ej.abs())
    })
}

/// [`Triangle::locate`] on the axes `(I, J)`, the vertices in the order
/// whose crosses are positive on the inner side. The answer depends on
/// the edges only through conditions that hold of any of them (outside
/// by more than `far`, `tol` or `reach`; outside two) and, for a point
/// outside one edge only, whether it is beside that edge: `0 <= along
/// <= len2`, which walking the edge the other way maps to `len2 -
/// along`, the same test. So either order of the edges gives the same
/// place.
#[inline]
fn locate_on<const I: usize, const J: usize>(
    ring: [&Vec3; 3],
    q: Vec3,
    tol: i32,
    far: Option<i32>,
    reach: i32,
) -> Place {
    let p = ring.map(|v| {
        let v = v.raw();
        [v[I], v[J]]
    });
    let q = q.raw();
    let q = [q[I], q[J]];
    let mut outside = None;
    let mut near = false;
    let mut stuck = false;
    for e in 0..3 {
        let (s, t) = (p[e], p[(e + 1) % 3]);
        // FX1: the edge, and q from its start, projected.
        let (ei, ej) = (t[0] - s[0], t[1] - s[1]);
        let (qi, qj) = (q[0] - s[0], q[1] - s[1]);
        // FX2: (t - s) x (q - s) in the (i, j) plane, positive on the
        // inner side: the projected distance times |e|.
        let c = Fx1::from_raw(ei) * Fx1::from_raw(qj) - Fx1::from_raw(ej) * Fx1::from_raw(qi);
        if c.is_negative() {
            let l1 = Fx1::from_raw(ei.abs() + ej.abs()); // FX1: >= the projected |e|
            if let Some(far) = far {
                // Projection only shortens distances in the plane.
                if c < -(Fx1::from_raw(far) * l1) {
                    return Place::Far;
                }
            }
            // FX2: tol times the edge's projected length (an L1 bound).
            if c < -(Fx1::from_raw(tol) * l1) || outside.is_some() {
                near = true;
            }
            // Farther than `reach` outside this edge's line: a point
            // moving at most `reach` stays outside it.
            if c < -(Fx1::from_raw(reach) * l1) {
                stuck = true;
            }
            outside = Some((ei, ej, qi, qj));
        }
    }
    let off_face = if stuck { Place::Beside } else { Place::Near };
    if near {
        return off_face;
    }
    match outside {
        None => Place::Inside,
        Some((ei, ej, qi, qj)) => {
            // FX2: beside the edge, not beyond its ends.
            let along =
                Fx1::from_raw(ei) * Fx1::from_raw(qi) + Fx1::from_raw(ej) * Fx1::from_raw(qj);
            let len2 =
                Fx1::from_raw(ei) * Fx1::from_raw(ei) + Fx1::from_raw(ej) * Fx1::from_raw(ej);
            if along >= Fx2::ZERO && along <= len2 {
                Place::Inside
            } else {
                off_face
            }
        }
    }
}

/// See [`Triangle::locate`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Place {
    /// On the face (within the tolerance).
    Inside,
    /// Off the face, but perhaps near enough to touch, and near enough to
    /// move onto it.
    Near,
    /// Off the face, perhaps near enough to touch an edge or a vertex,
    /// but too far to move onto it within the given reach.
    Beside,
    /// Farther than the given distance from the triangle.
    Far,
}

#[cfg(test)]
mod tests {
    use super::Dir2;
    use crate::xorshift::XorShift32;

    /// The 32-bit rounding of `to_fx1` is `Fx2::lower`'s, at ties (both
    /// signs), at the ends of the `i32` range and at random.
    #[test]
    fn to_fx1_rounds_as_fx2_lower_does() {
        let check = |c: i32| {
            let d = Dir2::from_raw(c, -c, c.wrapping_add(1));
            assert_eq!(d.to_fx1(), d.fx2().lower(), "{c}");
        };
        for c in [
            0,
            1,
            -1,
            2047,
            2048,
            -2048,
            -2049,
            6144,
            -6144,
            1 << 24,
            -(1 << 24),
        ] {
            check(c);
        }
        for c in [i32::MAX, i32::MIN + 1, i32::MAX - 2048, i32::MIN + 2048] {
            check(c);
        }
        let mut rng = XorShift32::new(0x0d12_0fa1);
        for _ in 0..100_000 {
            check(rng.next_u32() as i32 >> 6);
        }
    }
}
