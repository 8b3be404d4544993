//! (d) animated character: waits for animation and brads (src/anim, issue 5). Until then the
//! scene shows its world and says what it needs.

use super::{empty, no_update, SceneDef, ROOM_CAMERA};

pub const SCENE: SceneDef = SceneDef {
    letter: 'd',
    name: "animated character",
    pending: Some("needs animation and brads (src/anim, issue 5): not landed yet"),
    reset: empty,
    update: no_update,
    camera: ROOM_CAMERA,
};
