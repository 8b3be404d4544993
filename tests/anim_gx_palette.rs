//! The palette's command plan (`anim::gx_palette`) replayed on the host
//! model of the geometry engine's stack: every slot holds its joint's
//! model matrix, sent whole or expanded on the engine from its parent's
//! slot and its local pose (a limp character's joints without a brad).
//! The in-ROM test `gx_palette_matches_model` checks the hardware against
//! the same model.

use dsphys::anim::gx_matrix::{GxMatrix, GxStack};
use dsphys::anim::gx_palette::{
    all_local_words, filled_slots, palette_ops, words_shifted, PaletteOp, CAMERA_SLOT,
};
use dsphys::anim::workload::{character, tumbled_positions};

/// The slots after the plan, under the identity camera.
fn slots(from_model: u32, frames: u32) -> (Vec<GxMatrix>, Vec<[i32; 12]>, u32) {
    let mut c = character();
    c.pose_from_ragdoll(&tumbled_positions(frames));
    let n = c.joints();
    let given = c.brads.joints_mask();
    let mask = if from_model == u32::MAX {
        u32::MAX
    } else {
        given
    };
    let mut stack = GxStack::new(GxMatrix::IDENTITY);
    let mut ops = 0;
    let mut local = [[0; 12]; 25];
    all_local_words(&c.local[..n], 0, &mut local);
    palette_ops(
        c.skeleton.parents,
        &local[..n],
        &c.placement,
        &c.model[..n],
        mask,
        u32::MAX,
        0,
        |op| {
            ops += 1;
            stack.apply(op);
        },
    );
    assert_eq!(
        stack.current,
        GxMatrix::IDENTITY,
        "the camera is current at the end"
    );
    let model = c.model[..n].iter().map(|m| words_shifted(m, 0)).collect();
    ((0..n).map(|j| *stack.slot(j)).collect(), model, ops)
}

#[test]
fn joints_sent_whole_are_their_model_matrices() {
    let (slots, model, ops) = slots(u32::MAX, 40);
    // STORE the camera, three commands a joint, RESTORE it.
    assert_eq!(ops, 2 + 3 * model.len() as u32);
    for (j, (s, m)) in slots.iter().zip(&model).enumerate() {
        assert_eq!(*s, GxMatrix::from_4x3(m), "joint {j}");
    }
}

#[test]
fn joints_expanded_on_the_engine_match_the_cpu_expand() {
    for frames in [0, 40, 80] {
        let (slots, model, _) = slots(0, frames);
        let mut worst = 0;
        for (j, (s, m)) in slots.iter().zip(&model).enumerate() {
            let want = GxMatrix::from_4x3(m);
            for (a, b) in s.words().iter().zip(want.words()) {
                let d = (a - b).abs();
                // Floors on the engine against rounding to nearest on the
                // CPU; measured: 1 step at most (the joints without a brad
                // are leaves or one level above a brad).
                assert!(d <= 2, "frame {frames}, joint {j}: {a} against {b}");
                worst = worst.max(d);
            }
        }
        println!("after {frames} frames: worst entry {worst} steps off the CPU's");
    }
}

#[test]
fn the_camera_slot_is_above_every_joint() {
    let (slots, _, _) = slots(0, 0);
    assert!(slots.len() < CAMERA_SLOT as usize);
    let mut seen = Vec::new();
    let c = character();
    let n = c.joints();
    let mut local = [[0; 12]; 25];
    all_local_words(&c.local[..n], 2, &mut local);
    palette_ops(
        c.skeleton.parents,
        &local[..n],
        &c.placement,
        &c.model[..n],
        0,
        u32::MAX,
        2,
        |op| {
            if let PaletteOp::Store(s) = op {
                seen.push(s);
            }
        },
    );
    let mut want = vec![CAMERA_SLOT];
    want.extend(0..n as u8);
    assert_eq!(seen, want);
}

#[test]
fn only_the_needed_slots_and_the_parents_their_expand_takes_are_filled() {
    let mut c = character();
    let given = c.brads_from_ragdoll(&tumbled_positions(40));
    let n = c.joints();
    let parents = c.skeleton.parents;
    let name = |j: usize| c.skeleton.joint_names[j];
    let index = |s: &str| (0..n).find(|&j| name(j) == s).unwrap();
    // A hand alone: it has a brad, so nothing above it is needed.
    let hand = index("hand_l");
    assert!(given & 1 << hand != 0);
    assert_eq!(filled_slots(parents, 1 << hand, given), 1 << hand);
    // Its fingers have none: expanded from the hand's slot.
    let fingers = index("fingers_l");
    assert_eq!(
        filled_slots(parents, 1 << fingers, given),
        1 << fingers | 1 << hand
    );
    // Walking, every joint is sent whole: no parent is needed.
    assert_eq!(filled_slots(parents, 1 << fingers, u32::MAX), 1 << fingers);
    // The slots filled hold what the full palette holds.
    let mut local = [[0; 12]; 25];
    all_local_words(&c.local[..n], 0, &mut local);
    let run = |needed: u32| {
        let mut stack = GxStack::new(GxMatrix::IDENTITY);
        let mut ops = 0;
        palette_ops(
            parents,
            &local[..n],
            &c.placement,
            &c.model[..n],
            given,
            needed,
            0,
            |op| {
                ops += 1;
                stack.apply(op);
            },
        );
        (stack, ops)
    };
    let (full, all_ops) = run(u32::MAX);
    let needed = 1 << fingers | 1 << index("head");
    let (part, ops) = run(needed);
    let fill = filled_slots(parents, needed, given);
    assert_eq!(ops, 2 + 3 * fill.count_ones());
    assert!(ops < all_ops);
    for j in (0..n).filter(|j| fill & 1 << j != 0) {
        assert_eq!(part.slot(j), full.slot(j), "{}", name(j));
    }
}
