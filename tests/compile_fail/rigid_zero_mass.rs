// A character part of zero mass is refused at build time.
use dsphys::fx::{Fx1, Vec3};
use dsphys::rigid::characters::check;

const HALF: Vec3 = Vec3::new(Fx1::ONE, Fx1::ONE, Fx1::ONE);
const _: () = check::part(Fx1::ZERO, HALF);

fn main() {}
