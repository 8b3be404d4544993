"""Parse the results mailbox the ROM writes at 0x02300000.

The layout mirrors `nds/mailbox/src/lib.rs` (described in LAYOUT.md). The
ROM also writes its own idea of the layout into the header, and `check()`
compares it with the constants here, so a runner built against an older
layout refuses to misread a newer ROM instead of printing garbage.
"""
from __future__ import annotations

import struct
from dataclasses import dataclass, field
from typing import Callable

BASE_ADDRESS = 0x0230_0000
MAGIC = int.from_bytes(b"RGDL", "little")
LAYOUT_VERSION = 2

PANIC_MESSAGE_BYTES = 252
PHASE_NAME_BYTES = 16
MAX_PHASES = 32
TEST_NAME_BYTES = 40
TEST_DETAIL_BYTES = 48
MAX_TESTS = 128
BENCH_KEY_BYTES = 40
MAX_BENCH = 256
HOST_COMMAND_WORDS = 8
TIMELINE_FRAMES = 64
TIMELINE_OVERRUN = 1
TIMELINE_NOT_ENTERED = 0xFFFF_FFFF

# struct formats (little-endian, no padding: every field is a u32 or bytes)
HEADER_FMT = "<12I4I%dI" % HOST_COMMAND_WORDS
PANIC_FMT = "<I%ds" % PANIC_MESSAGE_BYTES
PHASE_FMT = "<%ds6I" % PHASE_NAME_BYTES
TEST_FMT = "<%ds2I%ds" % (TEST_NAME_BYTES, TEST_DETAIL_BYTES)
BENCH_FMT = "<%dsiI" % BENCH_KEY_BYTES
TIMELINE_FMT = "<4I%dI" % (2 * MAX_PHASES)

HEADER_SIZE = struct.calcsize(HEADER_FMT)
PHASE_RECORD = struct.calcsize(PHASE_FMT)
TEST_RECORD = struct.calcsize(TEST_FMT)
BENCH_RECORD = struct.calcsize(BENCH_FMT)
TIMELINE_FRAME = struct.calcsize(TIMELINE_FMT)

OFFSET_PANIC = HEADER_SIZE
OFFSET_PHASES = OFFSET_PANIC + struct.calcsize(PANIC_FMT)
OFFSET_TESTS = OFFSET_PHASES + MAX_PHASES * PHASE_RECORD
OFFSET_BENCH = OFFSET_TESTS + MAX_TESTS * TEST_RECORD
OFFSET_TIMELINE = OFFSET_BENCH + MAX_BENCH * BENCH_RECORD
TOTAL_SIZE = OFFSET_TIMELINE + TIMELINE_FRAMES * TIMELINE_FRAME

# Header word offsets the runner touches directly while the ROM runs.
OFFSET_STATE = 0x0C
OFFSET_FRAME = 0x10
OFFSET_HOST_COMMAND = 0x40

STATE_BOOTING, STATE_RUNNING, STATE_DONE, STATE_PANICKED = 0, 1, 2, 3
STATE_NAMES = {0: "booting", 1: "running", 2: "done", 3: "panicked"}
KIND_DEMO, KIND_TEST, KIND_BENCH, KIND_PANIC_TEST = 0, 1, 2, 3
KIND_NAMES = {0: "demo", 1: "test", 2: "bench", 3: "panic-test"}
TEST_NOT_RUN, TEST_PASS, TEST_FAIL = 0, 1, 2

BUS_HZ = 33_513_982
FRAME_BUDGET_US = 16_715.0


def cycles_to_us(cycles: int) -> float:
    """DS bus cycles to microseconds (33.513982 cycles per us)."""
    return cycles / (BUS_HZ / 1e6)


class MailboxError(ValueError):
    """The block is not a mailbox this runner can read."""


def _text(raw: bytes) -> str:
    """A NUL-padded ASCII field as a str (bad bytes shown, not fatal)."""
    return raw.split(b"\0", 1)[0].decode("ascii", "backslashreplace")


@dataclass
class Header:
    magic: int
    version: int
    total_size: int
    state: int
    frame: int
    rom_kind: int
    phase_count: int
    test_count: int
    bench_count: int
    profiler_overhead_cycles: int
    frames_profiled: int
    overruns: int
    layout: list[int]
    host_command: list[int]

    @classmethod
    def parse(cls, block: bytes) -> "Header":
        w = struct.unpack_from(HEADER_FMT, block, 0)
        return cls(*w[:12], layout=list(w[12:16]), host_command=list(w[16:]))

    @property
    def state_name(self) -> str:
        return STATE_NAMES.get(self.state, f"unknown({self.state})")

    @property
    def kind_name(self) -> str:
        return KIND_NAMES.get(self.rom_kind, f"unknown({self.rom_kind})")


@dataclass
class PhaseRecord:
    name: str
    depth: int
    last_frame_cycles: int
    max_frame_cycles: int
    total_cycles: int
    calls_last_frame: int

    @classmethod
    def parse(cls, block: bytes, offset: int) -> "PhaseRecord":
        name, depth, last, mx, lo, hi, calls = struct.unpack_from(PHASE_FMT, block, offset)
        return cls(_text(name), depth, last, mx, lo | (hi << 32), calls)


@dataclass
class TestRecord:
    name: str
    status: int
    cycles: int
    detail: str

    @classmethod
    def parse(cls, block: bytes, offset: int) -> "TestRecord":
        name, status, cycles, detail = struct.unpack_from(TEST_FMT, block, offset)
        return cls(_text(name), status, cycles, _text(detail))


@dataclass
class BenchRecord:
    key: str
    raw: int
    decimals: int

    @classmethod
    def parse(cls, block: bytes, offset: int) -> "BenchRecord":
        key, raw, decimals = struct.unpack_from(BENCH_FMT, block, offset)
        return cls(_text(key), raw, decimals)

    @property
    def value(self) -> float | int:
        """The real value: an int when there are no decimals."""
        return self.raw if self.decimals == 0 else self.raw / 10 ** self.decimals

    def formatted(self) -> str:
        return f"{self.value:.{self.decimals}f}" if self.decimals else str(self.raw)


@dataclass
class TimelineFrame:
    """One frame of the ROM's timeline ring: per phase (in the phases
    section's order) its start in the frame and its cycles; `start` is
    None for a phase not entered."""
    frame: int
    busy_cycles: int
    idle_cycles: int
    overran: bool
    starts: list[int | None]
    cycles: list[int]

    @classmethod
    def parse(cls, block: bytes, offset: int) -> "TimelineFrame":
        w = struct.unpack_from(TIMELINE_FMT, block, offset)
        pairs = w[4:]
        starts = [None if pairs[2 * k] == TIMELINE_NOT_ENTERED else pairs[2 * k]
                  for k in range(MAX_PHASES)]
        return cls(w[0], w[1], w[2], bool(w[3] & TIMELINE_OVERRUN), starts,
                   [pairs[2 * k + 1] for k in range(MAX_PHASES)])


@dataclass
class Mailbox:
    header: Header
    panic_message: str | None
    phases: list[PhaseRecord] = field(default_factory=list)
    tests: list[TestRecord] = field(default_factory=list)
    bench: list[BenchRecord] = field(default_factory=list)


def check(header: Header) -> None:
    """Raise MailboxError unless the ROM's layout is the one compiled in here."""
    if header.magic != MAGIC:
        raise MailboxError(f"no mailbox: magic is {header.magic:#010x}, expected {MAGIC:#010x} (\"RGDL\")")
    expected = [
        ("version", header.version, LAYOUT_VERSION),
        ("total_size", header.total_size, TOTAL_SIZE),
        ("panic offset", header.layout[0], OFFSET_PANIC),
        ("phases offset", header.layout[1], OFFSET_PHASES),
        ("tests offset", header.layout[2], OFFSET_TESTS),
        ("bench offset", header.layout[3], OFFSET_BENCH),
    ]
    for what, rom, ours in expected:
        if rom != ours:
            raise MailboxError(
                f"mailbox layout mismatch: ROM says {what} = {rom:#x}, runner expects {ours:#x}")
    for what, count, limit in [
        ("phase_count", header.phase_count, MAX_PHASES),
        ("test_count", header.test_count, MAX_TESTS),
        ("bench_count", header.bench_count, MAX_BENCH),
    ]:
        if count > limit:
            raise MailboxError(f"mailbox corrupt: {what} = {count}, at most {limit}")


def parse(block: bytes) -> Mailbox:
    """Parse a whole block (TOTAL_SIZE bytes), checking the layout first."""
    if len(block) < HEADER_SIZE:
        raise MailboxError(f"mailbox block is {len(block)} bytes, the header alone is {HEADER_SIZE}")
    header = Header.parse(block)
    check(header)
    if len(block) < OFFSET_TIMELINE:
        raise MailboxError(f"mailbox block is {len(block)} bytes, expected {OFFSET_TIMELINE}")
    length, message = struct.unpack_from(PANIC_FMT, block, OFFSET_PANIC)
    panic_message = None
    if header.state == STATE_PANICKED or length:
        panic_message = message[:min(length, PANIC_MESSAGE_BYTES)].decode("utf-8", "backslashreplace")
    return Mailbox(
        header=header,
        panic_message=panic_message,
        phases=[PhaseRecord.parse(block, OFFSET_PHASES + i * PHASE_RECORD)
                for i in range(header.phase_count)],
        tests=[TestRecord.parse(block, OFFSET_TESTS + i * TEST_RECORD)
               for i in range(header.test_count)],
        bench=[BenchRecord.parse(block, OFFSET_BENCH + i * BENCH_RECORD)
               for i in range(header.bench_count)],
    )


def read_header(read: Callable[[int, int], bytes], base: int = BASE_ADDRESS) -> Header:
    """The header alone, unchecked: cheap enough to poll every frame."""
    return Header.parse(read(base, HEADER_SIZE))


def read(read: Callable[[int, int], bytes], base: int = BASE_ADDRESS) -> Mailbox:
    """Read and parse the block through an emulator's `read`, up to the
    timeline (runners poll this every frame; `read_timeline` reads that)."""
    header = read_header(read, base)
    check(header)
    return parse(read(base, OFFSET_TIMELINE))


def read_timeline(read: Callable[[int, int], bytes], base: int = BASE_ADDRESS) -> list[TimelineFrame]:
    """The timeline ring's written frames, oldest first."""
    check(read_header(read, base))
    block = read(base + OFFSET_TIMELINE, TIMELINE_FRAMES * TIMELINE_FRAME)
    frames = [TimelineFrame.parse(block, k * TIMELINE_FRAME) for k in range(TIMELINE_FRAMES)]
    return sorted((f for f in frames if f.frame), key=lambda f: f.frame)
