//! The world's collision geometry, drawn as it collides: a k-d tree
//! world's triangles, or the box room's floor and walls.

use super::prims::{Batch, ID_WORLD};
use super::shade::{lit, Rgb};
use super::{DrawMode, PolyBudget};
use dsphys::collision::CollisionWorld;
use dsphys::fx::{Fx1, Vec3};
use dsphys::verlet::BoxRoom;

/// What a scene's characters collide with.
#[derive(Clone, Copy)]
pub enum Shape {
    Room(BoxRoom),
    // The k-d tree worlds, once the ROM has them (the lead's crate::worlds).
    #[allow(dead_code)]
    Mesh(&'static CollisionWorld<'static>),
}

const FLOOR_A: Rgb = Rgb(110, 150, 110);
const FLOOR_B: Rgb = Rgb(90, 125, 95);
const WALL: Rgb = Rgb(200, 180, 150);
const EDGE: u16 = crate::hw::video::rgb(140, 170, 220);

pub fn draw(shape: &Shape, eye: Vec3, mode: DrawMode, budget: &mut PolyBudget) {
    match shape {
        Shape::Room(room) => draw_room(room, mode, budget),
        Shape::Mesh(world) => draw_mesh(world, eye, mode, budget),
    }
}

fn alpha(mode: DrawMode) -> u8 {
    mode.solid_alpha()
}

/// Floor tiles of 1 m (alternating shades, a depth cue) and four walls;
/// the faces point into the room, so walls between the camera and the
/// inside are back faces and the hardware leaves them out (a cutaway).
fn draw_room(room: &BoxRoom, mode: DrawMode, budget: &mut PolyBudget) {
    let (lo, hi) = (room.min, room.max);
    let [x0, y0, z0] = lo.to_array();
    let [x1, y1, z1] = hi.to_array();
    let nx = ((x1 - x0).raw() + 4095) / 4096;
    let nz = ((z1 - z0).raw() + 4095) / 4096;
    let tiles = (nx * nz).clamp(0, 1024) as u32;
    let mut b = Batch::quads(budget, alpha(mode), ID_WORLD, tiles + 4);
    let up = [0, 1 << 12, 0];
    for i in 0..nx {
        for k in 0..nz {
            let xa = x0 + Fx1::from_int(i);
            let za = z0 + Fx1::from_int(k);
            let xb = (xa + Fx1::ONE).min(x1);
            let zb = (za + Fx1::ONE).min(z1);
            let base = if (i + k) % 2 == 0 { FLOOR_A } else { FLOOR_B };
            let v = [
                Vec3::new(xa, y0, za),
                Vec3::new(xa, y0, zb),
                Vec3::new(xb, y0, zb),
                Vec3::new(xb, y0, za),
            ];
            b.quad(v, lit(base, up, 12));
        }
    }
    // Walls: corner, then two edges whose cross product points inwards.
    let walls = [
        ([x0, y0, z0], [0, 1, 0], [0, 0, 1], [1, 0, 0]), // x = x0: y cross z = +x
        ([x1, y0, z0], [0, 0, 1], [0, 1, 0], [-1, 0, 0]), // x = x1: z cross y = -x
        ([x0, y0, z0], [1, 0, 0], [0, 1, 0], [0, 0, 1]), // z = z0: x cross y = +z
        ([x0, y0, z1], [0, 1, 0], [1, 0, 0], [0, 0, -1]), // z = z1: y cross x = -z
    ];
    let size = [x1 - x0, y1 - y0, z1 - z0];
    for (c, e1, e2, n) in walls {
        let c = Vec3::from_array(c);
        let edge = |e: [i32; 3]| {
            let c = |i: usize| Fx1::from_raw(size[i].raw() * e[i]);
            Vec3::new(c(0), c(1), c(2))
        };
        let (a, bb) = (edge(e1), edge(e2));
        let color = lit(WALL, n.map(|c| c << 12), 12);
        b.quad([c, c + a, c + a + bb, c + bb], color);
    }
}

/// Triangles that face the camera, lit by their normals. A triangle
/// facing away would be culled by the hardware anyway; skipping it here
/// spends no polygon of the budget on it (the 2528-triangle arena then
/// fits). In the wireframe modes every edge is drawn.
fn draw_mesh(world: &CollisionWorld, eye: Vec3, mode: DrawMode, budget: &mut PolyBudget) {
    let facing = |t: &dsphys::collision::Triangle| {
        let to_eye = (eye - t.v[0]).raw();
        let n = [t.n.x as i64, t.n.y as i64, t.n.z as i64];
        n[0] * to_eye[0] as i64 + n[1] * to_eye[1] as i64 + n[2] * to_eye[2] as i64 > 0
    };
    let want = world.tris.iter().filter(|t| facing(t)).count() as u32;
    let mut b = Batch::triangles(budget, alpha(mode), ID_WORLD, want);
    for t in world.tris.iter().filter(|t| facing(t)) {
        let n = [t.n.x, t.n.y, t.n.z];
        // Upward faces (floors, treads) get the floor colour.
        let base = if t.n.y > (1 << 23) { FLOOR_A } else { WALL };
        let color = if mode == DrawMode::Filled {
            lit(base, n, 24)
        } else {
            EDGE
        };
        b.triangle(t.v, color);
    }
}
