//! (c) box of boxes (3 layers of 3x3): waits for rigid bodies (src/rigid, issue 6). Until then the
//! scene shows its world and says what it needs.

use super::{empty, no_update, SceneDef, ROOM_CAMERA};

pub const SCENE: SceneDef = SceneDef {
    letter: 'c',
    name: "box of boxes (3 layers of 3x3)",
    pending: Some("needs rigid bodies (src/rigid, issue 6): not landed yet"),
    reset: empty,
    update: no_update,
    camera: ROOM_CAMERA,
};
