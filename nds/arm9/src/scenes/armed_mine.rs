//! (f) the Armed Mine: waits for animation and motors (issues 5, 6). Until then the
//! scene shows its world and says what it needs.

use super::{empty, no_update, SceneDef, ROOM_CAMERA};

pub const SCENE: SceneDef = SceneDef {
    letter: 'f',
    name: "the Armed Mine",
    pending: Some("needs animation and motors (issues 5, 6): not landed yet"),
    reset: empty,
    update: no_update,
    camera: ROOM_CAMERA,
};
