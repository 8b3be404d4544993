//! How the box scenes' contact margin moves the box of boxes' sleep and
//! rows: each of the nine top cubes shot at 4, 8 and 12 m/s along the
//! line from scene (c)'s camera (as `box_of_boxes_shots` shoots them at
//! 8), 1200 frames each. Prints the frames at which all 27 cubes sleep,
//! sorted (9999: still awake at frame 1200), and the mean rows a frame
//! over the first 180 frames.
//!
//! `cargo run --release --example box_of_boxes_margins -- 10` (the
//! margin in mm; `room::BOX_MARGIN` is 10, the engine's default 20).

#[path = "support/box_shots.rs"]
mod box_shots;

use box_shots::{shot_pile, AsleepFrom};
use dsphys::fx::Fx1;

fn main() {
    let margin_mm: i32 = std::env::args()
        .nth(1)
        .map_or(10, |a| a.parse().expect("a margin in mm"));
    let mut out = vec![];
    for speed in [4, 8, 12] {
        for top in 18..27usize {
            let (mut w, first) = shot_pile(top, speed, |w| {
                w.settings.contact.margin = Fx1::from_raw(margin_mm * 4096 / 1000)
            });
            let mut asleep_at = AsleepFrom::default();
            let mut rows = 0;
            for f in 0..1200u32 {
                w.step();
                if f < 180 {
                    rows += w.rows.len();
                }
                asleep_at.note(f, w.bodies()[first..].iter().any(|b| !b.is_asleep()));
            }
            out.push((asleep_at.0.unwrap_or(9999), rows / 180));
        }
    }
    let mut s: Vec<u32> = out.iter().map(|o| o.0).collect();
    s.sort();
    println!(
        "margin {margin_mm} mm: sleep frames sorted {:?}; mean rows {}",
        s,
        out.iter().map(|o| o.1).sum::<usize>() / out.len()
    );
}
