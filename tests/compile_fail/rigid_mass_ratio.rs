// A 100 kg part jointed to a 1 kg part is refused at build time.
use dsphys::fx::Fx1;
use dsphys::rigid::characters::check;

const _: () = check::joint(0, 1, 2, Fx1::from_int(100), Fx1::ONE);

fn main() {}
