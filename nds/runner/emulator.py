"""The interface every emulator backend implements, so the runner, the
tests and the benchmarks drive DeSmuME and melonDS the same way.

A backend runs one ROM at a time, headless, and steps exactly one frame
per `step()`. Addresses are ARM9 bus addresses (main RAM 0x02000000+).
"""
from __future__ import annotations

import abc

# DS buttons by name. The runner accepts these in --press scripts.
KEYS = ("A", "B", "SELECT", "START", "RIGHT", "LEFT", "UP", "DOWN", "R", "L", "X", "Y")


class EmulatorError(RuntimeError):
    """Setup or runtime failure of an emulator, with a message saying what to do."""


class Emulator(abc.ABC):
    #: short name used in test lines and reports: "desmume" or "melonds"
    name: str = "?"

    @abc.abstractmethod
    def version(self) -> str:
        """Emulator name and version, for reports."""

    @abc.abstractmethod
    def open(self, rom_path: str) -> None:
        """Load and boot the ROM (direct boot, no BIOS files)."""

    @abc.abstractmethod
    def step(self) -> None:
        """Run exactly one frame."""

    @abc.abstractmethod
    def read(self, address: int, length: int) -> bytes:
        """Read `length` bytes of ARM9-visible memory."""

    def read_u32(self, address: int) -> int:
        return int.from_bytes(self.read(address, 4), "little")

    @abc.abstractmethod
    def write_u32(self, address: int, value: int) -> None:
        """Write one word of main RAM (host commands in the mailbox)."""

    @abc.abstractmethod
    def set_keys(self, keys: set[str]) -> None:
        """Hold exactly these buttons (names from KEYS) from the next frame on."""

    @abc.abstractmethod
    def touch(self, x: int | None, y: int | None) -> None:
        """Touch the bottom screen at (x, y) pixels, or release with (None, None)."""

    @abc.abstractmethod
    def screenshot(self):
        """Both screens as one PIL image, 256x384, top screen above."""

    @abc.abstractmethod
    def arm9_pc(self) -> int | None:
        """The ARM9 program counter if the backend can tell, else None."""

    def close(self) -> None:
        """Free the emulator."""

    def cpu_state(self) -> str | None:
        """Extra ARM9 registers for crash reports ("cpsr=... lr=..."), if the backend can tell."""
        return None


SCREEN_WIDTH, SCREEN_HEIGHT = 256, 192


def split_screens(image):
    """(top, bottom) PIL images from a backend's 256x384 screenshot."""
    top = image.crop((0, 0, SCREEN_WIDTH, SCREEN_HEIGHT))
    bottom = image.crop((0, SCREEN_HEIGHT, SCREEN_WIDTH, 2 * SCREEN_HEIGHT))
    return top, bottom


EXCEPTION_VECTORS = {0x00: "reset", 0x04: "undefined instruction", 0x08: "SWI",
                     0x0C: "prefetch abort", 0x10: "data abort", 0x14: "reserved",
                     0x18: "IRQ", 0x1C: "FIQ"}


def vector_name(pc: int | None) -> str | None:
    """The exception vector `pc` sits in (low 0x0 or high 0xFFFF0000 vectors), else None."""
    if pc is None:
        return None
    for base in (0x0000_0000, 0xFFFF_0000):
        if base <= pc < base + 0x20:
            return EXCEPTION_VECTORS[(pc - base) & ~3]
    return None
