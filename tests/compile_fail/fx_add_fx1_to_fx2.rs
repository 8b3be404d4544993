// Adding values from two FX spaces: an FX1 radius to an FX2 squared length.
use dsphys::fx::{Fx1, Fx2};

fn main() {
    let squared: Fx2 = Fx1::ONE * Fx1::ONE;
    let radius: Fx1 = Fx1::ONE;
    let _ = squared + radius;
}
