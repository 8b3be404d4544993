//! Verlet particles in the test worlds: nothing leaves a closed room,
//! no path ever passes through a triangle, particles rest on stairs,
//! slide down a slope into its corner, stick on it with friction; and a
//! host timing of `collide_particle` in the 2528-triangle arena.

use std::path::Path;
use std::time::Instant;

use assetc::kdtree_build::{compile_obj, CompiledWorld};
use dsphys::collision::precision::crosses_front_to_back;
use dsphys::collision::{collide_particle, collide_particle_path, CollisionWorld, SKIN};
use dsphys::fx::{Fx1, Vec3};

fn world(name: &str) -> CompiledWorld {
    compile_obj(
        &Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../assets/worlds")
            .join(format!("{name}.obj")),
    )
    .unwrap()
}

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
}

fn fx(p: [f64; 3]) -> Vec3 {
    let r = p.map(|c| (c * 4096.0).round() as i32);
    Vec3::from_raw(r[0], r[1], r[2])
}

/// Gravity per step squared at 60 Hz: 9.8 / 3600 units = 11 raw.
const G: Fx1 = Fx1::from_raw(-11);

/// One Verlet step with world collision; returns whether the resolved
/// path went through a triangle from its front (a tunnel).
fn step(w: &CollisionWorld, prev: &mut Vec3, cur: &mut Vec3, r: Fx1, mu: Fx1) -> bool {
    let v = *cur - *prev;
    *prev = *cur;
    *cur = *cur + v + Vec3::new(Fx1::ZERO, G, Fx1::ZERO);
    let mut path = Vec::new();
    collide_particle_path(w, prev, cur, r, mu, |p| path.push(p));
    path.windows(2).any(|s| {
        let (lo, hi) = CollisionWorld::swept_box(s[0], s[1], Fx1::ZERO);
        let mut hit = false;
        w.for_each_in_box(lo, hi, |ix| {
            hit |= crosses_front_to_back(&w.tris[ix as usize], s[0], s[1])
        });
        hit
    })
}

#[test]
fn nothing_leaves_the_stairs_room() {
    let compiled = world("stairs");
    let w = compiled.world();
    let mut rng = Rng(77);
    let r = Fx1::from_raw(205);
    let tol = 3.0 / 4096.0;
    let rf = r.to_f64();
    let (mut tunnels, mut contacts) = (0, 0);
    for _ in 0..200 {
        // Start in the open, above the stairs, thrown hard.
        let mut cur = fx([
            rng.range(0.5, 7.5),
            rng.range(2.0, 3.5),
            rng.range(0.5, 5.5),
        ]);
        let speed = rng.range(0.01, 1.0);
        let v = fx([
            rng.range(-speed, speed),
            rng.range(-speed, speed),
            rng.range(-speed, speed),
        ]);
        let mut prev = cur - v;
        let mu = Fx1::from_raw((rng.next() % 4097) as i32);
        for _ in 0..300 {
            tunnels += step(&w, &mut prev, &mut cur, r, mu) as usize;
            let [x, y, z] = cur.to_array().map(|c| c.to_f64());
            assert!(x >= rf - tol && x <= 8.0 - rf + tol, "{cur:?}");
            assert!(y >= rf - tol && y <= 4.0 - rf + tol, "{cur:?}");
            assert!(z >= rf - tol && z <= 6.0 - rf + tol, "{cur:?}");
            // Not inside the staircase: over stair k the floor is at 0.2 (k + 1).
            if (1.0 - rf..=3.0 + rf).contains(&z) && x > 5.2 + 1e-9 {
                let k = (((x - 5.2) / 0.35).floor() as i32).clamp(0, 7);
                let top = 0.2 * (k + 1) as f64;
                if (1.0..=3.0).contains(&z) && x >= 5.2 + 0.35 * k as f64 + rf {
                    assert!(y >= top + rf - tol, "inside stair {k}: {cur:?}");
                }
            }
        }
        contacts += 1;
    }
    assert_eq!(tunnels, 0);
    println!("{contacts} particles x 300 steps in stairs.obj: none left the room, no tunnels");
}

#[test]
fn slides_down_the_slope_into_the_corner_and_sticks_with_friction() {
    let compiled = world("slope_corner");
    let w = compiled.world();
    let r = Fx1::from_raw(205);
    // The slope: y = 0.3 + 0.5 x, normal (-1, 2, 0) / sqrt 5.
    let on_slope = |x: f64, z: f64| fx([x, 0.3 + 0.5 * x + 0.06, z]);
    // Frictionless: slides down into the corner with the wall x = 0.
    let mut cur = on_slope(4.0, 3.0);
    let mut prev = cur;
    for _ in 0..600 {
        assert!(!step(&w, &mut prev, &mut cur, r, Fx1::ZERO));
    }
    let [x, y, _] = cur.to_array().map(|c| c.to_f64());
    let r_f = r.to_f64();
    assert!(
        (x - r_f).abs() < 4.0 * SKIN.to_f64(),
        "against the wall: {cur:?}"
    );
    let slope_dist = (-x + 2.0 * (y - 0.3)) / 5f64.sqrt();
    assert!(
        (slope_dist - r_f).abs() < 4.0 * SKIN.to_f64(),
        "on the slope: {cur:?} ({slope_dist})"
    );
    let v = cur - prev;
    assert!(
        v.raw().iter().all(|c| c.abs() <= 12),
        "at rest in the corner: {v:?}"
    );
    // Friction 1 on a 26.6 degree slope (tan = 0.5): it stays put.
    let start = on_slope(3.0, 3.0);
    let (mut cur, mut prev) = (start, start);
    for _ in 0..300 {
        assert!(!step(&w, &mut prev, &mut cur, r, Fx1::ONE));
    }
    assert!(
        (cur - start).length().to_f64() < 0.1,
        "{start:?} -> {cur:?}"
    );
    // Friction 0.2 < 0.5: it slides.
    let (mut cur, mut prev) = (start, start);
    for _ in 0..120 {
        assert!(!step(&w, &mut prev, &mut cur, r, Fx1::from_raw(819)));
    }
    assert!(cur.x.to_f64() < 2.5, "{cur:?}");
}

#[test]
fn arena_no_tunnels_and_host_timing() {
    let compiled = world("arena");
    let w = compiled.world();
    let mut rng = Rng(5);
    let r = Fx1::from_raw(205);
    let n = 15;
    let mut ps: Vec<(Vec3, Vec3)> = (0..n)
        .map(|_| {
            let c = fx([
                rng.range(-10.0, 10.0),
                rng.range(0.5, 2.5),
                rng.range(-10.0, 10.0),
            ]);
            let v = fx([
                rng.range(-0.2, 0.2),
                rng.range(-0.2, 0.2),
                rng.range(-0.2, 0.2),
            ]);
            (c - v, c)
        })
        .collect();
    let mut tunnels = 0;
    for _ in 0..600 {
        for (prev, cur) in ps.iter_mut() {
            tunnels += step(&w, prev, cur, r, Fx1::from_raw(1024)) as usize;
            assert!(cur.y.to_f64() > -0.6, "fell through the floor: {cur:?}");
        }
    }
    assert_eq!(tunnels, 0);
    // Timing: the same particles, resting and rolling on the bumps.
    let frames = 2000;
    let t0 = Instant::now();
    let mut touching = 0usize;
    for _ in 0..frames {
        for (prev, cur) in ps.iter_mut() {
            let v = *cur - *prev;
            *prev = *cur;
            *cur = *cur + v + Vec3::new(Fx1::ZERO, G, Fx1::ZERO);
            touching += collide_particle(&w, prev, cur, r, Fx1::from_raw(1024)).is_some() as usize;
        }
    }
    let per = t0.elapsed().as_secs_f64() / (frames * n) as f64;
    println!(
        "arena ({} triangles): collide_particle {:.0} ns per particle on this host ({}% of calls in contact)",
        w.tris.len(),
        per * 1e9,
        100 * touching / (frames * n)
    );
}
