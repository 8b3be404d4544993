//! Writes the 0x200-byte cartridge header (GBATEK "DS Cartridge Header").

use crate::crc::crc16_modbus;
use crate::elf::Binary;
use crate::error::{Error, Result};
use crate::layout::{self, Layout};
use crate::logo::{LOGO, LOGO_CRC};

pub const HEADER_LEN: usize = 0x200;

// Field offsets, named as in GBATEK.
pub const TITLE: usize = 0x00;
pub const GAME_CODE: usize = 0x0C;
pub const MAKER_CODE: usize = 0x10;
pub const UNIT_CODE: usize = 0x12;
pub const DEVICE_CAPACITY: usize = 0x14;
pub const ROM_VERSION: usize = 0x1E;
pub const ARM9_ROM_OFFSET: usize = 0x20;
pub const ARM7_ROM_OFFSET: usize = 0x30;
pub const FNT_OFFSET: usize = 0x40;
pub const FAT_OFFSET: usize = 0x48;
pub const ROM_CONTROL_NORMAL: usize = 0x60;
pub const ROM_CONTROL_KEY1: usize = 0x64;
pub const ICON_TITLE_OFFSET: usize = 0x68;
pub const SECURE_AREA_DELAY: usize = 0x6E;
pub const TOTAL_USED_ROM_SIZE: usize = 0x80;
pub const HEADER_SIZE_FIELD: usize = 0x84;
pub const LOGO_OFFSET: usize = 0xC0;
pub const LOGO_CRC_OFFSET: usize = 0x15C;
pub const HEADER_CRC_OFFSET: usize = 0x15E;

/// Port 0x040001A4 settings for normal and KEY1 commands: the values
/// ndstool writes for homebrew (and most retail carts use).
pub const ROM_CONTROL_NORMAL_VALUE: u32 = 0x0058_6000;
pub const ROM_CONTROL_KEY1_VALUE: u32 = 0x0018_08F8;
/// Secure area transfer delay in 131 kHz units (0x051E = 10 ms).
pub const SECURE_AREA_DELAY_VALUE: u16 = 0x051E;

/// The names and version that identify the game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Identity {
    pub title: String,
    pub game_code: String,
    pub maker_code: String,
    pub version: u8,
}

impl Identity {
    /// Checks the codes against the header's rules (uppercase ASCII).
    pub fn new(title: &str, game_code: &str, maker_code: &str, version: u8) -> Result<Self> {
        check_text("title", title, 1..=12, |c| {
            (c.is_ascii_graphic() && !c.is_ascii_lowercase()) || c == ' '
        })?;
        // '#' is ndstool's placeholder game code for homebrew.
        check_text("game code", game_code, 4..=4, |c| {
            c.is_ascii_uppercase() || c.is_ascii_digit() || c == '#'
        })?;
        check_text("maker code", maker_code, 2..=2, |c| {
            c.is_ascii_uppercase() || c.is_ascii_digit()
        })?;
        Ok(Identity {
            title: title.into(),
            game_code: game_code.into(),
            maker_code: maker_code.into(),
            version,
        })
    }
}

fn check_text(
    what: &str,
    value: &str,
    len: std::ops::RangeInclusive<usize>,
    ok: impl Fn(char) -> bool,
) -> Result<()> {
    if !len.contains(&value.len()) {
        let want = if len.start() == len.end() {
            format!("exactly {}", len.start())
        } else {
            format!("{} to {}", len.start(), len.end())
        };
        return Err(Error::new(format!(
            "{what} {value:?}: must be {want} characters, got {}",
            value.chars().count()
        )));
    }
    if let Some(bad) = value.chars().find(|&c| !ok(c)) {
        return Err(Error::new(format!(
            "{what} {value:?}: character {bad:?} not allowed (uppercase ASCII only)"
        )));
    }
    Ok(())
}

/// Builds the header for the given parts, CRCs included.
pub fn build(id: &Identity, arm9: &Binary, arm7: &Binary, l: &Layout) -> [u8; HEADER_LEN] {
    let mut h = [0u8; HEADER_LEN];
    put_bytes(&mut h, TITLE, id.title.as_bytes());
    put_bytes(&mut h, GAME_CODE, id.game_code.as_bytes());
    put_bytes(&mut h, MAKER_CODE, id.maker_code.as_bytes());
    h[UNIT_CODE] = 0; // NDS only, no DSi extended header
    h[DEVICE_CAPACITY] = layout::device_capacity(l.rom_size);
    h[ROM_VERSION] = id.version;

    put_cpu(&mut h, ARM9_ROM_OFFSET, l.arm9_offset, arm9, l.arm9_size);
    put_cpu(&mut h, ARM7_ROM_OFFSET, l.arm7_offset, arm7, l.arm7_size);
    put_u32(&mut h, FNT_OFFSET, l.fnt_offset);
    put_u32(&mut h, FNT_OFFSET + 4, l.fnt_size);
    put_u32(&mut h, FAT_OFFSET, l.fat_offset);
    put_u32(&mut h, FAT_OFFSET + 4, l.fat_size);
    put_u32(&mut h, ICON_TITLE_OFFSET, l.banner_offset);
    // Overlays (0x50..0x5F), the secure area CRC (0x6C) and the autoload
    // hooks (0x70..0x7F) stay zero: none of them is used.

    put_u32(&mut h, ROM_CONTROL_NORMAL, ROM_CONTROL_NORMAL_VALUE);
    put_u32(&mut h, ROM_CONTROL_KEY1, ROM_CONTROL_KEY1_VALUE);
    put_u16(&mut h, SECURE_AREA_DELAY, SECURE_AREA_DELAY_VALUE);
    put_u32(&mut h, TOTAL_USED_ROM_SIZE, l.rom_size);
    put_u32(&mut h, HEADER_SIZE_FIELD, layout::HEADER_SIZE);

    put_bytes(&mut h, LOGO_OFFSET, &LOGO);
    put_u16(&mut h, LOGO_CRC_OFFSET, LOGO_CRC);
    let crc = crc16_modbus(&h[..HEADER_CRC_OFFSET]);
    put_u16(&mut h, HEADER_CRC_OFFSET, crc);
    h
}

/// ROM offset, entry, RAM address and size: four words in this order.
fn put_cpu(h: &mut [u8], at: usize, offset: u32, bin: &Binary, size: u32) {
    put_u32(h, at, offset);
    put_u32(h, at + 4, bin.entry);
    put_u32(h, at + 8, bin.ram_addr);
    put_u32(h, at + 12, size);
}

fn put_bytes(h: &mut [u8], at: usize, bytes: &[u8]) {
    h[at..at + bytes.len()].copy_from_slice(bytes);
}

fn put_u16(h: &mut [u8], at: usize, v: u16) {
    put_bytes(h, at, &v.to_le_bytes());
}

fn put_u32(h: &mut [u8], at: usize, v: u32) {
    put_bytes(h, at, &v.to_le_bytes());
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> [u8; HEADER_LEN] {
        let id = Identity::new("RAGDOLL DS", "RGDL", "01", 3).unwrap();
        let arm9 = Binary {
            ram_addr: 0x0200_0000,
            entry: 0x0200_0010,
            data: vec![0; 0x104],
        };
        let arm7 = Binary {
            ram_addr: 0x037F_8000,
            entry: 0x037F_8000,
            data: vec![0; 0x40],
        };
        let l = layout::plan(0x104, 0x40, 0);
        build(&id, &arm9, &arm7, &l)
    }

    fn u32_at(h: &[u8], at: usize) -> u32 {
        u32::from_le_bytes(h[at..at + 4].try_into().unwrap())
    }

    fn u16_at(h: &[u8], at: usize) -> u16 {
        u16::from_le_bytes(h[at..at + 2].try_into().unwrap())
    }

    #[test]
    fn fields_at_the_gbatek_offsets() {
        // Literal offsets on purpose: they are the specification, not the
        // constants above.
        let h = sample();
        assert_eq!(&h[0x00..0x0C], b"RAGDOLL DS\0\0");
        assert_eq!(&h[0x0C..0x10], b"RGDL");
        assert_eq!(&h[0x10..0x12], b"01");
        assert_eq!(h[0x12], 0);
        assert_eq!(h[0x14], 0);
        assert_eq!(h[0x1E], 3);
        assert_eq!(u32_at(&h, 0x20), 0x8000);
        assert_eq!(u32_at(&h, 0x24), 0x0200_0010);
        assert_eq!(u32_at(&h, 0x28), 0x0200_0000);
        assert_eq!(u32_at(&h, 0x2C), 0x104);
        assert_eq!(u32_at(&h, 0x30), 0x8200);
        assert_eq!(u32_at(&h, 0x34), 0x037F_8000);
        assert_eq!(u32_at(&h, 0x38), 0x037F_8000);
        assert_eq!(u32_at(&h, 0x3C), 0x40);
        assert_eq!(u32_at(&h, 0x40), 0x8400);
        assert_eq!(u32_at(&h, 0x44), 9);
        assert_eq!(u32_at(&h, 0x48), 0x8600);
        assert_eq!(u32_at(&h, 0x4C), 0);
        assert_eq!(u32_at(&h, 0x60), 0x0058_6000);
        assert_eq!(u32_at(&h, 0x64), 0x0018_08F8);
        assert_eq!(u32_at(&h, 0x68), 0);
        assert_eq!(u16_at(&h, 0x6C), 0);
        assert_eq!(u16_at(&h, 0x6E), 0x051E);
        assert_eq!(u32_at(&h, 0x80), 0x8600);
        assert_eq!(u32_at(&h, 0x84), 0x4000);
        assert_eq!(&h[0xC0..0x15C], &LOGO[..]);
        assert_eq!(u16_at(&h, 0x15C), 0xCF56);
        assert_eq!(u16_at(&h, 0x15E), crc16_modbus(&h[..0x15E]));
        assert!(h[0x160..].iter().all(|&b| b == 0));
    }

    #[test]
    fn identity_rules() {
        assert!(Identity::new("RAGDOLL DS", "RGDL", "01", 0).is_ok());
        assert!(Identity::new("HOMEBREW", "####", "00", 0).is_ok());
        let e = Identity::new("Ragdoll", "RGDL", "01", 0).unwrap_err();
        assert!(e.message().contains("'a'"), "{e}");
        let e = Identity::new("THIRTEEN CHAR", "RGDL", "01", 0).unwrap_err();
        assert!(e.message().contains("1 to 12"), "{e}");
        assert!(Identity::new("", "RGDL", "01", 0).is_err());
        assert!(Identity::new("OK", "RGD", "01", 0).is_err());
        assert!(Identity::new("OK", "RGDL", "1", 0).is_err());
        assert!(Identity::new("ÉCRAN", "RGDL", "01", 0).is_err());
    }
}
