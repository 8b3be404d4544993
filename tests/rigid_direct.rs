//! Contact rows built straight into the isotropic solver form
//! (`Rows::begin_contacts`): with the DTCM buffer of `World::step`, the
//! first whole patches go into the buffer and the rest into main RAM;
//! without one (the separate phases), all of them into main RAM. Both
//! must solve exactly the same rows in the same order. And a step whose
//! contact row does not fit the form must fall back to `Row`s.

use dsphys::fx;
use dsphys::fx::{Fx1, Vec3};
use dsphys::rigid::iso::ISO_DTCM_ROWS;
use dsphys::rigid::room::{box_of_boxes, cube, BoxWorld};
use dsphys::rigid::{raise, Settings};

/// The phases of `World::step`, called one by one: no DTCM buffer.
fn step_in_phases(w: &mut BoxWorld) {
    w.begin_step();
    w.push_joint_rows();
    w.push_contact_rows();
    w.solve();
    w.integrate();
}

#[test]
fn rows_built_in_the_dtcm_buffer_solve_as_rows_built_in_main_ram() {
    let mut buffered = Box::new(BoxWorld::empty(Settings::DEFAULT));
    let mut phased = Box::new(BoxWorld::empty(Settings::DEFAULT));
    let first = box_of_boxes(&mut *buffered).expect("room for the pile");
    box_of_boxes(&mut *phased).expect("room for the pile");
    let (mut beyond, mut most) = (0, 0);
    for frame in 0..240 {
        // Shots into the top layer's cubes, one after another: tumbling
        // cubes make patches of 3 and 6 rows beside the resting ones' 7,
        // so that the buffer's end falls inside a patch (140 is 20 whole
        // patches of a pile at rest).
        if frame % 20 == 0 && frame < 180 {
            let cube = first + 18 + (frame as usize / 20);
            for w in [&mut *buffered, &mut *phased] {
                let b = &mut w.bodies_mut()[cube];
                b.apply_impulse(Vec3::ZERO, raise(Vec3::new(fx!(6.0), fx!(4.0), fx!(3.0))));
                b.rest = 0;
            }
        }
        buffered.step();
        step_in_phases(&mut phased);
        assert_eq!(
            buffered.state_hash(),
            phased.state_hash(),
            "frame {frame}: {} rows",
            buffered.rows.len()
        );
        most = most.max(buffered.rows.len());
        beyond += (buffered.rows.len() > ISO_DTCM_ROWS) as u32;
    }
    // The split between the buffer and main RAM was exercised.
    assert!(
        beyond > 10,
        "{beyond} steps past the buffer (most {most} rows)"
    );
}

#[test]
fn a_contact_row_the_solver_form_refuses_sends_the_step_back_to_rows() {
    // A 20 m cube on the ground: its corners' levers, 10 m and more, give
    // angular parts past an `i16`, which the isotropic form refuses.
    let mut w = Box::new(BoxWorld::empty(Settings::DEFAULT));
    let half = fx!(10.0);
    w.add_body(cube(half, Vec3::new(Fx1::ZERO, half, Fx1::ZERO)));
    let mut small = Box::new(BoxWorld::empty(Settings::DEFAULT));
    small.add_body(cube(fx!(0.2), Vec3::new(Fx1::ZERO, fx!(0.2), Fx1::ZERO)));
    for _ in 0..120 {
        w.step();
        small.step();
    }
    // The big cube's rows are `Row`s (all of them listed), and it rests.
    assert!(!w.rows.is_empty());
    assert_eq!(w.rows.as_slice().len(), w.rows.len());
    let y = w.bodies()[0].pos.y.to_f64();
    assert!((y - 10.0).abs() < 0.01, "the big cube at y = {y}");
    // A small cube's rows are built in solver form: none listed as `Row`s.
    assert!(!small.rows.is_empty());
    assert_eq!(small.rows.as_slice().len(), 0);
    let y = small.bodies()[0].pos.y.to_f64();
    assert!((y - 0.2).abs() < 0.01, "the small cube at y = {y}");
}
