//! How the box scenes' contact margin moves the box of boxes' sleep and
//! rows: each of the nine top cubes shot at 4, 8 and 12 m/s along the
//! line from scene (c)'s camera (as `box_of_boxes_shots` shoots them at
//! 8), 1200 frames each. Prints the frames at which all 27 cubes sleep,
//! sorted (9999: still awake at frame 1200), and the mean rows a frame
//! over the first 180 frames.
//!
//! `cargo run --release --example box_of_boxes_margins -- 10` (the
//! margin in mm; `room::BOX_MARGIN` is 10, the engine's default 20).

use dsphys::fx;
use dsphys::fx::{Fx1, Vec3};
use dsphys::rigid::room::{box_of_boxes, BoxWorld};
use dsphys::rigid::Settings;
const EYE: Vec3 = Vec3::new(fx!(1.061), fx!(2.0), fx!(2.561));
fn main() {
    let margin_mm: i32 = std::env::args()
        .nth(1)
        .map_or(10, |a| a.parse().expect("a margin in mm"));
    let mut out = vec![];
    for speed in [4, 8, 12] {
        for top in 18..27usize {
            let mut w = Box::new(BoxWorld::empty(Settings::DEFAULT));
            let first = box_of_boxes(&mut w).expect("room");
            w.settings.contact.margin = Fx1::from_raw(margin_mm * 4096 / 1000);
            let cube = &mut w.bodies_mut()[first + top];
            let dir = (cube.pos.lower() - EYE).try_normalise().unwrap();
            cube.apply_impulse(
                Vec3::ZERO,
                dsphys::rigid::raise(dir.scale(Fx1::from_int(speed))),
            );
            let mut asleep_at = None;
            let mut rows = 0;
            for f in 0..1200u32 {
                w.step();
                if f < 180 {
                    rows += w.rows.len();
                }
                let awake = w.bodies()[first..].iter().any(|b| !b.is_asleep());
                match (awake, asleep_at) {
                    (false, None) => asleep_at = Some(f),
                    (true, Some(_)) => asleep_at = None,
                    _ => {}
                }
            }
            out.push((asleep_at.unwrap_or(9999), rows / 180));
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
