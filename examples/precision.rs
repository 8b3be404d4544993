//! The precision benchmark on the host, for `make bench`
//! (`nds/runner/bench_report.py`): `cargo run --release --example
//! precision -- SWEEPS SEED` prints the counts as one JSON object. The
//! bench ROM runs fewer sweeps of the same seed (100,000 take minutes of
//! emulated time); the report checks that its counts equal these.

use dsphys::collision::precision::precision_benchmark;

fn main() {
    let args: Vec<u32> = std::env::args()
        .skip(1)
        .map(|a| a.parse().expect("usage: precision SWEEPS SEED"))
        .collect();
    let [sweeps, seed] = args[..] else {
        panic!("usage: precision SWEEPS SEED");
    };
    let r = precision_benchmark(sweeps, seed);
    println!(
        "{{\"sweeps\": {}, \"seed\": {seed}, \"misses_tracked\": {}, \"misses_naive\": {}}}",
        r.sweeps, r.misses_tracked, r.misses_naive
    );
}
