//! Bad ELF input gives an error that names the CPU, the file and the fault.

mod common;

use std::path::Path;

use common::*;
use ndspack::{load_elf, pack_files, Cpu, Identity};

/// Loads `bytes` as `cpu`'s ELF and returns the error message.
fn error_for(cpu: Cpu, name: &str, bytes: &[u8]) -> String {
    let dir = scratch(&format!("elf_errors_{name}"));
    let path = write(&dir, &format!("{name}.elf"), bytes);
    let err = load_elf(cpu, &path).unwrap_err().to_string();
    assert!(
        err.starts_with(&format!("{cpu} ELF {}: ", path.display())),
        "error does not name the file: {err}"
    );
    err
}

fn assert_contains(err: &str, want: &str) {
    assert!(err.contains(want), "expected {want:?} in: {err}");
}

#[test]
fn missing_file() {
    let path = Path::new("/nonexistent/dir/arm9-rom");
    let err = load_elf(Cpu::Arm9, path).unwrap_err().to_string();
    assert_contains(&err, "arm9 ELF /nonexistent/dir/arm9-rom: cannot read file");
}

#[test]
fn pack_names_the_failing_file() {
    let dir = scratch("pack_names");
    let arm9 = write(&dir, "good9.elf", &arm9_spec().build());
    let arm7 = write(&dir, "bad7.elf", b"garbage");
    let id = Identity::new("X", "####", "00", 0).unwrap();
    let err = pack_files(&arm9, &arm7, &id, None).unwrap_err().to_string();
    assert_contains(&err, "arm7 ELF ");
    assert_contains(&err, "bad7.elf: not an ELF file (bad magic)");
}

#[test]
fn not_an_elf() {
    let err = error_for(Cpu::Arm9, "text", b"this is a text file, not an ELF");
    assert_contains(&err, "not an ELF file (bad magic)");
    let err = error_for(Cpu::Arm9, "empty", b"");
    assert_contains(&err, "bad magic");
}

#[test]
fn truncated_elf() {
    let full = arm9_spec().build();
    let err = error_for(Cpu::Arm9, "trunc_header", &full[..30]);
    assert_contains(&err, "truncated");
    // Header intact, program headers cut off.
    let err = error_for(Cpu::Arm9, "trunc_phdrs", &full[..60]);
    assert_contains(&err, "program headers");
    // Program headers intact, segment bytes cut off.
    let err = error_for(Cpu::Arm9, "trunc_data", &full[..full.len() - 10]);
    assert_contains(&err, "outside the file");
}

#[test]
fn wrong_class_endianness_or_machine() {
    let mut spec = arm9_spec();
    spec.class = 2;
    assert_contains(
        &error_for(Cpu::Arm9, "elf64", &spec.build()),
        "not a 32-bit ELF",
    );
    let mut spec = arm9_spec();
    spec.data_enc = 2;
    assert_contains(
        &error_for(Cpu::Arm9, "be", &spec.build()),
        "not a little-endian ELF",
    );
    let mut spec = arm9_spec();
    spec.machine = 3; // x86
    assert_contains(
        &error_for(Cpu::Arm9, "x86", &spec.build()),
        "not an ARM ELF",
    );
}

#[test]
fn no_loadable_segment() {
    let mut note = Seg::load(0x0200_0000, vec![1, 2, 3, 4]);
    note.p_type = PT_NOTE;
    let mut bss = Seg::load(0x0200_0000, Vec::new());
    bss.extra_mem = 0x100;
    let spec = ElfSpec::arm(0x0200_0000, vec![note, bss]);
    assert_contains(
        &error_for(Cpu::Arm9, "noload", &spec.build()),
        "no loadable segment",
    );
}

#[test]
fn load_address_outside_ram() {
    // An ARM9 may not load into ARM7 WRAM...
    let spec = ElfSpec::arm(0x037F_8000, vec![Seg::load(0x037F_8000, vec![0; 16])]);
    let err = error_for(Cpu::Arm9, "arm9_wram", &spec.build());
    assert_contains(&err, "outside the allowed RAM");
    // ...the ARM7 may, but not past 0x03807E00...
    let spec = ElfSpec::arm(0x0380_0000, vec![Seg::load(0x0380_0000, vec![0; 0x8000])]);
    let err = error_for(Cpu::Arm7, "arm7_wram_end", &spec.build());
    assert_contains(&err, "0x03800000..0x03808000");
    // ...and nobody into the BIOS area.
    let spec = ElfSpec::arm(0x0000_0000, vec![Seg::load(0, vec![0; 16])]);
    assert_contains(
        &error_for(Cpu::Arm7, "arm7_zero", &spec.build()),
        "allowed RAM",
    );
    // An ITCM section whose LMA was left at its VMA is caught too.
    let mut spec = arm9_spec();
    spec.segs[1].paddr = 0x01FF_8000;
    assert_contains(
        &error_for(Cpu::Arm9, "itcm_lma", &spec.build()),
        "0x01ff8000",
    );
}

#[test]
fn binary_too_large() {
    let spec = ElfSpec::arm(
        0x0200_0000,
        vec![Seg::load(0x0200_0000, vec![0; 0x3B_FE04])],
    );
    assert_contains(&error_for(Cpu::Arm9, "huge", &spec.build()), "too large");
    // Two small segments far apart also make a huge flat image.
    let spec = ElfSpec::arm(
        0x0200_0000,
        vec![
            Seg::load(0x0200_0000, vec![0; 4]),
            Seg::load(0x0240_0000, vec![0; 4]),
        ],
    );
    assert_contains(&error_for(Cpu::Arm9, "sparse", &spec.build()), "too large");
}

#[test]
fn entry_outside_the_image() {
    let mut spec = arm9_spec();
    spec.entry = 0x0200_2000; // in .bss, which has no file bytes
    assert_contains(
        &error_for(Cpu::Arm9, "entry_bss", &spec.build()),
        "entry point 0x02002000 is outside the loaded image",
    );
}

#[test]
fn overlapping_segments() {
    let spec = ElfSpec::arm(
        0x0200_0000,
        vec![
            Seg::load(0x0200_0000, vec![0; 0x100]),
            Seg::load(0x0200_0080, vec![0; 0x100]),
        ],
    );
    assert_contains(&error_for(Cpu::Arm9, "overlap", &spec.build()), "overlap");
}
