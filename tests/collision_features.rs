//! Feature marking (`collision::features`): flat and concave edges, and
//! vertices with only such edges, are skipped; convex, boundary and
//! non-manifold ones are kept. A sphere sliding over a tessellated floor
//! then never hits an internal edge (no ghost bumps), and still stops
//! on a convex ridge.

#[path = "collision_support.rs"]
mod support;

use dsphys::collision::features::mark;
use dsphys::collision::triangle::ALL_FEATURES;
use dsphys::collision::{collide_particle, sweep_sphere_triangle, Feature, Triangle};
use dsphys::fx::{Fx1, Vec3};
use support::{fx, one_leaf_world, p};

fn tri(a: Vec3, b: Vec3, c: Vec3) -> Triangle {
    Triangle::new(a, b, c).expect("triangle")
}

/// An `n x n` floor of unit squares at height `y`, facing +y, two
/// triangles each (counter-clockwise from above).
fn floor(n: i32, y: f64) -> Vec<Triangle> {
    let mut out = Vec::new();
    for i in 0..n {
        for k in 0..n {
            let (x0, z0) = (i as f64, k as f64);
            let a = p(x0, y, z0);
            let b = p(x0, y, z0 + 1.0);
            let c = p(x0 + 1.0, y, z0 + 1.0);
            let d = p(x0 + 1.0, y, z0);
            out.push(tri(a, b, c));
            out.push(tri(a, c, d));
        }
    }
    out
}

fn skipped_edges(t: &Triangle) -> usize {
    (0..3).filter(|&e| !t.tests_edge(e)).count()
}

#[test]
fn a_flat_floor_skips_its_inner_edges_and_vertices() {
    let mut tris = floor(3, 0.0);
    mark(&mut tris);
    // 3 x 3 squares: 9 diagonals and 12 inner grid edges, each seen from
    // both sides; the 12 boundary edges are kept.
    let skipped: usize = tris.iter().map(skipped_edges).sum();
    assert_eq!(skipped, 2 * (9 + 12));
    // The 4 inner grid vertices are skipped in every triangle that has
    // them; a boundary vertex never is.
    for t in &tris {
        for k in 0..3 {
            let [x, _, z] = t.v[k].raw();
            let inner = x % 4096 == 0 && (4096..=8192).contains(&x) && (4096..=8192).contains(&z);
            assert_eq!(!t.tests_vertex(k), inner, "{:?}", t.v[k]);
        }
    }
}

#[test]
fn convex_ridges_are_kept_and_valleys_skipped() {
    // A roof ridge along z at y = 1 (convex), and a valley (V) along z.
    let ridge = |apex: f64| {
        let (l0, l1) = (p(-1.0, 0.0, 0.0), p(-1.0, 0.0, 1.0));
        let (r0, r1) = (p(1.0, 0.0, 0.0), p(1.0, 0.0, 1.0));
        let (t0, t1) = (p(0.0, apex, 0.0), p(0.0, apex, 1.0));
        // Left slope, then right slope, both facing up and outwards.
        vec![
            tri(l0, l1, t1),
            tri(l0, t1, t0),
            tri(t0, t1, r1),
            tri(t0, r1, r0),
        ]
    };
    let mut roof = ridge(1.0);
    mark(&mut roof);
    // Each slope's diagonal is flat (skipped); the ridge is convex (kept).
    assert_eq!(roof.iter().map(skipped_edges).sum::<usize>(), 4);
    let mut valley = ridge(-1.0);
    mark(&mut valley);
    // The diagonals and the valley's floor line are all skipped.
    assert_eq!(valley.iter().map(skipped_edges).sum::<usize>(), 6);
}

#[test]
fn inconsistent_winding_and_non_manifold_edges_are_kept() {
    let (a, b, c, d) = (
        p(0.0, 0.0, 0.0),
        p(0.0, 0.0, 1.0),
        p(1.0, 0.0, 1.0),
        p(1.0, 0.0, 0.0),
    );
    // The second triangle wound the other way (faces down): no skip.
    let mut flipped = vec![tri(a, b, c), tri(a, d, c)];
    mark(&mut flipped);
    assert!(flipped.iter().all(|t| t.features == ALL_FEATURES));
    // A fin standing on the shared diagonal: three triangles on it.
    let mut fin = vec![tri(a, b, c), tri(a, c, d), tri(a, c, p(0.5, 1.0, 0.5))];
    mark(&mut fin);
    assert!(fin.iter().all(|t| skipped_edges(t) == 0));
}

/// A hand-sized sphere slides across a tessellated floor, resting on it,
/// along paths that cross inner edges and vertices. With the features
/// marked, every contact pushes along the floor's normal and the sphere
/// never rises; unmarked, some contacts are internal edges or vertices
/// with tilted normals (ghost hits).
#[test]
fn sliding_over_inner_edges_meets_only_faces() {
    let r = fx(0.05);
    let run = |marked: bool| -> (usize, usize, Fx1) {
        let mut tris = floor(4, 0.0);
        if marked {
            mark(&mut tris);
        }
        let world = one_leaf_world(&tris);
        let (mut faces, mut ghosts, mut highest) = (0, 0, Fx1::ZERO);
        // Paths from near one corner into the floor, at many angles,
        // pressed onto it and sliding (no friction), never off its edge.
        for k in 0..64 {
            let angle = k as f64 * 0.0245;
            let (dx, dz) = (angle.cos() * 0.031, angle.sin() * 0.031);
            let mut pos = p(0.3, 0.05, 0.3);
            for _ in 0..90 {
                let (mut prev, mut cur) = (pos, pos + p(dx, -0.004, dz));
                for t in world.tris {
                    if let Some(h) = sweep_sphere_triangle(t, prev, cur, r) {
                        // An edge or vertex hit pushes along a normal
                        // tilted off the floor's: a ghost.
                        let ghost = h.normal != t.normal()
                            && matches!(h.feature, Feature::Edge(_) | Feature::Vertex(_));
                        if ghost {
                            ghosts += 1;
                        } else {
                            faces += 1;
                        }
                    }
                }
                collide_particle(&world, &mut prev, &mut cur, r, Fx1::ZERO);
                pos = cur;
                highest = highest.max(pos.y);
            }
        }
        (faces, ghosts, highest)
    };
    let (faces, ghosts, highest) = run(true);
    println!("marked: {faces} face contacts, {ghosts} edge or vertex, highest {highest:?}");
    assert!(faces > 1000, "{faces}");
    assert_eq!(ghosts, 0);
    // Resting at r plus the skin, never bumped up.
    assert!(highest <= r + dsphys::collision::SKIN, "{highest:?}");
    let (_, unmarked_ghosts, _) = run(false);
    println!("unmarked: {unmarked_ghosts} edge or vertex contacts");
    assert!(unmarked_ghosts > 0, "the test would not see ghost hits");
}
