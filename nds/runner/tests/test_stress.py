"""stress.py without an emulator: its arguments, the line it prints, the
budget verdict, where the pen comes down, when the rain has ended, and
the shot's window on a scripted stand-in for the demo ROM."""
import contextlib
import io
import os
import tempfile
import unittest

import _path  # noqa: F401
import mailbox
import stress
import synth
from emulator import Emulator, EmulatorError


def result(letter="b", worst=12345, emulator="desmume"):
    return stress.Result(emulator, letter, worst, "after a stylus shot into the pile")


class Arguments(unittest.TestCase):
    def setUp(self):
        tmp = tempfile.NamedTemporaryFile(suffix=".nds", delete=False)
        tmp.close()
        self.rom = tmp.name
        self.addCleanup(os.unlink, self.rom)

    def parse(self, *argv):
        return stress.parse_args(["--rom", self.rom, *argv])

    def rejected(self, *argv):
        with self.assertRaises(SystemExit) as e, contextlib.redirect_stderr(io.StringIO()):
            stress.parse_args(list(argv))
        self.assertEqual(e.exception.code, 2)

    def test_defaults(self):
        args = self.parse()
        self.assertEqual((args.emulator, args.budget_us, args.scenes), ("desmume", None, "abcdefg"))

    def test_budget_and_emulator(self):
        args = self.parse("--budget-us", "16715", "--emulator", "both")
        self.assertEqual((args.budget_us, args.emulator), (16715, "both"))

    def test_bad_budget_missing_rom_and_unknown_emulator(self):
        for bad in ("0", "-5", "12.5", "lots"):
            self.rejected("--rom", self.rom, "--budget-us", bad)
        self.rejected("--rom", self.rom + ".missing")
        self.rejected("--rom", self.rom, "--emulator", "no$gba")

    def test_scenes(self):
        self.assertEqual(stress.parse_scenes("FB"), "bf")
        self.assertEqual(stress.parse_scenes("gga"), "ag")
        self.assertEqual(self.parse("--scenes", "ce").scenes, "ce")
        for bad in ("", "h", "a-c"):
            with self.assertRaises(ValueError, msg=bad):
                stress.parse_scenes(bad)
        self.rejected("--rom", self.rom, "--scenes", "abz")


class Line(unittest.TestCase):
    def test_format(self):
        self.assertEqual(
            stress.format_line(result(), 16715),
            "[desmume] scene b (box pyramid): worst frame work 12345 us (budget 16715 us) "
            "after a stylus shot into the pile")

    def test_every_scene_has_a_name_and_a_disturbance(self):
        self.assertEqual(set(stress.SCENE_NAMES), set("abcdefg"))
        self.assertEqual(set(stress.DISTURBANCES), set("abcdefg"))
        line = stress.format_line(result(letter="g", worst=9, emulator="melonds"), 100)
        self.assertRegex(line, r"^\[melonds\] scene g \(ragdoll rain\): worst frame work 9 us ")


class Verdict(unittest.TestCase):
    def test_equal_is_within_above_is_over(self):
        rs = [result("a", 16715), result("b", 16716), result("c", 70000, "melonds")]
        self.assertEqual(stress.over_budget(rs, 16715), rs[1:])

    def test_over_budget_fails_and_names_the_scenes(self):
        status, lines = stress.verdict([result("a", 100), result("c", 70000, "melonds")], 16715, 0)
        self.assertEqual(status, 1)
        self.assertEqual(lines, ["stress: FAIL: 1 scene(s) over the 16715 us budget: "
                                 "[melonds] c 70000 us"])

    def test_within_budget_passes(self):
        status, lines = stress.verdict([result("a", 100), result("b", 16715)], 16715, 0)
        self.assertEqual(status, 0)
        self.assertIn("within the 16715 us budget", lines[0])

    def test_without_a_budget_only_errors_fail(self):
        self.assertEqual(stress.verdict([result("c", 70000)], None, 0), (0, []))
        self.assertEqual(stress.verdict([result("c", 70000)], None, 1)[0], 1)

    def test_errors_fail_within_budget(self):
        status, lines = stress.verdict([result("a", 100)], 16715, 2)
        self.assertEqual(status, 1)
        self.assertIn("2 scene run(s) failed", lines[0])
        # A run that errored is not "within the budget".
        self.assertFalse(any(line.startswith("stress: all") for line in lines), lines)


class Approach(unittest.TestCase):
    def test_from_the_top_down_to_just_above(self):
        self.assertEqual(stress.approach(100, 30), [(100, 6), (100, 14), (100, 22)])
        self.assertEqual(stress.approach(100, 16), [(100, 0), (100, 8)])

    def test_nothing_off_the_pen_area(self):
        self.assertEqual(stress.approach(-1, -1), [])
        self.assertEqual(stress.approach(240, 50), [])  # the zoom strip
        self.assertEqual(stress.approach(100, 180), [])  # the orbit strip
        self.assertEqual(stress.approach(100, 5), [])


class RainEnd(unittest.TestCase):
    def test_reasons(self):
        live = {"rain.full": 0, "ragdolls": 20}
        self.assertIsNone(stress.rain_end(live, stress.STALL_FRAMES - 1))
        self.assertIn("overrun", stress.rain_end({**live, "rain.full": 1}, 0))
        self.assertIn("ceiling", stress.rain_end({**live, "ragdolls": stress.MAX_RAGDOLLS}, 0))
        self.assertIn("no drop", stress.rain_end(live, stress.STALL_FRAMES))


class FakeDemo(Emulator):
    """The demo ROM's stylus as far as a shot goes: the pen is seen one
    frame after it lands; a landing within `reach` px of the target
    shoots it, within `grab` px grabs it. Frame work: `busy` at rest,
    `miss_busy` in a frame where the pen lands and hits nothing, then
    `shot_busy` in the shot's frame and `after_busy` from then on."""
    name = "fake"

    def __init__(self, target=(100, 100), reach=48, grab=16):
        self.target, self.reach, self.grab_px = target, reach, grab
        self.busy, self.miss_busy, self.shot_busy, self.after_busy = 2000, 30000, 9000, 5000
        self.pen = None          # where the pen is now (set by touch)
        self.seen = None         # where the ROM last saw it
        self.shots, self.grabbed, self.frame, self.shot_frame = 0, -1, 0, None
        self.frame_busy = self.busy

    def step(self):
        self.frame += 1
        landed = self.pen is not None and self.seen is None
        self.seen = self.pen
        self.frame_busy = self.after_busy if self.shots else self.busy
        if self.seen is None:
            self.grabbed = -1
        if landed:
            d2 = (self.pen[0] - self.target[0]) ** 2 + (self.pen[1] - self.target[1]) ** 2
            if d2 <= self.grab_px ** 2:
                self.grabbed = 0
            elif d2 <= self.reach ** 2:
                self.shots += 1
                self.shot_frame = self.frame
                self.frame_busy = self.shot_busy
            else:
                self.frame_busy = self.miss_busy

    def read(self, address, length):
        live = {"frame.busy_us": self.frame_busy, "touch.down": int(self.seen is not None),
                "stylus.shots": self.shots, "grab.particle": -1, "grab.body": self.grabbed,
                "body_probe.screen_x": self.target[0], "body_probe.screen_y": self.target[1]}
        block = synth.block(state=mailbox.STATE_RUNNING, rom_kind=mailbox.KIND_DEMO,
                            frame=self.frame, bench=[(k, v, 0) for k, v in live.items()])
        offset = address - mailbox.BASE_ADDRESS
        return block[offset:offset + length]

    def touch(self, x, y):
        self.pen = None if x is None else (x, y)

    def version(self):
        return "fake"

    def open(self, rom_path):
        pass

    def write_u32(self, address, value):
        raise AssertionError("no host command in a shot")

    def set_keys(self, keys):
        pass

    def screenshot(self):
        raise AssertionError("no screenshots")

    def arm9_pc(self):
        return None


class Shot(unittest.TestCase):
    def watch(self, emu):
        w = stress.Watch(emu)
        w.step(5)
        return w

    def test_the_window_starts_at_the_tap_that_shoots(self):
        emu = FakeDemo()
        w = self.watch(emu)
        detail = stress.shoot_from_above(w, "body_probe")
        # Taps at y = 4, 12, ..., 44 reach nothing; 52 is 48 px above the target.
        self.assertEqual(detail, "pen at 100,52")
        self.assertEqual(emu.shots, 1)
        started = emu.frame - w.frames
        self.assertEqual(emu.shot_frame, started + 1)
        # The misses' frames (30000 us) are not in it; the shot's (9000) is.
        self.assertEqual(w.finish_window(), emu.shot_busy)
        self.assertEqual(w.frames, stress.WINDOW_FRAMES)
        self.assertEqual(emu.frame - started, stress.WINDOW_FRAMES)

    def test_a_grab_is_an_error(self):
        emu = FakeDemo(reach=10, grab=30)
        with self.assertRaisesRegex(stress.StressError, r"grabbed 0 instead of shooting"):
            stress.shoot_from_above(self.watch(emu), "body_probe")

    def test_nothing_in_reach_is_an_error(self):
        emu = FakeDemo(reach=4, grab=0)
        with self.assertRaisesRegex(stress.StressError, r"no tap from \(100, 4\) down to \(100, 92\) shot"):
            stress.shoot_from_above(self.watch(emu), "body_probe")

    def test_a_target_off_the_pen_area_is_an_error(self):
        emu = FakeDemo(target=(-1, -1))
        with self.assertRaisesRegex(stress.StressError, "not on the pen's area"):
            stress.shoot_from_above(self.watch(emu), "body_probe")


class Stopped(unittest.TestCase):
    def test_a_rom_that_stops_is_an_error(self):
        emu = FakeDemo()
        w = stress.Watch(emu)
        w.step(5)
        emu.step = lambda: None  # crashed: no ROM frame from here on
        with self.assertRaisesRegex(EmulatorError, r"^the ROM stopped: its frame counter stayed at 5 "
                                    r"for 30 frames, and it recorded no panic \(.*ARM9 PC unknown\)$"):
            w.until(lambda v: v["touch.down"] == 1, "the pen to land")
        self.assertEqual(w.frames, 5 + stress.STOPPED_FRAMES - 1)

    def test_rom_frames_longer_than_a_frame_are_not_a_stop(self):
        emu = FakeDemo()
        step, calls = emu.step, iter(range(10 ** 6))
        emu.step = lambda: step() if next(calls) % (stress.STOPPED_FRAMES - 1) == 0 else None
        w = stress.Watch(emu)
        w.step(4 * stress.STOPPED_FRAMES)
        self.assertEqual(emu.frame, 5)


if __name__ == "__main__":
    unittest.main()
