//! Generates the default character: `assets/characters/humanoid.gltf`
//! (the 25-joint skeleton) and its clips `humanoid_{idle,walk,run}.gltf`.
//!
//! The bind pose is derived from the ragdoll's rest pose and the brad
//! table (`assets/ragdolls/humanoid.{ragdoll,brads}`): each joint with a
//! particle sits on it, with the frame its brad builds there, so brads and
//! animation agree. The clips only move the joints in ways the ragdoll can
//! show (see `humanoid.brads`): the root travels and bobs, the pelvis
//! turns freely (the torso and head follow it rigidly), and the arms and
//! legs swing and bend about the shoulder and hip lines.
//!
//! `humanoid.gltf` also carries the skinned mesh the ROM draws: a tube
//! along each limb and the spine, with a ring of vertices at each joint
//! bound to that joint alone (one joint per vertex, as the renderer
//! takes), so the tube bends at the joint like a sleeve. A joint that no
//! clip turns and no brad drives (the spine, neck, fingers, toes) lends
//! its ring to the nearest ancestor that moves: 15 joints carry vertices,
//! and the palette has 15 slots to build, not 22.
//!
//! Run: `cargo run -p assetc --example gen_character`, then regenerate
//! the engine tables with
//! `ASSETC_BLESS=1 cargo test -p assetc --test anim_emit`.

use std::collections::HashMap;
use std::f64::consts::PI;
use std::path::PathBuf;

use assetc::brads::parse_brads;
use assetc::gltf::{ClipSrc, JointSrc, SkeletonSrc, TrackSrc};
use assetc::gltf_math::{add, brad_frame, scale, sub, unit, vec_f64, Rigid, Rot, V3};
use assetc::gltf_mesh::{MeshSrc, PartSrc};
use assetc::gltf_write::{gltf_text, gltf_text_with_mesh};
use assetc::ragdoll_def::load_ragdoll;

/// Joint name, parent name, and where its bind frame comes from.
enum Frame {
    /// Its brad.
    Brad,
    /// The same frame as another joint.
    As(&'static str),
    /// +Y towards the given point, +Z as close to world +Z as possible.
    Towards(V3),
}

fn main() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let rag = load_ragdoll(&root.join("assets/ragdolls/humanoid.ragdoll"))
        .unwrap_or_else(|e| panic!("{e}"));
    let brads_path = root.join("assets/ragdolls/humanoid.brads");
    let text = std::fs::read_to_string(&brads_path).unwrap();
    let brads =
        parse_brads("assets/ragdolls/humanoid.brads", &text).unwrap_or_else(|e| panic!("{e}"));
    let p: HashMap<String, V3> = rag
        .particles
        .iter()
        .map(|q| (q.name.clone(), vec_f64(q.position)))
        .collect();
    let at = |n: &str| p[n];
    let mid = |a: &str, b: &str| scale(add(at(a), at(b)), 0.5);
    let brad_pos: HashMap<&str, V3> = brads
        .brads
        .iter()
        .map(|b| (b.joint.as_str(), at(&b.particle)))
        .collect();
    let brad_rot = |joint: &str| -> Rot {
        let b = brads.brads.iter().find(|b| b.joint == joint).unwrap();
        let a = sub(at(&b.a[1]), at(&b.a[0]));
        let g = sub(at(&b.b[1]), at(&b.b[0]));
        let ax = |x: dsphys::anim::Axis| (x.index(), x.is_negative());
        brad_frame(a, g, ax(b.axis_a), ax(b.axis_b), 0.0).unwrap()
    };
    let side = |s: &str, n: &str| format!("{n}_{s}");
    // (name, parent, position, frame)
    let mut spec: Vec<(String, Option<String>, V3, Frame)> = vec![
        ("root".into(), None, [0.0; 3], Frame::As("")),
        (
            "pelvis".into(),
            Some("root".into()),
            brad_pos["pelvis"],
            Frame::Brad,
        ),
        (
            "spine".into(),
            Some("pelvis".into()),
            mid("pelvis", "chest"),
            Frame::As("pelvis"),
        ),
        (
            "chest".into(),
            Some("spine".into()),
            brad_pos["chest"],
            Frame::Brad,
        ),
        (
            "neck".into(),
            Some("chest".into()),
            mid("chest", "head"),
            Frame::As("head"),
        ),
        (
            "head".into(),
            Some("neck".into()),
            brad_pos["head"],
            Frame::Brad,
        ),
        (
            "head_end".into(),
            Some("head".into()),
            add(at("head"), [0.0, 0.12, 0.0]),
            Frame::As("head"),
        ),
    ];
    for s in ["l", "r"] {
        let x = if s == "l" { 1.0 } else { -1.0 };
        let shoulder = at(&side(s, "shoulder"));
        let clav = [0.04 * x, 1.42, 0.03];
        spec.push((
            side(s, "clavicle"),
            Some("chest".into()),
            clav,
            Frame::Towards(shoulder),
        ));
        spec.push((
            side(s, "upperarm"),
            Some(side(s, "clavicle")),
            shoulder,
            Frame::Brad,
        ));
        spec.push((
            side(s, "forearm"),
            Some(side(s, "upperarm")),
            at(&side(s, "elbow")),
            Frame::Brad,
        ));
        spec.push((
            side(s, "hand"),
            Some(side(s, "forearm")),
            at(&side(s, "wrist")),
            Frame::Brad,
        ));
        let fore = unit(sub(at(&side(s, "wrist")), at(&side(s, "elbow"))));
        spec.push((
            side(s, "fingers"),
            Some(side(s, "hand")),
            add(at(&side(s, "wrist")), scale(fore, 0.08)),
            Frame::As("hand"),
        ));
    }
    for s in ["l", "r"] {
        let ankle = at(&side(s, "ankle"));
        spec.push((
            side(s, "thigh"),
            Some("pelvis".into()),
            at(&side(s, "hip")),
            Frame::Brad,
        ));
        spec.push((
            side(s, "shin"),
            Some(side(s, "thigh")),
            at(&side(s, "knee")),
            Frame::Brad,
        ));
        spec.push((side(s, "foot"), Some(side(s, "shin")), ankle, Frame::Brad));
        spec.push((
            side(s, "toe"),
            Some(side(s, "foot")),
            add(ankle, [0.0, -0.06, 0.13]),
            Frame::As("foot"),
        ));
    }
    assert_eq!(spec.len(), 25);

    // World bind frames, then local transforms.
    let mut world: Vec<Rigid> = Vec::new();
    let mut joints: Vec<JointSrc> = Vec::new();
    let index = |spec: &Vec<(String, Option<String>, V3, Frame)>, n: &str| {
        spec.iter().position(|j| j.0 == n)
    };
    for (i, (name, parent, pos, frame)) in spec.iter().enumerate() {
        let rot = match frame {
            Frame::Brad => brad_rot(name),
            Frame::As("") => Rot::IDENTITY,
            Frame::As(other) => {
                // Same side for the limb joints ("hand" -> "hand_l").
                let suffix = name
                    .rsplit_once('_')
                    .map(|(_, s)| s)
                    .filter(|s| *s == "l" || *s == "r");
                let other = suffix.map_or(other.to_string(), |s| side(s, other));
                match index(&spec, &other).filter(|&k| k < i) {
                    Some(k) => world[k].rot,
                    None => brad_rot(&other),
                }
            }
            Frame::Towards(t) => {
                brad_frame(sub(*t, *pos), [0.0, 0.0, 1.0], (1, false), (2, false), 0.0).unwrap()
            }
        };
        let w = Rigid { rot, trans: *pos };
        let parent = parent.as_ref().map(|n| index(&spec, n).unwrap());
        let local = match parent {
            Some(pi) => world[pi].inverse().mul(&w),
            None => w,
        };
        world.push(w);
        joints.push(JointSrc {
            name: name.clone(),
            parent,
            bind: local,
            quat: local.rot.to_quat(),
        });
    }
    let skel = SkeletonSrc {
        file: "humanoid.gltf".into(),
        name: "humanoid".into(),
        inverse_bind: world.iter().map(Rigid::inverse).collect(),
        joints,
    };

    let dir = root.join("assets/characters");
    let generator = "dsphys assetc examples/gen_character.rs";
    let clips: Vec<ClipSrc> = [IDLE, WALK, RUN]
        .iter()
        .map(|g| make_clip(&skel, &world, g))
        .collect();
    // A joint no clip turns and no brad drives holds still on its parent:
    // its vertices ride on the nearest ancestor that moves, one palette
    // slot fewer to build each frame.
    let moving: Vec<bool> = (0..skel.joints.len())
        .map(|j| {
            skel.joints[j].parent.is_none()
                || clips.iter().any(|c| c.tracks.iter().any(|t| t.joint == j))
                || brads.brads.iter().any(|b| b.joint == skel.joints[j].name)
        })
        .collect();
    let mesh = make_mesh(&skel, &world, &moving);
    let text = gltf_text_with_mesh(&skel, &[], Some(&mesh), generator);
    std::fs::write(dir.join("humanoid.gltf"), text).unwrap();
    for (gait, clip) in [IDLE, WALK, RUN].iter().zip(clips) {
        let path = dir.join(format!("humanoid_{}.gltf", gait.name));
        std::fs::write(&path, gltf_text(&skel, &[clip], generator)).unwrap();
        println!("wrote {}", path.display());
    }
}

/// The parameters of a cyclic gait (angles in radians; a negative swing
/// moves the limb forward).
struct Gait {
    name: &'static str,
    period: f64,
    keys: usize,
    speed: f64,
    bob: f64,
    pelvis_yaw: f64,
    pelvis_roll: f64,
    lean: f64,
    thigh: f64,
    knee: (f64, f64),
    arm: f64,
    elbow: (f64, f64),
}

const IDLE: Gait = Gait {
    name: "idle",
    period: 2.0,
    keys: 17,
    speed: 0.0,
    bob: 0.006,
    pelvis_yaw: 0.02,
    pelvis_roll: 0.01,
    lean: 0.0,
    thigh: 0.01,
    knee: (0.03, 0.02),
    arm: 0.04,
    elbow: (0.1, 0.05),
};
const WALK: Gait = Gait {
    name: "walk",
    period: 1.0,
    keys: 17,
    speed: 1.4,
    bob: 0.02,
    pelvis_yaw: 0.08,
    pelvis_roll: 0.04,
    lean: 0.05,
    thigh: 0.40,
    knee: (0.15, 0.3),
    arm: 0.30,
    elbow: (0.3, 0.15),
};
const RUN: Gait = Gait {
    name: "run",
    period: 0.7,
    keys: 17,
    speed: 3.5,
    bob: 0.04,
    pelvis_yaw: 0.12,
    pelvis_roll: 0.03,
    lean: 0.15,
    thigh: 0.70,
    knee: (0.3, 0.6),
    arm: 0.5,
    elbow: (1.2, 0.2),
};

fn make_clip(skel: &SkeletonSrc, world: &[Rigid], g: &Gait) -> ClipSrc {
    let idx = |n: &str| skel.joints.iter().position(|j| j.name == n).unwrap();
    let times: Vec<f64> = (0..g.keys)
        .map(|k| g.period * k as f64 / (g.keys - 1) as f64)
        .collect();
    let mut tracks: Vec<TrackSrc> = Vec::new();
    // A joint turned by `angle` about the world (torso) axis `axis`,
    // expressed in its own bind frame: local = bind_local * R(axis_local).
    let swing = |j: usize, axis: V3, angle: f64| -> [f64; 4] {
        let axis_local = world[j].rot.transpose().apply(axis);
        skel.joints[j]
            .bind
            .rot
            .mul(&Rot::axis_angle(axis_local, angle))
            .to_quat()
    };
    let track = |j: usize, f: &dyn Fn(f64) -> [f64; 4]| TrackSrc {
        joint: j,
        keys: times.iter().map(|&t| f(2.0 * PI * t / g.period)).collect(),
    };
    let x = [1.0, 0.0, 0.0];
    let pelvis = idx("pelvis");
    tracks.push(track(pelvis, &|ph| {
        let turn = Rot::axis_angle([0.0, 1.0, 0.0], g.pelvis_yaw * ph.sin())
            .mul(&Rot::axis_angle(
                [0.0, 0.0, 1.0],
                g.pelvis_roll * (2.0 * ph).sin(),
            ))
            .mul(&Rot::axis_angle(x, g.lean));
        // The root has no rotation: the pelvis's world frame is its local one.
        turn.mul(&world[pelvis].rot).to_quat()
    }));
    for (s, sign) in [("l", 1.0), ("r", -1.0)] {
        let (thigh, shin) = (idx(&format!("thigh_{s}")), idx(&format!("shin_{s}")));
        let (upper, fore) = (idx(&format!("upperarm_{s}")), idx(&format!("forearm_{s}")));
        // Left leg forward (negative) while the left arm goes back.
        tracks.push(track(thigh, &|ph| {
            swing(thigh, x, -sign * g.thigh * ph.sin())
        }));
        tracks.push(track(shin, &|ph| {
            swing(
                shin,
                x,
                g.knee.0 + g.knee.1 * (1.0 + (ph + sign * PI / 2.0).sin()),
            )
        }));
        tracks.push(track(upper, &|ph| swing(upper, x, sign * g.arm * ph.sin())));
        tracks.push(track(fore, &|ph| {
            swing(fore, x, -(g.elbow.0 + g.elbow.1 * (1.0 + sign * ph.sin())))
        }));
    }
    tracks.sort_by_key(|t| t.joint);
    let root_trans = times
        .iter()
        .map(|&t| [0.0, g.bob * (4.0 * PI * t / g.period).cos(), g.speed * t])
        .collect();
    ClipSrc {
        file: String::new(),
        name: g.name.into(),
        skeleton: skel.name.clone(),
        looping: true,
        times,
        root_trans,
        tracks,
    }
}

/// Material colours (linear 0..1).
const SHIRT: V3 = [0.22, 0.42, 0.85];
const SKIN: V3 = [0.93, 0.70, 0.52];
const TROUSERS: V3 = [0.22, 0.22, 0.32];
const SHOES: V3 = [0.40, 0.24, 0.12];
const HAIR: V3 = [0.30, 0.18, 0.08];

/// One ring of a tube: bound to `joint`, centred at `t` of the way from
/// the joint to the next joint of the chain (or, at the chain's end, on
/// along the last bone), with half widths `side` (across the body) and
/// `front`; `color` is that of the stretch up to the next ring (and of
/// the end cap after the last ring).
struct Ring {
    joint: &'static str,
    t: f64,
    side: f64,
    front: f64,
    color: V3,
}

const fn ring(joint: &'static str, t: f64, side: f64, front: f64, color: V3) -> Ring {
    Ring {
        joint,
        t,
        side,
        front,
        color,
    }
}

/// A tube: the chain of joints it follows, its rings and their vertices.
struct Tube {
    chain: &'static [&'static str],
    rings: &'static [Ring],
    sides: usize,
}

const TORSO: Tube = Tube {
    chain: &["pelvis", "spine", "chest", "neck", "head", "head_end"],
    rings: &[
        ring("pelvis", -0.4, 0.10, 0.08, TROUSERS),
        ring("pelvis", 0.0, 0.14, 0.10, TROUSERS),
        ring("spine", 0.0, 0.13, 0.09, SHIRT),
        ring("chest", 0.0, 0.16, 0.10, SHIRT),
        ring("chest", 0.6, 0.12, 0.08, SHIRT),
        ring("neck", 0.2, 0.045, 0.05, SKIN),
        ring("head", 0.0, 0.07, 0.08, SKIN),
        ring("head", 0.6, 0.09, 0.10, HAIR),
        ring("head_end", 0.3, 0.07, 0.08, HAIR),
    ],
    sides: 8,
};

/// The arm and leg tubes of one side (`l` or `r`); a macro, as the
/// joint names are built from the side.
macro_rules! limbs {
    ($arm:ident, $leg:ident, $s:literal) => {
        const $arm: Tube = Tube {
            chain: &[
                concat!("upperarm_", $s),
                concat!("forearm_", $s),
                concat!("hand_", $s),
                concat!("fingers_", $s),
            ],
            rings: &[
                ring(concat!("upperarm_", $s), -0.12, 0.05, 0.05, SHIRT),
                ring(concat!("upperarm_", $s), 0.0, 0.055, 0.055, SHIRT),
                ring(concat!("forearm_", $s), 0.0, 0.045, 0.045, SKIN),
                ring(concat!("hand_", $s), 0.0, 0.02, 0.035, SKIN),
                ring(concat!("fingers_", $s), 0.5, 0.015, 0.03, SKIN),
            ],
            sides: 6,
        };
        const $leg: Tube = Tube {
            chain: &[
                concat!("thigh_", $s),
                concat!("shin_", $s),
                concat!("foot_", $s),
                concat!("toe_", $s),
            ],
            rings: &[
                ring(concat!("thigh_", $s), 0.0, 0.075, 0.08, TROUSERS),
                ring(concat!("shin_", $s), 0.0, 0.055, 0.055, TROUSERS),
                ring(concat!("foot_", $s), -0.1, 0.045, 0.05, SHOES),
                ring(concat!("toe_", $s), 0.0, 0.045, 0.025, SHOES),
                ring(concat!("toe_", $s), 0.5, 0.035, 0.02, SHOES),
            ],
            sides: 6,
        };
    };
}
limbs!(ARM_L, LEG_L, "l");
limbs!(ARM_R, LEG_R, "r");

/// The character's skinned mesh: [`TORSO`], two arms and two legs, in
/// the bind pose (`world`: each joint's model matrix).
fn make_mesh(skel: &SkeletonSrc, world: &[Rigid], moving: &[bool]) -> MeshSrc {
    let mut parts: Vec<PartSrc> = Vec::new();
    for tube in [TORSO, ARM_L, ARM_R, LEG_L, LEG_R] {
        add_tube(&mut parts, skel, world, moving, &tube);
    }
    MeshSrc {
        file: "humanoid.gltf".into(),
        name: "humanoid_skin".into(),
        parts,
    }
}

/// The part of colour `color`, made on first use.
fn part_of(parts: &mut Vec<PartSrc>, color: V3) -> &mut PartSrc {
    let i = match parts.iter().position(|p| p.color == color) {
        Some(i) => i,
        None => {
            let name = match color {
                SHIRT => "shirt",
                SKIN => "skin",
                TROUSERS => "trousers",
                SHOES => "shoes",
                _ => "hair",
            };
            parts.push(PartSrc {
                material: name.into(),
                color,
                positions: Vec::new(),
                normals: Vec::new(),
                joints: Vec::new(),
                triangles: Vec::new(),
            });
            parts.len() - 1
        }
    };
    &mut parts[i]
}

/// Adds a vertex to `part`; returns its index.
fn vertex(part: &mut PartSrc, p: V3, n: V3, joint: usize) -> usize {
    part.positions.push(p);
    part.normals.push(n);
    part.joints.push(joint);
    part.positions.len() - 1
}

/// Adds triangle `t` facing away from `inside`.
fn facing_out(part: &mut PartSrc, t: [usize; 3], inside: V3) {
    let p = |i: usize| part.positions[t[i]];
    let n = assetc::gltf_math::cross(sub(p(1), p(0)), sub(p(2), p(0)));
    let out = assetc::gltf_math::dot(n, sub(p(0), inside)) > 0.0;
    part.triangles
        .push(if out { t } else { [t[0], t[2], t[1]] });
}

fn add_tube(
    parts: &mut Vec<PartSrc>,
    skel: &SkeletonSrc,
    world: &[Rigid],
    moving: &[bool],
    tube: &Tube,
) {
    let pos = |name: &str| world[skel.index_of(name).unwrap()].trans;
    let chain: Vec<V3> = tube.chain.iter().map(|n| pos(n)).collect();
    let at = |name: &str| tube.chain.iter().position(|c| *c == name).unwrap();
    // Each ring's centre, axis (along the tube) and side and front axes.
    let frames: Vec<(V3, V3, V3, V3)> = tube
        .rings
        .iter()
        .map(|r| {
            let i = at(r.joint);
            let (from, to) = if i + 1 < chain.len() {
                (chain[i], chain[i + 1])
            } else {
                (chain[i - 1], chain[i])
            };
            let bone = sub(to, from);
            let centre = add(chain[i], scale(bone, r.t));
            // Along the tube: the mean of the bones in and out of the
            // joint, so that a ring at a bend sits across it.
            let out = unit(bone);
            let axis = if i > 0 && i + 1 < chain.len() && r.t == 0.0 {
                unit(add(unit(sub(chain[i], chain[i - 1])), out))
            } else {
                out
            };
            let x = [1.0, 0.0, 0.0];
            let side = unit(sub(x, scale(axis, assetc::gltf_math::dot(x, axis))));
            let front = assetc::gltf_math::cross(axis, side);
            (centre, axis, side, front)
        })
        .collect();
    let k = tube.sides;
    let ring_point = |ri: usize, s: usize| -> (V3, V3) {
        let r = &tube.rings[ri];
        let (c, _, side, front) = frames[ri];
        let a = 2.0 * PI * s as f64 / k as f64;
        let (sn, cs) = a.sin_cos();
        let p = add(c, add(scale(side, r.side * cs), scale(front, r.front * sn)));
        // The ellipse's normal.
        let n = unit(add(scale(side, cs / r.side), scale(front, sn / r.front)));
        (p, n)
    };
    // The joint a ring's vertices are bound to: its own, or the nearest
    // ancestor that moves.
    let joint = |ri: usize| {
        let mut j = skel.index_of(tube.rings[ri].joint).unwrap();
        while !moving[j] {
            j = skel.joints[j].parent.unwrap();
        }
        j
    };
    let last = tube.rings.len() - 1;
    for (ri, ring) in tube.rings[..last].iter().enumerate() {
        let part = part_of(parts, ring.color);
        let mut ids = [Vec::new(), Vec::new()];
        for (side, id) in ids.iter_mut().enumerate() {
            for s in 0..k {
                let (p, n) = ring_point(ri + side, s);
                id.push(vertex(part, p, n, joint(ri + side)));
            }
        }
        let inside = frames[ri].0;
        for s in 0..k {
            let (a0, a1) = (ids[0][s], ids[0][(s + 1) % k]);
            let (b0, b1) = (ids[1][s], ids[1][(s + 1) % k]);
            facing_out(part, [a0, a1, b1], inside);
            facing_out(part, [a0, b1, b0], inside);
        }
    }
    // End caps, flat: a fan around the ring's centre.
    for (ri, sign) in [(0, -1.0), (last, 1.0)] {
        let color = tube.rings[ri.min(last)].color;
        let part = part_of(parts, color);
        let (c, axis, _, _) = frames[ri];
        let n = scale(axis, sign);
        let centre = vertex(part, c, n, joint(ri));
        let ids: Vec<usize> = (0..k)
            .map(|s| vertex(part, ring_point(ri, s).0, n, joint(ri)))
            .collect();
        let inside = sub(c, n);
        for s in 0..k {
            facing_out(part, [centre, ids[s], ids[(s + 1) % k]], inside);
        }
    }
}
