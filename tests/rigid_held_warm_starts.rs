//! The warm starts a folded figure holds for its folded joints
//! (`Rows::clear_holding`): kept while those joints have no rows, given
//! back when they have rows again, and dropped a step later.

use dsphys::fx;
use dsphys::fx::{Fx2, Quat, Vec3};
use dsphys::rigid::body::STATIC;
use dsphys::rigid::row::JOINT_KEY;
use dsphys::rigid::{Body, Row, Rows};

/// Joint `k`'s first row key (as the world keys joint rows).
fn key(k: u16) -> u16 {
    JOINT_KEY | k << 4
}

/// A 1 kg box falling at 1 m/s.
fn falling() -> [Body; 1] {
    let mut b = Body::new_box(
        Vec3::new(fx!(0.1), fx!(0.1), fx!(0.1)),
        fx!(1.0),
        Vec3::ZERO,
        Quat::IDENTITY,
    );
    b.vel = Vec3::new(Fx2::ZERO, Fx2::from_int(-1), Fx2::ZERO);
    [b]
}

/// A row of joint `k` that stops the box's fall.
fn joint_row(k: u16) -> Row {
    Row::new(STATIC, 0, Vec3::Y, Vec3::ZERO, Vec3::ZERO, Fx2::ZERO).keyed(key(k))
}

/// The warm start a row of joint `k` gets when pushed now.
fn warm_start(rows: &mut Rows<8>, k: u16) -> Fx2 {
    let i = rows.push(joint_row(k)).expect("room") as usize;
    rows.as_slice()[i].lambda
}

#[test]
fn a_held_joint_gets_its_impulse_back_and_then_lets_it_go() {
    let mut rows = Rows::<8>::EMPTY;
    // A full step: joints 3 and 5 hold the box.
    rows.clear();
    rows.push(joint_row(3));
    rows.push(joint_row(5));
    rows.solve(&mut falling(), 4);
    let solved = rows.as_slice()[0].lambda;
    assert!(solved > Fx2::ZERO);
    // Two folded steps holding joint 3 only, with no joint rows.
    for _ in 0..2 {
        rows.clear_holding(1 << 3);
        rows.solve(&mut falling(), 4);
    }
    // Unfolded: joint 3 starts from what held it, joint 5 from nothing.
    rows.clear_holding(0);
    assert_eq!(warm_start(&mut rows, 3), solved);
    assert_eq!(warm_start(&mut rows, 5), Fx2::ZERO);
    // A step without joint 3's row, then one with it: the held entry is
    // gone (a vanished row must not come back with an old impulse).
    rows.clear_holding(0);
    rows.clear_holding(0);
    assert_eq!(warm_start(&mut rows, 3), Fx2::ZERO);
}
