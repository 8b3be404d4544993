//! Parses a finished .nds file and checks it by the book.
//!
//! Deliberately independent of the writer: it reads every field at its own
//! literal GBATEK offset instead of reusing `header`/`layout`, so a wrong
//! constant on the writing side cannot hide itself. It shares only the CRC,
//! the logo bytes and the RAM ranges, which have their own unit tests.

use std::fmt;

use crate::crc::crc16_modbus;
use crate::logo::{LOGO, LOGO_CRC};
use crate::mem::{self, Cpu};

const SECURE_AREA: (u32, u32) = (0x4000, 0x8000);

/// What `check` learned about a ROM that passed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RomInfo {
    pub title: String,
    pub game_code: String,
    pub maker_code: String,
    pub unit_code: u8,
    pub device_capacity: u8,
    pub version: u8,
    pub arm9: CpuInfo,
    pub arm7: CpuInfo,
    pub fnt: (u32, u32),
    pub fat: (u32, u32),
    pub used_size: u32,
    pub header_size: u32,
    pub file_size: usize,
    pub header_crc: u16,
}

/// One CPU's four header words.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CpuInfo {
    pub rom_offset: u32,
    pub entry: u32,
    pub ram_addr: u32,
    pub size: u32,
}

impl fmt::Display for RomInfo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "title {:?}, game code {}, maker {}, unit {}, version {}",
            self.title, self.game_code, self.maker_code, self.unit_code, self.version
        )?;
        for (name, c) in [("arm9", self.arm9), ("arm7", self.arm7)] {
            writeln!(
                f,
                "{name}: rom {:#07x}+{:#x}, ram {:#010x}, entry {:#010x}",
                c.rom_offset, c.size, c.ram_addr, c.entry
            )?;
        }
        write!(
            f,
            "used {:#x} of {:#x} bytes, capacity {} KiB, header CRC {:#06x} OK, logo OK",
            self.used_size,
            self.file_size,
            128u64 << self.device_capacity,
            self.header_crc
        )
    }
}

/// Checks `rom`; the error is the first problem found, in plain words.
pub fn check_rom(rom: &[u8]) -> Result<RomInfo, String> {
    if rom.len() < 0x200 {
        return Err(format!(
            "file is {} bytes, shorter than the 0x200-byte header",
            rom.len()
        ));
    }
    let rd32 = |at: usize| u32::from_le_bytes([rom[at], rom[at + 1], rom[at + 2], rom[at + 3]]);
    let rd16 = |at: usize| u16::from_le_bytes([rom[at], rom[at + 1]]);

    // Checksums first: with a bad CRC nothing else can be trusted.
    if rom[0xC0..0x15C] != LOGO {
        let i = (0..LOGO.len())
            .find(|&i| rom[0xC0 + i] != LOGO[i])
            .unwrap_or(0);
        return Err(format!(
            "Nintendo logo differs at header offset {:#x} (the BIOS refuses to boot)",
            0xC0 + i
        ));
    }
    let logo_crc = rd16(0x15C);
    if logo_crc != LOGO_CRC || crc16_modbus(&rom[0xC0..0x15C]) != logo_crc {
        return Err(format!(
            "logo CRC at 0x15C is {logo_crc:#06x}, expected {LOGO_CRC:#06x}"
        ));
    }
    let header_crc = rd16(0x15E);
    let computed = crc16_modbus(&rom[..0x15E]);
    if header_crc != computed {
        return Err(format!(
            "header CRC at 0x15E is {header_crc:#06x}, computed {computed:#06x} over 0x000..0x15D"
        ));
    }

    let text = |from: usize, len: usize, what: &str| -> Result<String, String> {
        let raw = &rom[from..from + len];
        let end = raw.iter().position(|&b| b == 0).unwrap_or(len);
        if raw[end..].iter().any(|&b| b != 0)
            || !raw[..end].iter().all(|b| (0x20..0x7F).contains(b))
        {
            return Err(format!(
                "{what} at {from:#x} is not ASCII padded with zeros: {raw:02x?}"
            ));
        }
        Ok(String::from_utf8_lossy(&raw[..end]).into_owned())
    };
    let cpu = |at: usize| CpuInfo {
        rom_offset: rd32(at),
        entry: rd32(at + 4),
        ram_addr: rd32(at + 8),
        size: rd32(at + 12),
    };
    let info = RomInfo {
        title: text(0x00, 12, "title")?,
        game_code: text(0x0C, 4, "game code")?,
        maker_code: text(0x10, 2, "maker code")?,
        unit_code: rom[0x12],
        device_capacity: rom[0x14],
        version: rom[0x1E],
        arm9: cpu(0x20),
        arm7: cpu(0x30),
        fnt: (rd32(0x40), rd32(0x44)),
        fat: (rd32(0x48), rd32(0x4C)),
        used_size: rd32(0x80),
        header_size: rd32(0x84),
        file_size: rom.len(),
        header_crc,
    };

    if info.header_size != 0x4000 {
        return Err(format!(
            "header size at 0x84 is {:#x}, expected 0x4000",
            info.header_size
        ));
    }
    if info.unit_code & !0x03 != 0 {
        return Err(format!(
            "unit code {:#04x} is not 0, 2 or 3",
            info.unit_code
        ));
    }
    if info.used_size as usize > rom.len() {
        return Err(format!(
            "total used ROM size at 0x80 is {:#x}, but the file has only {:#x} bytes",
            info.used_size,
            rom.len()
        ));
    }
    if (128u64 * 1024) << info.device_capacity.min(40) < u64::from(info.used_size) {
        return Err(format!(
            "device capacity {} (128 KiB << {0}) is smaller than the used ROM size {:#x}",
            info.device_capacity, info.used_size
        ));
    }

    // The CPU rules first: "in the secure area" says more than "overlaps
    // the header" about the same mistake.
    for (c, info_cpu) in [(Cpu::Arm9, info.arm9), (Cpu::Arm7, info.arm7)] {
        check_cpu(c, info_cpu)?;
    }

    // Every part must lie inside the used ROM area and overlap no other.
    let mut parts = vec![("header", 0u32, info.header_size)];
    parts.push(("arm9", info.arm9.rom_offset, info.arm9.size));
    parts.push(("arm7", info.arm7.rom_offset, info.arm7.size));
    parts.push(("FNT", info.fnt.0, info.fnt.1));
    parts.push(("FAT", info.fat.0, info.fat.1));
    for (name, at) in [("arm9 overlay table", 0x50), ("arm7 overlay table", 0x58)] {
        if rd32(at + 4) != 0 {
            parts.push((name, rd32(at), rd32(at + 4)));
        }
    }
    if rd32(0x68) != 0 {
        // The smallest (version 1) icon/title block is 0x840 bytes.
        parts.push(("icon/title", rd32(0x68), 0x840));
    }
    for &(name, off, size) in &parts {
        let end = u64::from(off) + u64::from(size);
        if end > u64::from(info.used_size) {
            return Err(format!(
                "{name} at {off:#x}+{size:#x} ends past the used ROM size {:#x}",
                info.used_size
            ));
        }
    }
    for (i, a) in parts.iter().enumerate() {
        for b in &parts[i + 1..] {
            let overlap = a.2 > 0 && b.2 > 0 && a.1 < b.1 + b.2 && b.1 < a.1 + a.2;
            if overlap {
                return Err(format!(
                    "{} ({:#x}+{:#x}) overlaps {} ({:#x}+{:#x})",
                    a.0, a.1, a.2, b.0, b.1, b.2
                ));
            }
        }
    }

    // The icon/title block, when there is one: its version and CRC (menus
    // show an unknown icon for a bad one).
    let banner = rd32(0x68) as usize;
    if banner != 0 {
        let block = rom.get(banner..).unwrap_or(&[]);
        crate::banner::check(block).map_err(|e| format!("{e} (at {banner:#x})"))?;
    }

    Ok(info)
}

fn check_cpu(cpu: Cpu, c: CpuInfo) -> Result<(), String> {
    if c.size == 0 {
        return Err(format!("{cpu} size is 0"));
    }
    if !c.rom_offset.is_multiple_of(4) || !c.size.is_multiple_of(4) {
        return Err(format!(
            "{cpu} ROM offset {:#x} or size {:#x} is not a multiple of 4",
            c.rom_offset, c.size
        ));
    }
    // The loader treats ARM9 data in 0x4000..0x7FFF as the encrypted secure
    // area; an unencrypted binary there is corrupted (melonDS, hardware).
    let end = u64::from(c.rom_offset) + u64::from(c.size);
    if u64::from(c.rom_offset) < u64::from(SECURE_AREA.1) && end > u64::from(SECURE_AREA.0) {
        return Err(format!(
            "{cpu} at ROM {:#x}..{end:#x} overlaps the secure area 0x4000..0x8000",
            c.rom_offset
        ));
    }
    if c.size > mem::MAX_BINARY_SIZE {
        return Err(format!(
            "{cpu} size {:#x} exceeds the maximum {:#x}",
            c.size,
            mem::MAX_BINARY_SIZE
        ));
    }
    if mem::range_holding(cpu, c.ram_addr, c.size).is_none() {
        return Err(format!(
            "{cpu} RAM {:#010x}+{:#x} is outside the allowed RAM ({})",
            c.ram_addr,
            c.size,
            mem::describe_ranges(cpu)
        ));
    }
    let pc = c.entry & !1;
    if pc < c.ram_addr || u64::from(pc) >= u64::from(c.ram_addr) + u64::from(c.size) {
        return Err(format!(
            "{cpu} entry {:#010x} is outside its image {:#010x}+{:#x}",
            c.entry, c.ram_addr, c.size
        ));
    }
    Ok(())
}
