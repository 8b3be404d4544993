//! Which RAM each CPU's binary may be loaded into, from GBATEK's cartridge
//! header description. The BIOS/firmware loader refuses anything else.

use std::fmt;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cpu {
    Arm9,
    Arm7,
}

impl fmt::Display for Cpu {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Cpu::Arm9 => "arm9",
            Cpu::Arm7 => "arm7",
        })
    }
}

/// A half-open address range `[start, end)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Range {
    pub name: &'static str,
    pub start: u32,
    pub end: u32,
}

impl Range {
    /// Whether `[addr, addr + len)` fits entirely inside this range.
    pub fn holds(&self, addr: u32, len: u32) -> bool {
        let end = u64::from(addr) + u64::from(len);
        addr >= self.start && end <= u64::from(self.end)
    }
}

/// Main RAM up to GBATEK's limit for a loaded binary; the loader keeps the
/// top of main RAM (0x023BFE00..) for itself.
pub const MAIN_RAM: Range = Range {
    name: "main RAM 0x02000000..0x023BFE00",
    start: 0x0200_0000,
    end: 0x023B_FE00,
};

/// Shared WRAM followed by ARM7 WRAM; GBATEK caps an ARM7 binary here at
/// 0xFE00 bytes, so a binary there ends by 0x037F8000 + 0xFE00 = 0x03807E00.
pub const ARM7_WRAM: Range = Range {
    name: "ARM7 WRAM 0x037F8000..0x03807E00",
    start: 0x037F_8000,
    end: 0x0380_7E00,
};

/// The largest binary GBATEK allows for either CPU.
pub const MAX_BINARY_SIZE: u32 = 0x3B_FE00;

pub fn allowed_ranges(cpu: Cpu) -> &'static [Range] {
    match cpu {
        Cpu::Arm9 => &[MAIN_RAM],
        Cpu::Arm7 => &[MAIN_RAM, ARM7_WRAM],
    }
}

/// The allowed range that holds `[addr, addr + len)`, if any.
pub fn range_holding(cpu: Cpu, addr: u32, len: u32) -> Option<Range> {
    allowed_ranges(cpu)
        .iter()
        .copied()
        .find(|r| r.holds(addr, len))
}

/// A short human list of the allowed ranges, for error messages.
pub fn describe_ranges(cpu: Cpu) -> String {
    allowed_ranges(cpu)
        .iter()
        .map(|r| r.name)
        .collect::<Vec<_>>()
        .join(" or ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arm9_only_in_main_ram() {
        assert!(range_holding(Cpu::Arm9, 0x0200_0000, 0x1000).is_some());
        assert!(range_holding(Cpu::Arm9, 0x037F_8000, 0x100).is_none());
        // Exactly up to the end is fine, one byte more is not.
        assert!(range_holding(Cpu::Arm9, 0x0200_0000, MAX_BINARY_SIZE).is_some());
        assert!(range_holding(Cpu::Arm9, 0x0200_0000, MAX_BINARY_SIZE + 1).is_none());
    }

    #[test]
    fn arm7_in_main_ram_or_wram() {
        assert!(range_holding(Cpu::Arm7, 0x0238_0000, 0x1000).is_some());
        assert!(range_holding(Cpu::Arm7, 0x037F_8000, 0xFE00).is_some());
        assert!(range_holding(Cpu::Arm7, 0x037F_8000, 0xFE04).is_none());
        assert!(range_holding(Cpu::Arm7, 0x0100_0000, 4).is_none());
    }

    #[test]
    fn no_overflow_at_the_top_of_the_address_space() {
        assert!(range_holding(Cpu::Arm7, 0xFFFF_FFF0, 0x100).is_none());
    }
}
