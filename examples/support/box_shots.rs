//! What the box-of-boxes examples share: scene (c)'s stylus shot into a
//! cube of the sleeping pile, and the frame from which the pile sleeps.

use dsphys::fx;
use dsphys::fx::{Fx1, Vec3};
use dsphys::rigid::room::{box_of_boxes, BoxWorld};
use dsphys::rigid::Settings;

/// Scene (c)'s eye (render::Camera::eye for its camera: yaw 22.5
/// degrees, pitch 30 degrees, 3.2 m from (0, 0.4, 0)).
const EYE: Vec3 = Vec3::new(fx!(1.061), fx!(2.0), fx!(2.561));

/// The sleeping box of boxes, set up by `setup`, with cube `cube` (from
/// the pile's first; the top layer is 18..27) shot at `speed` m/s along
/// the line from scene (c)'s eye; and the pile's first cube.
pub fn shot_pile(
    cube: usize,
    speed: i32,
    setup: impl FnOnce(&mut BoxWorld),
) -> (Box<BoxWorld>, usize) {
    let mut w = Box::new(BoxWorld::empty(Settings::DEFAULT));
    let first = box_of_boxes(&mut w).expect("room for the pile");
    setup(&mut w);
    let b = &mut w.bodies_mut()[first + cube];
    let dir = (b.pos.lower() - EYE).try_normalise().expect("a direction");
    b.apply_impulse(
        Vec3::ZERO,
        dsphys::rigid::raise(dir.scale(Fx1::from_int(speed))),
    );
    (w, first)
}

/// The frame from which every cube sleeps (a pile that wakes again
/// starts over).
#[derive(Default)]
pub struct AsleepFrom(pub Option<u32>);

impl AsleepFrom {
    /// Notes frame `f`, `awake` whether any cube moves after it.
    pub fn note(&mut self, f: u32, awake: bool) {
        match (awake, self.0) {
            (false, None) => self.0 = Some(f),
            (true, Some(_)) => self.0 = None,
            _ => {}
        }
    }
}
