//! The ARM9 I/O registers this ROM uses (addresses from GBATEK and
//! ../shared/NDS-FACTS.md).

use super::reg::Reg;

// Display, main engine (top screen) and sub engine (bottom screen).
pub const DISPCNT: Reg<u32> = Reg::at(0x0400_0000);
pub const VCOUNT: Reg<u16> = Reg::at(0x0400_0006);
pub const POWCNT1: Reg<u16> = Reg::at(0x0400_0304);
pub const VRAMCNT_A: Reg<u8> = Reg::at(0x0400_0240);
pub const VRAMCNT_C: Reg<u8> = Reg::at(0x0400_0242);
pub const DISPCNT_SUB: Reg<u32> = Reg::at(0x0400_1000);
pub const BG3CNT_SUB: Reg<u16> = Reg::at(0x0400_100E);
pub const BG3PA_SUB: Reg<u16> = Reg::at(0x0400_1030);
pub const BG3PB_SUB: Reg<u16> = Reg::at(0x0400_1032);
pub const BG3PC_SUB: Reg<u16> = Reg::at(0x0400_1034);
pub const BG3PD_SUB: Reg<u16> = Reg::at(0x0400_1036);
pub const BG3X_SUB: Reg<u32> = Reg::at(0x0400_1038);
pub const BG3Y_SUB: Reg<u32> = Reg::at(0x0400_103C);

// Timers 0 and 1, cascaded into a 32-bit bus-cycle counter.
pub const TM0CNT_L: Reg<u16> = Reg::at(0x0400_0100);
pub const TM0CNT_H: Reg<u16> = Reg::at(0x0400_0102);
pub const TM1CNT_L: Reg<u16> = Reg::at(0x0400_0104);
pub const TM1CNT_H: Reg<u16> = Reg::at(0x0400_0106);

// Keys (active low): A B Select Start Right Left Up Down R L.
pub const KEYINPUT: Reg<u16> = Reg::at(0x0400_0130);
/// Interrupt master enable, enable and request/acknowledge flags.
pub const IME: Reg<u32> = Reg::at(0x0400_0208);
pub const IE: Reg<u32> = Reg::at(0x0400_0210);
pub const IF: Reg<u32> = Reg::at(0x0400_0214);
