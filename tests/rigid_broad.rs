//! The contact broad phase (`dsphys::rigid::broad`): a pair whose grown
//! bounding boxes are apart never has a contact, so filtering pairs by
//! them changes nothing. Checked on boxes placed at every gap around the
//! filter's edge, aligned and turned, with positions off the FX1 grid
//! (the rounding the filter's proof allows for).

use dsphys::fx;
use dsphys::fx::{Fx1, Fx2, Quat, Vec3};
use dsphys::rigid::body::Body;
use dsphys::rigid::broad::Bounds;
use dsphys::rigid::contact::{box_box, ContactSettings};
use dsphys::rigid::Rows;
use dsphys::xorshift::XorShift32;

fn random_quat(rng: &mut XorShift32, turned: bool) -> Quat {
    if !turned {
        return Quat::IDENTITY;
    }
    let mut c = || Fx1::from_raw((rng.next_u32() % 8192) as i32 - 4096);
    Quat::from_fx1(c(), Vec3::new(c(), c(), c()))
}

/// Contacts `box_box` finds for bodies 0 and 1, both ways round.
fn contacts(bodies: &[Body], s: &ContactSettings) -> usize {
    let mut rows = Rows::<64>::default();
    box_box(&mut rows, bodies, 0, 1, s) + box_box(&mut rows, bodies, 1, 0, s)
}

/// Places box 1 beside box 0 along `axis` at `gap` (FX2 raw, may be
/// negative) between their bounding boxes, with a random sub-FX1 offset.
fn pair(rng: &mut XorShift32, axis: usize, gap: i64, turned: bool) -> [Body; 2] {
    let half = |rng: &mut XorShift32| Fx1::from_raw(400 + (rng.next_u32() % 800) as i32);
    let make = |rng: &mut XorShift32| {
        let h = Vec3::new(half(rng), half(rng), half(rng));
        let q = random_quat(rng, turned);
        Body::new_box(h, fx!(1.0), Vec3::ZERO, q)
    };
    let (mut a, mut b) = (make(rng), make(rng));
    let jitter = |rng: &mut XorShift32| (rng.next_u32() % 4096) as i64;
    a.pos = Vec3::new(jitter(rng), jitter(rng), jitter(rng)).map(Fx2::from_raw);
    let reach = (a.bound.to_array()[axis] + b.bound.to_array()[axis]).raw() as i64;
    let mut at = [jitter(rng), jitter(rng), jitter(rng)];
    at[axis] += (reach << 12) + gap;
    // Off the axis, somewhere within the boxes' overlap.
    for (k, c) in at.iter_mut().enumerate() {
        if k != axis {
            *c += ((rng.next_u32() % 1024) as i64 - 512) << 12;
        }
    }
    b.pos = Vec3::new(at[0], at[1], at[2]).map(Fx2::from_raw);
    [a, b]
}

#[test]
fn pairs_the_filter_rejects_have_no_contacts() {
    let s = ContactSettings::DEFAULT;
    let m = (s.margin.raw() as i64) << 12;
    let mut rng = XorShift32::spread(7);
    let (mut rejected, mut near_edge_contacts) = (0, 0);
    for trial in 0..6000 {
        let turned = trial % 2 == 1;
        let axis = trial % 3;
        // Gaps from touching to past twice the margin, in FX2 steps.
        let gap = (rng.next_u32() as i64 % (3 * m)) - 8192;
        let bodies = pair(&mut rng, axis, gap, turned);
        let found = contacts(&bodies, &s);
        let overlap = Bounds::of(&bodies[0], s.margin).overlap(&Bounds::of(&bodies[1], s.margin));
        if !overlap {
            rejected += 1;
            assert_eq!(
                found, 0,
                "trial {trial}: the filter dropped a pair with contacts"
            );
        } else if found > 0 && gap > m / 2 {
            near_edge_contacts += 1;
        }
    }
    println!("{rejected} rejected, {near_edge_contacts} with contacts beyond half the margin");
    // The trials reach both sides of the edge: a filter with half the
    // margin would reject some of these.
    assert!(rejected > 1000);
    assert!(near_edge_contacts > 100);
}
