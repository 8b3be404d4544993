//! Brad tables (`assets/ragdolls/*.brads`, format in
//! `assets/ragdolls/FORMAT.md`): which ragdoll particles pin which
//! animation joint, validated at build time against both the ragdoll
//! definition and the skeleton, then emitted as a `static`
//! [`dsphys::anim::BradTableDef`].
//!
//! The table must agree with the bind pose: built from the ragdoll's rest
//! positions, each brad's frame must be its joint's bind frame within
//! [`BIND_ANGLE_TOL`], and its particle must sit on the joint within
//! [`BIND_POSITION_TOL`]. That is what makes a brad reproduce its joint.

use std::fmt::Write;
use std::path::Path;

use dsphys::anim::{Axis, BradDef};

use crate::gltf::{load_skeleton, SkeletonSrc};
use crate::gltf_math::{brad_frame, fx_mat4x3, sub, vec_f64, Rigid};
use crate::ragdoll_def::{load_ragdoll, AssetError, RagdollDef};

/// Largest angle (radians) between a brad's rest frame and its joint's
/// bind frame: 0.5°.
pub const BIND_ANGLE_TOL: f64 = 0.5 * std::f64::consts::PI / 180.0;
/// Largest distance (m) between a brad's particle and its joint in the
/// bind pose: 1 mm.
pub const BIND_POSITION_TOL: f64 = 1e-3;
/// The goal must be at least this far from parallel to A at rest
/// (sin 5°): a table that starts near the degenerate case is a mistake.
pub const REST_MIN_SIN: f64 = 0.087;

/// One `brad` line, by name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BradSrc {
    /// Its line.
    pub line: usize,
    /// Joint name.
    pub joint: String,
    /// Particle at the joint.
    pub particle: String,
    /// A pair.
    pub a: [String; 2],
    /// Goal pair.
    pub b: [String; 2],
    /// A's local axis.
    pub axis_a: Axis,
    /// B's local axis.
    pub axis_b: Axis,
}

/// A parsed brad file (names not yet resolved).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BradFile {
    /// The file, for errors.
    pub file: String,
    /// `ragdoll PATH` (relative to the brad file) and its line.
    pub ragdoll: (String, usize),
    /// `skeleton PATH` and its line.
    pub skeleton: (String, usize),
    /// The brads in file order.
    pub brads: Vec<BradSrc>,
}

/// A resolved, validated table.
#[derive(Clone, Debug, PartialEq)]
pub struct BradTable {
    /// The ragdoll's name (file stem).
    pub ragdoll: String,
    /// The skeleton's name.
    pub skeleton: String,
    /// Brads in joint order.
    pub brads: Vec<BradDef>,
    /// Joint and particle names per brad (for comments).
    pub names: Vec<(String, String)>,
    /// Each brad joint's model-space bind matrix.
    pub bind: Vec<Rigid>,
}

fn e(file: &str, line: usize, field: impl Into<String>, message: impl Into<String>) -> AssetError {
    AssetError {
        file: file.to_string(),
        line,
        field: field.into(),
        message: message.into(),
    }
}

/// `+x`, `-y`, ... to an [`Axis`].
pub fn parse_axis(s: &str) -> Option<Axis> {
    Some(match s {
        "+x" | "x" => Axis::PosX,
        "-x" => Axis::NegX,
        "+y" | "y" => Axis::PosY,
        "-y" => Axis::NegY,
        "+z" | "z" => Axis::PosZ,
        "-z" => Axis::NegZ,
        _ => return None,
    })
}

/// `+x` etc. for an [`Axis`].
pub fn axis_name(a: Axis) -> &'static str {
    ["+x", "-x", "+y", "-y", "+z", "-z"][a as usize]
}

/// Parses the text of a brad file (syntax only; see [`resolve_brads`]).
pub fn parse_brads(file: &str, text: &str) -> Result<BradFile, AssetError> {
    let mut ragdoll = None;
    let mut skeleton = None;
    let mut brads: Vec<BradSrc> = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let body = raw.split('#').next().unwrap_or("");
        let f: Vec<&str> = body.split_whitespace().collect();
        let Some(&kw) = f.first() else { continue };
        match kw {
            "ragdoll" | "skeleton" => {
                if f.len() != 2 {
                    return Err(e(file, line, kw, "expected one path"));
                }
                let slot = if kw == "ragdoll" {
                    &mut ragdoll
                } else {
                    &mut skeleton
                };
                if slot.is_some() {
                    return Err(e(file, line, kw, "given twice"));
                }
                *slot = Some((f[1].to_string(), line));
            }
            "brad" => {
                const FIELDS: [&str; 8] = [
                    "joint", "particle", "a_from", "a_to", "axis_a", "b_from", "b_to", "axis_b",
                ];
                if f.len() != 9 {
                    let which = FIELDS
                        .get(f.len().saturating_sub(1))
                        .unwrap_or(&"end of line");
                    return Err(e(file, line, format!("brad field '{which}'"), format!("expected 8 fields (joint particle a_from a_to axis_a b_from b_to axis_b), found {}", f.len() - 1)));
                }
                let joint = f[1];
                let field = |name: &str| format!("brad '{joint}' field '{name}'");
                let axis = |k: usize, name: &str| {
                    parse_axis(f[k]).ok_or_else(|| {
                        e(
                            file,
                            line,
                            field(name),
                            format!("expected +x, -x, +y, -y, +z or -z, found '{}'", f[k]),
                        )
                    })
                };
                let (axis_a, axis_b) = (axis(5, "axis_a")?, axis(8, "axis_b")?);
                if axis_a.index() == axis_b.index() {
                    return Err(e(
                        file,
                        line,
                        field("axis_b"),
                        format!(
                            "A is {} and B is {}: they must be different axes",
                            axis_name(axis_a),
                            axis_name(axis_b)
                        ),
                    ));
                }
                if f[3] == f[4] {
                    return Err(e(
                        file,
                        line,
                        field("a_to"),
                        format!("the A axis runs from '{}' to itself", f[3]),
                    ));
                }
                if f[6] == f[7] {
                    return Err(e(
                        file,
                        line,
                        field("b_to"),
                        format!("the B goal runs from '{}' to itself", f[6]),
                    ));
                }
                if let Some(prev) = brads.iter().find(|b| b.joint == joint) {
                    return Err(e(
                        file,
                        line,
                        field("joint"),
                        format!("joint '{joint}' already has a brad (line {})", prev.line),
                    ));
                }
                brads.push(BradSrc {
                    line,
                    joint: joint.to_string(),
                    particle: f[2].to_string(),
                    a: [f[3].to_string(), f[4].to_string()],
                    b: [f[6].to_string(), f[7].to_string()],
                    axis_a,
                    axis_b,
                });
            }
            other => {
                return Err(e(
                    file,
                    line,
                    "statement",
                    format!("unknown statement '{other}' (ragdoll, skeleton or brad)"),
                ))
            }
        }
    }
    let ragdoll =
        ragdoll.ok_or_else(|| e(file, 0, "ragdoll", "missing: name the ragdoll definition"))?;
    let skeleton = skeleton.ok_or_else(|| {
        e(
            file,
            0,
            "skeleton",
            "missing: name the skeleton's glTF file",
        )
    })?;
    if brads.is_empty() {
        return Err(e(file, 0, "brad", "a brad table without brads"));
    }
    if brads.len() > 32 {
        return Err(e(
            file,
            0,
            "brad",
            format!("{} brads; at most 32 (one per joint)", brads.len()),
        ));
    }
    Ok(BradFile {
        file: file.to_string(),
        ragdoll,
        skeleton,
        brads,
    })
}

/// Resolves names against `ragdoll` (named `ragdoll_name`) and `skel` and
/// checks each brad against the bind pose.
pub fn resolve_brads(
    bf: &BradFile,
    ragdoll_name: &str,
    ragdoll: &RagdollDef,
    skel: &SkeletonSrc,
) -> Result<BradTable, AssetError> {
    let file = bf.file.as_str();
    let model = skel.model_bind();
    let rest: Vec<[f64; 3]> = ragdoll
        .particles
        .iter()
        .map(|p| vec_f64(p.position))
        .collect();
    let mut rows: Vec<(BradDef, (String, String), Rigid)> = Vec::new();
    for b in &bf.brads {
        let field = |name: &str| format!("brad '{}' field '{name}'", b.joint);
        let joint = skel.index_of(&b.joint).ok_or_else(|| {
            e(
                file,
                b.line,
                field("joint"),
                format!(
                    "missing joint '{}' in skeleton '{}' ({})",
                    b.joint, skel.name, skel.file
                ),
            )
        })?;
        let particle = |name: &str, f: &str| {
            ragdoll.index_of(name).ok_or_else(|| {
                e(
                    file,
                    b.line,
                    field(f),
                    format!("no particle '{name}' in ragdoll '{ragdoll_name}'"),
                )
            })
        };
        let p = particle(&b.particle, "particle")?;
        let a = [particle(&b.a[0], "a_from")?, particle(&b.a[1], "a_to")?];
        let g = [particle(&b.b[0], "b_from")?, particle(&b.b[1], "b_to")?];
        let bind = model[joint];
        let off = crate::gltf_math::len(sub(rest[p], bind.trans));
        if off > BIND_POSITION_TOL {
            return Err(e(
                file,
                b.line,
                field("particle"),
                format!(
                    "particle '{}' is {:.1} mm from joint '{}' in the bind pose (at most {} mm)",
                    b.particle,
                    off * 1000.0,
                    b.joint,
                    BIND_POSITION_TOL * 1000.0
                ),
            ));
        }
        let av = sub(rest[a[1]], rest[a[0]]);
        let gv = sub(rest[g[1]], rest[g[0]]);
        let frame = brad_frame(
            av,
            gv,
            (b.axis_a.index(), b.axis_a.is_negative()),
            (b.axis_b.index(), b.axis_b.is_negative()),
            REST_MIN_SIN,
        )
        .ok_or_else(|| {
            e(
                file,
                b.line,
                field("b_to"),
                "at rest the B goal is within 5° of parallel to the A axis (or A has no length)",
            )
        })?;
        let angle = frame.max_column_angle(&bind.rot);
        if angle > BIND_ANGLE_TOL {
            return Err(e(file, b.line, field("axis_a"), format!("the brad frame is {:.2}° off joint '{}''s bind frame (at most {:.2}°): check the pairs and the axes", angle.to_degrees(), b.joint, BIND_ANGLE_TOL.to_degrees())));
        }
        let def = BradDef {
            joint: joint as u8,
            particle: p as u8,
            a: a.map(|i| i as u8),
            b: g.map(|i| i as u8),
            axis_a: b.axis_a,
            axis_b: b.axis_b,
        };
        rows.push((def, (b.joint.clone(), b.particle.clone()), bind));
    }
    rows.sort_by_key(|r| r.0.joint);
    Ok(BradTable {
        ragdoll: ragdoll_name.to_string(),
        skeleton: skel.name.clone(),
        brads: rows.iter().map(|r| r.0).collect(),
        names: rows.iter().map(|r| r.1.clone()).collect(),
        bind: rows.iter().map(|r| r.2).collect(),
    })
}

/// Reads a brad file and the ragdoll and skeleton it names (paths
/// relative to it), and validates it.
pub fn load_brads(path: &Path) -> Result<BradTable, AssetError> {
    let file = path.display().to_string();
    let text = std::fs::read_to_string(path)
        .map_err(|er| e(&file, 0, "file", format!("cannot read: {er}")))?;
    let bf = parse_brads(&file, &text)?;
    let dir = path.parent().unwrap_or(Path::new("."));
    let rpath = dir.join(&bf.ragdoll.0);
    let ragdoll = load_ragdoll(&rpath)?;
    let rname = rpath
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or("ragdoll")
        .to_string();
    let skel = load_skeleton(&dir.join(&bf.skeleton.0))?;
    resolve_brads(&bf, &rname, &ragdoll, &skel)
}

fn axis_variant(a: Axis) -> &'static str {
    ["PosX", "NegX", "PosY", "NegY", "PosZ", "NegZ"][a as usize]
}

/// Rust source for `pub static NAME: BradTableDef` (upper-cased `name`),
/// using the engine as `krate` (`crate` inside dsphys, `dsphys` outside).
pub fn emit_brads_rs_in(name: &str, source: &str, t: &BradTable, krate: &str) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "// Generated by assetc::brads::emit_brads_rs_in from {source}: do not edit."
    );
    let _ = writeln!(
        s,
        "// {} brads: ragdoll '{}' onto skeleton '{}'.\n",
        t.brads.len(),
        t.ragdoll,
        t.skeleton
    );
    let _ = writeln!(s, "use {krate}::anim::{{Axis, BradDef, BradTableDef}};");
    let _ = writeln!(s, "use {krate}::fx::{{Mat3, Mat4x3, Vec3}};\n");
    let _ = writeln!(s, "/// The `{name}` brad table.");
    let _ = writeln!(s, "#[rustfmt::skip]");
    let _ = writeln!(
        s,
        "pub static {}: BradTableDef<'static> = BradTableDef {{",
        name.to_uppercase()
    );
    let _ = writeln!(
        s,
        "    name: {name:?},\n    ragdoll: {:?},\n    skeleton: {:?},",
        t.ragdoll, t.skeleton
    );
    let _ = writeln!(s, "    brads: &[");
    for (b, (j, p)) in t.brads.iter().zip(&t.names) {
        let _ = writeln!(
            s,
            "        BradDef {{ joint: {}, particle: {}, a: [{}, {}], b: [{}, {}], axis_a: Axis::{}, axis_b: Axis::{} }}, // {j} at {p}",
            b.joint, b.particle, b.a[0], b.a[1], b.b[0], b.b[1], axis_variant(b.axis_a), axis_variant(b.axis_b)
        );
    }
    let _ = writeln!(s, "    ],\n    bind: &[");
    for m in &t.bind {
        let _ = writeln!(s, "        {},", mat4x3_src(&fx_mat4x3(m)));
    }
    let _ = writeln!(s, "    ],\n}};");
    s
}

/// Rust source of an engine matrix.
pub fn mat4x3_src(m: &dsphys::fx::Mat4x3) -> String {
    let v = |v: dsphys::fx::Vec3| {
        let [x, y, z] = v.raw();
        format!("Vec3::from_raw({x}, {y}, {z})")
    };
    let [c0, c1, c2] = m.rot.cols;
    format!(
        "Mat4x3::new(Mat3::from_cols({}, {}, {}), {})",
        v(c0),
        v(c1),
        v(c2),
        v(m.trans)
    )
}
