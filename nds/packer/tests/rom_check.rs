//! `check` rejects damaged or badly laid out ROMs, each with its reason.

mod common;

use common::*;
use ndspack::{check_rom, pack, Binary, Identity};

fn good_rom() -> Vec<u8> {
    let id = Identity::new("RAGDOLL DS", "RGDL", "01", 0).unwrap();
    let arm9 = Binary {
        ram_addr: 0x0200_0000,
        entry: 0x0200_0000,
        data: pattern(0x400, 1),
    };
    let arm7 = Binary {
        ram_addr: 0x037F_8000,
        entry: 0x037F_8000,
        data: pattern(0x40, 2),
    };
    let rom = pack(&id, &arm9, &arm7, None);
    check_rom(&rom).expect("the unmodified ROM passes");
    rom
}

fn rejected(rom: &[u8], want: &str) {
    let err = check_rom(rom).expect_err("ROM should be rejected");
    assert!(err.contains(want), "expected {want:?} in: {err}");
}

#[test]
fn every_single_byte_flip_in_the_checked_header_is_caught() {
    let rom = good_rom();
    for at in 0..0x160 {
        let mut bad = rom.clone();
        bad[at] ^= 0x01;
        assert!(check_rom(&bad).is_err(), "flip at {at:#x} not caught");
    }
}

#[test]
fn flipped_title_byte_fails_the_header_crc() {
    let mut rom = good_rom();
    rom[0x03] ^= 0x20;
    rejected(&rom, "header CRC at 0x15E");
}

#[test]
fn flipped_crc_byte_fails_the_header_crc() {
    let mut rom = good_rom();
    rom[0x15F] ^= 0xFF;
    rejected(&rom, "header CRC");
}

#[test]
fn flipped_logo_byte_is_rejected_even_with_a_fixed_header_crc() {
    let mut rom = good_rom();
    rom[0xC0 + 40] ^= 0x10;
    rejected(&rom, "Nintendo logo differs at header offset 0xe8");
    fix_header_crc(&mut rom);
    rejected(&rom, "Nintendo logo");
}

#[test]
fn wrong_logo_crc_is_rejected() {
    let mut rom = good_rom();
    rom[0x15C] ^= 1;
    fix_header_crc(&mut rom);
    rejected(&rom, "logo CRC at 0x15C");
}

#[test]
fn arm9_in_the_secure_area_is_rejected() {
    let mut rom = good_rom();
    // Move the ARM9 bytes to 0x4000 and point the header at them.
    let (off, size) = (u32_at(&rom, 0x20) as usize, u32_at(&rom, 0x2C) as usize);
    let code = rom[off..off + size].to_vec();
    rom[0x4000..0x4000 + size].copy_from_slice(&code);
    rom[0x20..0x24].copy_from_slice(&0x4000u32.to_le_bytes());
    fix_header_crc(&mut rom);
    rejected(&rom, "arm9 at ROM 0x4000..0x4400 overlaps the secure area");

    // Ending inside it is just as bad.
    rom[0x20..0x24].copy_from_slice(&0x3E00u32.to_le_bytes());
    fix_header_crc(&mut rom);
    rejected(&rom, "secure area");
}

#[test]
fn header_size_must_be_0x4000() {
    let mut rom = good_rom();
    rom[0x84..0x88].copy_from_slice(&0x200u32.to_le_bytes());
    fix_header_crc(&mut rom);
    rejected(&rom, "header size at 0x84");
}

#[test]
fn truncated_rom_is_rejected() {
    let rom = good_rom();
    rejected(&rom[..0x100], "shorter than the 0x200-byte header");
    rejected(&rom[..rom.len() - 0x200], "but the file has only");
}

#[test]
fn parts_must_not_overlap_or_leave_the_rom() {
    let mut rom = good_rom();
    let arm9_off = u32_at(&rom, 0x20);
    rom[0x30..0x34].copy_from_slice(&arm9_off.to_le_bytes());
    fix_header_crc(&mut rom);
    rejected(&rom, "arm9 (0x8000+0x400) overlaps arm7");

    let mut rom = good_rom();
    rom[0x30..0x34].copy_from_slice(&0x10_0000u32.to_le_bytes());
    fix_header_crc(&mut rom);
    rejected(&rom, "arm7 at 0x100000+0x40 ends past the used ROM size");
}

#[test]
fn addresses_must_be_in_ram() {
    let mut rom = good_rom();
    rom[0x28..0x2C].copy_from_slice(&0x0100_0000u32.to_le_bytes());
    fix_header_crc(&mut rom);
    rejected(&rom, "arm9 RAM 0x01000000+0x400 is outside the allowed RAM");

    let mut rom = good_rom();
    rom[0x34..0x38].copy_from_slice(&0x0200_0000u32.to_le_bytes());
    fix_header_crc(&mut rom);
    rejected(&rom, "arm7 entry 0x02000000 is outside its image");
}

#[test]
fn device_capacity_must_cover_the_rom() {
    let mut rom = good_rom();
    let used = u32_at(&rom, 0x80);
    // Claim more used bytes than a 128 KiB chip holds (and pad the file).
    rom.resize(0x40000, 0);
    rom[0x80..0x84].copy_from_slice(&0x40000u32.to_le_bytes());
    fix_header_crc(&mut rom);
    rejected(&rom, "device capacity 0");
    assert!(used < 0x20000);
}
