//! Ragdoll definitions (`assets/ragdolls/*.ragdoll`, format in
//! `assets/ragdolls/FORMAT.md`): parsed and validated at build time, then
//! emitted as Rust source with a `static` [`dsphys::verlet::RagdollDef`].
//!
//! - [`parse_ragdoll`]: text to a validated [`RagdollDef`] (also the
//!   host-side loader for tests: [`RagdollDef::with_engine_def`]).
//! - [`emit_ragdoll_rs`]: a [`RagdollDef`] to Rust source.
//! - [`load_ragdoll`]: reads a file and parses it; [`ragdoll_rs_from_file`]
//!   does both and emits (for a `build.rs`).
//!
//! Floats are used here, on the host, at build time only: each number is
//! rounded once to FX32 (nearest), and rest lengths are computed from the
//! rounded pose.

use std::collections::HashMap;
use std::fmt;
use std::fmt::Write;
use std::path::Path;

use crate::gltf_math::{cross, dot, sub};
use dsphys::fx::{Fx1, Vec3};
use dsphys::verlet;
use dsphys::verlet::sides::MAX_SIDE_MIN;
use dsphys::verlet::{ConstraintDef, ConstraintKind, SideDef, MAX_LINK_LENGTH, MAX_SIDES};

/// A bad asset: the file, the 1-based line (0: the file as a whole), the
/// field and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AssetError {
    /// The path as given for errors.
    pub file: String,
    /// 1-based line number; 0 when the error is about the whole file.
    pub line: usize,
    /// The field, e.g. `particle 'head' field 'mass'`.
    pub field: String,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for AssetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{}: {}: {}",
            self.file, self.line, self.field, self.message
        )
    }
}

impl std::error::Error for AssetError {}

/// One parsed particle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParticleSrc {
    /// Its name.
    pub name: String,
    /// The line it was declared on.
    pub line: usize,
    /// Pose position (m).
    pub position: Vec3,
    /// Mass (kg, 0: pinned).
    pub mass: Fx1,
    /// `1 / mass` (1/kg, 0: pinned).
    pub inv_mass: Fx1,
    /// Collision radius (m).
    pub radius: Fx1,
}

/// One parsed constraint.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConstraintSrc {
    /// The line it was declared on.
    pub line: usize,
    /// The engine constraint (indices into the particles).
    pub def: ConstraintDef,
}

/// One parsed side constraint.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SideSrc {
    /// The line it was declared on.
    pub line: usize,
    /// The engine's side constraint (indices into the particles).
    pub def: SideDef,
}

/// A parsed, validated ragdoll definition (host side, owned).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RagdollDef {
    /// Particles in file order.
    pub particles: Vec<ParticleSrc>,
    /// Constraints in file order.
    pub constraints: Vec<ConstraintSrc>,
    /// Side constraints in file order.
    pub sides: Vec<SideSrc>,
}

impl RagdollDef {
    /// The engine's particle table (borrowing the names).
    pub fn engine_particles(&self) -> Vec<verlet::ParticleDef<'_>> {
        self.particles
            .iter()
            .map(|p| verlet::ParticleDef::new(&p.name, p.position, p.mass, p.inv_mass, p.radius))
            .collect()
    }

    /// The engine's constraint table.
    pub fn engine_constraints(&self) -> Vec<ConstraintDef> {
        self.constraints.iter().map(|c| c.def).collect()
    }

    /// The engine's side constraint table.
    pub fn engine_sides(&self) -> Vec<SideDef> {
        self.sides.iter().map(|c| c.def).collect()
    }

    /// Calls `f` with the engine's view of this definition (the host-side
    /// loader for tests: `Ragdoll::new(def, origin)` inside `f`).
    pub fn with_engine_def<R>(
        &self,
        name: &str,
        f: impl FnOnce(&verlet::RagdollDef<'_>) -> R,
    ) -> R {
        let particles = self.engine_particles();
        let constraints = self.engine_constraints();
        let sides = self.engine_sides();
        f(&verlet::RagdollDef {
            name,
            particles: &particles,
            constraints: &constraints,
            sides: &sides,
        })
    }

    /// The index of a particle by name.
    pub fn index_of(&self, name: &str) -> Option<usize> {
        self.particles.iter().position(|p| p.name == name)
    }
}

/// Reads and parses a `.ragdoll` file; errors name the path.
pub fn load_ragdoll(path: &Path) -> Result<RagdollDef, AssetError> {
    let shown = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|e| AssetError {
        file: shown.clone(),
        line: 0,
        field: "file".into(),
        message: format!("cannot read: {e}"),
    })?;
    parse_ragdoll(&shown, &text)
}

const FX_ONE: f64 = 4096.0;
const MAX_PARTICLES: usize = 255;

fn to_fx(x: f64) -> Fx1 {
    Fx1::from_raw((x * FX_ONE).round() as i32)
}

fn fx_to_f64(x: Fx1) -> f64 {
    x.raw() as f64 / FX_ONE
}

struct Ctx<'a> {
    file: &'a str,
    line: usize,
}

impl Ctx<'_> {
    fn err(&self, field: impl Into<String>, message: impl Into<String>) -> AssetError {
        AssetError {
            file: self.file.to_string(),
            line: self.line,
            field: field.into(),
            message: message.into(),
        }
    }

    /// A finite number in `[lo, hi]`.
    fn number(&self, field: &str, text: &str, lo: f64, hi: f64) -> Result<f64, AssetError> {
        let v: f64 = text
            .parse()
            .ok()
            .filter(|v: &f64| v.is_finite())
            .ok_or_else(|| self.err(field, format!("expected a number, found '{text}'")))?;
        if v < lo || v > hi {
            return Err(self.err(field, format!("{v} is out of range [{lo}, {hi}]")));
        }
        Ok(v)
    }
}

fn is_identifier(s: &str) -> bool {
    let mut chars = s.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// A constraint line before names are resolved.
struct PendingConstraint {
    line: usize,
    keyword: &'static str,
    kind: ConstraintKind,
    names: [String; 2],
    min: f64,
    max: f64,
}

/// A side line before names are resolved.
struct PendingSide {
    line: usize,
    names: [String; 4],
    min: f64,
}

/// Parses and validates a ragdoll definition. `file` is only used in
/// error messages.
pub fn parse_ragdoll(file: &str, text: &str) -> Result<RagdollDef, AssetError> {
    let mut particles: Vec<ParticleSrc> = Vec::new();
    let mut by_name: HashMap<String, usize> = HashMap::new();
    let mut pending: Vec<PendingConstraint> = Vec::new();
    let mut pending_sides: Vec<PendingSide> = Vec::new();

    for (i, raw_line) in text.lines().enumerate() {
        let ctx = Ctx { file, line: i + 1 };
        let content = raw_line.split('#').next().unwrap_or("");
        let fields: Vec<&str> = content.split_whitespace().collect();
        let Some((&keyword, args)) = fields.split_first() else {
            continue;
        };
        let expect = |names: &[&str]| -> Result<(), AssetError> {
            if args.len() < names.len() {
                let missing = names[args.len()].to_ascii_lowercase();
                return Err(ctx.err(
                    format!("{keyword} field '{missing}'"),
                    format!("missing (expected: {keyword} {})", names.join(" ")),
                ));
            }
            if args.len() > names.len() {
                return Err(ctx.err(
                    format!("{keyword} field {}", names.len() + 2),
                    format!(
                        "unexpected '{}' (expected: {keyword} {})",
                        args[names.len()],
                        names.join(" ")
                    ),
                ));
            }
            Ok(())
        };
        match keyword {
            "particle" => {
                let names = ["NAME", "X", "Y", "Z", "MASS", "RADIUS"];
                expect(&names)?;
                let name = args[0];
                if !is_identifier(name) {
                    return Err(ctx.err(
                        "particle field 'name'",
                        format!("'{name}' is not a name (letters, digits, _; not starting with a digit)"),
                    ));
                }
                if let Some(&prev) = by_name.get(name) {
                    return Err(ctx.err(
                        format!("particle '{name}' field 'name'"),
                        format!(
                            "duplicate name (first declared on line {})",
                            particles[prev].line
                        ),
                    ));
                }
                if particles.len() >= MAX_PARTICLES {
                    return Err(ctx.err(
                        format!("particle '{name}'"),
                        format!("too many particles (at most {MAX_PARTICLES})"),
                    ));
                }
                let field = |f: &str| format!("particle '{name}' field '{f}'");
                let x = ctx.number(&field("x"), args[1], -1000.0, 1000.0)?;
                let y = ctx.number(&field("y"), args[2], -1000.0, 1000.0)?;
                let z = ctx.number(&field("z"), args[3], -1000.0, 1000.0)?;
                let mass = ctx.number(&field("mass"), args[4], f64::NEG_INFINITY, 4096.0)?;
                if mass < 0.0 {
                    return Err(ctx.err(field("mass"), format!("negative mass {mass}")));
                }
                if mass > 0.0 && mass < 1.0 / 64.0 {
                    return Err(ctx.err(
                        field("mass"),
                        format!("{mass} kg is below 1/64 kg (use 0 to pin the particle)"),
                    ));
                }
                let radius = ctx.number(&field("radius"), args[5], 0.0, 10.0)?;
                let inv_mass = if mass > 0.0 {
                    to_fx(1.0 / mass)
                } else {
                    Fx1::ZERO
                };
                by_name.insert(name.to_string(), particles.len());
                particles.push(ParticleSrc {
                    name: name.to_string(),
                    line: ctx.line,
                    position: Vec3::new(to_fx(x), to_fx(y), to_fx(z)),
                    mass: to_fx(mass),
                    inv_mass,
                    radius: to_fx(radius),
                });
            }
            "stick" | "range" | "minstick" => {
                let (kw, kind, names): (&'static str, _, &[&str]) = match keyword {
                    "stick" => ("stick", ConstraintKind::Stick, &["A", "B"]),
                    "range" => ("range", ConstraintKind::Range, &["A", "B", "MIN", "MAX"]),
                    _ => ("minstick", ConstraintKind::MinStick, &["A", "B", "MIN"]),
                };
                expect(names)?;
                let (mut min, mut max) = (0.0, 0.0);
                // The solver compares squared lengths in 32 bits.
                let max_link = MAX_LINK_LENGTH.to_f64();
                if kind == ConstraintKind::Range {
                    let field = |f: &str| format!("range {} {} field '{f}'", args[0], args[1]);
                    min = ctx.number(&field("min"), args[2], f64::NEG_INFINITY, max_link)?;
                    max = ctx.number(&field("max"), args[3], f64::NEG_INFINITY, max_link)?;
                    if max <= 0.0 {
                        return Err(ctx.err(field("max"), format!("zero or negative length {max}")));
                    }
                    if min < 0.0 {
                        return Err(ctx.err(field("min"), format!("negative length {min}")));
                    }
                    if min > max {
                        return Err(ctx.err(field("min"), format!("min {min} is above max {max}")));
                    }
                } else if kind == ConstraintKind::MinStick {
                    let field = format!("minstick {} {} field 'min'", args[0], args[1]);
                    min = ctx.number(&field, args[2], f64::NEG_INFINITY, max_link)?;
                    if min <= 0.0 {
                        return Err(ctx.err(field, format!("zero or negative length {min}")));
                    }
                }
                pending.push(PendingConstraint {
                    line: ctx.line,
                    keyword: kw,
                    kind,
                    names: [args[0].to_string(), args[1].to_string()],
                    min,
                    max,
                });
            }
            "side" => {
                expect(&["APEX", "A", "B", "C", "MIN"])?;
                if pending_sides.len() >= MAX_SIDES {
                    return Err(ctx.err(
                        "side",
                        format!("too many side constraints (at most {MAX_SIDES})"),
                    ));
                }
                let field = format!("side {} field 'min'", args[0]);
                let min = ctx.number(&field, args[4], 0.0, MAX_SIDE_MIN.to_f64())?;
                pending_sides.push(PendingSide {
                    line: ctx.line,
                    names: [0, 1, 2, 3].map(|k| args[k].to_string()),
                    min,
                });
            }
            other => {
                return Err(ctx.err(
                    "statement",
                    format!(
                        "unknown statement '{other}' (expected particle, stick, range, minstick or side)"
                    ),
                ));
            }
        }
    }

    let whole = Ctx { file, line: 0 };
    if particles.is_empty() {
        return Err(whole.err("particle", "no particles"));
    }

    // Resolve names and compute rest lengths from the rounded pose.
    let mut constraints = Vec::with_capacity(pending.len());
    for c in &pending {
        let ctx = Ctx { file, line: c.line };
        let mut idx = [0usize; 2];
        for (k, name) in c.names.iter().enumerate() {
            let field = format!("{} field '{}'", c.keyword, if k == 0 { "a" } else { "b" });
            idx[k] = *by_name
                .get(name)
                .ok_or_else(|| ctx.err(field, format!("unknown particle '{name}'")))?;
        }
        if idx[0] == idx[1] {
            return Err(ctx.err(
                format!("{} field 'b'", c.keyword),
                format!("constraint from '{}' to itself", c.names[0]),
            ));
        }
        let (a, b) = (idx[0] as u8, idx[1] as u8);
        let def = match c.kind {
            ConstraintKind::Stick => {
                let (pa, pb) = (particles[idx[0]].position, particles[idx[1]].position);
                let d = [pb.x - pa.x, pb.y - pa.y, pb.z - pa.z].map(fx_to_f64);
                let rest = (d[0] * d[0] + d[1] * d[1] + d[2] * d[2]).sqrt();
                let rest_fx = to_fx(rest);
                if rest_fx <= Fx1::ZERO {
                    return Err(ctx.err(
                        format!("stick {} {} field 'rest length'", c.names[0], c.names[1]),
                        format!(
                            "zero rest length: the particles are at the same position (lines {} and {})",
                            particles[idx[0]].line, particles[idx[1]].line
                        ),
                    ));
                }
                if rest_fx > MAX_LINK_LENGTH {
                    return Err(ctx.err(
                        format!("stick {} {} field 'rest length'", c.names[0], c.names[1]),
                        format!(
                            "rest length {rest:.3} m is above the solver's limit of {} m",
                            MAX_LINK_LENGTH.to_f64()
                        ),
                    ));
                }
                ConstraintDef::stick(a, b, rest_fx)
            }
            ConstraintKind::Range => ConstraintDef::range(a, b, to_fx(c.min), to_fx(c.max)),
            ConstraintKind::MinStick => ConstraintDef::min_stick(a, b, to_fx(c.min)),
        };
        constraints.push(ConstraintSrc { line: c.line, def });
    }

    if particles.iter().all(|p| p.mass == Fx1::ZERO) {
        let first = &particles[0];
        return Err(AssetError {
            file: file.to_string(),
            line: first.line,
            field: format!("particle '{}' field 'mass'", first.name),
            message: "every particle has mass 0 (pinned): nothing could move".into(),
        });
    }

    // Connectivity through sticks and ranges (union-find).
    let mut parent: Vec<usize> = (0..particles.len()).collect();
    fn find(parent: &mut [usize], mut i: usize) -> usize {
        while parent[i] != i {
            parent[i] = parent[parent[i]];
            i = parent[i];
        }
        i
    }
    for c in &constraints {
        if c.def.kind == ConstraintKind::MinStick {
            continue;
        }
        let (ra, rb) = (
            find(&mut parent, c.def.a as usize),
            find(&mut parent, c.def.b as usize),
        );
        parent[ra] = rb;
    }
    let root = find(&mut parent, 0);
    for i in 1..particles.len() {
        if find(&mut parent, i) != root {
            let p = &particles[i];
            return Err(AssetError {
                file: file.to_string(),
                line: p.line,
                field: format!("particle '{}' field 'constraints'", p.name),
                message: format!(
                    "disconnected graph: no chain of stick or range constraints joins it to '{}'",
                    particles[0].name
                ),
            });
        }
    }

    let sides = pending_sides
        .iter()
        .map(|c| resolve_side(file, c, &particles, &by_name))
        .collect::<Result<_, _>>()?;
    Ok(RagdollDef {
        particles,
        constraints,
        sides,
    })
}

/// A side line's particles by name, checked against the pose: four
/// different particles, a triangle of at least 1 cm^2, and the apex at
/// least `min` in front of it (else the ragdoll would start pushed).
fn resolve_side(
    file: &str,
    c: &PendingSide,
    particles: &[ParticleSrc],
    by_name: &HashMap<String, usize>,
) -> Result<SideSrc, AssetError> {
    let ctx = Ctx { file, line: c.line };
    let fields = ["apex", "a", "b", "c"];
    let mut idx = [0usize; 4];
    for (k, name) in c.names.iter().enumerate() {
        let field = format!("side {} field '{}'", c.names[0], fields[k]);
        idx[k] = *by_name
            .get(name)
            .ok_or_else(|| ctx.err(&field, format!("unknown particle '{name}'")))?;
        if let Some(j) = idx[..k].iter().position(|&i| i == idx[k]) {
            return Err(ctx.err(
                field,
                format!("'{name}' is already the side's {}", fields[j]),
            ));
        }
    }
    let at = |k: usize| particles[idx[k]].position.to_array().map(fx_to_f64);
    let (p, a, b, cc) = (at(0), at(1), at(2), at(3));
    let (e1, e2, r) = (sub(b, a), sub(cc, a), sub(p, a));
    let field = |f: &str| format!("side {} field '{f}'", c.names[0]);
    // The engine's test takes differences from `a` below 4 m per axis.
    for (k, d) in [(0, r), (2, e1), (3, e2)] {
        if d.iter().any(|x| x.abs() >= 3.99) {
            return Err(ctx.err(
                field(fields[k]),
                format!(
                    "'{}' lies 4 m or more from '{}' on an axis in the pose (the side's reach)",
                    c.names[k], c.names[1]
                ),
            ));
        }
    }
    let n = cross(e1, e2);
    let len = dot(n, n).sqrt();
    if len < 2e-4 {
        return Err(ctx.err(
            field("c"),
            format!(
                "the triangle {} {} {} is under 1 cm^2 in the pose: no plane to keep a side of",
                c.names[1], c.names[2], c.names[3]
            ),
        ));
    }
    let h = dot(n, r) / len;
    if h < c.min {
        return Err(ctx.err(
            field("min"),
            format!(
                "'{}' lies {h:.3} m in front of the triangle {} {} {} in the pose, below min {} \
                 (front: where (b - a) x (c - a) points)",
                c.names[0], c.names[1], c.names[2], c.names[3], c.min
            ),
        ));
    }
    // The apex's foot on the triangle, in barycentric coordinates: the
    // engine shares each push by them, and refuses a foot far outside.
    let la = dot(n, cross(sub(b, p), sub(cc, p))) / (len * len);
    let lb = dot(n, cross(sub(cc, p), sub(a, p))) / (len * len);
    let foot = [la, lb, 1.0 - la - lb];
    if foot.iter().any(|l| !(-1.95..=2.95).contains(l)) {
        return Err(ctx.err(
            field("apex"),
            format!(
                "'{}' stands too far outside the triangle {} {} {} in the pose \
                 (its foot's barycentric coordinates {:.2} {:.2} {:.2}; each must lie within \
                 [-2, 3])",
                c.names[0], c.names[1], c.names[2], c.names[3], foot[0], foot[1], foot[2]
            ),
        ));
    }
    let [apex, a, b, cc] = idx.map(|i| i as u8);
    Ok(SideSrc {
        line: c.line,
        def: SideDef::new(apex, a, b, cc, to_fx(c.min)),
    })
}

/// Reads, validates and emits a ragdoll file in one go (for a `build.rs`):
/// `include!` the result to get `pub static NAME`.
pub fn ragdoll_rs_from_file(path: &Path, name: &str) -> Result<String, AssetError> {
    Ok(emit_ragdoll_rs(name, &load_ragdoll(path)?))
}

/// Rust source for `pub static NAME: dsphys::verlet::RagdollDef<'static>`
/// (`NAME` is `name` in upper case), for a crate that depends on dsphys.
pub fn emit_ragdoll_rs(name: &str, def: &RagdollDef) -> String {
    emit_ragdoll_rs_in(name, def, "dsphys")
}

/// As [`emit_ragdoll_rs`], with the engine crate's path (`"crate"` when
/// emitting into dsphys itself, as `src/verlet/humanoid.rs` is).
pub fn emit_ragdoll_rs_in(name: &str, def: &RagdollDef, krate: &str) -> String {
    let upper = name.to_ascii_uppercase();
    let mut s = String::new();
    let _ = writeln!(
        s,
        "// Generated by assetc::ragdoll_def::emit_ragdoll_rs from assets/ragdolls/{name}.ragdoll: do not edit."
    );
    let _ = writeln!(
        s,
        "// {} particles, {} constraints, {} sides. Units: metres, kilograms (FX32 raw, 1/4096).",
        def.particles.len(),
        def.constraints.len(),
        def.sides.len()
    );
    let _ = writeln!(s);
    let _ = writeln!(s, "use {krate}::fx::{{Fx1, Vec3}};");
    // `SideDef` only where the file has a side (no unused import).
    let side_def = if def.sides.is_empty() {
        ""
    } else {
        ", SideDef"
    };
    let _ = writeln!(
        s,
        "use {krate}::verlet::{{ConstraintDef, ParticleDef, RagdollDef{side_def}}};"
    );
    let _ = writeln!(s);
    let _ = writeln!(s, "/// The `{name}` ragdoll definition.");
    let _ = writeln!(s, "#[rustfmt::skip]");
    let _ = writeln!(s, "pub static {upper}: RagdollDef<'static> = RagdollDef {{");
    let _ = writeln!(s, "    name: {name:?},");
    let _ = writeln!(s, "    particles: &[");
    for p in &def.particles {
        let [x, y, z] = p.position.raw();
        let _ = writeln!(
            s,
            "        ParticleDef::new({:?}, Vec3::from_raw({x}, {y}, {z}), Fx1::from_raw({}), Fx1::from_raw({}), Fx1::from_raw({})),",
            p.name,
            p.mass.raw(),
            p.inv_mass.raw(),
            p.radius.raw()
        );
    }
    let _ = writeln!(s, "    ],");
    let _ = writeln!(s, "    constraints: &[");
    for c in &def.constraints {
        let d = &c.def;
        let names = (
            &def.particles[d.a as usize].name,
            &def.particles[d.b as usize].name,
        );
        let _ = match d.kind {
            ConstraintKind::Stick => writeln!(
                s,
                "        ConstraintDef::stick({}, {}, Fx1::from_raw({})), // {} {}",
                d.a,
                d.b,
                d.min.raw(),
                names.0,
                names.1
            ),
            ConstraintKind::Range => writeln!(
                s,
                "        ConstraintDef::range({}, {}, Fx1::from_raw({}), Fx1::from_raw({})), // {} {}",
                d.a,
                d.b,
                d.min.raw(),
                d.max.raw(),
                names.0,
                names.1
            ),
            ConstraintKind::MinStick => writeln!(
                s,
                "        ConstraintDef::min_stick({}, {}, Fx1::from_raw({})), // {} {}",
                d.a,
                d.b,
                d.min.raw(),
                names.0,
                names.1
            ),
        };
    }
    let _ = writeln!(s, "    ],");
    if def.sides.is_empty() {
        let _ = writeln!(s, "    sides: &[],");
    } else {
        let _ = writeln!(s, "    sides: &[");
        for c in &def.sides {
            let d = &c.def;
            let name = |i: u8| &def.particles[i as usize].name;
            let _ = writeln!(
                s,
                "        SideDef::new({}, {}, {}, {}, Fx1::from_raw({})), // {} over {} {} {}",
                d.apex,
                d.a,
                d.b,
                d.c,
                d.min.raw(),
                name(d.apex),
                name(d.a),
                name(d.b),
                name(d.c)
            );
        }
        let _ = writeln!(s, "    ],");
    }
    let _ = writeln!(s, "}};");
    s
}
