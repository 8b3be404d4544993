"""Build a tiny, self-checking .nds ROM for the melonDS backend tests.

    python make_test_rom.py OUT.nds

No toolchain needed: the ARM9 and ARM7 programs are hand-encoded ARM
instructions, and ndspy writes a by-the-book header (logo, CRCs).

The ARM9 binary sits at ROM offset 0x8000, outside the secure area
(0x4000-0x7FFF): melonDS would otherwise try to decrypt it and overwrite
its first 2 KiB with 0xE7FFDEFF.

What the ARM9 does (main RAM, uncached; melonDS has no data-cache model):
  0x02300000  "RGDL" (0x4C444752), written once at start
  0x02300004  frame counter, +1 at the start of every VBlank (VCOUNT == 192)
  0x02300008  KEYINPUT (0x04000130) as last read, active-low
  0x0230000C  copy of the word at 0x02300040 (host command), every frame
  framebuffer mode on the main engine, shown on the top screen
  (POWCNT1 = 0x8003): lines 0-95 red (BGR555 0x001F), lines 96-191
  blue (0x7C00). The bottom screen (sub engine, off) stays black.
The ARM7 publishes the touch screen state; see arm7_program().
"""
from __future__ import annotations

import struct
import sys

MAGIC_ADDR = 0x02300000
MAGIC = 0x4C444752
ARM9_BASE = 0x02000000
ARM7_BASE = 0x02380000


class Asm:
    """Just enough ARM (A32) encoding for the test program, with a literal pool."""

    def __init__(self, base: int):
        self.base = base
        self.code: list = []  # ints, or ("lit", rd, value) / ("b", cond, label)
        self.labels: dict[str, int] = {}

    def here(self) -> int:
        return len(self.code) * 4

    def label(self, name: str) -> None:
        self.labels[name] = self.here()

    def emit(self, word: int) -> None:
        self.code.append(word & 0xFFFFFFFF)

    def ldr_lit(self, rd: int, value: int) -> None:
        self.code.append(("lit", rd, value))

    def b(self, label: str, cond: int = 0xE) -> None:
        self.code.append(("b", cond, label))

    def assemble(self) -> bytes:
        pool = sorted({c[2] for c in self.code if isinstance(c, tuple) and c[0] == "lit"})
        pool_at = {v: len(self.code) * 4 + 4 * i for i, v in enumerate(pool)}
        out = []
        for i, c in enumerate(self.code):
            pc = i * 4
            if isinstance(c, int):
                out.append(c)
            elif c[0] == "lit":
                off = pool_at[c[2]] - (pc + 8)
                assert 0 <= off < 4096
                out.append(0xE59F0000 | (c[1] << 12) | off)
            else:
                off = (self.labels[c[2]] - (pc + 8)) >> 2
                out.append((c[1] << 28) | 0x0A000000 | (off & 0xFFFFFF))
        out.extend(pool)
        return struct.pack(f"<{len(out)}I", *out)


def str_(rd, rn, imm=0): return 0xE5800000 | (rn << 16) | (rd << 12) | imm
def ldr(rd, rn, imm=0): return 0xE5900000 | (rn << 16) | (rd << 12) | imm
def strb(rd, rn, imm=0): return 0xE5C00000 | (rn << 16) | (rd << 12) | imm
def strh(rd, rn): return 0xE1C000B0 | (rn << 16) | (rd << 12)
def strh_post2(rd, rn): return 0xE0C000B2 | (rn << 16) | (rd << 12)
def ldrh(rd, rn): return 0xE1D000B0 | (rn << 16) | (rd << 12)
def add_imm(rd, rn, imm): return 0xE2800000 | (rn << 16) | (rd << 12) | imm
def subs_imm(rd, rn, imm): return 0xE2500000 | (rn << 16) | (rd << 12) | imm
def cmp_imm(rn, imm): return 0xE3500000 | (rn << 16) | imm
def mov_imm(rd, imm): return 0xE3A00000 | (rd << 12) | imm

NE, EQ = 0x1, 0x0


def arm9_program() -> bytes:
    a = Asm(ARM9_BASE)
    a.ldr_lit(0, MAGIC_ADDR)
    a.ldr_lit(1, MAGIC)
    a.emit(str_(1, 0, 0))
    # framebuffer mode on the main engine, main engine on the top screen
    a.ldr_lit(4, 0x04000304); a.ldr_lit(3, 0x8003); a.emit(strh(3, 4))
    a.ldr_lit(4, 0x04000240); a.emit(mov_imm(3, 0x80)); a.emit(strb(3, 4))
    a.ldr_lit(4, 0x04000000); a.ldr_lit(3, 0x00020000); a.emit(str_(3, 4))
    a.ldr_lit(2, 0x06800000)
    for color in (0x001F, 0x7C00):  # 96 lines red, then 96 lines blue
        a.ldr_lit(5, 256 * 96)
        a.ldr_lit(3, color)
        a.label(f"fill{color}")
        a.emit(strh_post2(3, 2))
        a.emit(subs_imm(5, 5, 1))
        a.b(f"fill{color}", NE)
    a.emit(mov_imm(6, 0))
    a.ldr_lit(4, 0x04000006)   # VCOUNT
    a.ldr_lit(8, 0x04000130)   # KEYINPUT
    a.label("loop")
    a.label("w1")
    a.emit(ldrh(7, 4)); a.emit(cmp_imm(7, 192)); a.b("w1", NE)
    a.emit(add_imm(6, 6, 1)); a.emit(str_(6, 0, 4))
    a.emit(ldrh(7, 8)); a.emit(str_(7, 0, 8))
    a.emit(ldr(7, 0, 0x40)); a.emit(str_(7, 0, 0xC))
    a.label("w2")
    a.emit(ldrh(7, 4)); a.emit(cmp_imm(7, 192)); a.b("w2", EQ)
    a.b("loop")
    return a.assemble()


def strh_off(rd, rn, imm): return 0xE1C000B0 | (rn << 16) | (rd << 12) | ((imm >> 4) << 8) | (imm & 0xF)
def ldrh_off(rd, rn, imm): return 0xE1D000B0 | (rn << 16) | (rd << 12) | ((imm >> 4) << 8) | (imm & 0xF)
def tst_imm(rn, imm): return 0xE3100000 | (rn << 16) | imm
def orr_lsl(rd, rn, rm, sh): return 0xE1800000 | (rn << 16) | (rd << 12) | (sh << 7) | rm
def mov_lsr(rd, rm, sh): return 0xE1A00020 | (rd << 12) | (sh << 7) | rm


def arm7_program() -> bytes:
    """Publish the touch screen for the host: the ARM9 cannot see it.

    0x02300010  EXTKEYIN (0x04000136): bit 6 is 0 while the pen is down
    0x02300014  TSC X channel, raw 12-bit ADC value (command 0xD0)
    0x02300018  TSC Y channel, raw 12-bit ADC value (command 0x90)
    0x0230001C  loop counter
    """
    a = Asm(ARM7_BASE)
    a.ldr_lit(0, MAGIC_ADDR)
    a.ldr_lit(1, 0x04000136)
    a.ldr_lit(3, 0x040001C0)   # SPICNT; SPIDATA at +2
    a.emit(mov_imm(9, 0))
    a.label("loop")
    a.emit(ldrh(2, 1)); a.emit(str_(2, 0, 0x10))
    for n, (cmd, dest) in enumerate(((0xD0, 0x14), (0x90, 0x18))):
        def wait(tag):
            a.label(tag); a.emit(ldrh(6, 3)); a.emit(tst_imm(6, 0x80)); a.b(tag, NE)
        a.ldr_lit(5, 0x8A01); a.emit(strh(5, 3))            # enable, TSC, hold CS, 2 MHz
        a.emit(mov_imm(5, cmd)); a.emit(strh_off(5, 3, 2)); wait(f"wa{n}")
        a.emit(mov_imm(5, 0)); a.emit(strh_off(5, 3, 2)); wait(f"wb{n}")
        a.emit(ldrh_off(7, 3, 2))                           # high byte
        a.ldr_lit(5, 0x8201); a.emit(strh(5, 3))            # last byte: release CS
        a.emit(mov_imm(5, 0)); a.emit(strh_off(5, 3, 2)); wait(f"wc{n}")
        a.emit(ldrh_off(8, 3, 2))                           # low byte
        a.emit(orr_lsl(7, 8, 7, 8)); a.emit(mov_lsr(7, 7, 3))
        a.emit(str_(7, 0, dest))
    a.emit(add_imm(9, 9, 1)); a.emit(str_(9, 0, 0x1C))
    a.b("loop")
    return a.assemble()


def build() -> bytes:
    import ndspy.rom

    rom = ndspy.rom.NintendoDSRom()
    rom.name = b"MELONDSTEST"
    rom.idCode = b"MDST"
    rom.developerCode = b"00"
    rom.arm9 = arm9_program()
    rom.arm9EntryAddress = ARM9_BASE
    rom.arm9RamAddress = ARM9_BASE
    rom.arm7 = arm7_program()
    rom.arm7EntryAddress = ARM7_BASE
    rom.arm7RamAddress = ARM7_BASE
    # Push the ARM9 binary to 0x8000: past the secure area.
    rom.pad200 = b"\0" * (0x8000 - 0x200)
    rom.deviceCapacity = 0  # 128 KiB << 0: the ROM is ~33 KiB
    data = rom.save()
    assert struct.unpack_from("<I", data, 0x20)[0] == 0x8000, "ARM9 not at 0x8000"
    return data


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: make_test_rom.py OUT.nds")
    with open(sys.argv[1], "wb") as f:
        f.write(build())
