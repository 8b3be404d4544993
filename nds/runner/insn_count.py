#!/usr/bin/env python3
"""Exact instruction counts of a PC-profile workload, function by function.

    make insn-count PCPROFILE=animframe

`make pcprofile` samples where DeSmuME's emulated time goes; this counts
what the code executes. It runs the PC-profile ROM's ARM9 ELF (its
`pc_profile::run`) in the Unicorn CPU emulator, with no DS around it:
main RAM, ITCM, DTCM and the I/O page are plain memory, except the
divider and the square-root unit, whose results are worked out when the
code reads them (GBATEK "DS Maths"). A timer reads as what was last
written, so the counts of code that waits on one mean nothing. It
counts every instruction executed, by the function symbol it belongs
to, over the workload's first N steps (the ROM's mailbox frame counter),
and prints them per step.

Beside each count it gives DeSmuME's cycles for the same instructions,
from the rules of its ARM9 JIT (desmume/src/arm_jit.cpp and
MMU_timing.h; `desmume_cycles` below): one cycle for most instructions,
three for a load and two for a store (eight to the I/O page, such as the
geometry engine's ports), three for a taken branch, and 2-6 for a
multiply by the size of its second operand. Main RAM data goes through
a model of DeSmuME's data cache (4 KB, 4 ways, 32-byte lines, a line
allocated on a read miss): a read that misses costs 52 cycles (36 when
it follows the last access), a write 8 (4); a load- or store-multiple
there costs 4 cycles a word and bypasses the model, as in its JIT. Code
fetches are not modelled. It is a guide to where DeSmuME's time goes,
not a replacement for the timers (`make bench`).

Checked against DeSmuME on the animation frame (`animframe`: 146.2 us
modelled, 145.8 us measured by `make pcprofile`, at 84c4b71).
"""
from __future__ import annotations

import argparse
import collections
import math
import os
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from pcprofile import locate, symbols  # noqa: E402

MAILBOX = 0x0230_0000
# The mailbox header's frame counter (mailbox.py: magic, version, size, state, frame).
FRAME_OFFSET = 16
SHT_PROGBITS, SHT_NOBITS = 1, 8
SHF_ALLOC = 2


def sections(elf: bytes):
    """(name, type, addr, offset, size) of each allocated section."""
    shoff, = struct.unpack_from("<I", elf, 0x20)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", elf, 0x2E)
    heads = [struct.unpack_from("<IIIIIIIIII", elf, shoff + i * shentsize) for i in range(shnum)]
    strtab = heads[shstrndx]
    def name(off: int) -> str:
        start = strtab[4] + off
        return elf[start:elf.index(b"\0", start)].decode()
    for h in heads:
        if h[2] & SHF_ALLOC and h[1] in (SHT_PROGBITS, SHT_NOBITS):
            yield name(h[0]), h[1], h[3], h[4], h[5]


def load_images(elf: bytes):
    """(load address, bytes) of each loadable segment: where the packer
    puts it in main RAM (an overlay's image, not its ITCM address)."""
    phoff, = struct.unpack_from("<I", elf, 0x1C)
    phentsize, phnum = struct.unpack_from("<HH", elf, 0x2A)
    for i in range(phnum):
        kind, off, _vaddr, paddr, filesz = struct.unpack_from("<IIIII", elf, phoff + i * phentsize)
        if kind == 1 and filesz:
            yield paddr, elf[off:off + filesz]


def function_named(name: str, starts, info) -> tuple[int, str, int]:
    """(start, full name, size) of the first function whose name contains
    `name`."""
    hits = [(s, n, size) for s, (n, size) in zip(starts, info) if name in n]
    if not hits:
        raise SystemExit(f"error: no function named like {name!r}")
    return hits[0]


def annotate(elf: str, name: str, starts, info, counts, cycles, steps: int) -> None:
    """The function's disassembly (llvm-objdump), with each instruction's
    executions and DeSmuME-model cycles per step in the first columns."""
    import shutil
    import subprocess
    start, full, size = function_named(name, starts, info)
    objdump = shutil.which("llvm-objdump") or "/usr/lib/llvm-14/bin/llvm-objdump"
    out = subprocess.run([objdump, "-d", "--no-show-raw-insn", f"--start-address={start}",
                          f"--stop-address={start + size}", elf],
                         check=True, capture_output=True, text=True).stdout
    print(f"\n{full}:")
    for line in out.splitlines():
        head = line.strip().split(":", 1)
        try:
            address = int(head[0], 16)
        except ValueError:
            continue
        if len(head) == 2 and head[1].strip():
            print(f"{counts.get(address, 0) / steps:8.1f} {cycles.get(address, 0) / steps:8.1f}  "
                  f"{line.strip()}")


def by_line(elf: str, name: str, starts, info, counts, cycles, steps: int, top: int) -> None:
    """A function's counts per step totalled by source line (llvm-addr2line
    on the PC-profile ROM's line tables; an inlined helper's line counts as
    the helper's, so `cmp.rs` is every `min`, `max` and `clamp` inlined)."""
    import shutil
    import subprocess
    start, full, size = function_named(name, starts, info)
    addresses = sorted(a for a in counts if start <= a < start + size)
    tool = shutil.which("llvm-addr2line") or "/usr/lib/llvm-14/bin/llvm-addr2line"
    out = subprocess.run([tool, "-e", elf], input="\n".join(hex(a) for a in addresses),
                         check=True, capture_output=True, text=True).stdout.splitlines()
    n_by: collections.Counter[str] = collections.Counter()
    c_by: collections.Counter[str] = collections.Counter()
    for address, where in zip(addresses, out):
        # The file's name and line: the crate paths are long and the same.
        where = where.rsplit("/", 1)[-1]
        n_by[where] += counts[address]
        c_by[where] += cycles[address]
    print(f"\n{full}, by source line ({sum(n_by.values()) / steps:.0f} instructions, "
          f"{sum(c_by.values()) / steps:.0f} cycles a step):")
    print(f"{'insns':>10}  {'cycles':>8}  line")
    for where, c in c_by.most_common(top):
        print(f"{n_by[where] / steps:10.0f}  {c / steps:8.0f}  {where}")


CONDITIONS = {
    0x0: lambda n, z, c, v: z, 0x1: lambda n, z, c, v: not z,
    0x2: lambda n, z, c, v: c, 0x3: lambda n, z, c, v: not c,
    0x4: lambda n, z, c, v: n, 0x5: lambda n, z, c, v: not n,
    0x6: lambda n, z, c, v: v, 0x7: lambda n, z, c, v: not v,
    0x8: lambda n, z, c, v: c and not z, 0x9: lambda n, z, c, v: not c or z,
    0xA: lambda n, z, c, v: n == v, 0xB: lambda n, z, c, v: n != v,
    0xC: lambda n, z, c, v: not z and n == v, 0xD: lambda n, z, c, v: z or n != v,
}


def multiply_cycles(rs: int, signed: bool) -> int:
    """DeSmuME's early-termination term: the top set bit of Rs (of its
    magnitude's one's complement when signed), divided by 8."""
    if signed and rs & 0x8000_0000:
        rs ^= 0xFFFF_FFFF
    return (rs | 1).bit_length() - 1 >> 3


def decode(word: int) -> str:
    """The encoding group of an ARM instruction, as far as the cycle model
    and `--classes` tell groups apart (one decoder for both)."""
    op = word >> 25 & 7
    if op == 5:
        return "b"
    if op in (2, 3):
        return "ldr" if word >> 20 & 1 else "str"
    if op == 4:
        return "ldm" if word >> 20 & 1 else "stm"
    if op == 0 and word & 0x90 == 0x90:
        if word & 0x0FC0_00F0 == 0x0000_0090:
            return "mul"
        if word & 0x0F80_00F0 == 0x0080_0090:
            return "mull"
        if word & 0x60:
            # Halfword, signed and doubleword transfers.
            load = word >> 20 & 1 or word & 0x60 == 0x40
            return "ldr" if load else "str"
        return "other"
    if op == 0 and word & 0x0F90_0090 == 0x0100_0080:
        return "smulxy"
    if word & 0x0FFF_FFF0 == 0x012F_FF10:
        return "bx"
    if op == 0 and word & 0x10 and not word & 0x80:
        return "regshift"
    return "other"


def desmume_cycles(word: int, cpsr: int, reg) -> int:
    """DeSmuME's ARM9 JIT cycles for one ARM instruction about to run
    (I/O accesses are added by the memory hooks)."""
    cond = word >> 28
    if cond != 0xE and cond != 0xF:
        flags = (cpsr >> 31 & 1, cpsr >> 30 & 1, cpsr >> 29 & 1, cpsr >> 28 & 1)
        if not CONDITIONS[cond](*flags):
            return 1
    kind = decode(word)
    if kind in ("b", "ldr"):
        return 3
    if kind == "str":
        return 2
    if kind in ("ldm", "stm"):
        n = bin(word & 0xFFFF).count("1")
        return max(2 if kind == "ldm" else 1, n)
    if kind == "mul":
        rs = reg((word >> 8) & 15)
        return 2 + (word >> 21 & 1) + multiply_cycles(rs, True)
    if kind == "mull":
        rs = reg((word >> 8) & 15)
        return 3 + (word >> 21 & 1) + multiply_cycles(rs, bool(word >> 22 & 1))
    if kind in ("bx", "regshift"):
        return 2
    return 1


CLASSES = {
    "b": "branch",
    "bx": "branch",
    "ldr": "load",
    "str": "store",
    "ldm": "load multiple",
    "stm": "store multiple",
    "mul": "multiply (mul, mla)",
    "mull": "long multiply (smull, smlal, umull)",
    "smulxy": "halfword multiply (smulxy, smlawb)",
}


def instruction_class(word: int) -> str:
    """What kind of ARM instruction `word` is, for `--classes`: `decode`'s
    groups, with single loads and stores through the stack apart."""
    kind = decode(word)
    label = CLASSES.get(kind, "other (data processing)")
    if kind in ("ldr", "str") and word >> 16 & 15 == 13:
        return label + " (stack)"
    return label


DIV = 0x0400_0280
SQRT = 0x0400_02B0


def maths_unit(uc, address: int) -> None:
    """Before a read of the divider's or the square-root unit's results,
    writes what the hardware would hold there (GBATEK "DS Maths")."""
    def s(raw: bytes) -> int:
        return int.from_bytes(raw, "little", signed=True)
    if 0x0400_02A0 <= address < 0x0400_02B0:
        mode = uc.mem_read(DIV, 2)[0] & 3
        num = s(uc.mem_read(DIV + 0x10, 8 if mode else 4))
        den = s(uc.mem_read(DIV + 0x18, 8 if mode == 2 or mode == 3 else 4))
        if den == 0:
            quot, rem = (1 if num < 0 else -1), num
        else:
            quot = abs(num) // abs(den) * (1 if (num < 0) == (den < 0) else -1)
            rem = num - quot * den
        uc.mem_write(DIV + 0x20, (quot & (2**64 - 1)).to_bytes(8, "little"))
        uc.mem_write(DIV + 0x28, (rem & (2**64 - 1)).to_bytes(8, "little"))
    elif address == SQRT + 4:
        wide = uc.mem_read(SQRT, 2)[0] & 1
        param = int.from_bytes(uc.mem_read(SQRT + 8, 8 if wide else 4), "little")
        uc.mem_write(SQRT + 4, math.isqrt(param).to_bytes(4, "little"))


class DataCache:
    """DeSmuME's ARM9 data-cache model (MMU_timing.h, CacheController<12,
    2, 5>): which main-RAM accesses hit. Only a read miss allocates."""

    SETS, WAYS, LINE = 32, 4, 32

    def __init__(self) -> None:
        self.tags = [[None] * self.WAYS for _ in range(self.SETS)]
        self.next_way = [0] * self.SETS
        self.last = None

    def access(self, address: int, read: bool) -> int:
        """The access's cycles in DeSmuME's model (1 on a hit)."""
        sequential = self.last is not None and address == self.last + 4
        self.last = address
        line = address // self.LINE
        s, tag = line % self.SETS, line // self.SETS
        if tag in self.tags[s]:
            return 1
        if read:
            self.tags[s][self.next_way[s]] = tag
            self.next_way[s] = (self.next_way[s] + 1) % self.WAYS
            return (4 if sequential else 20) + 32
        return 4 if sequential else 8


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--elf", required=True, help="a PC-profile ROM's ARM9 ELF")
    ap.add_argument("--steps", type=int, default=20, help="workload steps to count")
    ap.add_argument("--skip", type=int, default=2, help="steps to run before counting")
    ap.add_argument("--top", type=int, default=25)
    ap.add_argument("--per-step", action="store_true",
                    help="also print each counted step's model cycles, in order (where "
                         "in the workload the cost is)")
    ap.add_argument("--no-data-cache", action="store_true",
                    help="charge main RAM data as if every access hit (what the cache "
                         "model adds is the difference)")
    ap.add_argument("--lines", metavar="NAME", default=None,
                    help="total the counts of the function whose name contains NAME by "
                         "source line, the costliest first (--top of them)")
    ap.add_argument("--classes", action="store_true",
                    help="also total the counts and cycles by kind of instruction (loads, "
                         "stores, multiplies, branches; a main-RAM miss counts with its load)")
    ap.add_argument("--main-ram", action="store_true",
                    help="also print, per function, the cycles main RAM adds beyond the "
                         "same accesses in DTCM (its load/store-multiples' 3 a word, its "
                         "cache misses): what moving the data to DTCM would save at most")
    ap.add_argument("--annotate", metavar="NAME", default=None,
                    help="print the disassembly of the function whose name contains NAME, "
                         "each instruction with its count per step")
    args = ap.parse_args()
    try:
        from unicorn import (Uc, UC_ARCH_ARM, UC_MODE_ARM, UC_HOOK_CODE,
                             UC_HOOK_MEM_READ, UC_HOOK_MEM_WRITE, UC_MEM_READ)
        from unicorn.arm_const import (UC_ARM_REG_SP, UC_ARM_REG_R0, UC_ARM_REG_LR,
                                       UC_ARM_REG_PC, UC_ARM_REG_CPSR, UC_CPU_ARM_946)
    except ImportError:
        raise SystemExit("error: the Python package `unicorn` is needed (make venv installs it)")
    elf = open(args.elf, "rb").read()
    starts, info = symbols(args.elf)
    by_name = {n: s for s, (n, _) in zip(starts, info)}
    run = next((s for n, s in by_name.items() if n.endswith("pc_profile::run")), None)
    if run is None:
        raise SystemExit(f"error: {args.elf} has no pc_profile::run")

    uc = Uc(UC_ARCH_ARM, UC_MODE_ARM)
    # The DS's ARM9: ARMv5TE (qadd, smulxy, clz; no ARMv6 media ops).
    uc.ctl_set_cpu_model(UC_CPU_ARM_946)
    for base, size in [(0x01FF8000, 0x8000), (0x0B000000, 0x4000),
                       (0x02000000, 0x01000000), (0x04000000, 0x01000000)]:
        uc.mem_map(base, size)
    # What crt0 would have copied (the shared part of ITCM, DTCM data) at
    # its addresses. The two ITCM overlays share theirs: each workload's
    # own loader copies in the one it runs, from its image below.
    for name, kind, addr, off, size in sections(elf):
        if kind == SHT_PROGBITS and not name.startswith(".itcm_") and size:
            uc.mem_write(addr, elf[off:off + size])
    for paddr, data in load_images(elf):
        if paddr >= 0x02000000:
            uc.mem_write(paddr, data)
    uc.reg_write(UC_ARM_REG_SP, 0x0B003E00)
    uc.reg_write(UC_ARM_REG_R0, MAILBOX)
    # `run` never returns: a return to 0 would stop at an unmapped address.
    uc.reg_write(UC_ARM_REG_LR, 0)

    counts: collections.Counter[int] = collections.Counter()
    cycles: collections.Counter[int] = collections.Counter()
    # Main RAM's extra cycles per address: (multiples, misses).
    ram_multiple: collections.Counter[int] = collections.Counter()
    ram_miss: collections.Counter[int] = collections.Counter()
    words: dict[int, int] = {}
    state = {"counting": False, "frames": 0, "pc": 0, "total": 0}
    per_step: list[int] = []
    regs = [UC_ARM_REG_R0 + i for i in range(13)] + [UC_ARM_REG_SP, UC_ARM_REG_LR,
                                                      UC_ARM_REG_PC]

    cache = DataCache()

    def on_code(uc, address, size, _):
        state["pc"] = address
        word = words.get(address)
        if word is None:
            word = words[address] = struct.unpack("<I", uc.mem_read(address, 4))[0]
        state["multiple"] = word >> 25 & 7 == 4
        if not state["counting"]:
            return
        counts[address] += 1
        cpsr = uc.reg_read(UC_ARM_REG_CPSR)
        n = desmume_cycles(word, cpsr, lambda r: uc.reg_read(regs[r]))
        cycles[address] += n
        state["total"] += n

    def on_io(uc, access, address, size, value, _):
        if access == UC_MEM_READ:
            maths_unit(uc, address)
        # DeSmuME: an I/O access costs 8 cycles (2, plus 6 not sequential),
        # against 3 for a load or 2 for a store elsewhere.
        if state["counting"]:
            n = 5 if access == UC_MEM_READ else 6
            cycles[state["pc"]] += n
            state["total"] += n

    def on_main_ram(uc, access, address, size, value, _):
        read = access == UC_MEM_READ
        if state["multiple"]:
            # The JIT's load/store-multiple in main RAM: 4 cycles a word,
            # no cache lookup (1 a word is already counted).
            extra = 3
        elif args.no_data_cache:
            extra = 0
        else:
            # Beyond the 3 cycles of a load or 2 of a store already counted.
            extra = max(0, cache.access(address, read) - (3 if read else 2))
        if state["counting"]:
            cycles[state["pc"]] += extra
            state["total"] += extra
            (ram_multiple if state["multiple"] else ram_miss)[state["pc"]] += extra

    def on_frame(uc, access, address, size, value, _):
        # One run, never resumed (a resumed store would count twice):
        # count from the skip-th step's end to the last one's.
        state["frames"] += 1
        if state["counting"]:
            per_step.append(state["total"])
            state["total"] = 0
        state["counting"] = args.skip <= state["frames"] < args.skip + args.steps
        if state["frames"] >= args.skip + args.steps:
            uc.emu_stop()

    uc.hook_add(UC_HOOK_CODE, on_code)
    uc.hook_add(UC_HOOK_MEM_READ | UC_HOOK_MEM_WRITE, on_io, begin=0x0400_0000, end=0x04FF_FFFF)
    uc.hook_add(UC_HOOK_MEM_READ | UC_HOOK_MEM_WRITE, on_main_ram, begin=0x0200_0000,
                end=0x02FF_FFFF)
    uc.hook_add(UC_HOOK_MEM_WRITE, on_frame, begin=MAILBOX + FRAME_OFFSET,
                end=MAILBOX + FRAME_OFFSET + 3)
    uc.emu_start(run, 0xFFFF_FFFF)
    steps = args.steps
    per_fn: collections.Counter[str] = collections.Counter()
    per_fn_cycles: collections.Counter[str] = collections.Counter()
    for address, n in counts.items():
        name = locate(address, starts, info)
        per_fn[name] += n
        per_fn_cycles[name] += cycles[address]
    total = sum(per_fn.values())
    total_cycles = sum(per_fn_cycles.values())
    print(f"{args.elf}: per step, over {steps} steps (Unicorn):")
    print(f"{total / steps:10.0f} instructions, {total_cycles / steps:.0f} DeSmuME-model cycles "
          f"({total_cycles / steps / 67.03:.1f} us at 67.03 MHz)")
    print(f"{'insns':>10}  {'cycles':>8}  function")
    for name, n in per_fn.most_common(args.top):
        print(f"{n / steps:10.0f}  {per_fn_cycles[name] / steps:8.0f}  {name}")
    if args.per_step:
        print("\nmodel cycles of each counted step, in order:")
        for i in range(0, len(per_step), 10):
            print(f"{args.skip + i:6d}: " + " ".join(f"{c:6d}" for c in per_step[i:i + 10]))
    if args.classes:
        n_by: collections.Counter[str] = collections.Counter()
        c_by: collections.Counter[str] = collections.Counter()
        for address, n in counts.items():
            kind = instruction_class(words[address])
            n_by[kind] += n
            c_by[kind] += cycles[address]
        print(f"\n{'insns':>10}  {'cycles':>8}  kind of instruction")
        for kind, c in c_by.most_common():
            print(f"{n_by[kind] / steps:10.0f}  {c / steps:8.0f}  {kind}")
    if args.main_ram:
        mult: collections.Counter[str] = collections.Counter()
        miss: collections.Counter[str] = collections.Counter()
        for address, n in ram_multiple.items():
            mult[locate(address, starts, info)] += n
        for address, n in ram_miss.items():
            miss[locate(address, starts, info)] += n
        print(f"\nmain RAM's extra cycles a step: {sum(mult.values()) / steps:.0f} in "
              f"load/store-multiples, {sum(miss.values()) / steps:.0f} in misses")
        print(f"{'multiple':>10}  {'misses':>8}  function")
        for name, _ in (mult + miss).most_common(args.top):
            print(f"{mult[name] / steps:10.0f}  {miss[name] / steps:8.0f}  {name}")
    if args.lines:
        by_line(args.elf, args.lines, starts, info, counts, cycles, steps, args.top)
    if args.annotate:
        annotate(args.elf, args.annotate, starts, info, counts, cycles, steps)
    return 0


if __name__ == "__main__":
    sys.exit(main())
