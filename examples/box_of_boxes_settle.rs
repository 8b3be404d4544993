//! How long `make bench`'s box-of-boxes shot keeps the pile awake: the
//! sleeping pile in the room, a top cube shot (8 N s), then every 20th
//! frame's awake cubes, rows and fastest awake cube, for 600 frames, and
//! the frame from which all are asleep.
//!
//! `cargo run --release --example box_of_boxes_settle`

use dsphys::rigid::room::{box_of_boxes, box_of_boxes_shot, BoxWorld};
use dsphys::rigid::Settings;

fn main() {
    let mut w = Box::new(BoxWorld::empty(Settings::DEFAULT));
    let first = box_of_boxes(&mut w).expect("room for the pile");
    box_of_boxes_shot(&mut w, first);
    let cubes = w.bodies().len() - first;
    let mut rows_sum = 0usize;
    let mut asleep_at = None;
    for f in 0..600u32 {
        w.step();
        let awake = cubes - w.bodies()[first..].iter().filter(|b| b.is_asleep()).count();
        if f < 180 {
            rows_sum += w.rows.len();
        }
        if awake == 0 && asleep_at.is_none() {
            asleep_at = Some(f);
        }
        if f % 20 == 0 {
            let (mut v, mut s) = (0.0f64, 0.0f64);
            for b in &w.bodies()[first..] {
                if !b.is_asleep() {
                    v = v.max(b.vel.lower().length().to_f64());
                    s = s.max(b.spin.lower().length().to_f64());
                }
            }
            println!(
                "frame {f:3}: {awake:2} cubes awake, {:3} rows, top speed {v:.3} m/s, spin {s:.3} rad/s",
                w.rows.len()
            );
        }
    }
    println!(
        "all asleep from frame {asleep_at:?}; {:.1} rows a frame over the bench's 180",
        rows_sum as f64 / 180.0
    );
}
