//! OBJ parsing and the build report: errors name the file and line,
//! polygons are fans, degenerate and duplicate triangles are dropped and
//! reported.

use assetc::kdtree_build::{build_world, build_world_from_triangles, compile_obj};
use assetc::obj::parse_obj;

fn err(text: &str) -> String {
    parse_obj("assets/worlds/bad.obj", text)
        .unwrap_err()
        .to_string()
}

#[test]
fn errors_name_file_line_and_field() {
    let cube = "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nv 0 0 1\nv 1 0 1\nv 1 1 1\nv 0 1 1\n";
    assert_eq!(
        err(&format!("{cube}# comment\nvt 0 0\nf 1 2 3\n\nf 1 2 9\n")),
        "assets/worlds/bad.obj:13: vertex index 9 out of range (8 vertices)"
    );
    assert_eq!(
        err("v 0 0 0\nf 1 -2 1\n"),
        "assets/worlds/bad.obj:2: vertex index -2 out of range (1 vertices)"
    );
    assert_eq!(
        err("v 0 0 0\nf 0 1 1\n"),
        "assets/worlds/bad.obj:2: vertex index 0 out of range (1 vertices)"
    );
    assert_eq!(
        err("v 1 2\n"),
        "assets/worlds/bad.obj:1: vertex needs 3 coordinates, found 2"
    );
    assert_eq!(
        err("v 1 zz 3\n"),
        "assets/worlds/bad.obj:1: vertex y = \"zz\" is not a number"
    );
    assert_eq!(
        err("\nv 1 2 150\n"),
        "assets/worlds/bad.obj:2: vertex z = 150 out of range ±100 (the supported world)"
    );
    assert_eq!(
        err("v 1 2 nan\n"),
        "assets/worlds/bad.obj:1: vertex z = NaN out of range ±100 (the supported world)"
    );
    assert_eq!(
        err("v 0 0 0\nv 1 0 0\nf 1 2\n"),
        "assets/worlds/bad.obj:3: face needs at least 3 vertices, found 2"
    );
    assert_eq!(
        err("v 0 0 0\nf 1/a 1 1\n"),
        "assets/worlds/bad.obj:2: face vertex \"1/a\" is not an index"
    );
    assert_eq!(
        err("v 0 0 0\nf x 1 1\n"),
        "assets/worlds/bad.obj:2: face vertex \"x\" is not an index"
    );
    assert_eq!(
        err("curv 0 1\n"),
        "assets/worlds/bad.obj:1: unknown statement \"curv\""
    );
    let missing = compile_obj(std::path::Path::new("assets/worlds/missing.obj")).unwrap_err();
    assert!(
        missing.starts_with("assets/worlds/missing.obj: cannot read"),
        "{missing}"
    );
}

#[test]
fn polygons_are_fans_and_extras_are_ignored() {
    let text = "mtllib x.mtl\no thing\ng group\ns 1\nusemtl stone\n\
                v 0 0 0\nv 1 0 0 1.0\nv 1 0 1\nv 0 0 1\nv 0.5 0 1.5\nvt 0 0\nvn 0 1 0\n\
                f 1/1/1 4/1/1 3/1/1 2/1/1\nf -5//1 -2//1 -1//1\nl 1 2\n";
    let mesh = parse_obj("fan.obj", text).unwrap();
    let tris = mesh.triangles();
    assert_eq!(tris.len(), 3);
    assert_eq!(
        tris[0].v,
        [[0.0, 0.0, 0.0], [0.0, 0.0, 1.0], [1.0, 0.0, 1.0]]
    );
    assert_eq!(
        tris[1].v,
        [[0.0, 0.0, 0.0], [1.0, 0.0, 1.0], [1.0, 0.0, 0.0]]
    );
    assert_eq!((tris[0].line, tris[2].line), (13, 14));
    assert_eq!(
        tris[2].v,
        [[0.0, 0.0, 0.0], [0.0, 0.0, 1.0], [0.5, 0.0, 1.5]]
    );
    let world = build_world("fan.obj", &tris).unwrap();
    assert_eq!(world.tris.len(), 3);
    // Counter-clockwise from above: the normals face +y.
    assert!(world.tris.iter().all(|t| t.normal().y.raw() == 4096));
}

#[test]
fn degenerate_and_duplicate_triangles_are_reported() {
    let text = "v 0 0 0\nv 1 0 0\nv 0 0 1\nv 2 0 0\nv 0.00001 0 0.00001\n\
                f 1 3 2\n\
                f 1 2 4\n\
                f 3 2 1\n\
                f 2 1 3\n\
                f 1 3 5\n\
                f 1 2 3\n";
    let mesh = parse_obj("assets/worlds/dirty.obj", text).unwrap();
    let world = build_world("assets/worlds/dirty.obj", &mesh.triangles()).unwrap();
    let r = &world.report;
    assert_eq!((r.triangles_in, r.triangles), (6, 2));
    // Collinear, and collinear after rounding to FX1.
    assert_eq!(
        r.degenerate.iter().map(|d| d.line).collect::<Vec<_>>(),
        [Some(7), Some(10)]
    );
    // The same turning order from other starts; the reversed copy (line
    // 11, a back face) is kept.
    assert_eq!(
        r.duplicates.iter().map(|d| d.line).collect::<Vec<_>>(),
        [Some(8), Some(9)]
    );
    let printed = r.to_string();
    assert!(
        printed
            .contains("assets/worlds/dirty.obj:7: dropped degenerate triangle: zero area in FX1"),
        "{printed}"
    );
    assert!(
        printed.contains("assets/worlds/dirty.obj:8: dropped duplicate triangle"),
        "{printed}"
    );
    assert!(
        printed.starts_with("assets/worlds/dirty.obj: 6 triangles in, 2 kept;"),
        "{printed}"
    );
    // Out of range from bare triangles is an error naming the vertex.
    let e = build_world(
        "t",
        &[assetc::obj::SourceTriangle {
            v: [[0.0; 3], [1.0, 0.0, 0.0], [0.0, 0.0, -101.0]],
            line: 4,
        }],
    )
    .unwrap_err();
    assert_eq!(e, "t:4: vertex 2 z: coordinate -101 out of range ±100");
    // An empty world is fine.
    let empty = build_world_from_triangles(&[]);
    assert_eq!((empty.nodes.len(), empty.tris.len()), (1, 0));
    assert!(empty
        .world()
        .sweep_sphere(Default::default(), Default::default(), Default::default())
        .is_none());
}
