//! The world's collision geometry, drawn as it collides: a k-d tree
//! world's triangles, or the box room's floor and walls. The world does
//! not move, so it is compiled once per scene into a display list
//! ([`compile`]) that DMA sends to the geometry engine every frame
//! ([`submit`]) while the CPU does other work. In the wireframe modes the
//! same list is drawn as edges, in the faces' colours.

use super::display_list::{DisplayList, Full};
use super::prims::ID_WORLD;
use super::shade::{lit, Rgb};
use super::{to_gx, DrawMode, PolyBudget};
use crate::hw::gx::{self, Primitive};
use crate::hw::gx_dma::{self, Transfer};
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

/// Builds the world's display list (at a scene reset): every face, lit
/// once here, since neither the world nor the light moves. The frame
/// sends it with [`submit`]; the hardware culls the faces turned away.
pub fn compile(shape: &Shape, list: &mut DisplayList) -> Result<(), Full> {
    list.clear();
    match shape {
        Shape::Room(room) => compile_room(room, list),
        Shape::Mesh(world) => compile_mesh(world, list),
    }
    list.result()
}

/// Takes the list's polygons from the budget, before anything else is
/// drawn (the world is drawn whole or not at all); false if they do not
/// fit (they are then counted as refused).
pub fn reserve(list: &DisplayList, budget: &mut PolyBudget) -> bool {
    budget.take(list.polygons())
}

/// Sends the world's list by DMA; the view matrix must be current, and no
/// other GX command may be written until the [`Transfer`] is over. `None`
/// for an empty list.
pub fn submit(list: &DisplayList, mode: DrawMode) -> Option<Transfer<'_>> {
    gx::polygon_attr(mode.solid_alpha(), false, ID_WORLD);
    gx_dma::send(list.words())
}

fn vertex(list: &mut DisplayList, p: Vec3) {
    let [x, y, z] = p.to_array();
    list.vertex([to_gx(x), to_gx(y), to_gx(z)]);
}

/// Floor tiles of 1 m (alternating shades, a depth cue) and four walls;
/// the faces point into the room, so walls between the camera and the
/// inside are back faces and the hardware leaves them out (a cutaway).
fn compile_room(room: &BoxRoom, list: &mut DisplayList) {
    let (lo, hi) = (room.min, room.max);
    let [x0, y0, z0] = lo.to_array();
    let [x1, y1, z1] = hi.to_array();
    let nx = ((x1 - x0).raw() + 4095) / 4096;
    let nz = ((z1 - z0).raw() + 4095) / 4096;
    list.begin(Primitive::Quads);
    let up = [0, 1 << 12, 0];
    for i in 0..nx {
        for k in 0..nz {
            let xa = x0 + Fx1::from_int(i);
            let za = z0 + Fx1::from_int(k);
            let xb = (xa + Fx1::ONE).min(x1);
            let zb = (za + Fx1::ONE).min(z1);
            let base = if (i + k) % 2 == 0 { FLOOR_A } else { FLOOR_B };
            list.color(lit(base, up, 12));
            for v in [(xa, za), (xa, zb), (xb, zb), (xb, za)] {
                vertex(list, Vec3::new(v.0, y0, v.1));
            }
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
        let (a, b) = (edge(e1), edge(e2));
        list.color(lit(WALL, n.map(|c| c << 12), 12));
        for v in [c, c + a, c + a + b, c + b] {
            vertex(list, v);
        }
    }
}

/// Every triangle, lit by its normal; upward faces (floors, treads) get
/// the floor colour.
fn compile_mesh(world: &CollisionWorld, list: &mut DisplayList) {
    list.begin(Primitive::Triangles);
    for t in world.tris {
        let n = [t.n.x, t.n.y, t.n.z];
        let base = if t.n.y > (1 << 23) { FLOOR_A } else { WALL };
        list.color(lit(base, n, 24));
        for p in t.v {
            vertex(list, p);
        }
    }
}
