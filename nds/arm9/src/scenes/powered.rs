//! (e) powered ragdoll: waits for motors (src/rigid, issue 6). Until then the
//! scene shows its world and says what it needs.

use super::{empty, no_update, SceneDef, ROOM_CAMERA};

pub const SCENE: SceneDef = SceneDef {
    letter: 'e',
    name: "powered ragdoll",
    pending: Some("needs motors (src/rigid, issue 6): not landed yet"),
    stylus: super::STYLUS_GRAB_SHOOT,
    reset: empty,
    update: no_update,
    camera: ROOM_CAMERA,
};
