//! Builds the flat k-d tree from triangles (collision helper), and emits
//! it as Rust source.
//!
//! Input triangles (f64, from an OBJ file or a test) are rounded to FX1
//! (within `±WORLD_LIMIT`, else an error), planes are computed by the
//! engine's own [`Triangle::new`] (so the tables are bit-identical to what
//! the DS would compute), and degenerate (zero area in FX) and duplicate
//! triangles are dropped and **reported**, never left to the run time.
//!
//! The tree is the engine's bounding-interval k-d tree ([`KdNode`]):
//! split by the surface area heuristic (areas grown by a typical query's
//! size), leaves of at most [`MAX_LEAF`] triangles, depth at most
//! [`KD_MAX_DEPTH`]; every triangle is in exactly one leaf.

use std::collections::HashSet;
use std::fmt::{self, Write as _};
use std::path::Path;

use dsphys::collision::triangle::ALL_FEATURES;
use dsphys::collision::{
    CollisionWorld, KdNode, Triangle, TriangleError, KD_MAX_DEPTH, WORLD_LIMIT,
};
use dsphys::fx::{Fx1, Vec3};

use crate::obj::{load_obj, SourceTriangle};

/// Leaves hold at most this many triangles (unless the depth limit
/// stops the splitting, which the report shows as `max_leaf`).
pub const MAX_LEAF: usize = 6;

/// Below this many triangles a node is always a leaf.
const MIN_LEAF: usize = 2;

/// The surface area heuristic grows boxes by this much (units) on every
/// side: the size of a typical query (a hand's radius plus a step).
const QUERY_MARGIN: f64 = 0.1;

/// A triangle that was dropped, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Dropped {
    /// Its position in the input.
    pub index: usize,
    /// The source line, when it came from a file.
    pub line: Option<usize>,
    /// Why.
    pub reason: String,
}

/// What the build did: what the build prints.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct BuildReport {
    /// Where the triangles came from.
    pub source: String,
    /// Triangles given.
    pub triangles_in: usize,
    /// Triangles kept.
    pub triangles: usize,
    /// Dropped: zero area in FX1 (collinear after rounding).
    pub degenerate: Vec<Dropped>,
    /// Dropped: the same three vertices in the same turning order as an
    /// earlier triangle (a reversed copy is a back face, and is kept).
    pub duplicates: Vec<Dropped>,
    /// Tree nodes.
    pub nodes: usize,
    /// Leaves.
    pub leaves: usize,
    /// Deepest leaf (the root is depth 1).
    pub max_depth: usize,
    /// Largest leaf.
    pub max_leaf: usize,
    /// Bounds of the kept triangles, units.
    pub bounds: ([f64; 3], [f64; 3]),
    /// Triangle edges the sweep skips (flat or concave, counted once per
    /// triangle: a shared edge twice).
    pub skipped_edges: usize,
}

impl fmt::Display for BuildReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "{}: {} triangles in, {} kept; {} of their edges flat or concave (skipped); {} nodes ({} leaves, depth {}, largest leaf {}); bounds {:?}..{:?}",
            self.source,
            self.triangles_in,
            self.triangles,
            self.skipped_edges,
            self.nodes,
            self.leaves,
            self.max_depth,
            self.max_leaf,
            self.bounds.0,
            self.bounds.1
        )?;
        for (kind, list) in [
            ("degenerate", &self.degenerate),
            ("duplicate", &self.duplicates),
        ] {
            for d in list {
                match d.line {
                    Some(line) => writeln!(
                        f,
                        "{}:{}: dropped {kind} triangle: {}",
                        self.source, line, d.reason
                    )?,
                    None => writeln!(
                        f,
                        "{}: dropped {kind} triangle #{}: {}",
                        self.source, d.index, d.reason
                    )?,
                }
            }
        }
        Ok(())
    }
}

/// A built world: the tables and the report.
#[derive(Clone, Debug, Default)]
pub struct CompiledWorld {
    /// The tree.
    pub nodes: Vec<KdNode>,
    /// The triangles.
    pub tris: Vec<Triangle>,
    /// The leaves' triangle indices.
    pub indices: Vec<u16>,
    /// What the build did.
    pub report: BuildReport,
}

impl CompiledWorld {
    /// The runtime view of the tables, as the ROM sees its statics.
    pub fn world(&self) -> CollisionWorld<'_> {
        CollisionWorld {
            nodes: &self.nodes,
            tris: &self.tris,
            indices: &self.indices,
        }
    }
}

/// FX1 from units, rounded to nearest, or an error past the world range.
fn to_fx1(x: f64) -> Result<i32, String> {
    let limit = WORLD_LIMIT.to_f64();
    if !x.is_finite() || x.abs() > limit {
        return Err(format!("coordinate {x} out of range ±{limit}"));
    }
    Ok((x * 4096.0).round() as i32)
}

/// Builds a world from bare triangles (counter-clockwise seen from the
/// front). Panics on a coordinate outside `±WORLD_LIMIT`; see
/// [`build_world`] for the fallible form with source lines.
pub fn build_world_from_triangles(tris: &[[[f64; 3]; 3]]) -> CompiledWorld {
    let src: Vec<SourceTriangle> = tris
        .iter()
        .map(|&v| SourceTriangle { v, line: 0 })
        .collect();
    match build_world("<triangles>", &src) {
        Ok(w) => w,
        Err(e) => panic!("{e}"),
    }
}

/// Reads an OBJ file and builds its world. Errors name the file and line.
pub fn compile_obj(path: &Path) -> Result<CompiledWorld, String> {
    let mesh = load_obj(path).map_err(|e| e.to_string())?;
    build_world(&mesh.file, &mesh.triangles())
}

/// Builds a world from source triangles (`line` 0 means "no file line").
/// Errors name the source and line.
pub fn build_world(source: &str, input: &[SourceTriangle]) -> Result<CompiledWorld, String> {
    let mut report = BuildReport {
        source: source.to_string(),
        triangles_in: input.len(),
        ..BuildReport::default()
    };
    let mut tris = Vec::new();
    let mut seen = HashSet::new();
    let line_of = |t: &SourceTriangle| (t.line > 0).then_some(t.line);
    for (index, t) in input.iter().enumerate() {
        let at = match line_of(t) {
            Some(line) => format!("{source}:{line}"),
            None => format!("{source}: triangle #{index}"),
        };
        let mut raw = [[0i32; 3]; 3];
        for (k, p) in t.v.iter().enumerate() {
            for (c, &x) in p.iter().enumerate() {
                raw[k][c] = to_fx1(x)
                    .map_err(|e| format!("{at}: vertex {k} {}: {e}", ["x", "y", "z"][c]))?;
            }
        }
        let v = raw.map(|[x, y, z]| Vec3::from_raw(x, y, z));
        let tri = match Triangle::new(v[0], v[1], v[2]) {
            Ok(tri) => tri,
            Err(TriangleError::Degenerate) => {
                report.degenerate.push(Dropped {
                    index,
                    line: line_of(t),
                    reason: format!("zero area in FX1 (vertices {raw:?} raw)"),
                });
                continue;
            }
            Err(TriangleError::OutOfRange) => {
                return Err(format!(
                    "{at}: vertex out of range ±{}",
                    WORLD_LIMIT.to_f64()
                ))
            }
        };
        // Same cyclic order, any starting vertex: rotate the smallest first.
        let first = (0..3).min_by_key(|&k| raw[k]).unwrap_or(0);
        let key = [raw[first], raw[(first + 1) % 3], raw[(first + 2) % 3]];
        if !seen.insert(key) {
            report.duplicates.push(Dropped {
                index,
                line: line_of(t),
                reason: format!("same as an earlier triangle ({raw:?} raw)"),
            });
            continue;
        }
        tris.push(tri);
    }
    if tris.len() > u16::MAX as usize + 1 {
        return Err(format!(
            "{source}: {} triangles, at most 65536 are supported",
            tris.len()
        ));
    }
    report.triangles = tris.len();
    // Flat and concave edges (and vertices with only such edges) are
    // never touched before a face: the sweep skips them.
    dsphys::collision::features::mark(&mut tris);
    report.skipped_edges = tris
        .iter()
        .map(|t| (0..3).filter(|&e| !t.tests_edge(e)).count())
        .sum();
    let mut items: Vec<Item> = tris
        .iter()
        .enumerate()
        .map(|(ix, t)| {
            let (lo, hi) = t.bounds();
            Item {
                ix: ix as u16,
                lo: lo.raw(),
                hi: hi.raw(),
            }
        })
        .collect();
    if let Some(first) = items.first() {
        let (mut lo, mut hi) = (first.lo, first.hi);
        for it in &items {
            for k in 0..3 {
                lo[k] = lo[k].min(it.lo[k]);
                hi[k] = hi[k].max(it.hi[k]);
            }
        }
        report.bounds = (lo.map(|x| x as f64 / 4096.0), hi.map(|x| x as f64 / 4096.0));
    }
    let mut out = CompiledWorld {
        tris,
        report,
        ..CompiledWorld::default()
    };
    build_node(&mut items, 1, &mut out);
    out.report.nodes = out.nodes.len();
    out.world()
        .check()
        .map_err(|e| format!("{source}: internal error, the built tree fails its check: {e}"))?;
    Ok(out)
}

/// A triangle's bounds while building.
#[derive(Clone, Copy, Debug)]
struct Item {
    ix: u16,
    lo: [i32; 3],
    hi: [i32; 3],
}

impl Item {
    fn centre2(&self, k: usize) -> i64 {
        self.lo[k] as i64 + self.hi[k] as i64
    }
}

/// Surface area of a box (raw FX1 bounds) grown by the query margin.
fn area(lo: [i32; 3], hi: [i32; 3]) -> f64 {
    let d: Vec<f64> = (0..3)
        .map(|k| (hi[k] - lo[k]) as f64 / 4096.0 + 2.0 * QUERY_MARGIN)
        .collect();
    d[0] * d[1] + d[1] * d[2] + d[2] * d[0]
}

fn merge(a: ([i32; 3], [i32; 3]), it: &Item) -> ([i32; 3], [i32; 3]) {
    let mut out = a;
    for k in 0..3 {
        out.0[k] = out.0[k].min(it.lo[k]);
        out.1[k] = out.1[k].max(it.hi[k]);
    }
    out
}

const EMPTY: ([i32; 3], [i32; 3]) = ([i32::MAX; 3], [i32::MIN; 3]);

fn build_node(items: &mut [Item], depth: usize, out: &mut CompiledWorld) {
    let at = out.nodes.len();
    out.nodes.push(KdNode::leaf(0, 0));
    let n = items.len();
    let make_leaf = |items: &mut [Item], out: &mut CompiledWorld| {
        out.nodes[at] = KdNode::leaf(out.indices.len() as u32, items.len() as u32);
        out.indices.extend(items.iter().map(|it| it.ix));
        out.report.leaves += 1;
        out.report.max_depth = out.report.max_depth.max(depth);
        out.report.max_leaf = out.report.max_leaf.max(items.len());
    };
    if n <= MIN_LEAF || depth >= KD_MAX_DEPTH {
        make_leaf(items, out);
        return;
    }
    let parent = items.iter().fold(EMPTY, merge);
    let parent_area = area(parent.0, parent.1);
    // The best split over the three axes, sorted by centre.
    let mut best: Option<(f64, usize, usize)> = None; // (cost, axis, count left)
    let mut right_areas = vec![0.0; n + 1];
    for axis in 0..3 {
        items.sort_by_key(|it| (it.centre2(axis), it.ix));
        let mut acc = EMPTY;
        for i in (1..n).rev() {
            acc = merge(acc, &items[i]);
            right_areas[i] = area(acc.0, acc.1);
        }
        let mut acc = EMPTY;
        for i in 1..n {
            acc = merge(acc, &items[i - 1]);
            let cost = i as f64 * area(acc.0, acc.1) + (n - i) as f64 * right_areas[i];
            if best.is_none_or(|b| cost < b.0) {
                best = Some((cost, axis, i));
            }
        }
    }
    let Some((cost, axis, split)) = best else {
        make_leaf(items, out);
        return;
    };
    // Traversal costs one, each triangle one.
    let split_cost = 1.0 + cost / parent_area;
    if n <= MAX_LEAF && split_cost >= n as f64 {
        make_leaf(items, out);
        return;
    }
    items.sort_by_key(|it| (it.centre2(axis), it.ix));
    let (left, right) = items.split_at_mut(split);
    let first_max = left.iter().map(|it| it.hi[axis]).max().unwrap_or(0);
    let second_min = right.iter().map(|it| it.lo[axis]).min().unwrap_or(0);
    build_node(left, depth + 1, out);
    let second = out.nodes.len() as u32;
    build_node(right, depth + 1, out);
    out.nodes[at] = KdNode::inner(
        axis as u32,
        Fx1::from_raw(first_max),
        Fx1::from_raw(second_min),
        second,
    );
}

/// Emits the world as Rust source: `pub static NAME_NODES`, `NAME_TRIS`,
/// `NAME_INDICES` and `pub static NAME: CollisionWorld<'static>`, for a
/// crate that depends on `dsphys`. `name` is the Rust name in
/// SCREAMING_SNAKE_CASE (e.g. `STAIRS`).
pub fn emit_world_rs(name: &str, world: &CompiledWorld) -> String {
    assert!(
        !name.is_empty()
            && name
                .chars()
                .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
            && !name.starts_with(|c: char| c.is_ascii_digit()),
        "emit_world_rs: {name:?} is not a SCREAMING_SNAKE_CASE name"
    );
    let r = &world.report;
    let mut s = String::new();
    let _ = writeln!(
        s,
        "// Generated by assetc::kdtree_build::emit_world_rs from {}. Do not edit.",
        r.source
    );
    let _ = writeln!(
        s,
        "// {} triangles ({} given, {} degenerate and {} duplicate dropped), {} nodes, {} leaves, depth {}.",
        r.triangles,
        r.triangles_in,
        r.degenerate.len(),
        r.duplicates.len(),
        r.nodes,
        r.leaves,
        r.max_depth
    );
    let _ = writeln!(
        s,
        "pub static {name}_NODES: [dsphys::collision::KdNode; {}] = [",
        world.nodes.len()
    );
    for n in &world.nodes {
        if n.is_leaf() {
            let _ = writeln!(
                s,
                "    dsphys::collision::KdNode::leaf({}, {}),",
                n.link(),
                n.count()
            );
        } else {
            let _ = writeln!(
                s,
                "    dsphys::collision::KdNode::inner({}, dsphys::fx::Fx1::from_raw({}), dsphys::fx::Fx1::from_raw({}), {}),",
                n.axis(),
                n.a.raw(),
                n.b.raw(),
                n.link()
            );
        }
    }
    let _ = writeln!(s, "];");
    let _ = writeln!(
        s,
        "pub static {name}_TRIS: [dsphys::collision::Triangle; {}] = [",
        world.tris.len()
    );
    for t in &world.tris {
        let v = t.v.map(|p| p.raw());
        let u = t.u.map(|d| [d.x, d.y, d.z]);
        let _ = writeln!(
            s,
            "    dsphys::collision::Triangle::from_raw({v:?}, [{}, {}, {}], {}, {u:?}, {}){},",
            t.n.x,
            t.n.y,
            t.n.z,
            t.d.raw(),
            t.proj,
            features_suffix(t.features)
        );
    }
    let _ = writeln!(s, "];");
    let _ = writeln!(
        s,
        "pub static {name}_INDICES: [u16; {}] = {:?};",
        world.indices.len(),
        world.indices
    );
    let _ = writeln!(
        s,
        "pub static {name}: dsphys::collision::CollisionWorld<'static> = dsphys::collision::CollisionWorld {{ nodes: &{name}_NODES, tris: &{name}_TRIS, indices: &{name}_INDICES }};"
    );
    s
}

/// `.with_features(0x..)` for a triangle with skipped features, else
/// nothing (every feature tested is `from_raw`'s default).
fn features_suffix(features: u8) -> String {
    if features == ALL_FEATURES {
        String::new()
    } else {
        format!(".with_features({features:#04x})")
    }
}
