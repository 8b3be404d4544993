//! The buttons: what each does (the README's "Controls and scenes" table lists the
//! same). X and Y come from the ARM7's block, the rest from KEYINPUT.
//!
//! | button | action |
//! |---|---|
//! | START | next scene |
//! | SELECT | draw mode: filled, wireframe, constraints |
//! | A | pause / resume |
//! | B | single step (pauses first) |
//! | X | reset the scene |
//! | Y (tap) | gravity mode: down / towards a point |
//! | Y + Up/Down | gravity strength +-1 m/s^2 |
//! | Y + Left/Right | wind resistance -+0.005 (velocity kept per frame) |
//! | Y + L/R | scene (e): the powered ragdoll's strength -+25 % |
//! | D-pad | orbit the camera |
//! | L / R | zoom in / out |
//! | L + R + START + SELECT, held half a second | leave: back to the loader, or power off |

use crate::hw::keys;
use dsphys::fx;
use dsphys::fx::Fx1;

/// X and Y, above KEYINPUT's ten bits.
pub const X: u16 = 1 << 10;
pub const Y: u16 = 1 << 11;

/// What the buttons asked for this frame.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Requests {
    pub next_scene: bool,
    pub next_draw_mode: bool,
    pub toggle_pause: bool,
    pub step: bool,
    pub reset: bool,
    pub toggle_gravity_mode: bool,
    /// Change of gravity strength, m/s^2.
    pub gravity_delta: Fx1,
    /// Change of the damping factor (velocity kept per frame).
    pub damping_delta: Fx1,
    /// Steps of the powered ragdoll's strength (Y + R: +1, Y + L: -1).
    pub strength_delta: i32,
    /// Camera: yaw and pitch (binary angle units), zoom factor - 1.
    pub yaw: i16,
    pub pitch: i16,
    pub zoom: Fx1,
    /// Leave the ROM (the exit combination was held long enough).
    pub exit: bool,
}

/// The exit combination, as commercial games use it for a soft reset.
pub const EXIT_KEYS: u16 = keys::L | keys::R | keys::START | keys::SELECT;
/// Frames it is held before the ROM leaves (half a second: not by
/// accident, while START and SELECT alone change scenes and draw modes).
pub const EXIT_HOLD_FRAMES: u16 = 30;

const TURN: i16 = 364; // 2 degrees per frame
const ZOOM: Fx1 = fx!(0.02);
const GRAVITY_STEP: Fx1 = fx!(1.0);
const DAMPING_STEP: Fx1 = fx!(0.005);

#[derive(Default)]
pub struct Controls {
    held: u16,
    /// Y was combined with the D-pad during this hold (so its release is
    /// not a tap).
    y_combined: bool,
    /// Frames the exit combination has been held.
    exit_held: u16,
}

impl Controls {
    /// Reads this frame's buttons (`held`: KEYINPUT bits plus X and Y).
    pub fn update(&mut self, held: u16) -> Requests {
        let pressed = held & !self.held;
        let released = !held & self.held;
        self.held = held;
        let mut r = Requests {
            next_scene: pressed & keys::START != 0,
            next_draw_mode: pressed & keys::SELECT != 0,
            toggle_pause: pressed & keys::A != 0,
            step: pressed & keys::B != 0,
            reset: pressed & X != 0,
            ..Requests::default()
        };
        let dpad = keys::UP | keys::DOWN | keys::LEFT | keys::RIGHT;
        if held & Y != 0 {
            if pressed & (dpad | keys::L | keys::R) != 0 {
                self.y_combined = true;
            }
            let sign = |plus: u16, minus: u16| {
                (pressed & plus != 0) as i32 - (pressed & minus != 0) as i32
            };
            r.gravity_delta = Fx1::from_raw(GRAVITY_STEP.raw() * sign(keys::UP, keys::DOWN));
            // Right: more wind resistance, so less velocity kept.
            r.damping_delta = Fx1::from_raw(DAMPING_STEP.raw() * sign(keys::LEFT, keys::RIGHT));
            r.strength_delta = sign(keys::R, keys::L);
        } else {
            let axis = |plus: u16, minus: u16| {
                TURN * ((held & plus != 0) as i16 - (held & minus != 0) as i16)
            };
            r.yaw = axis(keys::RIGHT, keys::LEFT);
            r.pitch = axis(keys::UP, keys::DOWN);
            let zoom = (held & keys::R != 0) as i32 - (held & keys::L != 0) as i32;
            r.zoom = Fx1::from_raw(ZOOM.raw() * zoom);
        }
        if released & Y != 0 {
            r.toggle_gravity_mode = !self.y_combined;
            self.y_combined = false;
        }
        self.exit_held = if held & EXIT_KEYS == EXIT_KEYS {
            self.exit_held.saturating_add(1)
        } else {
            0
        };
        r.exit = self.exit_held >= EXIT_HOLD_FRAMES;
        r
    }
}
