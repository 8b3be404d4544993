//! The `ndspack` binary: pack, check, and the exit codes and messages a
//! Makefile relies on.

mod common;

use std::path::Path;
use std::process::{Command, Output};

use common::*;

fn ndspack(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ndspack"))
        .args(args)
        .output()
        .unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn pack_sample(dir: &Path) -> std::path::PathBuf {
    let arm9 = write(dir, "arm9.elf", &arm9_spec().build());
    let arm7 = write(dir, "arm7.elf", &arm7_spec().build());
    let out = dir.join("out.nds");
    let o = ndspack(&[
        "--arm9",
        arm9.to_str().unwrap(),
        "--arm7",
        arm7.to_str().unwrap(),
        "--title",
        "RAGDOLL DS",
        "--game-code",
        "RGDL",
        "--maker-code",
        "01",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "pack failed: {}", stderr(&o));
    out
}

#[test]
fn pack_then_check() {
    let dir = scratch("cli_pack_check");
    let out = pack_sample(&dir);
    let o = ndspack(&["check", out.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(text.contains(": OK"), "{text}");
    assert!(text.contains("arm9: rom 0x08000"), "{text}");
    assert!(text.contains("RGDL"), "{text}");
}

#[test]
fn defaults_give_a_valid_rom() {
    let dir = scratch("cli_defaults");
    let arm9 = write(&dir, "arm9.elf", &arm9_spec().build());
    let arm7 = write(&dir, "arm7.elf", &arm7_spec().build());
    let out = dir.join("d.nds");
    let o = ndspack(&[
        "--arm9",
        arm9.to_str().unwrap(),
        "--arm7",
        arm7.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let rom = std::fs::read(&out).unwrap();
    assert_eq!(&rom[0..12], b"HOMEBREW\0\0\0\0");
    assert_eq!(&rom[0x0C..0x10], b"####");
    assert!(ndspack(&["check", out.to_str().unwrap()]).status.success());
}

#[test]
fn check_fails_on_a_flipped_header_byte() {
    let dir = scratch("cli_flip");
    let out = pack_sample(&dir);
    let mut rom = std::fs::read(&out).unwrap();
    rom[0x20] ^= 0x04;
    let bad = write(&dir, "bad.nds", &rom);
    let o = ndspack(&["check", bad.to_str().unwrap()]);
    assert!(!o.status.success());
    let e = stderr(&o);
    assert!(e.contains("bad.nds") && e.contains("header CRC"), "{e}");
}

#[test]
fn bad_elf_fails_with_the_file_named_and_writes_nothing() {
    let dir = scratch("cli_bad_elf");
    let arm9 = write(&dir, "arm9.elf", b"not an elf at all");
    let arm7 = write(&dir, "arm7.elf", &arm7_spec().build());
    let out = dir.join("never.nds");
    let o = ndspack(&[
        "--arm9",
        arm9.to_str().unwrap(),
        "--arm7",
        arm7.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
    ]);
    assert!(!o.status.success());
    let e = stderr(&o);
    assert!(
        e.contains(&format!(
            "arm9 ELF {}: not an ELF file (bad magic)",
            arm9.display()
        )),
        "{e}"
    );
    assert!(!out.exists());
}

#[test]
fn usage_errors() {
    let o = ndspack(&["--arm9", "a.elf"]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("missing --arm7"), "{}", stderr(&o));
    let o = ndspack(&["--bogus"]);
    assert!(stderr(&o).contains("unknown argument"), "{}", stderr(&o));
    let o = ndspack(&["check"]);
    assert!(!o.status.success());
    let o = ndspack(&["--title", "lower", "--arm9", "a", "--arm7", "b", "-o", "c"]);
    assert!(stderr(&o).contains("title \"lower\""), "{}", stderr(&o));
    let o = ndspack(&["check", "/nonexistent.nds"]);
    assert!(stderr(&o).contains("ROM /nonexistent.nds: cannot read file"));
    assert!(ndspack(&["--help"]).status.success());
}

/// Packs the sample with `banner` as the icon/title source.
fn pack_with_banner(dir: &Path, banner: &Path) -> Output {
    let arm9 = write(dir, "arm9.elf", &arm9_spec().build());
    let arm7 = write(dir, "arm7.elf", &arm7_spec().build());
    let out = dir.join("out.nds");
    ndspack(&[
        "--arm9",
        arm9.to_str().unwrap(),
        "--arm7",
        arm7.to_str().unwrap(),
        "--banner",
        banner.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
    ])
}

#[test]
fn the_shipped_banner_packs_and_checks_and_a_broken_one_is_caught() {
    let dir = scratch("cli_banner");
    let shipped = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets/banner/banner.txt");
    let o = pack_with_banner(&dir, &shipped);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = dir.join("out.nds");
    assert!(ndspack(&["check", out.to_str().unwrap()]).status.success());
    // Header 0x68 points at it; one flipped icon bit breaks its CRC,
    // and the check says so (the header CRC does not cover it).
    let mut rom = std::fs::read(&out).unwrap();
    let at = u32::from_le_bytes(rom[0x68..0x6C].try_into().unwrap()) as usize;
    assert!(at >= 0x8000, "{at:#x}");
    rom[at + 0x100] ^= 0x10;
    let bad = write(&dir, "bad.nds", &rom);
    let o = ndspack(&["check", bad.to_str().unwrap()]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("icon/title CRC"), "{}", stderr(&o));
}

#[test]
fn a_bad_banner_source_names_its_file_line_and_field() {
    let dir = scratch("cli_bad_banner");
    let text = "title: x\ncolour 3: #12345\nicon:\n";
    let src = write(&dir, "banner.txt", text.as_bytes());
    let o = pack_with_banner(&dir, &src);
    assert!(!o.status.success());
    let e = stderr(&o);
    assert!(e.contains("banner.txt:2: colour 3"), "{e}");
}
