//! The camera by touch: two control strips along the touch screen's
//! edges. A drag that starts in the bottom strip orbits (sideways turns,
//! up and down tilts, as the D-pad does); one that starts in the right
//! strip zooms (down moves out, as R does). Where the pen lands decides
//! the gesture, and it holds until the pen lifts, wherever the pen goes;
//! a touch that starts elsewhere belongs to the stylus (grab and shoot).

use crate::render::Camera;
use dsphys::fx::Fx1;

/// The strips' width in pixels, at the bottom and right edges.
pub const STRIP: i32 = 20;
const SCREEN_W: i32 = 256;
const SCREEN_H: i32 = 192;
/// Binary angle units per pixel dragged: 128 is 0.7 degrees, half a turn
/// across the screen.
const TURN_PER_PX: i32 = 128;
/// Zoom per pixel dragged, FX1 raw: 1/64 of the distance.
const ZOOM_PER_PX: i32 = 64;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Gesture {
    Orbit,
    Zoom,
    /// The pen landed outside the strips: the stylus has it.
    NotMine,
}

#[derive(Default)]
pub struct TouchCamera {
    /// The gesture under way and the pen's last position.
    drag: Option<(Gesture, i32, i32)>,
}

impl TouchCamera {
    /// One frame of the pen (`touch`: the pixel touched); moves `cam`.
    /// True while the pen is on a camera gesture, so the stylus leaves it.
    pub fn update(&mut self, touch: Option<(i32, i32)>, cam: &mut Camera) -> bool {
        let Some((x, y)) = touch else {
            self.drag = None;
            return false;
        };
        let (gesture, lx, ly) = *self.drag.get_or_insert_with(|| {
            let g = if y >= SCREEN_H - STRIP {
                Gesture::Orbit
            } else if x >= SCREEN_W - STRIP {
                Gesture::Zoom
            } else {
                Gesture::NotMine
            };
            (g, x, y)
        });
        let (dx, dy) = (x - lx, y - ly);
        match gesture {
            Gesture::Orbit => cam.orbit(turn(dx), turn(-dy), Fx1::ZERO),
            Gesture::Zoom => cam.orbit(0, 0, Fx1::from_raw(dy * ZOOM_PER_PX)),
            Gesture::NotMine => return false,
        }
        self.drag = Some((gesture, x, y));
        true
    }
}

/// Pixels dragged as a turn (binary angle units; a pen jump across the
/// whole screen stays under half a turn).
fn turn(px: i32) -> i16 {
    (px.clamp(-255, 255) * TURN_PER_PX) as i16
}
