// Two joints between the same two parts are refused at build time.
use dsphys::rigid::characters::check;

const _: () = check::distinct_pairs(&[(0, 1), (1, 2), (2, 1)]);

fn main() {}
