//! The demo's scenes, one file each. A scene sets up its characters,
//! world and default view on reset (deterministically: the same state
//! every time), and may act once per frame. Scenes whose engine parts
//! have not landed yet say so on screen ([`SceneDef::pending`]) and show
//! their world, never a blank screen.

pub mod animated;
pub mod armed_mine;
mod box_of_boxes;
mod box_pyramid;
pub mod powered;
mod rain;
mod single_drop;

use crate::render::world::Shape;
use crate::render::Camera;
use dsphys::anim::Character;
use dsphys::fx::{Fx1, Vec3};
use dsphys::rigid::characters::armed_mine::ArmedMine;
use dsphys::rigid::characters::powered::PoweredRagdoll;
use dsphys::rigid::{Grab, World};
use dsphys::scenario::ROOM;
use dsphys::verlet::{Ragdoll, Settings, WorldContacts};

/// The most characters a scene holds (the rain scene's ceiling).
pub const MAX_RAGDOLLS: usize = 64;

/// The box scenes' rigid world (`rigid::room`: the walls and up to the
/// box of boxes' 27 cubes, `BOX_WORLD_ROWS` solver rows).
pub use dsphys::rigid::room::BoxWorld;

/// Which rigid simulation, if any, a scene runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rigid {
    None,
    /// [`Sim::boxes`].
    Boxes,
    /// [`Sim::mine`].
    Mine,
    /// [`Sim::powered`].
    Powered,
}

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
    /// Which of the rigid simulations below runs.
    pub rigid: Rigid,
    /// Rigid boxes (40 KiB, most of it solver rows): built in place by a
    /// reset, never on the stack.
    pub boxes: BoxWorld,
    /// The Armed Mine (16 KiB), likewise rebuilt in place.
    pub mine: ArmedMine,
    /// The powered ragdoll (about 50 KiB), likewise.
    pub powered: PoweredRagdoll,
    /// Where the stylus last touched the ground (the Armed Mine's goal).
    pub goal: Option<Vec3>,
    /// The animated character's joint buffers (4 KiB; built the first
    /// time scene (d) starts, kept afterwards).
    pub character: Option<Character<'static>>,
    /// The animated character's state.
    pub walker: animated::Walker,
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
            rigid: Rigid::None,
            boxes: World::empty(dsphys::rigid::Settings::DEFAULT),
            mine: ArmedMine::PLACEHOLDER,
            powered: PoweredRagdoll::PLACEHOLDER,
            goal: None,
            character: None,
            walker: animated::Walker::new(),
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
        self.rigid = Rigid::None;
        self.goal = None;
        self.walker.active = false;
        self.walker.limp = false;
    }

    /// The rigid bodies to draw (none when the scene has no rigid world).
    pub fn bodies(&self) -> &[dsphys::rigid::Body] {
        match self.rigid {
            Rigid::None => &[],
            Rigid::Boxes => self.boxes.bodies(),
            Rigid::Mine => self.mine.world.bodies(),
            Rigid::Powered => self.powered.bodies(),
        }
    }

    /// The rigid bodies, mutable (the stylus pushes them).
    pub fn bodies_mut(&mut self) -> &mut [dsphys::rigid::Body] {
        match self.rigid {
            Rigid::None => &mut [],
            Rigid::Boxes => self.boxes.bodies_mut(),
            Rigid::Mine => self.mine.world.bodies_mut(),
            Rigid::Powered => self.powered.world.bodies_mut(),
        }
    }

    /// Grabs rigid body `body` at world point `point` with at most
    /// `max_force` N per axis (`dsphys::rigid::grab`); false when the
    /// scene has no rigid world or the body is static.
    pub fn grab_body(&mut self, body: u8, point: Vec3, max_force: Fx1) -> bool {
        match self.rigid {
            Rigid::None => false,
            Rigid::Boxes => self.boxes.grab_at(body, point, max_force),
            Rigid::Mine => self.mine.world.grab_at(body, point, max_force),
            Rigid::Powered => self.powered.world.grab_at(body, point, max_force),
        }
    }

    /// The rigid world's grab, if a body is held.
    pub fn body_grab(&self) -> Option<&Grab> {
        match self.rigid {
            Rigid::None => None,
            Rigid::Boxes => self.boxes.grab.as_ref(),
            Rigid::Mine => self.mine.world.grab.as_ref(),
            Rigid::Powered => self.powered.world.grab.as_ref(),
        }
    }

    /// The rigid world's grab slot (`None` without a rigid world).
    pub fn body_grab_slot(&mut self) -> Option<&mut Option<Grab>> {
        match self.rigid {
            Rigid::None => None,
            Rigid::Boxes => Some(&mut self.boxes.grab),
            Rigid::Mine => Some(&mut self.mine.world.grab),
            Rigid::Powered => Some(&mut self.powered.world.grab),
        }
    }

    /// Solver rows the last rigid step could not take (0 unless the
    /// scene outgrew `room::BOX_WORLD_ROWS`).
    pub fn rows_dropped(&self) -> u16 {
        match self.rigid {
            Rigid::None => 0,
            Rigid::Boxes => self.boxes.rows.dropped,
            Rigid::Mine => self.mine.world.rows.dropped,
            Rigid::Powered => self.powered.world.rows.dropped,
        }
    }

    /// Adds a character, built in place by `build` (a ragdoll is 3 KiB:
    /// built on the DTCM stack and copied, a reset nested in the frame
    /// overflowed it); false when the scene is full.
    pub fn add_with(&mut self, build: impl FnOnce(&mut Ragdoll)) -> bool {
        if self.count == MAX_RAGDOLLS {
            return false;
        }
        build(Ragdoll::in_slot(&mut self.ragdolls[self.count]));
        self.count += 1;
        true
    }

    /// Takes out the newest ragdoll (the rain's last, when it did not
    /// fit); a pen holding it then holds nothing.
    pub fn remove_newest(&mut self) {
        if let Some(n) = self.count.checked_sub(1) {
            self.count = n;
            self.ragdolls[n] = None;
        }
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
    /// What the stylus does here (one console line).
    pub stylus: &'static str,
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
    // The scene's engine into ITCM now, while the scene switch takes its
    // time anyway: a walker shot into a ragdoll in scene (d) would
    // otherwise copy the Verlet overlay in the frame of the shot.
    if sim.rigid == Rigid::None {
        crate::hw::itcm::verlet();
    } else {
        crate::hw::itcm::rigid();
    }
    def.camera
}

/// The room's view from the front right, a little above.
pub const ROOM_CAMERA: Camera = Camera {
    target: Vec3::new(dsphys::fx!(0.0), dsphys::fx!(0.9), dsphys::fx!(0.0)),
    yaw: dsphys::fx::Angle::from_raw(5461),   // 30 degrees
    pitch: dsphys::fx::Angle::from_raw(4551), // 25 degrees
    distance: dsphys::fx!(6.5),
};

/// The stylus on characters and boxes.
pub const STYLUS_GRAB_SHOOT: &str = "stylus: drag a particle, tap to shoot";

/// The stylus on rigid boxes.
pub const STYLUS_BOXES: &str = "stylus: drag a box, tap by one to shoot";

/// A scene that does nothing per frame.
fn no_update(_: &mut Sim, _: &FrameStats) {}
