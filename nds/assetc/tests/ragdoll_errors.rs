//! Each bad definition is an error that names the file, the line and the
//! field.

use assetc::ragdoll_def::{parse_ragdoll, AssetError};

const FILE: &str = "assets/ragdolls/test.ragdoll";

/// A valid three-particle arm; cases edit it.
const ARM: &str = "\
# an arm
particle shoulder 0.19 1.40 0.00 2.0 0.06
particle elbow    0.21 1.11 0.00 2.5 0.05
particle wrist    0.22 0.83 0.02 1.5 0.05
stick shoulder elbow
stick elbow wrist
minstick shoulder wrist 0.15
";

fn err(text: &str) -> AssetError {
    match parse_ragdoll(FILE, text) {
        Ok(d) => panic!("expected an error, parsed {} particles", d.particles.len()),
        Err(e) => e,
    }
}

fn check(text: &str, line: usize, field: &str, message: &str) {
    let e = err(text);
    let shown = e.to_string();
    println!("{shown}");
    assert_eq!(e.file, FILE, "{shown}");
    assert_eq!(e.line, line, "{shown}");
    assert!(
        e.field.contains(field),
        "field {:?} lacks {field:?}: {shown}",
        e.field
    );
    assert!(
        e.message.contains(message),
        "message {:?} lacks {message:?}: {shown}",
        e.message
    );
    assert!(shown.starts_with(&format!("{FILE}:{line}: ")), "{shown}");
}

#[test]
fn the_arm_is_valid() {
    let d = parse_ragdoll(FILE, ARM).unwrap();
    assert_eq!(d.particles.len(), 3);
    assert_eq!(d.constraints.len(), 3);
    // Rest length from the pose: |(0.02, -0.29, 0)| = 0.29069 m.
    let rest = d.constraints[0].def.min.to_f64();
    assert!((rest - 0.29069).abs() < 0.0003, "{rest}");
}

#[test]
fn unknown_particle_name() {
    check(
        &ARM.replace("stick elbow wrist", "stick elbow hand"),
        6,
        "stick field 'b'",
        "unknown particle 'hand'",
    );
    check(
        &ARM.replace("minstick shoulder wrist", "minstick shouldr wrist"),
        7,
        "minstick field 'a'",
        "unknown particle 'shouldr'",
    );
}

#[test]
fn zero_or_negative_rest_lengths() {
    // Two particles at the same position: a zero-length stick.
    check(
        &ARM.replace(
            "particle wrist    0.22 0.83 0.02",
            "particle wrist    0.21 1.11 0.00",
        ),
        6,
        "stick elbow wrist field 'rest length'",
        "zero rest length",
    );
    check(
        &format!("{ARM}range shoulder wrist 0.1 -0.2\n"),
        8,
        "range shoulder wrist field 'max'",
        "zero or negative length",
    );
    check(
        &format!("{ARM}range shoulder wrist 0.3 0.2\n"),
        8,
        "range shoulder wrist field 'min'",
        "above max",
    );
    check(
        &ARM.replace("minstick shoulder wrist 0.15", "minstick shoulder wrist 0"),
        7,
        "minstick shoulder wrist field 'min'",
        "zero or negative length",
    );
}

#[test]
fn lengths_beyond_the_solvers_limit() {
    // The solver compares squared lengths in 32 bits: 10 m at most.
    check(
        &format!("{ARM}range shoulder wrist 0.1 12\n"),
        8,
        "range shoulder wrist field 'max'",
        "out of range",
    );
    check(
        &ARM.replace(
            "minstick shoulder wrist 0.15",
            "minstick shoulder wrist 10.5",
        ),
        7,
        "minstick shoulder wrist field 'min'",
        "out of range",
    );
    check(
        &ARM.replace(
            "particle wrist    0.22 0.83 0.02",
            "particle wrist    0.22 12.0 0.02",
        ),
        6,
        "stick elbow wrist field 'rest length'",
        "above the solver's limit of 10 m",
    );
}

#[test]
fn disconnected_graph() {
    check(
        &ARM.replace("stick elbow wrist\n", ""),
        4,
        "particle 'wrist' field 'constraints'",
        "disconnected graph",
    );
    // A min-stick does not hold a particle to the body.
    check(
        &format!("{ARM}particle hand 0.22 0.70 0.02 0.5 0.04\nminstick wrist hand 0.05\n"),
        8,
        "particle 'hand' field 'constraints'",
        "disconnected graph",
    );
}

#[test]
fn mass_zero_everywhere() {
    let text = ARM
        .replace(" 2.0 0.06", " 0 0.06")
        .replace(" 2.5 0.05", " 0 0.05")
        .replace(" 1.5 0.05", " 0 0.05");
    check(
        &text,
        2,
        "particle 'shoulder' field 'mass'",
        "every particle has mass 0",
    );
    // One pinned particle is fine.
    let d = parse_ragdoll(FILE, &ARM.replace(" 2.0 0.06", " 0 0.06")).unwrap();
    assert_eq!(d.particles[0].inv_mass.raw(), 0);
}

#[test]
fn duplicate_names() {
    check(
        &ARM.replace("particle wrist ", "particle elbow "),
        4,
        "particle 'elbow' field 'name'",
        "duplicate name (first declared on line 3)",
    );
}

#[test]
fn bad_numbers() {
    check(
        &ARM.replace("2.5 0.05", "2,5 0.05"),
        3,
        "particle 'elbow' field 'mass'",
        "expected a number, found '2,5'",
    );
    check(
        &ARM.replace("0.21 1.11", "0.21 abc"),
        3,
        "particle 'elbow' field 'y'",
        "expected a number, found 'abc'",
    );
    check(
        &ARM.replace("0.22 0.83 0.02 1.5 0.05", "0.22 0.83 0.02 1.5 NaN"),
        4,
        "particle 'wrist' field 'radius'",
        "expected a number",
    );
    check(
        &ARM.replace("1.5 0.05", "-1.5 0.05"),
        4,
        "particle 'wrist' field 'mass'",
        "negative mass",
    );
    check(
        &ARM.replace("0.19 1.40", "1e9 1.40"),
        2,
        "particle 'shoulder' field 'x'",
        "out of range",
    );
    check(
        &ARM.replace(
            "minstick shoulder wrist 0.15",
            "minstick shoulder wrist 0.1.5",
        ),
        7,
        "minstick shoulder wrist field 'min'",
        "expected a number",
    );
}

#[test]
fn syntax_errors() {
    check(
        &ARM.replace(
            "particle wrist    0.22 0.83 0.02 1.5 0.05",
            "particle wrist 0.22 0.83",
        ),
        4,
        "particle field 'z'",
        "missing",
    );
    check(
        &ARM.replace("stick shoulder elbow", "stick shoulder elbow 0.3"),
        5,
        "stick field 4",
        "unexpected '0.3'",
    );
    check(
        &format!("{ARM}spring a b\n"),
        8,
        "statement",
        "unknown statement 'spring'",
    );
    check(
        &ARM.replace("particle elbow ", "particle 2elbow "),
        3,
        "particle field 'name'",
        "is not a name",
    );
    check(
        &ARM.replace("stick elbow wrist", "stick elbow elbow"),
        6,
        "stick field 'b'",
        "to itself",
    );
    check("# nothing\n\n", 0, "particle", "no particles");
}

/// A torso for the side constraint's cases: a chest 5 cm in front of
/// the plane of the shoulders and pelvis.
const TORSO: &str = "\
particle chest       0.00 1.42  0.05 16.0 0.12
particle pelvis      0.00 0.98 -0.03 14.0 0.12
particle shoulder_l  0.19 1.40  0.00 2.0  0.06
particle shoulder_r -0.19 1.40  0.00 2.0  0.06
stick chest shoulder_l
stick chest shoulder_r
stick chest pelvis
stick shoulder_l shoulder_r
stick shoulder_l pelvis
stick shoulder_r pelvis
side chest shoulder_l shoulder_r pelvis 0.02
";

#[test]
fn side_constraints() {
    let d = parse_ragdoll(FILE, TORSO).unwrap();
    assert_eq!(d.sides.len(), 1);
    let s = d.sides[0].def;
    assert_eq!((s.apex, s.a, s.b, s.c), (0, 2, 3, 1));
    let side = "side chest shoulder_l shoulder_r pelvis 0.02";
    let case = |new: &str| TORSO.replace(side, new);
    check(
        &case("side chest shoulder_l shoulder_r hip 0.02"),
        11,
        "side chest field 'c'",
        "unknown particle 'hip'",
    );
    check(
        &case("side chest shoulder_l chest pelvis 0.02"),
        11,
        "side chest field 'b'",
        "already the side's apex",
    );
    check(
        &case("side chest shoulder_l shoulder_r pelvis"),
        11,
        "side field 'min'",
        "missing",
    );
    check(
        &case("side chest shoulder_l shoulder_r pelvis -0.01"),
        11,
        "side chest field 'min'",
        "out of range",
    );
    check(
        &case("side chest shoulder_l shoulder_r pelvis 1.5"),
        11,
        "side chest field 'min'",
        "out of range",
    );
    // The pose's chest stands 4.8 cm in front: not 6 cm, and not behind
    // (the triangle's corners the other way round).
    check(
        &case("side chest shoulder_l shoulder_r pelvis 0.06"),
        11,
        "side chest field 'min'",
        "lies 0.048 m in front",
    );
    check(
        &case("side chest shoulder_r shoulder_l pelvis 0"),
        11,
        "side chest field 'min'",
        "lies -0.048 m in front",
    );
    // No plane: the pelvis on the shoulders' line.
    let flat = TORSO.replace(
        "particle pelvis      0.00 0.98 -0.03",
        "particle pelvis      0.00 1.40  0.00",
    );
    check(&flat, 11, "side chest field 'c'", "under 1 cm^2");
    // Beyond the engine's reach, or the foot far outside.
    let far = TORSO.replace(
        "particle pelvis      0.00 0.98 -0.03",
        "particle pelvis      0.00 -3.00 -0.03",
    );
    check(&far, 11, "side chest field 'c'", "4 m or more");
    let aside = TORSO.replace(
        "particle chest       0.00 1.42  0.05",
        "particle chest       1.50 1.42  0.05",
    );
    check(&aside, 11, "side chest field 'apex'", "too far outside");
    let five = format!("{TORSO}{side}\n{side}\n{side}\n{side}\n");
    check(&five, 15, "side", "too many side constraints");
}
