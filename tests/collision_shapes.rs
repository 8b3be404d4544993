//! Static sphere-sphere and sphere-box overlap against exact and f64
//! references.

use dsphys::collision::{separate_spheres, sphere_box, sphere_sphere, Obb};
use dsphys::fx::{Angle, Fx1, Quat, Vec3};

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn int(&mut self, a: i32, b: i32) -> i32 {
        a + (self.next() % (b - a + 1) as u64) as i32
    }
    fn vec(&mut self, s: i32) -> Vec3 {
        Vec3::from_raw(self.int(-s, s), self.int(-s, s), self.int(-s, s))
    }
}

#[test]
fn sphere_sphere_decision_is_exact() {
    let mut rng = Rng(3);
    let mut overlaps = 0;
    for _ in 0..200_000 {
        // Hand-sized spheres around hand-sized distances.
        let c1 = rng.vec(400_000);
        let c2 = c1 + rng.vec(600);
        let (r1, r2) = (
            Fx1::from_raw(rng.int(1, 300)),
            Fx1::from_raw(rng.int(1, 300)),
        );
        let d = (c1 - c2).raw().map(|x| x as i128);
        let d2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
        let r = (r1 + r2).raw() as i128;
        let got = sphere_sphere(c1, r1, c2, r2);
        assert_eq!(got.is_some(), d2 < r * r, "{c1:?} {r1:?} {c2:?} {r2:?}");
        if let Some(o) = got {
            overlaps += 1;
            let len = (d2 as f64).sqrt();
            assert!(
                (o.depth.raw() as f64 - (r as f64 - len)).abs() <= 1.0,
                "{o:?}"
            );
            if len > 20.0 {
                let n = o.normal.raw();
                for k in 0..3 {
                    assert!(
                        (n[k] as f64 - d[k] as f64 / len * 4096.0).abs() <= 1.0,
                        "{o:?}"
                    );
                }
            }
        }
    }
    assert!(overlaps > 10_000);
}

#[test]
fn separate_spheres_shares_by_inverse_mass() {
    let r = Fx1::from_raw(205);
    let mut a = Vec3::from_raw(0, 0, 0);
    let mut b = Vec3::from_raw(300, 0, 0);
    assert!(separate_spheres(&mut a, r, Fx1::ONE, &mut b, r, Fx1::ONE));
    assert_eq!((a.x.raw(), b.x.raw()), (-55, 355));
    assert!(!separate_spheres(&mut a, r, Fx1::ONE, &mut b, r, Fx1::ONE));
    // An immovable second sphere: the first takes it all.
    let mut a = Vec3::from_raw(0, 100, 0);
    let mut b = Vec3::from_raw(0, 0, 0);
    assert!(separate_spheres(&mut a, r, Fx1::ONE, &mut b, r, Fx1::ZERO));
    assert_eq!((a.y.raw(), b.y.raw()), (410, 0));
}

fn f(v: Vec3) -> [f64; 3] {
    v.raw().map(|c| c as f64 / 4096.0)
}

#[test]
fn sphere_box_matches_f64() {
    let mut rng = Rng(11);
    let (mut outside, mut inside) = (0, 0);
    let mut worst = 0f64;
    for _ in 0..100_000 {
        let axis = rng.vec(4096);
        let q = Quat::from_axis_angle(axis.normalise(), Angle::from_raw(rng.int(0, 65535) as u16));
        let rot = q.to_mat3();
        let b = Obb {
            center: rng.vec(8192),
            rot,
            half: Vec3::from_raw(rng.int(100, 6000), rng.int(100, 6000), rng.int(100, 6000)),
        };
        let r = Fx1::from_raw(rng.int(20, 1000));
        let c = b.center + rng.vec(9000);
        // f64 reference in the box frame of the stored (FX1) rotation.
        let d = f(c - b.center);
        let cols = rot.cols.map(f);
        let local: Vec<f64> = cols
            .iter()
            .map(|a| a[0] * d[0] + a[1] * d[1] + a[2] * d[2])
            .collect();
        let half = f(b.half);
        let out: Vec<f64> = (0..3)
            .map(|k| local[k] - local[k].clamp(-half[k], half[k]))
            .collect();
        let dist = (out[0] * out[0] + out[1] * out[1] + out[2] * out[2]).sqrt();
        let rf = r.to_f64();
        let got = sphere_box(c, r, &b);
        let inside_box = dist == 0.0;
        let want_depth = if inside_box {
            (0..3)
                .map(|k| half[k] - local[k].abs())
                .fold(f64::MAX, f64::min)
                + rf
        } else {
            rf - dist
        };
        match got {
            Some(o) => {
                assert!(want_depth > -1.0 / 4096.0, "{o:?} vs depth {want_depth}");
                worst = worst.max((o.depth.to_f64() - want_depth).abs() * 4096.0);
                if inside_box {
                    inside += 1;
                } else {
                    outside += 1;
                }
            }
            None => assert!(want_depth < 1.0 / 4096.0, "missed depth {want_depth}"),
        }
    }
    println!("sphere_box: {outside} overlaps from outside, {inside} centres inside; worst depth error {worst:.3} raw steps");
    assert!(worst <= 1.5 && outside > 1000 && inside > 1000);
}
