//! Wavefront OBJ collision meshes (collision helper).
//!
//! Reads what modelling tools export for a collision world: `v x y z [w]`
//! vertices and `f` polygons (`i`, `i/t`, `i//n`, `i/t/n`, negative
//! indices relative to the end), triangulated as fans. Texture
//! coordinates, normals, objects, groups, smoothing, materials and lines
//! (`vt vn vp o g s usemtl mtllib l`) are ignored. Coordinates must be
//! finite and within `±WORLD_LIMIT` (100 units); every error names the
//! file and line, e.g.
//! `assets/worlds/stairs.obj:12: vertex index 9 out of range (8 vertices)`.

use std::fmt;
use std::path::Path;

use dsphys::collision::WORLD_LIMIT;

/// A parse error: file, 1-based line, message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ObjError {
    /// The file, as given.
    pub file: String,
    /// The 1-based line (0 when the file could not be read).
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for ObjError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line == 0 {
            write!(f, "{}: {}", self.file, self.message)
        } else {
            write!(f, "{}:{}: {}", self.file, self.line, self.message)
        }
    }
}

impl std::error::Error for ObjError {}

/// One triangle of a fan-triangulated face, with where it came from.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SourceTriangle {
    /// The three vertices (counter-clockwise seen from the front).
    pub v: [[f64; 3]; 3],
    /// The 1-based line of the `f` statement.
    pub line: usize,
}

/// A parsed mesh: vertices and triangles.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ObjMesh {
    /// The file name used in messages.
    pub file: String,
    /// Vertex positions.
    pub vertices: Vec<[f64; 3]>,
    /// Faces, as vertex indices (0-based) and their line.
    pub faces: Vec<(Vec<usize>, usize)>,
}

impl ObjMesh {
    /// The faces as triangles (fans around each face's first vertex).
    pub fn triangles(&self) -> Vec<SourceTriangle> {
        let mut out = Vec::new();
        for (face, line) in &self.faces {
            for k in 1..face.len() - 1 {
                out.push(SourceTriangle {
                    v: [
                        self.vertices[face[0]],
                        self.vertices[face[k]],
                        self.vertices[face[k + 1]],
                    ],
                    line: *line,
                });
            }
        }
        out
    }
}

/// Parses OBJ text; `file` names it in errors.
pub fn parse_obj(file: &str, text: &str) -> Result<ObjMesh, ObjError> {
    let limit = WORLD_LIMIT.to_f64();
    let mut mesh = ObjMesh {
        file: file.to_string(),
        ..ObjMesh::default()
    };
    for (i, raw_line) in text.lines().enumerate() {
        let line = i + 1;
        let err = |message: String| ObjError {
            file: file.to_string(),
            line,
            message,
        };
        let content = raw_line.split('#').next().unwrap_or("").trim();
        let mut words = content.split_whitespace();
        let Some(keyword) = words.next() else {
            continue;
        };
        match keyword {
            "v" => {
                let fields: Vec<&str> = words.collect();
                if fields.len() < 3 || fields.len() > 4 {
                    return Err(err(format!(
                        "vertex needs 3 coordinates, found {}",
                        fields.len()
                    )));
                }
                let mut p = [0.0; 3];
                for (k, name) in ["x", "y", "z"].iter().enumerate() {
                    let x: f64 = fields[k].parse().map_err(|_| {
                        err(format!("vertex {name} = {:?} is not a number", fields[k]))
                    })?;
                    if !x.is_finite() || x.abs() > limit {
                        return Err(err(format!(
                            "vertex {name} = {x} out of range ±{limit} (the supported world)"
                        )));
                    }
                    p[k] = x;
                }
                if let Some(w) = fields.get(3) {
                    let w: f64 = w
                        .parse()
                        .map_err(|_| err(format!("vertex w = {w:?} is not a number")))?;
                    if w != 1.0 {
                        return Err(err(format!("vertex w = {w}: only w = 1 is supported")));
                    }
                }
                mesh.vertices.push(p);
            }
            "f" => {
                let mut face = Vec::new();
                for word in words {
                    let mut parts = word.split('/');
                    let bad = || err(format!("face vertex {word:?} is not an index"));
                    let n: i64 = parts.next().unwrap_or("").parse().map_err(|_| bad())?;
                    // Texture and normal indices are ignored, but must be indices.
                    if parts.any(|p| !p.is_empty() && p.parse::<i64>().is_err()) {
                        return Err(bad());
                    }
                    let count = mesh.vertices.len() as i64;
                    let resolved = if n > 0 { n - 1 } else { count + n };
                    if n == 0 || resolved < 0 || resolved >= count {
                        return Err(err(format!(
                            "vertex index {n} out of range ({count} vertices)"
                        )));
                    }
                    face.push(resolved as usize);
                }
                if face.len() < 3 {
                    return Err(err(format!(
                        "face needs at least 3 vertices, found {}",
                        face.len()
                    )));
                }
                mesh.faces.push((face, line));
            }
            "vt" | "vn" | "vp" | "o" | "g" | "s" | "usemtl" | "mtllib" | "l" => {}
            other => return Err(err(format!("unknown statement {other:?}"))),
        }
    }
    Ok(mesh)
}

/// Reads and parses an OBJ file.
pub fn load_obj(path: &Path) -> Result<ObjMesh, ObjError> {
    let file = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|e| ObjError {
        file: file.clone(),
        line: 0,
        message: format!("cannot read: {e}"),
    })?;
    parse_obj(&file, &text)
}
