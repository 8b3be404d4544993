//! Where each part goes in the ROM file.
//!
//! 0x0000  header (0x200 bytes) and zero padding up to HEADER_SIZE
//! 0x4000  secure area, left zero: an ARM9 here gets "decrypted" (i.e.
//!         destroyed) by melonDS and real hardware, so nothing goes here
//! 0x8000  ARM9 binary (GBATEK: offset 0x4000 and up, 0x1000-aligned)
//! next    ARM7 binary, icon/title (when given), FNT, FAT, each
//!         0x200-aligned like ndstool does
//! end     the file ends 0x200-aligned; that length is the "used ROM size"

pub const HEADER_SIZE: u32 = 0x4000;
pub const SECURE_AREA_START: u32 = 0x4000;
pub const SECURE_AREA_END: u32 = 0x8000;
pub const ARM9_OFFSET: u32 = SECURE_AREA_END;
/// Cartridge reads come in 0x200-byte blocks; aligning parts to them is
/// what ndstool does and keeps every offset word-aligned too.
pub const ALIGN: u32 = 0x200;

/// A minimal file name table: just the root directory, holding no files.
/// Root entry = (offset of its name list = 8, first file id = 0, number of
/// directories = 1), then the root's empty name list (one 0 terminator).
pub const EMPTY_FNT: [u8; 9] = [8, 0, 0, 0, 0, 0, 1, 0, 0];

/// Offsets and sizes of everything in the ROM file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Layout {
    pub arm9_offset: u32,
    pub arm9_size: u32,
    pub arm7_offset: u32,
    pub arm7_size: u32,
    /// The icon/title block's offset (0: none).
    pub banner_offset: u32,
    pub fnt_offset: u32,
    pub fnt_size: u32,
    pub fat_offset: u32,
    pub fat_size: u32,
    /// The file length; also the header's "total used ROM size".
    pub rom_size: u32,
}

pub fn align_up(n: u32, to: u32) -> u32 {
    debug_assert!(to.is_power_of_two());
    (n + to - 1) & !(to - 1)
}

/// Places the two binaries (sizes already multiples of 4), the icon/title
/// block of `banner_size` bytes (0: none) and the empty file system after
/// them.
pub fn plan(arm9_size: u32, arm7_size: u32, banner_size: u32) -> Layout {
    let arm9_offset = ARM9_OFFSET;
    let arm7_offset = align_up(arm9_offset + arm9_size, ALIGN);
    let after_arm7 = align_up(arm7_offset + arm7_size, ALIGN);
    let (banner_offset, fnt_offset) = if banner_size == 0 {
        (0, after_arm7)
    } else {
        (after_arm7, align_up(after_arm7 + banner_size, ALIGN))
    };
    let fnt_size = EMPTY_FNT.len() as u32;
    // An empty FAT: zero entries, so it takes no bytes and ends the file.
    let fat_offset = align_up(fnt_offset + fnt_size, ALIGN);
    let fat_size = 0;
    let rom_size = align_up(fat_offset + fat_size, ALIGN);
    Layout {
        arm9_offset,
        arm9_size,
        arm7_offset,
        arm7_size,
        banner_offset,
        fnt_offset,
        fnt_size,
        fat_offset,
        fat_size,
        rom_size,
    }
}

/// The header's device capacity: the smallest n with 128 KiB << n >= size.
pub fn device_capacity(rom_size: u32) -> u8 {
    let mut n = 0u8;
    while (128u64 * 1024) << n < u64::from(rom_size) {
        n += 1;
    }
    n
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn alignment() {
        assert_eq!(align_up(0, 0x200), 0);
        assert_eq!(align_up(1, 0x200), 0x200);
        assert_eq!(align_up(0x200, 0x200), 0x200);
        assert_eq!(align_up(0x201, 0x200), 0x400);
        assert_eq!(align_up(5, 4), 8);
    }

    #[test]
    fn arm9_after_the_secure_area_and_arm7_after_it() {
        let l = plan(0x1234, 0x100, 0);
        assert_eq!(l.arm9_offset, 0x8000);
        assert_eq!(l.arm7_offset, 0x9400);
        assert_eq!(l.fnt_offset, 0x9600);
        assert_eq!(l.fat_offset, 0x9800);
        assert_eq!(l.rom_size, 0x9800);
        for off in [l.arm9_offset, l.arm7_offset, l.fnt_offset, l.fat_offset] {
            assert_eq!(off % ALIGN, 0);
        }
        assert_eq!(l.rom_size % ALIGN, 0);
    }

    #[test]
    fn exact_block_sizes_leave_no_gap() {
        let l = plan(0x200, 0x400, 0);
        assert_eq!(l.arm7_offset, 0x8200);
        assert_eq!(l.fnt_offset, 0x8600);
    }

    #[test]
    fn device_capacity_rounds_up_to_a_power_of_two_chip() {
        assert_eq!(device_capacity(0), 0);
        assert_eq!(device_capacity(0x9800), 0);
        assert_eq!(device_capacity(128 * 1024), 0);
        assert_eq!(device_capacity(128 * 1024 + 1), 1);
        assert_eq!(device_capacity(256 * 1024), 1);
        assert_eq!(device_capacity(16 << 20), 7); // GBATEK: 7 = 16 MB
        assert_eq!(device_capacity((16 << 20) + 4), 8);
    }
}
