//! The default ragdoll in the compiled test worlds (issue 4, stability):
//! the two-phase world step equals per-particle `collide_particle_hinted`, no
//! particle ever ends up inside the solid or outside the room, drops
//! settle within a few seconds, and a ragdoll at rest does not jitter.
//! `cargo test -p assetc --test ragdoll_worlds -- --nocapture` prints the
//! measured settling figures.

use std::path::Path;

use assetc::kdtree_build::{build_world_from_triangles, compile_obj, CompiledWorld};
use dsphys::collision::resolve::NO_TRIANGLE;
use dsphys::collision::{collide_particle_hinted, CollisionWorld};
use dsphys::fx::{Fx1, Vec3};
use dsphys::scenario::{
    add_humanoid_sides, arena_drop, stairs_drop, step_in_world, WORLD_FRICTION,
};
use dsphys::verlet::{ParticleDef, Ragdoll, RagdollDef, Settings, WorldContacts};

#[path = "../../../examples/support/humanoid_sticks.rs"]
mod humanoid_sticks;
use humanoid_sticks::{torso_mirrored, worst_stick};

fn world(name: &str) -> CompiledWorld {
    compile_obj(
        &Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../assets/worlds")
            .join(format!("{name}.obj")),
    )
    .unwrap()
}

fn f3(p: Vec3) -> [f64; 3] {
    [p.x.to_f64(), p.y.to_f64(), p.z.to_f64()]
}

/// True when `p` is in the world's free space: a ray from it crosses the
/// closed mesh an odd number of times (f64, a skewed direction so that it
/// misses edges and vertices of the axis-aligned test meshes).
fn in_free_space(w: &CollisionWorld, p: [f64; 3]) -> bool {
    let d = [0.123_456, 1.0, 0.078_901];
    let mut crossings = 0;
    for t in w.tris {
        let v = t.v.map(f3);
        let e1 = sub(v[1], v[0]);
        let e2 = sub(v[2], v[0]);
        let h = cross(d, e2);
        let a = dot(e1, h);
        if a.abs() < 1e-12 {
            continue;
        }
        let s = sub(p, v[0]);
        let u = dot(s, h) / a;
        let q = cross(s, e1);
        let vv = dot(d, q) / a;
        let t = dot(e2, q) / a;
        if u >= 0.0 && vv >= 0.0 && u + vv <= 1.0 && t > 0.0 {
            crossings += 1;
        }
    }
    crossings % 2 == 1
}

fn sub(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}
fn dot(a: [f64; 3], b: [f64; 3]) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}
fn cross(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

#[test]
fn two_phases_equal_collide_particle_bit_for_bit() {
    for (name, start) in [
        ("stairs", stairs_drop as fn() -> Ragdoll),
        ("arena", arena_drop),
    ] {
        let w = world(name);
        let w = w.world();
        let mut a = start();
        let mut b = start();
        let mut contacts = WorldContacts::new();
        // Each particle's contact hint, as the ragdoll keeps them.
        let mut hints = [NO_TRIANGLE; 16];
        let mut frames = 0;
        // Until it settles for sleep (then the two differ by design).
        while !a.is_settling() && frames < 600 {
            let frame = frames;
            frames += 1;
            step_in_world(&mut a, &w, &mut contacts);
            b.step_with(&Settings::DEFAULT, |i, prev, cur, radius| {
                collide_particle_hinted(&w, &mut hints[i], prev, cur, radius, WORLD_FRICTION);
            });
            assert_eq!(
                a.state_hash(),
                b.state_hash(),
                "{name}: frame {frame} differs"
            );
        }
        assert!(frames > 100, "{name}: asleep after {frames} frames");
    }
}

/// Steps `r` in `w` until it settles for sleep (its last frames before
/// it sleeps, every step starting still), within 10 s.
fn step_until_settling(r: &mut Ragdoll, w: &CollisionWorld, contacts: &mut WorldContacts) {
    let mut frames = 0;
    while !r.is_settling() {
        step_in_world(r, w, contacts);
        frames += 1;
        assert!(frames < 600 && !r.is_asleep(), "never settled");
    }
}

/// Where the narrow phase found a still sphere clear, it does not sweep
/// it there again (`ContactMemo::clear_at`): that changes nothing. A
/// ragdoll stepped alternately in two copies of the world (so that it
/// forgets every step where it was found clear, and sweeps every still
/// sphere, and never takes the shortcut of a resting particle held by
/// friction) equals one stepped in one world, bit for bit, through the
/// landing, the rest, the settling and the sleep, and after the kicks
/// that wake it.
#[test]
fn skipping_still_spheres_found_clear_changes_nothing() {
    for (name, start) in [
        ("stairs", stairs_drop as fn() -> Ragdoll),
        ("arena", arena_drop),
    ] {
        let (w, copy) = (world(name), world(name));
        let (w, copy) = (w.world(), copy.world());
        let mut a = start();
        let mut b = start();
        let mut contacts = WorldContacts::new();
        let mut slept = 0;
        for frame in 0..600 {
            dsphys::scenario::kick_every(&mut a, frame, 200);
            dsphys::scenario::kick_every(&mut b, frame, 200);
            step_in_world(&mut a, &w, &mut contacts);
            step_in_world(
                &mut b,
                if frame % 2 == 0 { &w } else { &copy },
                &mut contacts,
            );
            assert_eq!(
                a.state_hash(),
                b.state_hash(),
                "{name}: frame {frame} differs"
            );
            slept += a.is_asleep() as u32;
        }
        assert!(slept > 100, "{name}: asleep only {slept} frames");
    }
}

/// A floor 20 m square at height `y`, as two triangles.
fn floor(y: f64) -> [[[f64; 3]; 3]; 2] {
    [
        [[-10.0, y, -10.0], [-10.0, y, 10.0], [10.0, y, 10.0]],
        [[-10.0, y, -10.0], [10.0, y, 10.0], [10.0, y, -10.0]],
    ]
}

/// The radius of [`lone_ball`]'s sphere (0.1 m).
const BALL_RADIUS: Fx1 = Fx1::from_raw(410);

/// A one-particle ragdoll: a sphere of [`BALL_RADIUS`] at `at`.
fn lone_ball(at: Vec3) -> Ragdoll {
    let particles = [ParticleDef::new(
        "ball",
        at,
        Fx1::ONE,
        Fx1::ONE,
        BALL_RADIUS,
    )];
    let def = RagdollDef {
        name: "ball",
        particles: &particles,
        constraints: &[],
        sides: &[],
    };
    Ragdoll::new(&def, Vec3::ZERO)
}

/// What a ragdoll's narrow and broad phases keep between steps is about
/// one world: stepped in another, its spheres are swept again and its
/// triangle lists gathered again. A lone sphere (a one-particle ragdoll)
/// settles on a floor at y = 0, every settling step still and found
/// clear, its list kept; given the same floor 3 cm higher (listed after
/// two other triangles, so that the kept list's indices name others), it
/// is pushed out of it (had it kept where it was found clear, it would
/// not be swept and would stay 3 cm deep), bit for bit as a copy stepped
/// with a new `WorldContacts`.
#[test]
fn a_new_world_forgets_what_the_last_one_kept() {
    let far = [
        [[50.0, 0.0, 50.0], [50.0, 0.0, 51.0], [51.0, 0.0, 51.0]],
        [[50.0, 0.0, 50.0], [51.0, 0.0, 51.0], [51.0, 0.0, 50.0]],
    ];
    let low = build_world_from_triangles(&floor(0.0));
    let high = build_world_from_triangles(&[far, floor(0.03)].concat());
    let (low, high) = (low.world(), high.world());
    let radius = BALL_RADIUS;
    let mut r = lone_ball(Vec3::new(Fx1::ZERO, Fx1::from_raw(1024), Fx1::ZERO));
    let mut contacts = WorldContacts::new();
    step_until_settling(&mut r, &low, &mut contacts);
    for _ in 0..3 {
        step_in_world(&mut r, &low, &mut contacts);
    }
    assert!(r.is_settling() && !r.is_asleep());
    let resting = r.positions()[0].y;
    let mut copy = r.clone();
    copy.particles.forget_world();
    step_in_world(&mut r, &high, &mut contacts);
    step_in_world(&mut copy, &high, &mut WorldContacts::new());
    let y = r.positions()[0].y;
    assert!(
        y.to_f64() >= 0.03 + radius.to_f64(),
        "resting at {resting:?}, then at {y:?}: in the new floor"
    );
    assert_eq!(
        r.state_hash(),
        copy.state_hash(),
        "differs from a copy that forgot the old world"
    );
}

/// What the contact hint's test kept of a resting start
/// (`ContactMemo::rest`) is about one world too. A lone sphere lies on a
/// floor at y = 0 (inside one of its triangles, off their shared edge),
/// awake (gravity moves it into the floor every step, the
/// floor holds it: the same start every step); given a world whose
/// triangles 0 and 1, the indices of its hint, are a 45-degree slope far
/// off, with a wall 5 mm beyond its reach (so that it has a candidate and
/// is collided) and a floor 1 m lower, it falls, bit for bit as a copy
/// that forgot the old world. (Had it kept what it found of its start,
/// it would take the slope's resting contact there.)
#[test]
fn a_new_world_forgets_a_resting_start() {
    let slope = [
        [[50.0, 0.0, 50.0], [50.0, 0.0, 51.0], [51.0, 1.0, 51.0]],
        [[50.0, 0.0, 50.0], [51.0, 1.0, 51.0], [51.0, 1.0, 50.0]],
    ];
    let low = build_world_from_triangles(&floor(0.0));
    let wall = [[[0.605, -1.0, -2.0], [0.605, -1.0, 2.0], [0.605, 2.0, 0.0]]];
    let high = build_world_from_triangles(&[&slope[..], &wall, &floor(-1.0)].concat());
    let (low, high) = (low.world(), high.world());
    let mut r = lone_ball(Vec3::new(
        Fx1::from_raw(2048),
        Fx1::from_raw(1024),
        Fx1::from_raw(-2048),
    ));
    let mut contacts = WorldContacts::new();
    // Until it lies still, awake: the same position five steps running.
    let (mut last, mut still) = (Vec3::ZERO, 0);
    for frame in 0.. {
        step_in_world(&mut r, &low, &mut contacts);
        still = if r.positions()[0] == last {
            still + 1
        } else {
            0
        };
        if still == 5 {
            break;
        }
        last = r.positions()[0];
        assert!(frame < 300, "never lay still");
    }
    assert!(!r.is_settling() && !r.is_asleep());
    let mut copy = r.clone();
    copy.particles.forget_world();
    step_in_world(&mut r, &high, &mut contacts);
    step_in_world(&mut copy, &high, &mut WorldContacts::new());
    let y = r.positions()[0].y;
    assert!(y < last.y, "lying at {last:?}, then at {y:?}: held");
    assert_eq!(
        r.state_hash(),
        copy.state_hash(),
        "differs from a copy that forgot the old world"
    );
}

/// A particle pinned for a step (the stylus holding it) and freed again
/// where it lay collides as before: its list, emptied while pinned, is
/// gathered again, bit for bit as a copy stepped with a new
/// `WorldContacts` (kept, the freed particle would find no triangles and
/// sink through the floor).
#[test]
fn a_freed_particle_gathers_its_list_again() {
    let w = world("arena");
    let w = w.world();
    let mut r = arena_drop();
    let mut contacts = WorldContacts::new();
    step_until_settling(&mut r, &w, &mut contacts);
    // The pelvis (particle 2) lies on the floor, its list kept.
    r.pin(2);
    step_in_world(&mut r, &w, &mut contacts);
    r.unpin(2);
    r.set_velocity(2, Vec3::new(Fx1::ZERO, Fx1::from_int(-1), Fx1::ZERO));
    let mut copy = r.clone();
    for frame in 0..10 {
        step_in_world(&mut r, &w, &mut contacts);
        step_in_world(&mut copy, &w, &mut WorldContacts::new());
        assert_eq!(r.state_hash(), copy.state_hash(), "frame {frame} differs");
    }
}

struct Drop {
    asleep_at: Option<u32>,
    max_speed_after_3s: f64,
    max_speed_at_rest: f64,
    jitter_mm: f64,
}

/// Drops `start` in `name` for 10 s; checks every particle stays in free
/// space every frame, and measures settling and jitter.
fn drop_in(name: &str, start: fn() -> Ragdoll) -> Drop {
    let w = world(name);
    let w = w.world();
    let mut r = start();
    let mut contacts = WorldContacts::new();
    let mut max_after_3s: f64 = 0.0;
    let mut max_at_rest: f64 = 0.0;
    let mut rest_pose: Vec<[f64; 3]> = Vec::new();
    let mut jitter: f64 = 0.0;
    let mut asleep_at = None;
    for frame in 0..600 {
        step_in_world(&mut r, &w, &mut contacts);
        if r.is_asleep() && asleep_at.is_none() {
            asleep_at = Some(frame);
        }
        for (i, &p) in r.positions().iter().enumerate() {
            assert!(
                in_free_space(&w, f3(p)),
                "{name}: frame {frame}: particle {i} at {:?} left the world",
                f3(p)
            );
        }
        let speed = r.max_speed().to_f64();
        if frame >= 180 {
            max_after_3s = max_after_3s.max(speed);
        }
        if frame >= 480 {
            max_at_rest = max_at_rest.max(speed);
            let pose: Vec<[f64; 3]> = r.positions().iter().map(|&p| f3(p)).collect();
            if rest_pose.is_empty() {
                rest_pose = pose;
            } else {
                for (a, b) in pose.iter().zip(&rest_pose) {
                    let d = sub(*a, *b);
                    jitter = jitter.max(dot(d, d).sqrt() * 1000.0);
                }
            }
        }
    }
    let d = Drop {
        asleep_at,
        max_speed_after_3s: max_after_3s,
        max_speed_at_rest: max_at_rest,
        jitter_mm: jitter,
    };
    println!(
        "{name}: asleep at frame {:?}; max particle speed after 3 s {:.3} m/s, during 8-10 s {:.3} m/s; \
         largest move from the 8 s pose {:.1} mm; centre of mass at {:.2?}",
        d.asleep_at,
        d.max_speed_after_3s,
        d.max_speed_at_rest,
        d.jitter_mm,
        f3(r.centre_of_mass())
    );
    d
}

/// Asleep within 5 s, and still and steady from 8 s on.
fn settles(d: &Drop) {
    assert!(
        d.asleep_at.is_some_and(|f| f < 300),
        "not asleep within 5 s"
    );
    assert!(
        d.max_speed_at_rest < 0.05,
        "still moving: {:.3} m/s",
        d.max_speed_at_rest
    );
    assert!(d.jitter_mm < 5.0, "jitters: {:.1} mm", d.jitter_mm);
}

#[test]
fn stairs_drop_stays_in_the_world_and_settles() {
    settles(&drop_in("stairs", stairs_drop));
}

#[test]
fn arena_drop_stays_in_the_world_and_settles() {
    settles(&drop_in("arena", arena_drop));
}

/// The humanoid's worst stick once asleep after a drop in the arena from
/// `start`, moved `0.75 k` cm sideways for drop `k` of eight, and the
/// frame each fell asleep at.
fn arena_rest_sticks(
    start: impl Fn() -> Ragdoll,
    mut at_rest: impl FnMut(&[Vec3]),
) -> (f64, &'static str, &'static str) {
    let w = world("arena");
    let w = w.world();
    let mut worst = (0.0f64, "", "");
    for k in 0..8 {
        let mut r = start();
        let t = k as f64 * core::f64::consts::TAU / 8.0;
        let step = |x: f64| Fx1::from_raw((x * 4096.0).round() as i32);
        let side = 0.0075 * k as f64;
        r.particles.translate(Vec3::new(
            step(side * t.cos()),
            Fx1::ZERO,
            step(side * t.sin()),
        ));
        let mut contacts = WorldContacts::new();
        let asleep = (0..600).find(|_| {
            step_in_world(&mut r, &w, &mut contacts);
            r.is_asleep()
        });
        assert!(asleep.is_some(), "drop {k}: never slept");
        let s = worst_stick(r.positions());
        at_rest(r.positions());
        println!(
            "drop {k}: asleep at frame {asleep:?}, worst stick {}-{} {:+.2} %",
            s.1,
            s.2,
            100.0 * s.0
        );
        if s.0.abs() > worst.0.abs() {
            worst = s;
        }
    }
    worst
}

/// Issue 21: every stick at rest within 1 % of its length. The humanoid
/// dropped upright from 2 m over the arena, eight times: each sleeps
/// (settled first, `verlet::SETTLE_FRAMES`) with every stick within 1 %
/// (measured 0.40-0.61 %). `assetc check assets/worlds/arena.obj` drops
/// eight from over the middle: 0.42 % settled, 3.85 % before.
#[test]
fn sticks_hold_their_lengths_at_rest_in_the_arena() {
    let worst = arena_rest_sticks(
        || {
            let at = Vec3::new(Fx1::from_int(1), Fx1::from_int(2), Fx1::from_int(-1));
            Ragdoll::new(&dsphys::verlet::humanoid::HUMANOID, at)
        },
        |_| {},
    );
    assert!(worst.0.abs() < 0.01, "{worst:?}");
}

/// Not yet: the benches' tumbled drop (`scenario::arena_drop`) comes to
/// rest on its side with its torso folded through itself. The chest
/// particle lies only 4.8 cm in front of the plane of the shoulders and
/// pelvis, so no stick resists it passing through that plane; flipped,
/// the 13 torso sticks cannot all hold, and settling leaves the worst
/// 2.8-3.3 % short (chest-shoulder). In the crowd pile below several
/// ragdolls rest with the chest wholly mirrored behind that plane (the
/// sticks all hold, 0.2 %: a mirror keeps every length), others part
/// way (1.6-2.5 %). Side constraints fix it (the next test), at a cost
/// that keeps them out of the shipped humanoid (`verlet::sides`).
#[test]
#[ignore = "issue 21: the tumbled torso folds through itself"]
fn sticks_hold_their_lengths_after_the_tumbled_arena_drop() {
    let worst = arena_rest_sticks(arena_drop, |_| {});
    assert!(worst.0.abs() < 0.01, "{worst:?}");
}

/// `r` with the humanoid's side constraints (`scenario::HUMANOID_SIDES`).
fn braced(mut r: Ragdoll) -> Ragdoll {
    add_humanoid_sides(&mut r);
    r
}

/// Issue 21 with the sides: the tumbled drop, moved as above, sleeps
/// with every stick within 1 % (measured 0.61-0.81 %); the upright one
/// too (0.41-0.58 %), and no torso rests folded.
#[test]
fn a_braced_torso_holds_its_sticks_after_the_tumbled_arena_drop() {
    for (name, start) in [
        ("tumbled", arena_drop as fn() -> Ragdoll),
        ("upright", || {
            let at = Vec3::new(Fx1::from_int(1), Fx1::from_int(2), Fx1::from_int(-1));
            Ragdoll::new(&dsphys::verlet::humanoid::HUMANOID, at)
        }),
    ] {
        let mut mirrored = 0;
        let worst = arena_rest_sticks(|| braced(start()), |x| mirrored += torso_mirrored(x) as u32);
        assert!(worst.0.abs() < 0.01, "{name}: {worst:?}");
        assert_eq!(mirrored, 0, "{name}: torsos rest folded");
    }
}

#[test]
fn slope_corner_drop_stays_in_the_world() {
    // The humanoid high on the slope (y 0.3 at x 0 up to 2.8 at x 5): it
    // slides and tumbles down into the corner.
    let start = || {
        let mut r = Ragdoll::new(
            &dsphys::verlet::humanoid::HUMANOID,
            Vec3::new(Fx1::from_int(3), Fx1::from_int(2), Fx1::from_int(3)),
        );
        r.set_velocity_all(Vec3::new(Fx1::from_int(-1), Fx1::ZERO, Fx1::ZERO));
        r
    };
    let d = drop_in("slope_corner", start);
    assert!(
        d.max_speed_at_rest < 0.05,
        "still moving: {:.3} m/s",
        d.max_speed_at_rest
    );
}

#[test]
fn a_sleeping_ragdoll_wakes_when_kicked_and_never_sleeps_in_the_air() {
    let w = world("arena");
    let w = w.world();
    let mut r = arena_drop();
    let mut contacts = WorldContacts::new();
    for _ in 0..600 {
        step_in_world(&mut r, &w, &mut contacts);
    }
    assert!(r.is_asleep());
    let before = r.centre_of_mass();
    r.apply_impulse(0, Vec3::new(Fx1::from_int(5), Fx1::from_int(5), Fx1::ZERO));
    assert!(!r.is_asleep());
    for _ in 0..10 {
        step_in_world(&mut r, &w, &mut contacts);
    }
    assert_ne!(r.centre_of_mass(), before, "the kick moved nothing");

    // Thrown straight up at 5 m/s it is still for a moment at the top,
    // touching nothing: it must not fall asleep there.
    let mut r = arena_drop();
    r.set_velocity_all(Vec3::new(Fx1::ZERO, Fx1::from_int(4), Fx1::ZERO));
    for _ in 0..60 {
        step_in_world(&mut r, &w, &mut contacts);
        assert!(!r.is_asleep() || r.centre_of_mass().y < Fx1::from_int(1));
    }
}

/// The deepest overlap (m) between particles of different ragdolls.
fn deepest_crowd_overlap(crowd: &[Option<Ragdoll>]) -> f64 {
    let mut deepest: f64 = 0.0;
    let all: Vec<&Ragdoll> = crowd.iter().flatten().collect();
    for (i, a) in all.iter().enumerate() {
        for b in &all[i + 1..] {
            let (pa, pb) = (a.particles.positions(), b.particles.positions());
            let (ra, rb) = (a.particles.radii(), b.particles.radii());
            for (p, r) in pa.iter().zip(ra) {
                for (q, s) in pb.iter().zip(rb) {
                    let d = sub(f3(*p), f3(*q));
                    let gap = dot(d, d).sqrt() - r.to_f64() - s.to_f64();
                    deepest = deepest.max(-gap);
                }
            }
        }
    }
    deepest
}

/// One frame of a crowd with ragdoll contacts; the particle pairs touched.
fn crowd_step(
    crowd: &mut [Option<Ragdoll>],
    w: &CollisionWorld,
    contacts: &mut WorldContacts,
) -> usize {
    dsphys::verlet::step_crowd_in_world(
        crowd,
        &Settings::DEFAULT,
        w,
        contacts,
        WORLD_FRICTION,
        &mut dsphys::verlet::Untimed,
    )
}

/// A crowd of one keeps its broad-phase lists from step to step
/// (`WorldContacts::broad_phase_kept`, as a lone ragdoll does); a crowd
/// of two gathers them every step. Scene (a)'s drop down the stairs,
/// kicked every 2 s, does the same bit for bit in both, while the second
/// ragdoll falls far away (60 m off, below the world: never near).
#[test]
fn a_crowd_of_one_keeps_its_lists_and_steps_as_beside_another() {
    let w = world("stairs");
    let w = w.world();
    let mut far = stairs_drop();
    far.particles
        .translate(Vec3::new(Fx1::ZERO, Fx1::ZERO, Fx1::from_int(60)));
    let mut one = [Some(stairs_drop())];
    let mut two = [Some(stairs_drop()), Some(far)];
    let (mut c1, mut c2) = (WorldContacts::new(), WorldContacts::new());
    let mut awake = 0;
    for frame in 0..480 {
        for crowd in [&mut one[..], &mut two[..]] {
            dsphys::scenario::kick_arena_drop(crowd[0].as_mut().unwrap(), frame);
        }
        crowd_step(&mut one, &w, &mut c1);
        crowd_step(&mut two, &w, &mut c2);
        let (a, b) = (one[0].as_ref().unwrap(), two[0].as_ref().unwrap());
        assert_eq!(a.state_hash(), b.state_hash(), "frame {frame}");
        awake += !a.is_asleep() as u32;
    }
    // It tumbled, lay still and slept between kicks: the kept lists
    // served, and were gathered again.
    assert!((100..480).contains(&awake), "awake {awake} of 480 frames");
}

/// What one pile of [`dsphys::scenario::crowd_drop`] did in 15 s.
struct Pile {
    /// Particle pairs that touched.
    pairs: usize,
    /// Deepest overlap between ragdolls from 1 s on, and at the end (m).
    worst: f64,
    rest: f64,
    /// Fastest particle at the end (m/s).
    speed: f64,
    /// The frame from which all four sleep.
    asleep_at: Option<u32>,
    /// The stick furthest from its length at the end (relative).
    sticks: f64,
}

/// The crowd drop with its first ragdoll nudged by `nudge` FX1 steps
/// (+x, -z), for 900 frames; with `free_space`, checks every particle
/// stays in the world every frame (slow in a debug build).
fn pile(w: &CollisionWorld, nudge: i32, free_space: bool) -> Pile {
    let mut crowd = [const { None }; 4];
    dsphys::scenario::crowd_drop(&mut crowd);
    if let Some(r) = crowd[0].as_mut() {
        r.particles.translate(Vec3::new(
            Fx1::from_raw(nudge),
            Fx1::ZERO,
            Fx1::from_raw(-nudge),
        ));
    }
    let mut contacts = WorldContacts::new();
    let (mut worst, mut pairs, mut asleep_at) = (0.0f64, 0usize, None);
    for frame in 0..900 {
        pairs += crowd_step(&mut crowd, w, &mut contacts);
        if free_space {
            for (k, r) in crowd.iter().flatten().enumerate() {
                for (i, &p) in r.positions().iter().enumerate() {
                    assert!(
                        in_free_space(w, f3(p)),
                        "frame {frame}: ragdoll {k} particle {i} at {:?} left the world",
                        f3(p)
                    );
                }
            }
        }
        if frame >= 60 {
            worst = worst.max(deepest_crowd_overlap(&crowd));
        }
        if asleep_at.is_none() && crowd.iter().flatten().all(|r| r.is_asleep()) {
            asleep_at = Some(frame);
        }
    }
    let speed = crowd
        .iter()
        .flatten()
        .map(|r| r.max_speed().to_f64())
        .fold(0.0, f64::max);
    let sticks = crowd
        .iter()
        .flatten()
        .map(|r| worst_stick(r.positions()).0.abs())
        .fold(0.0, f64::max);
    Pile {
        pairs,
        worst,
        rest: deepest_crowd_overlap(&crowd),
        speed,
        asleep_at,
        sticks,
    }
}

/// Four ragdolls fall into a pile in the arena: every particle stays in
/// free space every frame, the pile does not interpenetrate, and it
/// comes to rest and sleeps, as a whole, within 3 s of landing (they land
/// by frame 60). Before its ragdolls counted a rest on each other as a
/// rest, and slept together, it never slept.
///
/// A pile is chaotic: nudging one ragdoll by a quarter of a millimetre
/// lands it differently. So the overlaps are judged over eight drops,
/// the first ragdoll nudged by 0 to 7 FX1 steps: measured (2026-11-27,
/// `--nocapture`) 20-52 mm from 1 s on (the upper median 29 mm) and
/// 0.1-16 mm at rest (6.6 mm), for spheres of 50-120 mm. One drop, with
/// limits at its own figures, failed for two of twelve nudges.
#[test]
fn crowd_pile_stays_apart_in_the_world_and_settles() {
    let w = world("arena");
    let w = w.world();
    let piles: Vec<Pile> = (0..8).map(|nudge| pile(&w, nudge, nudge == 0)).collect();
    for (nudge, p) in piles.iter().enumerate() {
        println!(
            "nudge {nudge}: {} particle contacts in 15 s; deepest overlap after 1 s {:.1} mm, \
             at rest {:.1} mm; all asleep at frame {:?}; fastest particle at 15 s {:.3} m/s; \
             sticks within {:.2} %",
            p.pairs,
            p.worst * 1000.0,
            p.rest * 1000.0,
            p.asleep_at,
            p.speed,
            p.sticks * 100.0
        );
        assert!(p.pairs > 50, "nudge {nudge}: the pile never touched");
        assert!(
            p.speed < 0.05,
            "nudge {nudge}: the pile still moves at {:.3} m/s",
            p.speed
        );
        assert!(
            p.asleep_at.is_some_and(|f| f < 60 + 180),
            "nudge {nudge}: the pile did not sleep within 3 s of landing: {:?}",
            p.asleep_at
        );
        assert!(
            p.worst < 0.06,
            "nudge {nudge}: ragdolls interpenetrate {:.1} mm",
            p.worst * 1000.0
        );
        assert!(
            p.rest < 0.02,
            "nudge {nudge}: at rest they overlap {:.1} mm",
            p.rest * 1000.0
        );
    }
    let upper_median = |f: fn(&Pile) -> f64| {
        let mut v: Vec<f64> = piles.iter().map(f).collect();
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    let (worst, rest) = (upper_median(|p| p.worst), upper_median(|p| p.rest));
    println!(
        "upper medians: {:.1} mm from 1 s on, {:.1} mm at rest",
        worst * 1000.0,
        rest * 1000.0
    );
    assert!(
        worst < 0.035,
        "ragdolls interpenetrate {:.1} mm (median)",
        worst * 1000.0
    );
    assert!(
        rest < 0.008,
        "at rest they overlap {:.1} mm (median)",
        rest * 1000.0
    );
}

/// The same drop without ragdoll-vs-ragdoll contacts: the ragdolls fall
/// through each other (so the test above measures the contacts).
#[test]
fn without_crowd_contacts_the_pile_interpenetrates() {
    let w = world("arena");
    let w = w.world();
    let mut crowd = [const { None }; 4];
    dsphys::scenario::crowd_drop(&mut crowd);
    let mut contacts = WorldContacts::new();
    let mut worst: f64 = 0.0;
    for _ in 0..300 {
        for r in crowd.iter_mut().flatten() {
            step_in_world(r, &w, &mut contacts);
        }
        worst = worst.max(deepest_crowd_overlap(&crowd));
    }
    assert!(
        worst > 0.05,
        "deepest overlap only {:.1} mm",
        worst * 1000.0
    );
}

/// A ragdoll asleep on the floor is woken, and moved, by one falling on it.
#[test]
fn a_sleeping_ragdoll_is_woken_by_a_falling_one() {
    let w = world("arena");
    let w = w.world();
    let mut crowd: [Option<Ragdoll>; 2] = [Some(arena_drop()), None];
    let mut contacts = WorldContacts::new();
    for _ in 0..600 {
        crowd_step(&mut crowd, &w, &mut contacts);
    }
    let sleeper = crowd[0].as_ref().unwrap();
    assert!(sleeper.is_asleep(), "the first ragdoll never fell asleep");
    let rest: Vec<Vec3> = sleeper.positions().to_vec();
    // The second one, dropped from 1.5 m above the sleeper's centre.
    let c = sleeper.centre_of_mass();
    let above = Vec3::new(c.x, c.y + Fx1::from_int(1), c.z);
    let mut faller = Ragdoll::new(&dsphys::verlet::humanoid::HUMANOID, above);
    faller.set_velocity_all(Vec3::new(Fx1::ZERO, Fx1::from_int(-2), Fx1::ZERO));
    crowd[1] = Some(faller);
    let mut woke = false;
    for _ in 0..120 {
        crowd_step(&mut crowd, &w, &mut contacts);
        woke |= !crowd[0].as_ref().unwrap().is_asleep();
    }
    let moved = crowd[0]
        .as_ref()
        .unwrap()
        .positions()
        .iter()
        .zip(&rest)
        .map(|(a, b)| {
            let d = sub(f3(*a), f3(*b));
            dot(d, d).sqrt()
        })
        .fold(0.0, f64::max);
    assert!(woke, "the sleeper was never woken");
    assert!(
        moved > 0.01,
        "the sleeper moved only {:.1} mm",
        moved * 1000.0
    );
}
