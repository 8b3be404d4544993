//! `make check-asset` (the `assetc check` binary), as the README's "Make
//! your own" section uses it: a copied world, a copied ragdoll and a
//! character check out, and a broken ragdoll is refused with its file,
//! line and field. The README's commands are checked to be the ones run.

use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn check(file: &Path) -> (bool, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_assetc"))
        .arg("check")
        .arg(file)
        .output()
        .expect("run assetc");
    let text =
        String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
    (out.status.success(), text)
}

/// A copy of a shipped asset under a new name, as the README says.
fn copy(tmp: &Path, from: &str, to: &str) -> PathBuf {
    let dst = tmp.join(to);
    std::fs::copy(root().join(from), &dst).expect("copy asset");
    dst
}

/// A scratch folder removed when the test ends, pass or fail: a CI
/// machine's disk is shared, and every run used to leave two behind.
struct TmpDir(PathBuf);

impl TmpDir {
    fn new(name: &str) -> Self {
        let d = std::env::temp_dir().join(format!("assetc-check-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&d).unwrap();
        TmpDir(d)
    }
}

impl std::ops::Deref for TmpDir {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.0
    }
}

impl Drop for TmpDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

#[test]
fn the_readme_commands_are_the_ones_tested() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    for line in [
        "cp assets/worlds/slope_corner.obj assets/worlds/my_world.obj",
        "make check-asset ASSET=assets/worlds/my_world.obj",
        "cp assets/ragdolls/humanoid.ragdoll assets/ragdolls/my_ragdoll.ragdoll",
        "make check-asset ASSET=assets/ragdolls/my_ragdoll.ragdoll",
        "make check-asset ASSET=assets/characters/humanoid_walk.gltf",
    ] {
        assert!(
            readme.contains(line),
            "README's \"Make your own\" should say `{line}`"
        );
    }
}

#[test]
fn a_copied_world_checks_out_and_a_ragdoll_lands_on_it() {
    let tmp = TmpDir::new("world");
    let world = copy(&tmp, "assets/worlds/slope_corner.obj", "my_world.obj");
    let (ok, out) = check(&world);
    assert!(ok, "{out}");
    assert!(
        out.contains("world: 336 triangles") && out.contains("8 of 8 sleep"),
        "{out}"
    );
    // A face that names a vertex the file does not have: refused, with
    // the file and line.
    std::fs::write(&world, "v 0 0 0\nv 1 0 0\nv 0 0 1\nf 1 2 4\n").unwrap();
    let (ok, out) = check(&world);
    assert!(!ok, "{out}");
    assert!(out.contains("my_world.obj") && out.contains(":4"), "{out}");
}

#[test]
fn a_copied_ragdoll_checks_out_and_a_broken_one_names_its_field() {
    let tmp = TmpDir::new("ragdoll");
    let rag = copy(
        &tmp,
        "assets/ragdolls/humanoid.ragdoll",
        "my_ragdoll.ragdoll",
    );
    let (ok, out) = check(&rag);
    assert!(ok, "{out}");
    assert!(
        out.contains("15 particles") && out.contains("8 of 8 sleep"),
        "{out}"
    );
    // A negative mass on the first particle line.
    let text = std::fs::read_to_string(&rag).unwrap();
    let (n, line) = text
        .lines()
        .enumerate()
        .find(|(_, l)| l.trim_start().starts_with("particle"))
        .expect("a particle line");
    // `particle name x y z mass radius`: the mass is the sixth word.
    let mut words: Vec<&str> = line.split_whitespace().collect();
    words[5] = "-3";
    let broken = text.replacen(line, &words.join(" "), 1);
    std::fs::write(&rag, broken).unwrap();
    let (ok, out) = check(&rag);
    assert!(!ok, "{out}");
    assert!(
        out.contains(&format!("my_ragdoll.ragdoll:{}", n + 1)) && out.contains("mass"),
        "{out}"
    );
}

#[test]
fn a_character_checks_out() {
    let (ok, out) = check(&root().join("assets/characters/humanoid_walk.gltf"));
    assert!(ok, "{out}");
    assert!(
        out.contains("25 joints") && out.contains("clip 'walk'"),
        "{out}"
    );
}
