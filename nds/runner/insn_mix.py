"""The instruction mix of one function of an ARM9 ELF, read from its
disassembly: how many instructions, and how many are loads, stores, long
multiplies, other multiplies, branches and the rest.

    make insn-mix                      # the rigid solver's sweep kernel
    make insn-mix INSN_FN=5relax       # any function, by part of its name

`llvm-objdump` prints the long multiplies (`smull`, `smlal`, `umull`,
`umlal`) and `mul`/`mla` of ARMv5 as `<unknown>`; they are decoded here
from the instruction word (ARM ARM A3.5: bits 27-25 zero, bits 7-4
`1001`). A static count: the instructions a row update runs depend on
its path (which sides, linear or angular), see docs/rigid-solver.md.
"""

from __future__ import annotations

import argparse
import collections
import re
import shutil
import subprocess
import sys

LINE = re.compile(r"\s*([0-9a-f]+):\s+((?:[0-9a-f]{2} ){4})\s*(\S+)")
LONG = ["mul", "mla", "?", "?", "umull", "umlal", "smull", "smlal"]
CLASSES = [
    ("loads", ("ldr", "ldm", "pop")),
    ("stores", ("str", "stm", "push")),
    ("long multiplies", ("smull", "smlal", "umull", "umlal")),
    ("other multiplies", ("mul", "mla", "smla", "smul")),
    ("branches", ("b", "bl", "bx", "blx")),
]


def mnemonic(word: int, printed: str) -> str:
    """The instruction's name; multiplies decoded from the word."""
    if printed == "<unknown>" and (word >> 4) & 0xF == 9 and (word >> 25) & 7 == 0:
        return LONG[(word >> 21) & 7]
    return printed


def classify(name: str) -> str:
    """The class of a mnemonic, with or without a condition suffix (the
    full name first: `smlal` is not `sml` + `al`)."""
    stripped = re.sub(r"(eq|ne|hs|lo|mi|pl|hi|ls|ge|lt|gt|le|al)$", "", name)
    for base in (name, stripped):
        for cls, prefixes in CLASSES:
            if cls == "branches":
                if base in prefixes:
                    return cls
            elif any(base.startswith(p) for p in prefixes):
                return cls
    return "other"


def disassemble(elf: str, needle: str) -> tuple[str, list[str]]:
    """The named function's instruction names (the first whose symbol
    contains `needle`)."""
    tool = shutil.which("llvm-objdump") or "llvm-objdump"
    out = subprocess.run([tool, "-d", elf], capture_output=True, text=True, check=True).stdout
    names, symbol, inside = [], "", False
    for line in out.splitlines():
        head = re.match(r"^[0-9a-f]+ <(.*)>:$", line)
        if head:
            if inside:
                break
            if needle in head.group(1) and not head.group(1).startswith("$"):
                inside, symbol = True, head.group(1)
            continue
        if not inside:
            continue
        m = LINE.match(line)
        if m:
            word = int("".join(reversed(m.group(2).split())), 16)
            names.append(mnemonic(word, m.group(3)))
    if not names:
        raise SystemExit(f"insn_mix: no function matching {needle!r} in {elf}")
    return symbol, names


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--elf", required=True)
    ap.add_argument("--function", default="6kernel5sweep",
                    help="part of the (mangled) symbol name")
    args = ap.parse_args(argv)
    symbol, names = disassemble(args.elf, args.function)
    by_class = collections.Counter(classify(n) for n in names)
    print(f"{symbol}: {len(names)} instructions")
    for cls, _ in CLASSES + [("other", ())]:
        print(f"  {cls:17} {by_class[cls]:4}")
    top = collections.Counter(names).most_common(12)
    print("  most used: " + ", ".join(f"{n} {c}" for n, c in top))
    return 0


if __name__ == "__main__":
    sys.exit(main())
