//! What the humanoid rest-stretch examples share: the shipped
//! humanoid's stick furthest from its length, and whether its torso has
//! folded through itself (included with `#[path]`; each user takes what
//! it needs).
#![allow(dead_code)]

use dsphys::fx::{Fx1, Vec3};
use dsphys::verlet::def::ConstraintKind;
use dsphys::verlet::humanoid::HUMANOID;
use dsphys::verlet::Ragdoll;
use dsphys::xorshift::XorShift32;

/// The name of the humanoid's particle `i`.
pub fn particle(i: u8) -> &'static str {
    HUMANOID.particles[i as usize].name
}

/// The humanoid's stick furthest from its length at positions `x` (of
/// the shipped definition's particles): (relative error, its particles).
pub fn worst_stick(x: &[Vec3]) -> (f64, &'static str, &'static str) {
    let mut worst = (0.0f64, "", "");
    for c in HUMANOID
        .constraints
        .iter()
        .filter(|c| c.kind == ConstraintKind::Stick)
    {
        let d = (x[c.b as usize] - x[c.a as usize]).length().to_f64();
        let e = d / c.min.to_f64() - 1.0;
        if e.abs() > worst.0.abs() {
            worst = (e, particle(c.a), particle(c.b));
        }
    }
    worst
}

/// The signed volume (m^3, times 6) of the humanoid's torso tetrahedron
/// (chest, shoulder_l, shoulder_r, pelvis) at positions `x`. The chest
/// lies 4.6 cm in front of the plane of the other three, so the sign
/// says which side it is on: a torso whose sign differs from its
/// definition's has folded through itself (every stick can still hold:
/// a mirror keeps every length).
pub fn torso_volume(x: &[Vec3]) -> f64 {
    let at = |name: &str| {
        let p = x[HUMANOID.particle_index(name).expect("a humanoid particle")];
        [p.x.to_f64(), p.y.to_f64(), p.z.to_f64()]
    };
    let o = at("chest");
    let [u, v, w] = ["shoulder_l", "shoulder_r", "pelvis"].map(|n| {
        let p = at(n);
        [p[0] - o[0], p[1] - o[1], p[2] - o[2]]
    });
    u[0] * (v[1] * w[2] - v[2] * w[1])
        + u[1] * (v[2] * w[0] - v[0] * w[2])
        + u[2] * (v[0] * w[1] - v[1] * w[0])
}

/// True when the torso at `x` is mirrored against the definition's.
pub fn torso_mirrored(x: &[Vec3]) -> bool {
    let rest: Vec<Vec3> = HUMANOID.particles.iter().map(|p| p.position).collect();
    torso_volume(x) * torso_volume(&rest) < 0.0
}

/// Kick `seed` of the rest-stretch measurements: a random velocity of up
/// to 2 m/s per axis for the whole ragdoll, and random impulses on the
/// head (particle 0) and a foot (particle 13).
pub fn kick(r: &mut Ragdoll, seed: u32) {
    let mut rng = XorShift32::spread(seed);
    let mut c = || Fx1::from_raw((rng.next_u32() % 16384) as i32 - 8192);
    r.set_velocity_all(Vec3::new(c(), c(), c()));
    r.apply_impulse(0, Vec3::new(c() * 3, c(), c() * 3));
    r.apply_impulse(13, Vec3::new(c(), c(), c()));
}
