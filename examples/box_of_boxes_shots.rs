//! How long the box of boxes stays awake after a shot, for each cube of
//! the top layer shot as scene (c)'s stylus shoots it: 8 m/s along the
//! line from the scene's camera (yaw 22.5 degrees, pitch 30 degrees,
//! 3.2 m from (0, 0.4, 0)) to the cube. Prints the frame from which every
//! cube sleeps (or that none was found in 1200 frames), and the most rows
//! a frame had on the way.
//!
//! While it moves, the pile has 200-350 rows, and the box scenes' update
//! budget leaves them 4 sweeps: too few for a 3-high pile, which creeps
//! (1-3 cm per 100 frames) and stays awake for up to 15 s. With the
//! budget off (8 sweeps) every one of these shots settles in under 5 s:
//! `cargo run --release --example box_of_boxes_shots -- 0`.
//!
//! `cargo run --release --example box_of_boxes_shots`

#[path = "support/box_shots.rs"]
mod box_shots;

use box_shots::{shot_pile, AsleepFrom};

fn main() {
    // An update budget of 0 turns it off (8 sweeps every step).
    let budget: Option<u16> = std::env::args()
        .nth(1)
        .map(|a| a.parse().expect("a budget"));
    for top in 18..27usize {
        let (mut w, first) = shot_pile(top, 8, |w| {
            if let Some(b) = budget {
                w.settings.update_budget = b;
            }
        });
        let (mut asleep_at, mut most_rows, mut most_awake) = (AsleepFrom::default(), 0, 0);
        // Scene (c)'s stress window: rows summed over the 180 frames from
        // the shot, the work the worst frames are made of.
        let mut window_rows = 0;
        for f in 0..1200u32 {
            w.step();
            most_rows = most_rows.max(w.rows.len());
            if f < 180 {
                window_rows += w.rows.len();
            }
            let n_awake = w.bodies()[first..]
                .iter()
                .filter(|b| !b.is_asleep())
                .count();
            most_awake = most_awake.max(n_awake);
            asleep_at.note(f, n_awake > 0);
        }
        let settled = asleep_at
            .0
            .map_or("still awake at frame 1200".to_string(), |f| {
                format!("all asleep from frame {f} ({:.1} s)", f as f64 / 60.0)
            });
        println!(
            "top cube {}: {settled}; at most {most_rows} rows, {most_awake} cubes awake; \
             {} rows a frame over the first 180",
            top - 18,
            window_rows / 180
        );
    }
}
