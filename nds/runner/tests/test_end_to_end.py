"""run.py end to end on DeSmuME, with tiny ROMs whose ARM9 copies a
synthetic mailbox into place (see synth.py). Each run is a subprocess:
libdesmume allows one emulator per process.

Needs py-desmume: without it the tests fail (they do not skip) with the
command that installs it. Run them with the venv's python (`make venv`).
"""
import json
import os
import subprocess
import sys
import tempfile
import unittest

import _path  # noqa: F401
import synth

RUN_PY = os.path.join(_path.RUNNER, "run.py")


def desmume_loads() -> bool:
    probe = ("import os; os.environ['SDL_VIDEODRIVER']='dummy'\n"
             "from desmume.emulator import DeSmuME; DeSmuME()")
    return subprocess.run([sys.executable, "-c", probe], capture_output=True).returncode == 0


class EndToEnd(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        if not desmume_loads():
            raise AssertionError(
                f"py-desmume does not load in {sys.executable}: run `make venv` and run these "
                "tests with .venv/bin/python (make test does both)")
        cls.tmp = tempfile.TemporaryDirectory()

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def rom(self, name: str, **block) -> str:
        path = os.path.join(self.tmp.name, name + ".nds")
        synth.copier_rom(synth.block(**block), path)
        return path

    def run_py(self, *args: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, RUN_PY, *args], capture_output=True, text=True, timeout=120)

    def test_tests_pass_and_fail(self):
        rom = self.rom("mixed", tests=[("fx_selftest_hash", 1, 12345, "ok"), ("broken", 2, 9, "got 4")])
        out = self.run_py("--rom", rom)
        self.assertEqual(out.returncode, 1, out.stdout + out.stderr)
        lines = out.stdout.splitlines()
        self.assertRegex(out.stdout, r"\[desmume\] PASS fx_selftest_hash +12345 cycles  \(368\.4 us\)  ok")
        self.assertRegex(out.stdout, r"\[desmume\] FAIL broken ")
        self.assertEqual(lines[-1], "1 passed, 1 failed")
        self.assertNotIn("DeSmuME 0.9.12 git", out.stderr)  # emulator chatter is captured

    def test_all_pass(self):
        rom = self.rom("good", tests=[("a", 1, 1, ""), ("b", 1, 2, "")])
        out = self.run_py("--rom", rom)
        self.assertEqual(out.returncode, 0, out.stdout + out.stderr)
        self.assertEqual(out.stdout.splitlines()[-1], "2 passed, 0 failed")
        # Done after frame 1, then 10 settle frames for the final screen
        self.assertIn(": 11 frames, stopped: done", out.stdout)
        out = self.run_py("--rom", rom, "--settle-frames", "0")
        self.assertIn(": 1 frames, stopped: done", out.stdout)

    def test_did_not_start(self):
        path = os.path.join(self.tmp.name, "spin.nds")
        synth.rom([synth.SPIN], path)
        out = self.run_py("--rom", path, "--boot-frames", "10")
        self.assertEqual(out.returncode, 1)
        self.assertIn("ROM did not start (ARM9 PC=0x02000000)", out.stdout)
        self.assertIn(": 10 frames", out.stdout)

    def test_panic(self):
        rom = self.rom("panic", state=3, rom_kind=3, panic="panicked at main.rs:7: deliberate")
        out = self.run_py("--rom", rom)
        self.assertEqual(out.returncode, 1)
        self.assertIn("PANIC: panicked at main.rs:7: deliberate", out.stdout)
        # The mailbox says panicked, but this synthetic ROM draws nothing:
        # the screen check must catch that a user would see no message.
        out = self.run_py("--rom", rom, "--expect-panic")
        self.assertEqual(out.returncode, 1, out.stdout)
        self.assertIn("PASS expected_panic", out.stdout)
        self.assertIn("FAIL panic_on_screen", out.stdout)
        self.assertEqual(out.stdout.splitlines()[-1], "1 passed, 1 failed")

    def test_never_done_respects_frame_limit(self):
        out = self.run_py("--rom", self.rom("running", state=1, tests=[("a", 1, 1, "")]), "--frames", "25")
        self.assertEqual(out.returncode, 1)
        self.assertIn(": 25 frames, stopped: frame limit", out.stdout)
        self.assertIn("did not reach Done within 25 frames", out.stdout)

    def test_layout_mismatch(self):
        out = self.run_py("--rom", self.rom("v3", version=3))
        self.assertEqual(out.returncode, 1)
        self.assertIn("mailbox layout mismatch: ROM says version = 0x3, runner expects 0x2", out.stdout)

    def test_bench_json_and_host_command(self):
        rom = self.rom("bench", rom_kind=2, bench=[("ragdoll_step_us.total", 1234, 1), ("bodies", 16, 0)])
        out_json = os.path.join(self.tmp.name, "bench.json")
        out = self.run_py("--rom", rom, "--json", out_json, "--host-command", "2=0xBEEF")
        self.assertEqual(out.returncode, 0, out.stdout + out.stderr)
        self.assertIn("[desmume] ragdoll_step_us.total = 123.4", out.stdout)
        with open(out_json) as f:
            dump = json.load(f)
        run = dump["emulators"]["desmume"]
        self.assertEqual(run["bench"], {"ragdoll_step_us": {"total": 123.4}, "bodies": 16})
        self.assertEqual(run["header"]["host_command"][2], 0xBEEF)

    def test_profile_with_screenshots(self):
        rom = self.rom("demo", state=1, rom_kind=0, frames_profiled=5,
                       phases=[("frame", 0, 1000, 2000, 5000, 1)])
        shots = os.path.join(self.tmp.name, "shots")
        out = self.run_py("--rom", rom, "--frames", "20", "--screenshots", shots, "--screenshot-every", "10")
        self.assertEqual(out.returncode, 0, out.stdout + out.stderr)
        self.assertIn(": 20 frames", out.stdout)
        self.assertIn("profiler overhead:", out.stdout)
        from PIL import Image
        for name in ("top.png", "bottom.png"):
            with Image.open(os.path.join(shots, name)) as im:
                self.assertEqual(im.size, (256, 192))
        self.assertEqual(sorted(os.listdir(os.path.join(shots, "frames"))), ["frame00010.png", "frame00020.png"])

    def test_keys_reach_keyinput(self):
        """The backend's set_keys shows up in the ARM9's KEYINPUT (active low)."""
        path = os.path.join(self.tmp.name, "keys.nds")
        synth.rom([synth.SPIN], path)
        code = ("import sys; sys.path.insert(0, sys.argv[1])\n"
                "from desmume_backend import DesmumeEmulator\n"
                "e = DesmumeEmulator(); e.open(sys.argv[2]); e.step()\n"
                "e.set_keys({'A', 'UP'}); e.step(); a = e.read(0x04000130, 2)\n"
                "e.set_keys({'B'}); e.step(); b = e.read(0x04000130, 2)\n"
                "print(int.from_bytes(a, 'little'), int.from_bytes(b, 'little'))\n")
        out = subprocess.run([sys.executable, "-c", code, _path.RUNNER, path],
                             capture_output=True, text=True, timeout=60)
        self.assertEqual(out.returncode, 0, out.stderr)
        a, b = map(int, out.stdout.split()[-2:])
        self.assertEqual(a, 0x3FF & ~(1 << 0) & ~(1 << 6))
        self.assertEqual(b, 0x3FF & ~(1 << 1))


if __name__ == "__main__":
    unittest.main()
