//! The box room for rigid bodies: the rigid world's ground plane is the
//! room's floor (y = 0), and its four walls are static boxes, so thrown
//! boxes stay in the room the ragdolls live in ([`ROOM`]).

use dsphys::fx;
use dsphys::fx::{Fx1, Quat, Vec3};
use dsphys::rigid::{Body, Settings, World};
use dsphys::scenario::ROOM;

/// Wall thickness, m (thick enough that nothing at the speed cap of one
/// step, 1 m, passes through).
const WALL: Fx1 = fx!(1.0);

/// Empties `w` (in place) and puts up the room's four walls.
pub fn reset<const B: usize, const J: usize, const R: usize>(w: &mut World<B, J, R>) {
    w.reset(Settings::DEFAULT);
    let (lo, hi) = (ROOM.min, ROOM.max);
    let h = WALL.div_int(2);
    let height = (hi.y - lo.y).div_int(2);
    let mid = (lo + hi).map(|c| c.div_int(2));
    let span_x = (hi.x - lo.x).div_int(2) + WALL;
    let span_z = (hi.z - lo.z).div_int(2) + WALL;
    let walls = [
        (
            Vec3::new(h, height, span_z),
            Vec3::new(lo.x - h, mid.y, mid.z),
        ),
        (
            Vec3::new(h, height, span_z),
            Vec3::new(hi.x + h, mid.y, mid.z),
        ),
        (
            Vec3::new(span_x, height, h),
            Vec3::new(mid.x, mid.y, lo.z - h),
        ),
        (
            Vec3::new(span_x, height, h),
            Vec3::new(mid.x, mid.y, hi.z + h),
        ),
    ];
    for (half, pos) in walls {
        w.add_body(Body::new_box(half, Fx1::ZERO, pos, Quat::IDENTITY));
    }
}

/// A cube of 1 kg with half side `half`, at rest at `pos`.
pub fn cube(half: Fx1, pos: Vec3) -> Body {
    Body::new_box(Vec3::new(half, half, half), fx!(1.0), pos, Quat::IDENTITY)
}
