//! Reads one CPU's ELF file into a flat binary laid out by load (physical)
//! addresses, which is what the DS loader copies to RAM.
//!
//! Sections such as .itcm/.dtcm run at a VMA elsewhere but are stored at an
//! LMA in main RAM (crt0 copies them later), so only p_paddr matters here.

use std::path::Path;

use object::elf;
use object::read::elf::{FileHeader, ProgramHeader};
use object::LittleEndian;

use crate::error::{Error, Result};
use crate::mem::{self, Cpu};

/// A flat binary ready to go into the ROM.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Binary {
    /// Where the loader copies `data` (the lowest load address).
    pub ram_addr: u32,
    /// Where the CPU starts executing, from the ELF header.
    pub entry: u32,
    /// The image, zero-filled between segments, padded to a multiple of 4
    /// because the loader copies whole words.
    pub data: Vec<u8>,
}

/// One PT_LOAD segment with file bytes.
struct Segment<'a> {
    paddr: u32,
    bytes: &'a [u8],
}

/// Reads and checks the ELF at `path` for `cpu`.
pub fn load_elf(cpu: Cpu, path: &Path) -> Result<Binary> {
    let err = |what: String| Error::new(format!("{cpu} ELF {}: {what}", path.display()));
    let data = std::fs::read(path).map_err(|e| err(format!("cannot read file ({e})")))?;
    parse_elf(cpu, &data).map_err(err)
}

/// Like [`load_elf`] on bytes already read; errors say only what is wrong.
pub fn parse_elf(cpu: Cpu, data: &[u8]) -> std::result::Result<Binary, String> {
    check_ident(data)?;
    let header = elf::FileHeader32::<LittleEndian>::parse(data)
        .map_err(|e| format!("malformed ELF header ({e})"))?;
    let endian = LittleEndian;
    if header.e_machine(endian) != elf::EM_ARM {
        return Err(format!(
            "not an ARM ELF (e_machine {}, expected {})",
            header.e_machine(endian),
            elf::EM_ARM
        ));
    }
    let phdrs = header
        .program_headers(endian, data)
        .map_err(|e| format!("malformed program headers ({e})"))?;

    let mut segments = Vec::new();
    for ph in phdrs {
        if ph.p_type(endian) != elf::PT_LOAD || ph.p_filesz(endian) == 0 {
            continue;
        }
        let bytes = ph
            .data(endian, data)
            .map_err(|_| "a PT_LOAD segment's file bytes lie outside the file (truncated?)")?;
        segments.push(Segment {
            paddr: ph.p_paddr(endian),
            bytes,
        });
    }
    if segments.is_empty() {
        return Err("no loadable segment (no PT_LOAD with file size > 0)".into());
    }
    let binary = flatten(&mut segments)?;
    check_placement(cpu, &binary, header.e_entry(endian))?;
    if cpu == Cpu::Arm9 {
        crate::overlay::check(data)?;
    }
    Ok(Binary {
        entry: header.e_entry(endian),
        ..binary
    })
}

/// Indexes into e_ident (the ELF spec's names; `object` has no constants).
const EI_CLASS: usize = 4;
const EI_DATA: usize = 5;

/// The identification bytes, checked one by one for a precise message.
fn check_ident(data: &[u8]) -> std::result::Result<(), String> {
    if data.len() < 4 || data[..4] != elf::ELFMAG {
        return Err("not an ELF file (bad magic)".into());
    }
    if data.len() < 52 {
        return Err(format!(
            "truncated ELF file ({} bytes, the header alone is 52)",
            data.len()
        ));
    }
    if data[EI_CLASS] != elf::ELFCLASS32.0 {
        return Err("not a 32-bit ELF (the DS CPUs are 32-bit ARM)".into());
    }
    if data[EI_DATA] != elf::ELFDATA2LSB.0 {
        return Err("not a little-endian ELF (the DS runs little-endian)".into());
    }
    Ok(())
}

/// Lays the segments out by load address into one zero-filled image.
fn flatten(segments: &mut [Segment<'_>]) -> std::result::Result<Binary, String> {
    segments.sort_by_key(|s| s.paddr);
    let base = segments[0].paddr;
    let mut end = u64::from(base);
    for s in segments.iter() {
        let start = u64::from(s.paddr);
        if start < end {
            return Err(format!(
                "loadable segments overlap at load address {:#010x}",
                s.paddr
            ));
        }
        end = start + s.bytes.len() as u64;
    }
    let len = end - u64::from(base);
    if len > u64::from(mem::MAX_BINARY_SIZE) {
        return Err(format!(
            "binary too large ({len:#x} bytes from load address {base:#010x}, the maximum is {:#x})",
            mem::MAX_BINARY_SIZE
        ));
    }
    let mut data = vec![0u8; align4(len as usize)];
    for s in segments.iter() {
        let at = (s.paddr - base) as usize;
        data[at..at + s.bytes.len()].copy_from_slice(s.bytes);
    }
    Ok(Binary {
        ram_addr: base,
        entry: 0,
        data,
    })
}

/// The image must sit in RAM the loader may write, and the entry inside it.
fn check_placement(cpu: Cpu, bin: &Binary, entry: u32) -> std::result::Result<(), String> {
    let len = bin.data.len() as u32;
    if mem::range_holding(cpu, bin.ram_addr, len).is_none() {
        let end = u64::from(bin.ram_addr) + u64::from(len);
        return Err(format!(
            "load addresses {:#010x}..{end:#010x} are outside the allowed RAM ({})",
            bin.ram_addr,
            mem::describe_ranges(cpu)
        ));
    }
    // Bit 0 marks a Thumb entry; the address itself is what must be inside.
    let pc = entry & !1;
    if pc < bin.ram_addr || u64::from(pc) >= u64::from(bin.ram_addr) + u64::from(len) {
        return Err(format!(
            "entry point {entry:#010x} is outside the loaded image {:#010x}..{:#010x}",
            bin.ram_addr,
            u64::from(bin.ram_addr) + u64::from(len)
        ));
    }
    Ok(())
}

fn align4(n: usize) -> usize {
    (n + 3) & !3
}
