//! The I/O state a loader may leave behind, reset before anything else
//! runs (in the spirit of libnds's `initSystem`). Nothing guarantees
//! zeroed I/O at entry (NDS-FACTS, "Real hardware and loaders"):
//! flashcart bootloaders clear only part of the display registers,
//! TWiLight Menu++ fades out through master brightness before it starts
//! a ROM (black or white screens if left), and a DMA or timer left
//! running would write memory or raise interrupts behind our back.
//! Emulators start with all of it zero, which hides these; the in-ROM
//! test `boot_reset_clears_loader_state` dirties them and resets.

use super::reg::Reg;
use super::regs::{IE, IF, IME};

/// DMA0..3 control words (GBATEK: 0x040000B0 + 12n is SAD, +8 the
/// count and control): writing 0 stops a channel.
const DMA_CNT: [Reg<u32>; 4] = [
    Reg::at(0x0400_00B8),
    Reg::at(0x0400_00C4),
    Reg::at(0x0400_00D0),
    Reg::at(0x0400_00DC),
];
/// Timers 2 and 3 control (0 and 1 are the cycle clock, which
/// `timer::start_cycle_clock` sets up whole right after).
const TM_CNT_H: [Reg<u16>; 2] = [Reg::at(0x0400_010A), Reg::at(0x0400_010E)];

/// The 2D engines' BG, window, mosaic and blend registers, main then
/// sub: 0x08..0x57 of each (BG0CNT to BLDY), as words.
const DISPLAY_2D: [(usize, usize); 2] = [(0x0400_0008, 0x0400_0058), (0x0400_1008, 0x0400_1058)];
/// Master brightness, main and sub (bits 14-15 mode, 0-4 factor).
const MASTER_BRIGHT: [Reg<u16>; 2] = [Reg::at(0x0400_006C), Reg::at(0x0400_106C)];
/// Two words of that range the in-ROM test dirties: BG0CNT/BG1CNT (main)
/// and BLDCNT/BLDALPHA (sub).
#[cfg(feature = "test-rom")]
const BG01CNT: Reg<u32> = Reg::at(0x0400_0008);
#[cfg(feature = "test-rom")]
const BLD_SUB: Reg<u32> = Reg::at(0x0400_1050);

/// Stops DMA and timers 2-3, masks and acknowledges every interrupt,
/// and zeroes both 2D engines' BG, window and blend registers and their
/// master brightness. DISPCNT, VRAM banks and the 3D engine are set up
/// by `video::init` and `gx::init_top_screen` (which also resets the
/// matrix stacks).
pub fn reset_io() {
    IME.write(0);
    IE.write(0);
    IF.write(u32::MAX);
    for cnt in DMA_CNT {
        cnt.write(0);
    }
    for cnt in TM_CNT_H {
        cnt.write(0);
    }
    for (start, end) in DISPLAY_2D {
        for addr in (start..end).step_by(4) {
            Reg::<u32>::at(addr).write(0);
        }
    }
    for bright in MASTER_BRIGHT {
        bright.write(0);
    }
    // The IPC FIFO the exit path talks to the ARM7 through, emptied of
    // whatever a loader left in it.
    super::exit::enable_fifo();
}

/// SCFG_A9ROM (DSi only; 0 on a DS and in DS mode): 1 in DSi mode.
const SCFG_A9ROM: Reg<u16> = Reg::at(0x0400_4000);

/// True when a loader started us in DSi mode (hbmenu or Unlaunch on a
/// DSi, TWiLight Menu++ in DSi mode): GBATEK's check, SCFG_A9ROM = 1.
/// The touch screen is then behind the DSi's codec, which the ARM7 does
/// not drive, so the demo says so on screen. In DS mode, and on a DS,
/// the register reads 0.
pub fn dsi_mode() -> bool {
    SCFG_A9ROM.read() & 3 == 1
}

/// For the in-ROM test: the state a loader could leave, written on
/// purpose (a brightness fade, a BG control word, a blend, DMA3 armed
/// to repeat on every VBlank from and to `scratch`, timer 2 running,
/// the VBlank interrupt enabled, but not IME: with no handler an
/// interrupt would crash the test).
#[cfg(feature = "test-rom")]
pub fn dirty_for_test(scratch: &mut [u32; 2]) {
    MASTER_BRIGHT[0].write(0x8010); // brighten by 16/16: a white screen
    MASTER_BRIGHT[1].write(0x4010); // darken: a black one
    BG01CNT.write(0x1234_5678);
    BLD_SUB.write(0x0000_3F41);
    let src = scratch.as_ptr() as u32;
    let dst = scratch[1..].as_ptr() as u32;
    Reg::<u32>::at(0x0400_00D4).write(src); // DMA3SAD
    Reg::<u32>::at(0x0400_00D8).write(dst); // DMA3DAD
                                            // Enable, start at VBlank (bits 27-29 = 1), repeat, 32-bit, 1 word.
    DMA_CNT[3].write(1 << 31 | 1 << 27 | 1 << 25 | 1 << 26 | 1);
    TM_CNT_H[0].write(0x80);
    IE.write(1);
}

/// For the in-ROM test: the registers `reset_io` must clear and
/// `dirty_for_test` sets, as (name, value) pairs.
#[cfg(feature = "test-rom")]
pub fn leftovers() -> [(&'static str, u32); 7] {
    [
        ("MASTER_BRIGHT", MASTER_BRIGHT[0].read() as u32),
        ("MASTER_BRIGHT_SUB", MASTER_BRIGHT[1].read() as u32),
        ("BG0CNT/BG1CNT", BG01CNT.read()),
        ("sub BLDCNT/BLDALPHA", BLD_SUB.read()),
        ("DMA3CNT enable", DMA_CNT[3].read() & 1 << 31),
        ("TM2CNT enable", (TM_CNT_H[0].read() & 0x80) as u32),
        ("IE", IE.read()),
    ]
}

/// For the in-ROM test: the interrupt master enable is off.
#[cfg(feature = "test-rom")]
pub fn interrupts_off() -> bool {
    IME.read() & 1 == 0
}
