//! (c) box of boxes (3 layers of 3x3): 27 boxes resting face to face make
//! 108 contacts of three solver rows each, 324 rows; the rigid solver
//! takes at most 255 (a friction row names its normal row by a `u8`,
//! `dsphys::rigid::row`). Run anyway, the top layer's contacts are the
//! ones dropped and it sinks through (measured on the host: 111 rows
//! dropped per step). Until the solver takes more rows the scene shows
//! its room and says why.

use super::{empty, no_update, SceneDef, ROOM_CAMERA};

pub const SCENE: SceneDef = SceneDef {
    letter: 'c',
    name: "box of boxes (3 layers of 3x3)",
    pending: Some("27 boxes need 324 solver rows; max 255"),
    stylus: super::STYLUS_GRAB_SHOOT,
    reset: empty,
    update: no_update,
    camera: ROOM_CAMERA,
};
