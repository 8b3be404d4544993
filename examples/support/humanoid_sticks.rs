//! What the humanoid rest-stretch examples share: the shipped
//! humanoid's stick furthest from its length.

use dsphys::fx::Vec3;
use dsphys::verlet::def::ConstraintKind;
use dsphys::verlet::humanoid::HUMANOID;

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
