//! Lines on a screen surface, and the side-on view of the ragdoll room.

use crate::hw::video::{Surface, HEIGHT, WIDTH};
use dsphys::fx::Vec3;

/// Bresenham's line; pixels off the screen are skipped.
pub fn line(s: &mut Surface, (x0, y0): (i32, i32), (x1, y1): (i32, i32), color: u16) {
    let (dx, dy) = ((x1 - x0).abs(), -(y1 - y0).abs());
    let (sx, sy) = (if x0 < x1 { 1 } else { -1 }, if y0 < y1 { 1 } else { -1 });
    let (mut x, mut y, mut err) = (x0, y0, dx + dy);
    // A bound on the steps, so a wild coordinate can never spin for long.
    for _ in 0..(dx - dy + 1).min(2 * (WIDTH + HEIGHT) as i32) {
        if (0..WIDTH as i32).contains(&x) && (0..HEIGHT as i32).contains(&y) {
            s.set(x as usize, y as usize, color);
        }
        if x == x1 && y == y1 {
            break;
        }
        let e2 = 2 * err;
        if e2 >= dy {
            err += dy;
            x += sx;
        }
        if e2 <= dx {
            err += dx;
            y += sy;
        }
    }
}

/// World (metres, y up) to top-screen pixels: an oblique side view of the
/// 4 m x 3 m room, 40 pixels per metre, depth drawn up and to the right.
pub fn project(p: Vec3) -> (i32, i32) {
    let [x, y, z] = p.to_array().map(|c| c.raw());
    let sx = 128 + (((x + z * 3 / 8) * 40) >> 12);
    let sy = 170 - (((y + z * 2 / 8) * 40) >> 12);
    (sx, sy)
}
