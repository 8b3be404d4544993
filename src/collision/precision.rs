//! The precision benchmark: seed 004's "1 percent" made measurable.
//!
//! Hand-sized spheres (radius 0.05) are swept at a small triangle world
//! (a floor, a pyramid with convex edges, a slope, a wall, a sliver, a
//! hand-sized triangle, a tilted one) along paths whose centre really
//! crosses a triangle from its front to its back: random targets on the
//! triangle (a third of them within a few raw steps of an edge or a
//! vertex), random speeds (about 0.05 to 1.8 units per step) and random
//! angles (a quarter of them grazing, down to about 1 degree). Each sweep
//! is resolved twice, with the tracked sweep and with the naive one, and
//! a **miss** is a resolved path (start, each contact, end) of which some
//! segment passes through some triangle from its front to its back: the
//! sphere tunnelled.
//!
//! Everything is integer: the tunnelling check is exact (`i128` triple
//! products on the FX1 vertices), the random numbers are xorshift32, so
//! the benchmark runs on the DS and gives the same counts as the host.

use crate::divsqrt::div_i64;
use crate::fx::{Fx1, Fx3, Vec3};

use super::naive::sweep_sphere_triangle_naive;
use super::resolve::resolve_with;
use super::sweep::{sweep_triangle, Sweep};
use super::tree::{CollisionWorld, KdNode};
use super::triangle::Triangle;
use super::wide::{cross, dot, normal, sub, wide};
use super::MAX_CONTACTS;
use crate::xorshift::XorShift32;

/// The counts of one benchmark run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PrecisionResult {
    /// Sweeps run (each crossing a triangle).
    pub sweeps: u32,
    /// Sweeps the tracked routine let tunnel.
    pub misses_tracked: u32,
    /// Sweeps the naive routine let tunnel.
    pub misses_naive: u32,
}

/// The benchmark sphere: a hand, radius 0.05 units (205 raw).
pub const HAND_RADIUS: Fx1 = Fx1::from_raw(205);

const TRI_COUNT: usize = 11;

/// The benchmark world's triangles, in millimetres (1 unit = 1 m).
const WORLD_MM: [[[i32; 3]; 3]; TRI_COUNT] = [
    // Floor, 4 x 4, facing +y.
    [[-2000, 0, -2000], [-2000, 0, 2000], [2000, 0, 2000]],
    [[-2000, 0, -2000], [2000, 0, 2000], [2000, 0, -2000]],
    // Pyramid: base 1.2, height 0.7, convex edges.
    [[-600, 0, 600], [600, 0, 600], [0, 700, 0]],
    [[600, 0, 600], [600, 0, -600], [0, 700, 0]],
    [[600, 0, -600], [-600, 0, -600], [0, 700, 0]],
    [[-600, 0, -600], [-600, 0, 600], [0, 700, 0]],
    // Slope, about 37 degrees.
    [[2200, 0, -1500], [2200, 0, 1500], [3400, 900, 0]],
    // Wall facing +z.
    [[-2000, 0, -2500], [2000, 0, -2500], [0, 2000, -2500]],
    // A sliver: 3.6 long, about 0.1 wide.
    [[-1800, 300, 1000], [1800, 320, 1100], [1800, 310, 1130]],
    // A hand-sized triangle facing down.
    [
        [-1500, 1200, -1000],
        [-1400, 1200, -1000],
        [-1450, 1200, -900],
    ],
    // A tilted one.
    [[1000, 1500, 1500], [-500, 1000, 2000], [500, 2200, 500]],
];

const NODES: [KdNode; 1] = [KdNode::leaf(0, TRI_COUNT as u32)];
const INDICES: [u16; TRI_COUNT] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10];

/// The benchmark world's triangles (built with [`Triangle::new`], their
/// features marked).
pub fn benchmark_triangles() -> [Triangle; TRI_COUNT] {
    let mm = |p: [i32; 3]| {
        let r = p.map(|c| div_i64(c as i64 * 4096, 1000) as i32);
        Vec3::from_raw(r[0], r[1], r[2])
    };
    let mut tris =
        WORLD_MM.map(|[a, b, c]| Triangle::new(mm(a), mm(b), mm(c)).expect("benchmark triangle"));
    // As compiled worlds are: the floor's diagonal is then skipped, and
    // the benchmark covers the sweeps that rely on that.
    super::features::mark(&mut tris);
    tris
}

/// True when the segment `p -> q` goes from strictly in front of the
/// triangle's plane to strictly behind it through the triangle (its
/// boundary included). Exact, on the FX1 vertices (not the stored plane).
pub fn crosses_front_to_back(tri: &Triangle, p: Vec3, q: Vec3) -> bool {
    let [a, b, c] = tri.v.map(wide);
    let (p, q) = (wide(p), wide(q));
    let n = normal(tri);
    if dot(n, sub(p, a)) <= 0 || dot(n, sub(q, a)) >= 0 {
        return false;
    }
    let d = sub(q, p);
    let (pa, pb, pc) = (sub(a, p), sub(b, p), sub(c, p));
    let s = [
        dot(d, cross(pa, pb)),
        dot(d, cross(pb, pc)),
        dot(d, cross(pc, pa)),
    ];
    s.iter().all(|&x| x >= 0) || s.iter().all(|&x| x <= 0)
}

/// True when a sphere at `p` stays clear of every plane it is near
/// (by `HAND_RADIUS` plus a margin): a fair start.
fn clear_start(tris: &[Triangle], p: Vec3) -> bool {
    let margin = HAND_RADIUS.raw() + 16;
    let lo = p.raw().map(|c| c - margin);
    let hi = p.raw().map(|c| c + margin);
    let m3 = Fx3::from(Fx1::from_raw(margin));
    tris.iter()
        .all(|t| !t.overlaps_box(&lo, &hi) || t.signed_distance(p).abs() >= m3)
}

/// Runs `sweeps` benchmark sweeps from the random `seed`; see the module
/// documentation. Deterministic: the same counts on the host and the DS.
pub fn precision_benchmark(sweeps: u32, seed: u32) -> PrecisionResult {
    let tris = benchmark_triangles();
    let world = CollisionWorld {
        nodes: &NODES,
        tris: &tris,
        indices: &INDICES,
    };
    let mut rng = XorShift32::spread(seed);
    let r = HAND_RADIUS;
    let mut out = PrecisionResult {
        sweeps: 0,
        misses_tracked: 0,
        misses_naive: 0,
    };
    let mut attempts = 0u32;
    while out.sweeps < sweeps && attempts < sweeps.saturating_mul(50) {
        attempts += 1;
        let Some((prev, cur)) = make_sweep(&tris, &mut rng, r) else {
            continue;
        };
        out.sweeps += 1;
        if tunnels(&world, prev, cur, false) {
            out.misses_tracked += 1;
        }
        if tunnels(&world, prev, cur, true) {
            out.misses_naive += 1;
        }
    }
    out
}

/// One random sweep whose centre crosses a triangle front to back from a
/// clear start, or `None` (try again).
fn make_sweep(tris: &[Triangle], rng: &mut XorShift32, r: Fx1) -> Option<(Vec3, Vec3)> {
    let tri = &tris[rng.below(tris.len() as u32) as usize];
    // A target point: barycentric weights, sometimes hugging an edge or a
    // vertex.
    let mut w = [0; 3].map(|_: i64| 1 + rng.below(4096) as i64);
    match rng.below(8) {
        0..=2 => w[rng.below(3) as usize] = rng.below(3) as i64,
        3 => {
            let k = rng.below(3) as usize;
            w[(k + 1) % 3] = rng.below(3) as i64;
            w[(k + 2) % 3] = rng.below(3) as i64;
        }
        _ => {}
    }
    let sum = w[0] + w[1] + w[2];
    let [a, b, c] = tri.v.map(|p| p.raw());
    let x = [0, 1, 2].map(|k| {
        div_i64(
            a[k] as i64 * w[0] + b[k] as i64 * w[1] + c[k] as i64 * w[2],
            sum,
        ) as i32
    });
    let x = Vec3::from_raw(x[0], x[1], x[2]);
    // A direction into the front: a tangent part and a normal part.
    let n = tri.normal(); // FX1
    let g = Vec3::from_raw(
        rng.below(8193) as i32 - 4096,
        rng.below(8193) as i32 - 4096,
        rng.below(8193) as i32 - 4096,
    );
    let tangent = n.cross(g).try_normalise()?; // FX1 unit
    let h0 = r.raw() + 8 + rng.below(2048) as i32; // in front at the start
    let h1 = 1 + rng.below(2048) as i32; // behind at the end
    let vn = h0 + h1;
    let vt = if rng.below(4) == 0 {
        vn * (8 + rng.below(56) as i32) // grazing, down to about 1 degree
    } else {
        div_i64(vn as i64 * rng.below(8192) as i64, 4096) as i32
    }
    .min(6000);
    let v = tangent.scale(Fx1::from_raw(vt)) - n.scale(Fx1::from_raw(vn)); // FX1
    let f = Fx1::from_raw(h0).div_fx1(Fx1::from_raw(vn)); // FX1 fraction
    let prev = x - v.scale(f);
    let cur = prev + v;
    if !crosses_front_to_back(tri, prev, cur) || !clear_start(tris, prev) {
        return None;
    }
    Some((prev, cur))
}

/// Resolves one sweep and reports whether its path tunnels.
fn tunnels(world: &CollisionWorld, mut prev: Vec3, mut cur: Vec3, naive: bool) -> bool {
    let mut path = [Vec3::ZERO; MAX_CONTACTS + 3];
    let mut len = 0;
    let sink = |p: Vec3| {
        if len < path.len() {
            path[len] = p;
            len += 1;
        }
    };
    if naive {
        resolve_with(
            world,
            None,
            &mut prev,
            &mut cur,
            HAND_RADIUS,
            Fx1::ZERO,
            |t: &Triangle, s: &Sweep| sweep_sphere_triangle_naive(t, s.p0, s.p1, s.r),
            sink,
        );
    } else {
        resolve_with(
            world,
            None,
            &mut prev,
            &mut cur,
            HAND_RADIUS,
            Fx1::ZERO,
            sweep_triangle,
            sink,
        );
    }
    path[..len].windows(2).any(|s| {
        world
            .tris
            .iter()
            .any(|t| crosses_front_to_back(t, s[0], s[1]))
    })
}
