//! Hand-assembled ELF files for the tests: small enough to read in a hex
//! dump, and able to express the odd cases (LMA != VMA, overlaps, lies).
#![allow(dead_code)] // each test file uses a different part

use std::path::PathBuf;

pub const PT_LOAD: u32 = 1;
pub const PT_NOTE: u32 = 4;
pub const EM_ARM: u16 = 40;

/// One program header and the bytes it points at.
#[derive(Clone)]
pub struct Seg {
    pub p_type: u32,
    pub vaddr: u32,
    pub paddr: u32,
    pub data: Vec<u8>,
    /// memsz = filesz + this (e.g. .bss)
    pub extra_mem: u32,
}

impl Seg {
    /// A PT_LOAD whose run and load addresses agree.
    pub fn load(addr: u32, data: Vec<u8>) -> Self {
        Seg {
            p_type: PT_LOAD,
            vaddr: addr,
            paddr: addr,
            data,
            extra_mem: 0,
        }
    }
}

pub struct ElfSpec {
    pub class: u8,
    pub data_enc: u8,
    pub machine: u16,
    pub entry: u32,
    pub segs: Vec<Seg>,
}

impl ElfSpec {
    pub fn arm(entry: u32, segs: Vec<Seg>) -> Self {
        ElfSpec {
            class: 1,
            data_enc: 1,
            machine: EM_ARM,
            entry,
            segs,
        }
    }

    /// ELF32 little-endian executable: header, program headers, then data.
    pub fn build(&self) -> Vec<u8> {
        let phoff = 52u32;
        let mut data_at = phoff + 32 * self.segs.len() as u32;
        let mut out = Vec::new();
        out.extend_from_slice(&[0x7F, b'E', b'L', b'F', self.class, self.data_enc, 1, 0]);
        out.extend_from_slice(&[0; 8]);
        push16(&mut out, 2); // ET_EXEC
        push16(&mut out, self.machine);
        push32(&mut out, 1); // EV_CURRENT
        push32(&mut out, self.entry);
        push32(&mut out, phoff);
        push32(&mut out, 0); // no section headers
        push32(&mut out, 0x0500_0000); // EABI v5
        push16(&mut out, 52);
        push16(&mut out, 32);
        push16(&mut out, self.segs.len() as u16);
        push16(&mut out, 40);
        push16(&mut out, 0);
        push16(&mut out, 0);
        assert_eq!(out.len(), 52);
        for s in &self.segs {
            push32(&mut out, s.p_type);
            push32(&mut out, data_at);
            push32(&mut out, s.vaddr);
            push32(&mut out, s.paddr);
            push32(&mut out, s.data.len() as u32);
            push32(&mut out, s.data.len() as u32 + s.extra_mem);
            push32(&mut out, 5); // R+X
            push32(&mut out, 4);
            data_at += s.data.len() as u32;
        }
        for s in &self.segs {
            out.extend_from_slice(&s.data);
        }
        out
    }
}

fn push16(out: &mut Vec<u8>, v: u16) {
    out.extend_from_slice(&v.to_le_bytes());
}

fn push32(out: &mut Vec<u8>, v: u32) {
    out.extend_from_slice(&v.to_le_bytes());
}

/// Bytes that are easy to recognise at any offset.
pub fn pattern(len: usize, seed: u8) -> Vec<u8> {
    (0..len)
        .map(|i| (i as u8).wrapping_mul(7).wrapping_add(seed))
        .collect()
}

/// A fresh directory per test, under cargo's scratch space.
pub fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join("ndspack-tests")
        .join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

pub fn write(dir: &std::path::Path, name: &str, bytes: &[u8]) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, bytes).unwrap();
    path
}

/// A typical ARM9: code at 0x02000000, an ITCM section that runs at
/// 0x01FF8000 but is stored (LMA) after the code, and a .bss with no bytes.
pub fn arm9_spec() -> ElfSpec {
    let mut itcm = Seg::load(0x0200_1000, pattern(0x80, 0x55));
    itcm.vaddr = 0x01FF_8000;
    let mut bss = Seg::load(0x0200_2000, Vec::new());
    bss.extra_mem = 0x400;
    ElfSpec::arm(
        0x0200_0000,
        vec![Seg::load(0x0200_0000, pattern(0x123, 1)), itcm, bss],
    )
}

/// A minimal ARM7 in WRAM.
pub fn arm7_spec() -> ElfSpec {
    ElfSpec::arm(0x037F_8000, vec![Seg::load(0x037F_8000, pattern(0x40, 9))])
}

pub fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(b[at..at + 4].try_into().unwrap())
}

pub fn u16_at(b: &[u8], at: usize) -> u16 {
    u16::from_le_bytes(b[at..at + 2].try_into().unwrap())
}

/// Recomputes the header CRC after a test edits the header on purpose.
pub fn fix_header_crc(rom: &mut [u8]) {
    let crc = ndspack::crc::crc16_modbus(&rom[..0x15E]);
    rom[0x15E..0x160].copy_from_slice(&crc.to_le_bytes());
}
