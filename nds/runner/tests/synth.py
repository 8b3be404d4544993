"""Synthetic mailboxes and tiny ROMs for the runner's tests.

`block()` lays out a mailbox byte for byte from LAYOUT.md's offsets (not from
mailbox.py's struct formats, so a mistake there is caught). `copier_rom()`
wraps a block in a ROM whose ARM9 copies it to 0x02300000 and spins, which
exercises the whole runner on DeSmuME without the real ARM9 runtime.
"""
from __future__ import annotations

import struct

# Straight from LAYOUT.md, deliberately not imported from mailbox.py.
OFFSET_PANIC, OFFSET_PHASES, OFFSET_TESTS, OFFSET_BENCH = 0x60, 0x160, 0x660, 0x3660
OFFSET_TIMELINE, TOTAL_SIZE = 0x6660, 0xAA60
PHASE_RECORD, TEST_RECORD, BENCH_RECORD, TIMELINE_FRAME = 40, 96, 48, 272
MAGIC = 0x4C444752


def _put_str(buf: bytearray, offset: int, size: int, text: str) -> None:
    raw = text.encode()[:size]
    buf[offset:offset + size] = raw + bytes(size - len(raw))


def _put_words(buf: bytearray, offset: int, *words: int) -> None:
    for i, w in enumerate(words):
        struct.pack_into("<I", buf, offset + 4 * i, w & 0xFFFF_FFFF)


def block(*, state: int = 2, rom_kind: int = 1, frame: int = 42,
          tests: list[tuple[str, int, int, str]] = (),
          phases: list[tuple[str, int, int, int, int, int]] = (),
          bench: list[tuple[str, int, int]] = (),
          panic: str | None = None, overhead: int = 30, frames_profiled: int = 0,
          overruns: int = 0, version: int = 2, total_size: int = TOTAL_SIZE,
          timeline: list[tuple[int, int, int, int, list[tuple[int, int]]]] = (),
          layout: tuple[int, int, int, int] = (OFFSET_PANIC, OFFSET_PHASES, OFFSET_TESTS, OFFSET_BENCH),
          magic: int = MAGIC) -> bytes:
    """tests: (name, status, cycles, detail); phases: (name, depth, last, max,
    total, calls); bench: (key, value, decimals); timeline: (frame, busy,
    idle, flags, [(start, cycles) per phase]), in slot frame % 64."""
    buf = bytearray(TOTAL_SIZE)
    _put_words(buf, 0, magic, version, total_size, state, frame, rom_kind,
               len(phases), len(tests), len(bench), overhead, frames_profiled, overruns, *layout)
    if panic is not None:
        _put_words(buf, OFFSET_PANIC, len(panic.encode()))
        _put_str(buf, OFFSET_PANIC + 4, 252, panic)
    for i, (name, depth, last, mx, total, calls) in enumerate(phases):
        o = OFFSET_PHASES + i * PHASE_RECORD
        _put_str(buf, o, 16, name)
        _put_words(buf, o + 16, depth, last, mx, total & 0xFFFF_FFFF, total >> 32, calls)
    for i, (name, status, cycles, detail) in enumerate(tests):
        o = OFFSET_TESTS + i * TEST_RECORD
        _put_str(buf, o, 40, name)
        _put_words(buf, o + 40, status, cycles)
        _put_str(buf, o + 48, 48, detail)
    for i, (key, value, decimals) in enumerate(bench):
        o = OFFSET_BENCH + i * BENCH_RECORD
        _put_str(buf, o, 40, key)
        struct.pack_into("<iI", buf, o + 40, value, decimals)
    for frame, busy, idle, flags, spans in timeline:
        o = OFFSET_TIMELINE + (frame % 64) * TIMELINE_FRAME
        pairs = [w for span in spans for w in span]
        pairs += [0xFFFF_FFFF, 0] * (32 - len(spans))
        _put_words(buf, o, frame, busy, idle, flags, *pairs)
    return bytes(buf)


SPIN = 0xEAFFFFFE  # b .


def rom(arm9_words: list[int], path: str, arm9_data: bytes = b"") -> None:
    """Write a minimal .nds (ndspy) with this ARM9 code at 0x02000000."""
    import ndspy.rom
    r = ndspy.rom.NintendoDSRom()
    r.name = b"RUNNERTEST"
    r.arm9 = b"".join(struct.pack("<I", w) for w in arm9_words) + arm9_data
    r.arm9RamAddress = r.arm9EntryAddress = 0x0200_0000
    r.arm7 = struct.pack("<I", SPIN)
    r.arm7RamAddress = r.arm7EntryAddress = 0x0238_0000
    r.saveToFile(path)


def copier_rom(mailbox_block: bytes, path: str) -> None:
    """A ROM that copies `mailbox_block` to 0x02300000, then spins."""
    assert len(mailbox_block) % 4 == 0
    code = [
        0xE59F0018,  # ldr r0, [pc, #0x18]   -> src   (literal at 0x20)
        0xE59F1018,  # ldr r1, [pc, #0x18]   -> dst   (0x24)
        0xE59F2018,  # ldr r2, [pc, #0x18]   -> count (0x28)
        0xE4903004,  # loop: ldr r3, [r0], #4
        0xE4813004,  #       str r3, [r1], #4
        0xE2522001,  #       subs r2, r2, #1
        0x1AFFFFFB,  #       bne loop
        SPIN,        # 0x1C: b .
        0x0200_002C,              # 0x20: src = the block, right after these literals
        0x0230_0000,              # 0x24: dst
        len(mailbox_block) // 4,  # 0x28: words
    ]
    rom(code, path, mailbox_block)
