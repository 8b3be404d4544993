#!/usr/bin/env python3
"""A sampling profiler for the ARM9: where the cycles of a workload go.

    make pcprofile    # builds target/nds/ragdoll-pcprofile.nds and runs this

    .venv/bin/python nds/runner/pcprofile.py --rom R.nds --elf R.arm9.elf [--frames N]

The pc-profile ROM (nds/arm9/src/pc_profile.rs) runs the one-ragdoll bench
workload forever without waiting for VBlank. DeSmuME runs one emulated
frame per step; after each, the ARM9's program counter is one uniform
sample of where emulated time goes (the workload's loop is not locked to
the frame). Each sample is mapped to the ELF's function symbol (from
`llvm-nm`), so inlined code counts as its caller. N samples give each
share to about 1/sqrt(N).

DeSmuME charges cycles per instruction with little cache modelling, so this
says what costs instructions, not what costs cache misses.
"""
from __future__ import annotations

import argparse
import bisect
import collections
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from desmume_backend import DesmumeEmulator  # noqa: E402
from emulator import EmulatorError  # noqa: E402
import mailbox  # noqa: E402


# One emulated frame: 560190 bus cycles at 33.513982 MHz.
FRAME_US = 560190 / 33.513982


def symbols(elf: str) -> tuple[list[int], list[tuple[str, int]]]:
    """Function symbols of `elf`, sorted by address: (starts, [(name, size)])."""
    nm = shutil.which("llvm-nm") or shutil.which("nm")
    if nm is None:
        raise SystemExit("error: llvm-nm (or nm) is needed to read the ELF's symbols")
    out = subprocess.run([nm, "-n", "-S", "--demangle", elf], check=True,
                         capture_output=True, text=True).stdout
    starts, info = [], []
    for line in out.splitlines():
        parts = line.split(None, 3)
        # Size-0 markers (`__itcm_start`) share an address with the first
        # function placed there and would hide it.
        if len(parts) == 4 and parts[2] in "tTwW" and int(parts[1], 16) > 0:
            starts.append(int(parts[0], 16))
            info.append((parts[3], int(parts[1], 16)))
    return starts, info


def locate(pc: int, starts: list[int], info: list[tuple[str, int]]) -> str:
    i = bisect.bisect_right(starts, pc) - 1
    if i >= 0 and pc < starts[i] + max(info[i][1], 1):
        return info[i][0]
    return f"?{pc:#010x}"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rom", required=True)
    ap.add_argument("--elf", required=True, help="the ARM9 ELF the ROM was packed from")
    ap.add_argument("--frames", type=int, default=3000, help="samples to take")
    ap.add_argument("--skip", type=int, default=30, help="frames of boot to skip")
    ap.add_argument("--top", type=int, default=25)
    ap.add_argument("--lines", action="store_true",
                    help="also rank source lines (innermost inlined frame), for an ELF "
                         "built with line tables (make pcprofile does)")
    ap.add_argument("--lines-in", metavar="NAME", default=None,
                    help="rank source lines only of samples in functions whose name "
                         "contains NAME (implies --lines)")
    args = ap.parse_args()
    starts, info = symbols(args.elf)
    try:
        emu = DesmumeEmulator()
        emu.open(args.rom)
    except EmulatorError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    for _ in range(args.skip):
        emu.step()
    steps0 = mailbox.read_header(emu.read).frame
    counts: collections.Counter[str] = collections.Counter()
    pcs: collections.Counter[int] = collections.Counter()
    for _ in range(args.frames):
        emu.step()
        pc = emu.arm9_pc()
        pcs[pc] += 1
        counts[locate(pc, starts, info)] += 1
    steps = (mailbox.read_header(emu.read).frame - steps0) & 0xFFFF_FFFF
    emu.close()
    total = sum(counts.values())
    print(f"{total} samples of the ARM9 PC in DeSmuME, one per emulated frame")
    if steps:
        # The ROM counts workload steps in the mailbox's frame field.
        print(f"{steps} workload steps in {total} emulated frames: "
              f"{total * FRAME_US / steps:.1f} us per step")
    print(f"{'share':>7}  function")
    for name, n in counts.most_common(args.top):
        print(f"{100.0 * n / total:6.1f}%  {name[:110]}")
    if args.lines or args.lines_in:
        if args.lines_in:
            pcs = collections.Counter({a: n for a, n in pcs.items()
                                       if args.lines_in in locate(a, starts, info)})
            print(f"\n(lines of samples in functions matching {args.lines_in!r} only)")
        print(f"\n{'share':>7}  source line (innermost inlined frame)")
        for where, n in source_lines(args.elf, pcs).most_common(args.top):
            print(f"{100.0 * n / total:6.1f}%  {where}")
    return 0


def source_lines(elf: str, pcs: collections.Counter[int]) -> collections.Counter[str]:
    """Sample counts per source line, through llvm-addr2line's line tables:
    of the inlined frames at a PC, the innermost one outside `fx/` and the
    standard library (an FX multiply counts as the line that multiplies)."""
    tool = shutil.which("llvm-addr2line") or shutil.which("addr2line")
    if tool is None:
        raise SystemExit("error: llvm-addr2line (or addr2line) is needed for --lines")
    lines: collections.Counter[str] = collections.Counter()
    for a, n in pcs.items():
        out = subprocess.run([tool, "-e", elf, "-f", "-C", "-i", f"{a:#x}"],
                             check=True, capture_output=True, text=True).stdout.splitlines()
        frames = [(out[i], out[i + 1]) for i in range(0, len(out) - 1, 2)]
        pick = next(((f, w) for f, w in frames
                     if "/fx/" not in w and "/rust/library/" not in w and "crates.io" not in w),
                    frames[-1] if frames else ("?", "?"))
        where = pick[1].split("/src/", 1)[-1] if "/src/" in pick[1] else pick[1]
        lines[f"{where}"] += n
    return lines


if __name__ == "__main__":
    sys.exit(main())
