//! Cross-check with the PyPI package ndspy through check_with_ndspy.py, so
//! a second, unrelated parser agrees with what ndspack wrote.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use common::*;

/// The venv's Python, which has ndspy. Without it the test fails rather
/// than pass having checked nothing: `make venv` installs it, and
/// `make test` does so before the host tests.
fn venv_python() -> PathBuf {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let py = root.canonicalize().unwrap().join(".venv/bin/python");
    assert!(
        py.exists(),
        "no {}: run `make venv` (it installs ndspy, which this test needs)",
        py.display()
    );
    py
}

fn script(py: &Path, args: &[&Path]) -> Output {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("check_with_ndspy.py");
    Command::new(py).arg(script).args(args).output().unwrap()
}

fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

#[test]
fn ndspy_agrees_with_the_elf_files() {
    let py = venv_python();
    let dir = scratch("ndspy");
    let arm9 = write(&dir, "arm9.elf", &arm9_spec().build());
    let arm7 = write(&dir, "arm7.elf", &arm7_spec().build());
    let id = ndspack::Identity::new("RAGDOLL DS", "RGDL", "01", 0).unwrap();
    let rom = ndspack::pack_files(&arm9, &arm7, &id, None).unwrap();
    let rom_path = write(&dir, "rom.nds", &rom);

    let a9 = Path::new("--arm9-elf");
    let a7 = Path::new("--arm7-elf");
    let o = script(&py, &[&rom_path, a9, &arm9, a7, &arm7]);
    assert!(o.status.success(), "{}", text(&o));
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(out.lines().count(), 1, "one summary line: {out}");
    assert!(out.starts_with("ndspy OK:"), "{out}");

    // Header-only mode works too.
    let o = script(&py, &[&rom_path]);
    assert!(o.status.success(), "{}", text(&o));

    // Swapped ELF files disagree.
    let o = script(&py, &[&rom_path, a9, &arm7, a7, &arm9]);
    assert!(!o.status.success());
    assert!(text(&o).contains("arm9 RAM address"), "{}", text(&o));

    // A header byte flipped: ndspy parses it, the recomputed CRC does not match.
    let mut bad = rom.clone();
    bad[0x05] ^= 1;
    let bad_path = write(&dir, "flipped.nds", &bad);
    let o = script(&py, &[&bad_path]);
    assert!(!o.status.success());
    assert!(text(&o).contains("header CRC"), "{}", text(&o));

    // The ARM9 moved into the secure area (with a valid CRC) is refused.
    let mut bad = rom.clone();
    let size = u32_at(&bad, 0x2C) as usize;
    let code = bad[0x8000..0x8000 + size].to_vec();
    bad[0x4000..0x4000 + size].copy_from_slice(&code);
    bad[0x20..0x24].copy_from_slice(&0x4000u32.to_le_bytes());
    fix_header_crc(&mut bad);
    let bad_path = write(&dir, "secure.nds", &bad);
    let o = script(&py, &[&bad_path, a9, &arm9, a7, &arm7]);
    assert!(!o.status.success());
    assert!(text(&o).contains("secure area"), "{}", text(&o));
}
