//! A three-link arm hinged to the static world: the test bench for
//! inverse dynamics and the hybrid level of detail (seed 002).
//!
//! Three boxes laid along +x from the pivot at [`PIVOT`], each hinged to
//! the one before about z (the first to the world), all in one collision
//! group so that the links never collide with each other.

use crate::fx;
use crate::fx::{Fx1, Quat, Vec3};

use super::body::{Body, STATIC};
use super::{Joint, Settings, World};

/// The chain's world: 3 bodies, 3 hinges, rows for joints, a few
/// kinematic rows and ground contacts.
pub type ChainWorld = World<3, 3, 48>;

/// The shoulder pivot, m (high enough that the hanging chain clears the
/// ground).
pub const PIVOT: Vec3 = Vec3::new(Fx1::ZERO, fx!(1.5), Fx1::ZERO);

/// Link lengths, m.
pub const LENGTHS: [Fx1; 3] = [fx!(0.4), fx!(0.35), fx!(0.3)];

/// Link masses, kg.
pub const MASSES: [Fx1; 3] = [fx!(2.0), fx!(1.5), fx!(1.0)];

/// The chain held straight out along +x, at rest, in a world with
/// `settings`.
pub fn three_link_chain(settings: Settings) -> ChainWorld {
    let mut w = ChainWorld::new(settings);
    let mut x = Fx1::ZERO;
    for (len, mass) in LENGTHS.into_iter().zip(MASSES) {
        let half = Vec3::new(len.div_int(2), fx!(0.03), fx!(0.03));
        let centre = PIVOT + Vec3::new(x + len.div_int(2), Fx1::ZERO, Fx1::ZERO);
        let mut b = Body::new_box(half, mass, centre, Quat::IDENTITY);
        b.group = 1;
        w.add_body(b);
        x += len;
    }
    let mut x = Fx1::ZERO;
    for (k, len) in LENGTHS.into_iter().enumerate() {
        let parent = if k == 0 { STATIC } else { k as u8 - 1 };
        let anchor = PIVOT + Vec3::new(x, Fx1::ZERO, Fx1::ZERO);
        let j = Joint::hinge(w.bodies(), parent, k as u8, anchor, Vec3::Z, None);
        w.add_joint(j);
        x += len;
    }
    w
}
