//! `assetc check FILE...` (`make check-asset ASSET=...`): validates an
//! asset the way the ROM's build does, prints what it holds, and tries it
//! in the engine on the host:
//! - a world (`.obj`): its k-d tree, and eight humanoids dropped onto it
//!   one at a time from 2 m above the middle (a few centimetres apart),
//!   each until it sleeps or 10 s pass;
//! - a ragdoll (`.ragdoll`): its particles and constraints, and the
//!   ragdoll dropped eight times in the box room: when it sleeps, and
//!   how far its sticks stay from their lengths at rest;
//! - a character (`.gltf`): its skeleton and clips, and its skinned
//!   mesh if it has one.
//!
//! A bad asset is an error naming the file, line and field (exit 1).

use std::path::Path;
use std::process::ExitCode;

use assetc::gltf::{load_clips, load_skeleton};
use assetc::gltf_gx::compile_skinned;
use assetc::gltf_mesh::load_mesh;
use assetc::kdtree_build::compile_obj;
use assetc::ragdoll_def::load_ragdoll;
use dsphys::fx::{Fx1, Vec3};
use dsphys::scenario::{step_in_room, step_in_world};
use dsphys::verlet::humanoid::HUMANOID;
use dsphys::verlet::{
    ConstraintDef, ConstraintKind, ParticleDef, Ragdoll, RagdollDef, WorldContacts,
};

/// Frames a drop may take to come to rest (10 s).
const DROP_FRAMES: u32 = 600;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let files = match args.split_first() {
        Some((cmd, files)) if cmd == "check" && !files.is_empty() => files,
        _ => {
            eprintln!("usage: assetc check FILE... (.obj world, .ragdoll, .gltf character)");
            return ExitCode::from(2);
        }
    };
    let mut ok = true;
    for file in files {
        let path = Path::new(file);
        let result = match path.extension().and_then(|e| e.to_str()) {
            Some("obj") => check_world(path),
            Some("ragdoll") => check_ragdoll(path),
            Some("gltf") => check_character(path),
            _ => Err(format!(
                "{file}: not an asset assetc knows (.obj, .ragdoll, .gltf)"
            )),
        };
        match result {
            Ok(lines) => lines.iter().for_each(|l| println!("{l}")),
            Err(e) => {
                eprintln!("error: {e}");
                ok = false;
            }
        }
    }
    if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

fn m(x: Fx1) -> f64 {
    x.to_f64()
}

fn check_world(path: &Path) -> Result<Vec<String>, String> {
    let world = compile_obj(path)?;
    let r = &world.report;
    let (lo, hi) = r.bounds;
    let mut out = vec![
        format!(
            "{}: world: {} triangles ({} degenerate and {} duplicate dropped), k-d tree of {} \
             nodes ({} leaves, depth {}, at most {} triangles a leaf)",
            path.display(),
            r.triangles,
            r.degenerate.len(),
            r.duplicates.len(),
            r.nodes,
            r.leaves,
            r.max_depth,
            r.max_leaf
        ),
        format!(
            "  bounds ({:.2}, {:.2}, {:.2}) to ({:.2}, {:.2}, {:.2}) m",
            lo[0], lo[1], lo[2], hi[0], hi[1], hi[2]
        ),
    ];
    // Humanoids 2 m above the middle of the top, dropped one at a time.
    let centre = Vec3::new(
        assetc::gltf_math::fx1((lo[0] + hi[0]) / 2.0),
        assetc::gltf_math::fx1(hi[1] + 2.0),
        assetc::gltf_math::fx1((lo[2] + hi[2]) / 2.0),
    );
    let w = world.world();
    let (mut lowest, mut worst) = (f64::MAX, 0.0f64);
    let drops = Drops::run(|k| {
        let mut rag: Ragdoll = Ragdoll::new(&HUMANOID, centre + nudge(k));
        let mut contacts = WorldContacts::new();
        let rest = (1..=DROP_FRAMES).find(|_| {
            step_in_world(&mut rag, &w, &mut contacts);
            rag.is_asleep()
        });
        lowest = lowest.min(m(rag.positions()[0].y));
        if rest.is_some() {
            worst = worst.max(worst_stick(HUMANOID.constraints, rag.positions()));
        }
        rest
    });
    out.push(format!(
        "  humanoids dropped from 2 m above the middle: {}; sticks at rest within {:.2} % of \
         their lengths",
        drops.summary(),
        100.0 * worst
    ));
    if drops.slept < DROPS && lowest < lo[1] - 1.0 {
        out.push(format!(
            "  one fell off or through the world (its first particle at y = {lowest:.2} m)"
        ));
    }
    Ok(out)
}

/// The stick furthest from its length at positions `x`: `| |d| / l - 1 |`.
fn worst_stick(constraints: &[ConstraintDef], x: &[Vec3]) -> f64 {
    constraints
        .iter()
        .filter(|c| c.kind == ConstraintKind::Stick && c.min > Fx1::ZERO)
        .map(|c| (m((x[c.b as usize] - x[c.a as usize]).length()) / m(c.min) - 1.0).abs())
        .fold(0.0, f64::max)
}

/// How many drops of a check there are: where one comes to rest is
/// chaotic, so one drop says little.
const DROPS: u32 = 8;

/// Drop `k`'s offset from the drop point: `0.75 k` cm sideways.
fn nudge(k: u32) -> Vec3 {
    around(k, 0.0075 * k as f64)
}

/// A level vector of length `r` in direction `k` of [`DROPS`] around a
/// circle.
fn around(k: u32, r: f64) -> Vec3 {
    let t = k as f64 * core::f64::consts::TAU / DROPS as f64;
    Vec3::new(
        assetc::gltf_math::fx1(r * t.cos()),
        Fx1::ZERO,
        assetc::gltf_math::fx1(r * t.sin()),
    )
}

/// The frames after which each of [`DROPS`] drops slept.
struct Drops {
    slept: u32,
    frames: Vec<u32>,
}

impl Drops {
    /// Runs drop `0..DROPS` with `drop`, which gives the frame its ragdoll
    /// fell asleep at, if it did within [`DROP_FRAMES`].
    fn run(mut drop: impl FnMut(u32) -> Option<u32>) -> Drops {
        let mut frames: Vec<u32> = (0..DROPS).filter_map(&mut drop).collect();
        frames.sort_unstable();
        Drops {
            slept: frames.len() as u32,
            frames,
        }
    }

    /// "k of 8 sleep, after N frames (median; A to B)".
    fn summary(&self) -> String {
        let mut s = format!("{} of {DROPS} sleep", self.slept);
        if let (Some(first), Some(last)) = (self.frames.first(), self.frames.last()) {
            let median = self.frames[self.frames.len() / 2];
            s += &format!(", after {median} frames (median; {first} to {last})");
        }
        if self.slept < DROPS {
            s += &format!("; the rest still move after {DROP_FRAMES} frames");
        }
        s
    }
}

fn check_ragdoll(path: &Path) -> Result<Vec<String>, String> {
    let src = load_ragdoll(path).map_err(|e| e.to_string())?;
    let particles: Vec<ParticleDef> = src
        .particles
        .iter()
        .map(|p| ParticleDef::new(&p.name, p.position, p.mass, p.inv_mass, p.radius))
        .collect();
    let constraints: Vec<_> = src.constraints.iter().map(|c| c.def).collect();
    let sides = src.engine_sides();
    let def = RagdollDef {
        name: "checked",
        particles: &particles,
        constraints: &constraints,
        sides: &sides,
    };
    let count = |k: ConstraintKind| constraints.iter().filter(|c| c.kind == k).count();
    let mass: f64 = particles.iter().map(|p| m(p.mass)).sum();
    let mut out = vec![format!(
        "{}: ragdoll: {} particles ({:.1} kg), {} constraints ({} sticks, {} ranges, {} minimum \
         distances)",
        path.display(),
        particles.len(),
        mass,
        constraints.len(),
        count(ConstraintKind::Stick),
        count(ConstraintKind::Range),
        count(ConstraintKind::MinStick)
    )];
    // Dropped from 1 m in the box room, eight times; the worst stick of
    // those that rest.
    let mut worst = 0.0f64;
    let drops = Drops::run(|k| {
        // The floor is flat: a drop moved sideways is the same drop, so
        // each after the first sets one particle moving at 0.5 m/s.
        let mut rag: Ragdoll = Ragdoll::new(&def, Vec3::new(Fx1::ZERO, Fx1::ONE, Fx1::ZERO));
        if k > 0 {
            rag.set_velocity(k as usize % particles.len(), around(k, 0.5));
        }
        let rest = (1..=DROP_FRAMES).find(|_| {
            step_in_room(&mut rag);
            rag.is_asleep()
        })?;
        worst = worst.max(worst_stick(&constraints, rag.positions()));
        Some(rest)
    });
    out.push(format!(
        "  dropped from 1 m in the box room: {}; sticks at rest within {:.2} % of their lengths",
        drops.summary(),
        100.0 * worst
    ));
    Ok(out)
}

fn check_character(path: &Path) -> Result<Vec<String>, String> {
    let skel = load_skeleton(path).map_err(|e| e.to_string())?;
    // A skeleton file has no animations; a clip file has them.
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let json: serde_json::Value =
        serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    let has_clips = json["animations"].as_array().is_some_and(|a| !a.is_empty());
    let clips = if has_clips {
        load_clips(path, &skel).map_err(|e| e.to_string())?
    } else {
        Vec::new()
    };
    let roots = skel.joints.iter().filter(|j| j.parent.is_none()).count();
    let mut out = vec![format!(
        "{}: character '{}': {} joints ({} root{}), {} clip{}",
        path.display(),
        skel.name,
        skel.joints.len(),
        roots,
        if roots == 1 { "" } else { "s" },
        clips.len(),
        if clips.len() == 1 { "" } else { "s" }
    )];
    for c in &clips {
        let length = c.times.last().copied().unwrap_or(0.0);
        out.push(format!(
            "  clip '{}': {} keys over {:.2} s{}",
            c.name,
            c.times.len(),
            length,
            if c.looping { ", looping" } else { "" }
        ));
    }
    // A skinned mesh, when the file has one: as the ROM's build takes it.
    if json["meshes"].as_array().is_some_and(|m| !m.is_empty()) {
        let mesh = load_mesh(path, &skel).map_err(|e| e.to_string())?;
        let gx = compile_skinned(&mesh, &skel);
        out.push(format!(
            "  skinned mesh '{}': {} triangles in {} parts, one joint per vertex; \
             GX list of {} words, {} matrix restores",
            mesh.name,
            mesh.triangles(),
            mesh.parts.len(),
            gx.words.len(),
            gx.restores
        ));
    }
    Ok(out)
}
