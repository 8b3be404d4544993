//! The k-d tree against brute force on random meshes of 16 to 4096
//! triangles: the same triangle set for box queries, the same first hit
//! for swept spheres. The asset worlds build and check; the emitted
//! source of `stairs.obj` matches the checked-in copy that `cargo test`
//! compiles (`tests/collision_emitted.rs` at the workspace root).

use std::collections::BTreeSet;
use std::path::Path;

use assetc::kdtree_build::{build_world_from_triangles, compile_obj, emit_world_rs, MAX_LEAF};
use dsphys::collision::{sweep_sphere_triangle, CollisionWorld, Contact, KD_MAX_DEPTH};
use dsphys::fx::{Fx1, Vec3};

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn range(&mut self, a: f64, b: f64) -> f64 {
        a + (b - a) * ((self.next() >> 11) as f64 / (1u64 << 53) as f64)
    }
    fn point(&mut self, s: f64) -> [f64; 3] {
        [self.range(-s, s), self.range(-s, s), self.range(-s, s)]
    }
}

fn fx(p: [f64; 3]) -> Vec3 {
    let r = p.map(|c| (c * 4096.0).round() as i32);
    Vec3::from_raw(r[0], r[1], r[2])
}

fn random_mesh(rng: &mut Rng, n: usize) -> Vec<[[f64; 3]; 3]> {
    let extent = (n as f64).sqrt() * 0.5 + 2.0;
    (0..n)
        .map(|_| {
            let c = rng.point(extent);
            let size = [0.02, 0.2, 1.0, 3.0][(rng.next() % 4) as usize];
            let p = |rng: &mut Rng| {
                let d = rng.point(size);
                [c[0] + d[0], c[1] + d[1], c[2] + d[2]]
            };
            [p(rng), p(rng), p(rng)]
        })
        .collect()
}

fn brute_sweep(world: &CollisionWorld, p0: Vec3, p1: Vec3, r: Fx1) -> Option<Contact> {
    let mut best: Option<Contact> = None;
    for (ix, t) in world.tris.iter().enumerate() {
        if let Some(hit) = sweep_sphere_triangle(t, p0, p1, r) {
            let c = Contact {
                tri: ix as u32,
                hit,
            };
            if best.is_none_or(|b| c.before(&b)) {
                best = Some(c);
            }
        }
    }
    best
}

#[test]
fn tree_queries_match_brute_force() {
    let mut rng = Rng(0x1234_5678_9ABC_DEF1);
    for &n in &[16usize, 64, 256, 1024, 4096] {
        let compiled = build_world_from_triangles(&random_mesh(&mut rng, n));
        let world = compiled.world();
        world.check().unwrap();
        let r = &compiled.report;
        assert!(r.max_depth <= KD_MAX_DEPTH && r.max_leaf <= MAX_LEAF, "{r}");
        let extent = (n as f64).sqrt() * 0.5 + 3.0;
        let (mut found, mut hits, mut visited_tests) = (0usize, 0usize, 0usize);
        for q in 0..3000 {
            // Box queries of all sizes.
            let c = rng.point(extent);
            let h = [0.01, 0.1, 0.5, 3.0][q % 4];
            let lo = fx([
                c[0] - rng.range(0.0, h),
                c[1] - rng.range(0.0, h),
                c[2] - rng.range(0.0, h),
            ]);
            let hi = fx([
                c[0] + rng.range(0.0, h),
                c[1] + rng.range(0.0, h),
                c[2] + rng.range(0.0, h),
            ]);
            let mut got = Vec::new();
            world.for_each_in_box(lo, hi, |ix| got.push(ix));
            let set: BTreeSet<u32> = got.iter().copied().collect();
            assert_eq!(set.len(), got.len(), "a triangle reported twice");
            let want: BTreeSet<u32> = (0..world.tris.len() as u32)
                .filter(|&i| world.tris[i as usize].overlaps_box(&lo.raw(), &hi.raw()))
                .collect();
            assert_eq!(set, want, "n = {n}, box {lo:?}..{hi:?}");
            found += set.len();
            // Swept spheres: the same first contact.
            // Half of them start near a triangle, so that many hit.
            let p0 = if q % 2 == 0 {
                fx(rng.point(extent))
            } else {
                let t = &world.tris[(rng.next() % world.tris.len() as u64) as usize];
                let c = t.v[0].to_array().map(|x| x.to_f64());
                let d = rng.point(0.4);
                fx([c[0] + d[0], c[1] + d[1], c[2] + d[2]])
            };
            let d = rng.point([0.05, 0.3, 1.5][q % 3]);
            let p1 = fx([
                p0.x.to_f64() + d[0],
                p0.y.to_f64() + d[1],
                p0.z.to_f64() + d[2],
            ]);
            let radius = Fx1::from_raw([205, 50, 1000][q % 3]);
            let got = world.sweep_sphere(p0, p1, radius);
            assert_eq!(
                got,
                brute_sweep(&world, p0, p1, radius),
                "n = {n}, sweep {p0:?} -> {p1:?}"
            );
            hits += got.is_some() as usize;
            let (lo, hi) = CollisionWorld::swept_box(p0, p1, radius);
            world.for_each_in_box(lo, hi, |_| visited_tests += 1);
        }
        println!(
            "{n} triangles: {} nodes, {} leaves, depth {}, largest leaf {}; {found} box results, {hits} sweep hits, {:.2} candidate triangles per sweep",
            r.nodes,
            r.leaves,
            r.max_depth,
            r.max_leaf,
            visited_tests as f64 / 3000.0
        );
    }
}

fn workspace(p: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").join(p)
}

#[test]
fn asset_worlds_build_and_check() {
    for (name, min_tris) in [("stairs", 400), ("slope_corner", 300), ("arena", 2000)] {
        let w = compile_obj(&workspace(&format!("assets/worlds/{name}.obj"))).unwrap();
        print!("{}", w.report);
        w.world().check().unwrap();
        assert!(
            w.tris.len() >= min_tris,
            "{name}: {} triangles",
            w.tris.len()
        );
        assert!(w.report.degenerate.is_empty() && w.report.duplicates.is_empty());
        assert!(w.report.max_leaf <= MAX_LEAF);
    }
}

/// The checked-in copy: between these markers in `tests/collision_emitted.rs`.
const BEGIN: &str =
    "// ---- BEGIN GENERATED: emit_world_rs(\"STAIRS\", assets/worlds/stairs.obj) ----\n";
const END: &str = "// ---- END GENERATED ----\n";

#[test]
fn emitted_stairs_matches_checked_in_copy() {
    let path = workspace("assets/worlds/stairs.obj");
    let mut w = compile_obj(&path).unwrap();
    // Name the source as the repository does, whatever the working directory.
    w.report.source = "assets/worlds/stairs.obj".into();
    let src = emit_world_rs("STAIRS", &w);
    let file = workspace("tests/collision_emitted.rs");
    let text = std::fs::read_to_string(&file).unwrap();
    let (Some(a), Some(b)) = (text.find(BEGIN), text.find(END)) else {
        panic!("{}: generated markers missing", file.display());
    };
    let checked_in = &text[a + BEGIN.len()..b];
    if checked_in != src {
        if std::env::var_os("UPDATE_EMITTED").is_some() {
            let updated = format!("{}{BEGIN}{src}{}", &text[..a], &text[b..]);
            std::fs::write(&file, updated).unwrap();
            return;
        }
        panic!("tests/collision_emitted.rs is out of date: rerun this test with UPDATE_EMITTED=1");
    }
}
