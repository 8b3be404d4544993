//! The demo's scenes, one file each. A scene sets up its characters,
//! world and default view on reset (deterministically: the same state
//! every time), and may act once per frame. Scenes whose engine parts
//! have not landed yet say so on screen ([`SceneDef::pending`]) and show
//! their world, never a blank screen.

mod animated;
mod armed_mine;
mod box_of_boxes;
mod box_pyramid;
mod powered;
mod rain;
mod single_drop;

use crate::render::world::Shape;
use crate::render::Camera;
use dsphys::fx::Vec3;
use dsphys::scenario::ROOM;
use dsphys::verlet::{Ragdoll, Settings, WorldContacts};

/// The most characters a scene holds (the rain scene's ceiling).
pub const MAX_RAGDOLLS: usize = 64;

/// Everything the scenes simulate. Large (a few KiB per character), so it
/// lives in a static, taken once.
pub struct Sim {
    pub ragdolls: [Option<Ragdoll>; MAX_RAGDOLLS],
    pub count: usize,
    pub world: Shape,
    pub settings: Settings,
    /// Frames since the reset.
    pub frame: u32,
    /// Scene-specific state (the rain scene's spawner).
    pub rain: rain::Spawner,
    /// The world collision's broad-phase results (1.5 KiB: kept off the
    /// 16 KiB DTCM stack).
    pub contacts: WorldContacts,
}

impl Sim {
    pub const fn new() -> Sim {
        Sim {
            ragdolls: [const { None }; MAX_RAGDOLLS],
            count: 0,
            world: Shape::Room(ROOM),
            settings: Settings::DEFAULT,
            frame: 0,
            rain: rain::Spawner::new(),
            contacts: WorldContacts::new(),
        }
    }

    /// Empties the scene; the user's settings (gravity, wind) are kept.
    fn clear(&mut self) {
        for slot in self.ragdolls.iter_mut() {
            *slot = None;
        }
        self.count = 0;
        self.frame = 0;
        self.world = Shape::Room(ROOM);
        self.rain = rain::Spawner::new();
    }

    /// Adds a character; false when the scene is full.
    pub fn add(&mut self, r: Ragdoll) -> bool {
        if self.count == MAX_RAGDOLLS {
            return false;
        }
        self.ragdolls[self.count] = Some(r);
        self.count += 1;
        true
    }

    pub fn iter(&self) -> impl Iterator<Item = &Ragdoll> {
        self.ragdolls[..self.count].iter().flatten()
    }
}

/// What a scene sees of the last frame, to pace itself.
#[derive(Clone, Copy, Debug, Default)]
pub struct FrameStats {
    /// Bus cycles from the start of the last frame's work to the end of
    /// its render submission.
    pub busy_cycles: u32,
    /// Whether that frame overran the 16.7 ms budget.
    pub overran: bool,
}

pub struct SceneDef {
    /// Its letter in issue 7's list, (a) to (g).
    pub letter: char,
    pub name: &'static str,
    /// What has not landed yet, shown on screen instead of the scene.
    pub pending: Option<&'static str>,
    pub reset: fn(&mut Sim),
    pub update: fn(&mut Sim, &FrameStats),
    /// The default view, which frames the scene.
    pub camera: Camera,
}

pub const SCENES: [&SceneDef; 7] = [
    &single_drop::SCENE,
    &box_pyramid::SCENE,
    &box_of_boxes::SCENE,
    &animated::SCENE,
    &powered::SCENE,
    &armed_mine::SCENE,
    &rain::SCENE,
];

/// Resets `sim` to scene `index` and returns its default camera.
pub fn reset(index: usize, sim: &mut Sim) -> Camera {
    let def = SCENES[index];
    sim.clear();
    (def.reset)(sim);
    def.camera
}

/// The room's view from the front right, a little above.
pub const ROOM_CAMERA: Camera = Camera {
    target: Vec3::new(dsphys::fx!(0.0), dsphys::fx!(0.9), dsphys::fx!(0.0)),
    yaw: dsphys::fx::Angle::from_raw(5461),   // 30 degrees
    pitch: dsphys::fx::Angle::from_raw(4551), // 25 degrees
    distance: dsphys::fx!(6.5),
};

/// A scene that does nothing per frame.
fn no_update(_: &mut Sim, _: &FrameStats) {}

/// A scene with nothing in it yet (its parts have not landed).
fn empty(_: &mut Sim) {}
