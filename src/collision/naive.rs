//! The swept sphere written the seed's "before" way, for the precision
//! benchmark only: the same algorithm as [`super::sweep`], but every
//! product is shifted straight back to FX1 (`FX_MUL(X, Y) (X * Y) >> 12`),
//! divisions and square roots are FX1 to FX1 (`FX_Div`, `FX_Sqrt`), and
//! the plane and edge directions are FX1. Small spheres suffer: with
//! `r = 0.05`, `r * r` keeps 3 significant bits, and the discriminants of
//! the edge and vertex tests round to zero.
//!
//! Plain `i32` arithmetic on raw values, deliberately outside the FX type
//! system (which would not let this compile).

use crate::divsqrt::{div_i64, sqrt_u64};
use crate::fx::{Fx1, Fx2, Vec3};

use super::resolve::resolve_with;
use super::sweep::{Contact, Feature, Hit, Sweep};
use super::tree::CollisionWorld;
use super::triangle::Triangle;

type V = [i32; 3];

/// `FX_MUL`: the product floored back to FX1.
#[inline]
fn mul(a: i32, b: i32) -> i32 {
    ((a as i64 * b as i64) >> 12) as i32
}

/// `FX_Div`: FX1 quotient, truncated, saturated.
#[inline]
fn div(a: i32, b: i32) -> i32 {
    div_i64((a as i64) << 12, b as i64).clamp(i32::MIN as i64, i32::MAX as i64) as i32
}

/// `FX_Sqrt`: FX1 square root of an FX1 value.
#[inline]
fn sqrt(a: i32) -> i32 {
    sqrt_u64((a.max(0) as u64) << 12) as i32
}

#[inline]
fn dot(a: V, b: V) -> i32 {
    mul(a[0], b[0]) + mul(a[1], b[1]) + mul(a[2], b[2])
}

#[inline]
fn cross(a: V, b: V) -> V {
    [
        mul(a[1], b[2]) - mul(a[2], b[1]),
        mul(a[2], b[0]) - mul(a[0], b[2]),
        mul(a[0], b[1]) - mul(a[1], b[0]),
    ]
}

#[inline]
fn sub(a: V, b: V) -> V {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

#[inline]
fn add(a: V, b: V) -> V {
    [a[0] + b[0], a[1] + b[1], a[2] + b[2]]
}

#[inline]
fn scale(a: V, s: i32) -> V {
    a.map(|x| mul(x, s))
}

fn normalise(a: V) -> Option<V> {
    let len = sqrt(dot(a, a));
    if len == 0 {
        return None;
    }
    Some(a.map(|x| div(x, len)))
}

fn vec(a: V) -> Vec3 {
    Vec3::from_raw(a[0], a[1], a[2])
}

fn inside(tri: &Triangle, q: V) -> bool {
    let k = (tri.proj & 3) as usize;
    let (i, j) = ((k + 1) % 3, (k + 2) % 3);
    let neg = tri.proj & 4 != 0;
    for e in 0..3 {
        let (s, t) = (tri.v[e].raw(), tri.v[(e + 1) % 3].raw());
        let c = mul(t[i] - s[i], q[j] - s[j]) - mul(t[j] - s[j], q[i] - s[i]);
        if (c < 0 && !neg) || (c > 0 && neg) {
            return false;
        }
    }
    true
}

/// The naive swept sphere against one triangle (same contract as
/// [`super::sweep_sphere_triangle`], much less exact).
pub fn sweep_sphere_triangle_naive(tri: &Triangle, p0: Vec3, p1: Vec3, r: Fx1) -> Option<Hit> {
    let r = r.raw();
    let n = tri.normal().raw();
    let d = tri.d.lower_to_fx1().raw();
    let (p0, p1) = (p0.raw(), p1.raw());
    let v = sub(p1, p0);
    let s0 = dot(n, p0) - d;
    if s0 < -r {
        return None;
    }
    let sv = dot(n, v);
    let face = |t: i32, c: V, depth: i32| Hit {
        t: Fx1::from_raw(t),
        t_fine: Fx2::from_raw((t as i64) << 12),
        center: vec(c),
        normal: vec(n),
        depth: Fx1::from_raw(depth),
        feature: Feature::Face,
    };
    if s0 >= r {
        if s0 + sv >= r {
            return None;
        }
        let t = div(s0 - r, -sv).clamp(0, 4096);
        let c = add(p0, scale(v, t));
        let q = sub(c, scale(n, r));
        if inside(tri, q) {
            return Some(face(t, c, 0));
        }
        return features(tri, p0, v, r);
    }
    let q = sub(p0, scale(n, s0));
    if inside(tri, q) {
        return Some(face(0, add(q, scale(n, r)), r - s0));
    }
    features(tri, p0, v, r)
}

fn features(tri: &Triangle, p0: V, v: V, r: i32) -> Option<Hit> {
    let n = tri.normal().raw();
    let d = tri.d.lower_to_fx1().raw();
    let rr = mul(r, r);
    let mut best: Option<Hit> = None;
    let mut keep = |hit: Hit| {
        if best.is_none_or(|b| hit.before(&b)) {
            best = Some(hit);
        }
    };
    for i in 0..3 {
        let a = tri.v[i].raw();
        let e = tri.edge(i).raw();
        let u = tri.u[i].to_fx1().raw();
        let w = sub(p0, a);
        let am = cross(u, w);
        let bm = cross(u, v);
        let c = dot(am, am) - rr;
        let feature = Feature::Edge(i as u8);
        let t = if c <= 0 {
            let along = dot(w, e);
            if along < 0 || along > dot(e, e) {
                continue;
            }
            0
        } else {
            let ab = dot(am, bm);
            if ab >= 0 {
                continue;
            }
            let bb = dot(bm, bm);
            let disc = mul(ab, ab) - mul(bb, c);
            if disc < 0 {
                continue;
            }
            let t = div(-ab - sqrt(disc), bb);
            if !(0..=4096).contains(&t) {
                continue;
            }
            t
        };
        let center = add(p0, scale(v, t));
        let rel = sub(center, a);
        let along = dot(rel, e);
        if along < 0 || along > dot(e, e) || dot(n, center) - d < 0 {
            continue;
        }
        let perp = sub(rel, scale(u, dot(u, rel)));
        let Some(normal) = normalise(perp) else {
            continue;
        };
        let depth = (r - sqrt(dot(perp, perp))).max(0);
        let center = add(center, scale(normal, depth));
        keep(Hit {
            t: Fx1::from_raw(t),
            t_fine: Fx2::from_raw((t as i64) << 12),
            center: vec(center),
            normal: vec(normal),
            depth: Fx1::from_raw(depth),
            feature,
        });
    }
    let vv = dot(v, v);
    for i in 0..3 {
        let a = tri.v[i].raw();
        let w = sub(p0, a);
        let c = dot(w, w) - rr;
        let t = if c <= 0 {
            0
        } else {
            let wv = dot(w, v);
            if wv >= 0 {
                continue;
            }
            let disc = mul(wv, wv) - mul(vv, c);
            if disc < 0 {
                continue;
            }
            let t = div(-wv - sqrt(disc), vv);
            if !(0..=4096).contains(&t) {
                continue;
            }
            t
        };
        let center = add(p0, scale(v, t));
        if dot(n, center) - d < 0 {
            continue;
        }
        let rel = sub(center, a);
        let Some(normal) = normalise(rel) else {
            continue;
        };
        let depth = (r - sqrt(dot(rel, rel))).max(0);
        let center = add(center, scale(normal, depth));
        keep(Hit {
            t: Fx1::from_raw(t),
            t_fine: Fx2::from_raw((t as i64) << 12),
            center: vec(center),
            normal: vec(normal),
            depth: Fx1::from_raw(depth),
            feature: Feature::Vertex(i as u8),
        });
    }
    best
}

/// [`super::collide_particle_path`] with the naive sweep (the response
/// itself is the tracked one, so only the sweep differs).
pub fn collide_particle_naive_path(
    world: &CollisionWorld,
    prev: &mut Vec3,
    cur: &mut Vec3,
    radius: Fx1,
    friction: Fx1,
    path: impl FnMut(Vec3),
) -> Option<Contact> {
    resolve_with(
        world,
        None,
        prev,
        cur,
        radius,
        friction,
        |t: &Triangle, s: &Sweep| sweep_sphere_triangle_naive(t, s.p0, s.p1, s.r),
        path,
    )
}
