// Dropping a power without saying so: a product is FX2, not FX1.
use dsphys::fx::{Fx1, Vec3};

fn main() {
    let d = Vec3::<Fx1>::X;
    let _squared: Fx1 = d.dot(d);
}
