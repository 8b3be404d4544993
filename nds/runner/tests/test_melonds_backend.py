"""melonDS backend tests (plain unittest).

    .venv/bin/python -m unittest discover -s nds/runner/tests -p 'test_melonds*.py' -v

Needs `make melonds` (nds/runner/melonds/setup.sh) and ndspy (.venv). The
tests build their own tiny ROM (nds/runner/melonds/make_test_rom.py): its
ARM9 writes "RGDL" at 0x02300000, counts VBlanks, mirrors KEYINPUT and a
host word; its ARM7 publishes the touch screen. The team ROMs in
target/nds/ are checked too (`make roms` builds them), and the panic ROM
must read as panicked wherever the runner watches a ROM. Without melonDS
or the ROMs the tests fail, with the command that provides them.
"""
from __future__ import annotations

import os
import struct
import sys
import tempfile
import time
import unittest

RUNNER = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ROOT = os.path.dirname(os.path.dirname(RUNNER))
sys.path.insert(0, RUNNER)
sys.path.insert(0, os.path.join(RUNNER, "melonds"))

import mailbox  # noqa: E402
import scenes  # noqa: E402
import session  # noqa: E402
import stress  # noqa: E402
from emulator import EmulatorError  # noqa: E402
from melonds_backend import MelondsEmulator, VERSION  # noqa: E402

MAGIC = 0x4C444752  # "RGDL"
MB = 0x02300000
SETUP_HINT = "make melonds"


def require_setup() -> None:
    """Fails (never skips) when melonDS is not set up, with the command
    that sets it up."""
    try:
        MelondsEmulator()._check_setup()
    except EmulatorError as e:
        hint = "" if SETUP_HINT in str(e) else f"; run `{SETUP_HINT}`"
        raise AssertionError(f"melonDS not ready: {e}{hint}") from None


def build_test_rom(path: str) -> bytes:
    import make_test_rom
    data = make_test_rom.build()
    with open(path, "wb") as f:
        f.write(data)
    return data


def arm9_of(rom: bytes) -> tuple[int, int, bytes]:
    off, entry, ram, size = struct.unpack_from("<4I", rom, 0x20)
    return entry, ram, rom[off:off + size]


class TestMelondsWithTestRom(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        require_setup()
        cls.tmp = tempfile.TemporaryDirectory()
        cls.rom_path = os.path.join(cls.tmp.name, "melonds-test.nds")
        cls.rom = build_test_rom(cls.rom_path)
        cls.emu = MelondsEmulator()
        cls.emu.open(cls.rom_path)

    @classmethod
    def tearDownClass(cls):
        cls.emu.close()
        cls.tmp.cleanup()

    def test_00_header_copy_and_arm9_binary(self):
        emu = self.emu
        # Before any frame runs: direct boot has already copied both.
        self.assertEqual(emu.read(0x027FFE00, 0x160), self.rom[:0x160])
        entry, ram, arm9 = arm9_of(self.rom)
        self.assertEqual(emu.read(ram, len(arm9)), arm9)
        self.assertEqual(emu.read(entry, 64), arm9[entry - ram:entry - ram + 64])
        # No DS code has run yet; the first step runs the first DS frame.
        self.assertEqual(emu.arm9_pc(), entry)
        self.assertEqual(emu.read_u32(MB), 0)
        emu.step()
        self.assertEqual(emu.read_u32(MB), MAGIC)
        # After frames too (the test ROM's code does not touch either).
        emu.step(10)
        self.assertEqual(emu.read(0x027FFE00, 0x160), self.rom[:0x160])
        self.assertEqual(emu.read(entry, 64), arm9[entry - ram:entry - ram + 64])
        # 4 MiB mirror
        self.assertEqual(emu.read(0x02400000 + (entry - 0x02000000), 64), emu.read(entry, 64))

    def test_01_magic_and_one_frame_per_step(self):
        emu = self.emu
        emu.step(5)
        self.assertEqual(emu.read_u32(MB), MAGIC)
        counts = []
        for _ in range(10):
            emu.step()
            counts.append(emu.read_u32(MB + 4))
        self.assertEqual([b - a for a, b in zip(counts, counts[1:])], [1] * 9, counts)
        before = emu.read_u32(MB + 4)
        emu.step(30)
        self.assertEqual(emu.read_u32(MB + 4), before + 30)

    def test_02_write_u32(self):
        emu = self.emu
        emu.write_u32(MB + 0x40, 0xDEADBEEF)
        self.assertEqual(emu.read_u32(MB + 0x40), 0xDEADBEEF)
        emu.step()
        self.assertEqual(emu.read_u32(MB + 0x0C), 0xDEADBEEF)  # the ROM copied it
        emu.write_u32(MB + 0x40, 0)

    def test_03_keys(self):
        emu = self.emu
        emu.set_keys({"A", "START", "X"})
        emu.step()
        self.assertEqual(emu.read_u32(MB + 8), 0x3FF & ~(1 << 0) & ~(1 << 3))   # KEYINPUT, ARM9
        self.assertEqual(emu.read_u32(MB + 0x10) & 0x3, 0x2)                   # EXTKEYIN: X pressed
        emu.set_keys({"L", "DOWN"})
        emu.step()
        self.assertEqual(emu.read_u32(MB + 8), 0x3FF & ~(1 << 9) & ~(1 << 7))
        emu.set_keys(set())
        emu.step()
        self.assertEqual(emu.read_u32(MB + 8), 0x3FF)
        with self.assertRaises(EmulatorError):
            emu.set_keys({"TURBO"})

    def test_04_touch(self):
        emu = self.emu
        for x, y in ((10, 20), (200, 150), (0, 0), (255, 191)):
            emu.touch(x, y)
            emu.step(2)
            self.assertEqual(emu.read_u32(MB + 0x10) & 0x40, 0, "pen down bit")
            self.assertEqual((emu.read_u32(MB + 0x14), emu.read_u32(MB + 0x18)), (x << 4, y << 4))
        emu.touch(None, None)
        emu.step(2)
        self.assertEqual(emu.read_u32(MB + 0x10) & 0x40, 0x40, "pen up")

    def test_05_screenshot(self):
        emu = self.emu
        emu.touch(128, 96)  # the core draws a cursor there; the harness must undo it
        emu.step()
        img = emu.screenshot()
        emu.touch(None, None)
        self.assertEqual(img.size, (256, 384))
        px = img.load()
        red, blue = px[10, 10], px[200, 150]
        self.assertTrue(red[0] > 200 and red[1] < 40 and red[2] < 40, red)
        self.assertTrue(blue[2] > 200 and blue[0] < 40 and blue[1] < 40, blue)
        bottom = {px[x, y] for y in range(192, 384) for x in range(256)}
        self.assertEqual(bottom, {(255, 255, 255)})  # sub engine off: white, no cursor

    def test_06_bad_address_and_pc(self):
        emu = self.emu
        with self.assertRaises(EmulatorError):
            emu.read(0x04000130, 2)
        entry, ram, arm9 = arm9_of(self.rom)
        pc = emu.arm9_pc()
        self.assertTrue(ram <= pc < ram + len(arm9), hex(pc))  # in the VBlank wait loops
        self.assertIn("0.9.3", emu.version())

    def test_07_speed(self):
        emu = self.emu
        t = time.perf_counter()
        emu.step(120)
        dt = time.perf_counter() - t
        print(f"\nmelonDS: 120 frames of the test ROM in {dt:.2f} s wall", file=sys.stderr)
        self.assertLess(dt, 30)


class TestMelondsFailures(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        require_setup()
        cls.tmp = tempfile.TemporaryDirectory()
        cls.rom_path = os.path.join(cls.tmp.name, "t.nds")
        build_test_rom(cls.rom_path)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_missing_setup(self):
        emu = MelondsEmulator(core_dir=os.path.join(self.tmp.name, "nope"))
        with self.assertRaisesRegex(EmulatorError, "make melonds"):
            emu.open(self.rom_path)

    def test_missing_node(self):
        emu = MelondsEmulator(node=os.path.join(self.tmp.name, "no-node"))
        with self.assertRaises(EmulatorError):
            emu.open(self.rom_path)

    def test_harness_dies(self):
        emu = MelondsEmulator()
        emu.open(self.rom_path)
        emu.step()
        emu._proc.kill()
        t = time.monotonic()
        with self.assertRaisesRegex(EmulatorError, "harness"):
            emu.step()
        self.assertLess(time.monotonic() - t, 10)
        with self.assertRaises(EmulatorError):
            emu.step()  # stays failed, no hang
        emu.close()

    def test_timeout(self):
        emu = MelondsEmulator(command_timeout=0.05, frame_timeout=0.0)
        emu.open(self.rom_path)
        t = time.monotonic()
        with self.assertRaisesRegex(EmulatorError, "timed out"):
            emu.step(20000)
        self.assertLess(time.monotonic() - t, 10)
        emu.close()

    def test_not_a_rom(self):
        bad = os.path.join(self.tmp.name, "bad.nds")
        with open(bad, "wb") as f:
            f.write(b"\0" * 0x1000)
        emu = MelondsEmulator()
        with self.assertRaises(EmulatorError):
            emu.open(bad)
        emu.close()


# The Makefile's $(ROM_DIR): CARGO_TARGET_DIR (or target) / nds.
ROM_DIR = os.path.join(ROOT, os.environ.get("CARGO_TARGET_DIR") or "target", "nds")
TEAM_ROMS = [os.path.join(ROM_DIR, n) for n in ("ragdoll-test.nds", "ragdoll.nds")]
PANIC_ROM = os.path.join(ROM_DIR, "ragdoll-panic.nds")


class TestMelondsTeamRoms(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        require_setup()

    def check_rom(self, path):
        with open(path, "rb") as f:
            rom = f.read()
        entry, ram, arm9 = arm9_of(rom)
        with MelondsEmulator() as emu:
            emu.open(path)
            self.assertEqual(emu.read(0x027FFE00, 0x160), rom[:0x160])
            self.assertEqual(emu.read(ram, min(len(arm9), 0x1000)), arm9[:0x1000])
            self.assertEqual(emu.arm9_pc(), entry)
            magic = None
            for _ in range(20):
                emu.step(10)
                magic = emu.read_u32(MB)
                if magic == MAGIC:
                    break
            self.assertEqual(magic, MAGIC, f"{os.path.basename(path)}: no RGDL at 0x02300000 after 200 frames")

    def test_team_roms(self):
        missing = [p for p in TEAM_ROMS if not os.path.isfile(p)]
        self.assertEqual(missing, [], "ROMs not built: run `make roms` (make runner-test does)")
        for p in TEAM_ROMS:
            with self.subTest(rom=os.path.basename(p)):
                self.check_rom(p)


class TestMelondsPanic(unittest.TestCase):
    """The panic ROM (its stack guard panics in its first frame; main.rs)
    reads as panicked, with its message, in melonDS wherever the runner
    watches a ROM: run.py's frame loop (session.run, as for the in-ROM
    tests), scenes.py's scene cycle and stress.py's per-frame check."""
    MESSAGE = "stack overflow: the ARM9 stack used more than"

    @classmethod
    def setUpClass(cls):
        require_setup()
        if not os.path.isfile(PANIC_ROM):
            raise AssertionError(f"{PANIC_ROM} not built: run `make roms` (make runner-test does)")

    def test_run_stops_at_the_panic(self):
        with MelondsEmulator() as emu:
            result = session.run(emu, PANIC_ROM, session.RunOptions(frames=120))
        self.assertIsNone(result.error)
        self.assertEqual(result.stop_reason, "panicked")
        self.assertEqual(result.state, mailbox.STATE_PANICKED)
        self.assertIn(self.MESSAGE, result.mailbox.panic_message or "")

    def test_scenes_report_the_panic(self):
        with MelondsEmulator() as emu:
            with self.assertRaisesRegex(EmulatorError, "scene a: the ROM panicked: " + self.MESSAGE):
                scenes.cycle_scenes(emu, PANIC_ROM, frames=1)

    def test_stress_reports_the_panic(self):
        with MelondsEmulator() as emu:
            scenes.boot(emu, PANIC_ROM)
            with self.assertRaisesRegex(EmulatorError, "the ROM panicked: " + self.MESSAGE):
                stress.Watch(emu).step()


if __name__ == "__main__":
    unittest.main()
