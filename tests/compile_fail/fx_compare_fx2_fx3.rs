// Comparing values from two FX spaces: FX2 against FX3.
use dsphys::fx::{Fx1, Fx2, Fx3};

fn main() {
    let a: Fx2 = Fx1::ONE * Fx1::ONE;
    let b: Fx3 = a * Fx1::ONE;
    let _ = a < b;
}
