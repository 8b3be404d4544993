//! `ndspack`: turns the ARM9 and ARM7 ELF files into a Nintendo DS ROM
//! whose header is valid by the book, and checks finished ROMs.

pub mod banner;
pub mod check;
pub mod crc;
pub mod elf;
pub mod error;
pub mod header;
pub mod layout;
pub mod logo;
pub mod mem;
pub mod overlay;

use std::path::Path;

pub use banner::Banner;
pub use check::{check_rom, CpuInfo, RomInfo};
pub use elf::{load_elf, Binary};
pub use error::{Error, Result};
pub use header::Identity;
pub use layout::Layout;
pub use mem::Cpu;

/// Reads both ELF files (and the banner source, if any) and returns the
/// ROM bytes.
pub fn pack_files(
    arm9: &Path,
    arm7: &Path,
    id: &Identity,
    banner: Option<&Path>,
) -> Result<Vec<u8>> {
    let arm9 = load_elf(Cpu::Arm9, arm9)?;
    let arm7 = load_elf(Cpu::Arm7, arm7)?;
    let banner = match banner {
        Some(path) => {
            let text = std::fs::read_to_string(path).map_err(|e| {
                Error::new(format!("banner {}: cannot read file ({e})", path.display()))
            })?;
            Some(Banner::parse(&path.display().to_string(), &text)?)
        }
        None => None,
    };
    Ok(pack(id, &arm9, &arm7, banner.as_ref()))
}

/// Lays out the ROM and writes header, binaries, the icon/title block
/// (when given) and the empty file system.
pub fn pack(id: &Identity, arm9: &Binary, arm7: &Binary, banner: Option<&Banner>) -> Vec<u8> {
    let banner = banner.map(Banner::build);
    let banner_size = banner.map_or(0, |b| b.len() as u32);
    let l = layout::plan(arm9.data.len() as u32, arm7.data.len() as u32, banner_size);
    let mut rom = vec![0u8; l.rom_size as usize];
    rom[..header::HEADER_LEN].copy_from_slice(&header::build(id, arm9, arm7, &l));
    put(&mut rom, l.arm9_offset, &arm9.data);
    put(&mut rom, l.arm7_offset, &arm7.data);
    if let Some(b) = &banner {
        put(&mut rom, l.banner_offset, b);
    }
    put(&mut rom, l.fnt_offset, &layout::EMPTY_FNT);
    rom
}

fn put(rom: &mut [u8], at: u32, bytes: &[u8]) {
    let at = at as usize;
    rom[at..at + bytes.len()].copy_from_slice(bytes);
}

/// Reads and checks a ROM file; errors name the file.
pub fn check_file(path: &Path) -> Result<RomInfo> {
    let rom = std::fs::read(path)
        .map_err(|e| Error::new(format!("ROM {}: cannot read file ({e})", path.display())))?;
    check_rom(&rom).map_err(|e| Error::new(format!("ROM {}: {e}", path.display())))
}
