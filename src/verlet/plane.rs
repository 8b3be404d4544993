//! A minimal box-room collider (axis-aligned walls, floor and ceiling),
//! for tests and demos until the k-d tree collision lands. Contacts are
//! perfectly inelastic along the wall normal (the normal velocity is
//! removed) with a simple friction on the tangential velocity, so
//! collisions never add energy.

use crate::fx::{Fx1, Vec3};

/// The inside of an axis-aligned box. A ground plane is a box room with
/// far walls.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BoxRoom {
    /// Lower corner (m).
    pub min: Vec3,
    /// Upper corner (m).
    pub max: Vec3,
    /// Fraction of the tangential velocity removed per contact, `[0, 1]`.
    pub friction: Fx1,
}

impl BoxRoom {
    /// The room between two corners.
    pub const fn new(min: Vec3, max: Vec3, friction: Fx1) -> Self {
        BoxRoom { min, max, friction }
    }

    /// Pushes a sphere of `radius` at `cur` back inside, zeroing the
    /// velocity into each wall it touches and applying friction along it.
    pub fn collide(&self, prev: &mut Vec3, cur: &mut Vec3, radius: Fx1) {
        self.touch(prev, cur, radius);
    }

    /// [`BoxRoom::collide`], and whether the sphere touched a wall (for
    /// sleeping: a ragdoll only sleeps while it rests on something).
    pub fn touch(&self, prev: &mut Vec3, cur: &mut Vec3, radius: Fx1) -> bool {
        let mut touched = false;
        let lo = self.min.to_array();
        let hi = self.max.to_array();
        let mut c = cur.to_array();
        let mut p = prev.to_array();
        let keep = Fx1::ONE - self.friction;
        for axis in 0..3 {
            let target = if c[axis] < lo[axis] + radius {
                lo[axis] + radius
            } else if c[axis] > hi[axis] - radius {
                hi[axis] - radius
            } else {
                continue;
            };
            touched = true;
            c[axis] = target;
            p[axis] = target;
            for t in [(axis + 1) % 3, (axis + 2) % 3] {
                p[t] = c[t] - ((c[t] - p[t]) * keep).lower();
            }
        }
        *cur = Vec3::from_array(c);
        *prev = Vec3::from_array(p);
        touched
    }
}
