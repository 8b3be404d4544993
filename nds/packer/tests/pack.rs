//! Packing real (hand-assembled) ELF files and reading every field back.

mod common;

use common::*;
use ndspack::{check_rom, pack_files, Identity};

fn id() -> Identity {
    Identity::new("RAGDOLL DS", "RGDL", "01", 2).unwrap()
}

#[test]
fn every_field_round_trips() {
    let dir = scratch("round_trip");
    let arm9 = write(&dir, "arm9.elf", &arm9_spec().build());
    let arm7 = write(&dir, "arm7.elf", &arm7_spec().build());
    let rom = pack_files(&arm9, &arm7, &id(), None).unwrap();

    // Identity.
    assert_eq!(&rom[0x00..0x0C], b"RAGDOLL DS\0\0");
    assert_eq!(&rom[0x0C..0x10], b"RGDL");
    assert_eq!(&rom[0x10..0x12], b"01");
    assert_eq!(rom[0x12], 0, "unit code NDS");
    assert_eq!(rom[0x1E], 2, "ROM version");

    // ARM9: the flat image spans code, the gap and the ITCM's LMA copy.
    let arm9_size = 0x1080;
    assert_eq!(u32_at(&rom, 0x20), 0x8000);
    assert_eq!(u32_at(&rom, 0x24), 0x0200_0000);
    assert_eq!(u32_at(&rom, 0x28), 0x0200_0000);
    assert_eq!(u32_at(&rom, 0x2C), arm9_size);
    assert_eq!(&rom[0x8000..0x8123], &pattern(0x123, 1)[..]);
    assert!(rom[0x8123..0x9000].iter().all(|&b| b == 0), "gap is zero");
    assert_eq!(&rom[0x9000..0x9080], &pattern(0x80, 0x55)[..]);

    // ARM7 right after, 0x200-aligned.
    let arm7_off = 0x9200;
    assert_eq!(u32_at(&rom, 0x30), arm7_off);
    assert_eq!(u32_at(&rom, 0x34), 0x037F_8000);
    assert_eq!(u32_at(&rom, 0x38), 0x037F_8000);
    assert_eq!(u32_at(&rom, 0x3C), 0x40);
    let a7 = arm7_off as usize;
    assert_eq!(&rom[a7..a7 + 0x40], &pattern(0x40, 9)[..]);

    // Empty file system, the ROM control words, sizes, logo and CRCs.
    assert_eq!(u32_at(&rom, 0x40), 0x9400);
    assert_eq!(u32_at(&rom, 0x44), 9);
    assert_eq!(&rom[0x9400..0x9409], &[8, 0, 0, 0, 0, 0, 1, 0, 0]);
    assert_eq!(u32_at(&rom, 0x48), 0x9600);
    assert_eq!(u32_at(&rom, 0x4C), 0);
    assert_eq!(u32_at(&rom, 0x60), 0x0058_6000);
    assert_eq!(u32_at(&rom, 0x64), 0x0018_08F8);
    assert_eq!(u16_at(&rom, 0x6E), 0x051E);
    assert_eq!(u32_at(&rom, 0x80), 0x9600);
    assert_eq!(rom.len(), 0x9600);
    assert_eq!(u32_at(&rom, 0x84), 0x4000);
    assert_eq!(rom[0x14], 0, "0x9600 bytes fit a 128 KiB chip");
    assert_eq!(&rom[0xC0..0x15C], &ndspack::logo::LOGO[..]);
    assert_eq!(u16_at(&rom, 0x15C), 0xCF56);
    assert_eq!(
        u16_at(&rom, 0x15E),
        ndspack::crc::crc16_modbus(&rom[..0x15E])
    );
    // Header padding and the secure area are empty.
    assert!(rom[0x160..0x8000].iter().all(|&b| b == 0));

    // And the independent checker agrees on every CPU field.
    let info = check_rom(&rom).unwrap();
    assert_eq!(info.arm9.rom_offset, 0x8000);
    assert_eq!(info.arm9.size, arm9_size);
    assert_eq!(info.arm7.rom_offset, arm7_off);
    assert_eq!(info.title, "RAGDOLL DS");
}

#[test]
fn arm7_in_main_ram_and_thumb_entry() {
    let dir = scratch("arm7_main_ram");
    let arm9 = write(&dir, "arm9.elf", &arm9_spec().build());
    // Thumb entry (bit 0 set) one halfword into the image.
    let spec = ElfSpec::arm(0x0238_0003, vec![Seg::load(0x0238_0000, pattern(0x22, 3))]);
    let arm7 = write(&dir, "arm7.elf", &spec.build());
    let rom = pack_files(&arm9, &arm7, &id(), None).unwrap();
    assert_eq!(u32_at(&rom, 0x34), 0x0238_0003);
    assert_eq!(u32_at(&rom, 0x38), 0x0238_0000);
    assert_eq!(u32_at(&rom, 0x3C), 0x24, "size padded to a word");
    check_rom(&rom).unwrap();
}

#[test]
fn device_capacity_grows_with_the_rom() {
    let dir = scratch("capacity");
    // 200 KiB of ARM9 pushes the ROM past 128 KiB.
    let big = ElfSpec::arm(
        0x0200_0000,
        vec![Seg::load(0x0200_0000, vec![1; 200 << 10])],
    );
    let arm9 = write(&dir, "arm9.elf", &big.build());
    let arm7 = write(&dir, "arm7.elf", &arm7_spec().build());
    let rom = pack_files(&arm9, &arm7, &id(), None).unwrap();
    assert_eq!(rom[0x14], 1);
    assert!(rom.len() > 128 << 10 && rom.len() <= 256 << 10);
    assert_eq!(rom.len() % 0x200, 0);
    check_rom(&rom).unwrap();
}
