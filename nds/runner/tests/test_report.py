"""Output formats: test lines, the closing line, bench nesting, the profile table."""
import re
import unittest

import _path  # noqa: F401
import mailbox
import report
import synth
from mailbox import BenchRecord, TestRecord


class Lines(unittest.TestCase):
    def test_pass_line(self):
        line = report.test_line("desmume", TestRecord("fx_selftest_hash", 1, 12345, "hash ok"))
        self.assertRegex(line, r"^\[desmume\] PASS fx_selftest_hash +12345 cycles  \(368\.4 us\)  hash ok$")

    def test_fail_and_not_run(self):
        self.assertTrue(report.test_line("melonds", TestRecord("t", 2, 1, "")).startswith("[melonds] FAIL t "))
        line = report.test_line("desmume", TestRecord("t", 0, 0, ""))
        self.assertIn("FAIL", line)
        self.assertIn("not run", line)
        self.assertFalse(report.test_passed(TestRecord("t", 0, 0, "")))

    def test_closing_line(self):
        self.assertEqual(report.closing_line(12, 0), "12 passed, 0 failed")
        self.assertRegex(report.closing_line(3, 4), r"^\d+ passed, \d+ failed$")


class Bench(unittest.TestCase):
    def test_nesting(self):
        nested = report.nest_bench([BenchRecord("ragdoll_step_us.total", 1234, 1),
                                    BenchRecord("ragdoll_step_us.solver", 500, 1),
                                    BenchRecord("bodies", 16, 0)])
        self.assertEqual(nested, {"ragdoll_step_us": {"total": 123.4, "solver": 50.0}, "bodies": 16})

    def test_value_and_group_clash(self):
        with self.assertRaises(ValueError):
            report.nest_bench([BenchRecord("a", 1, 0), BenchRecord("a.b", 2, 0)])
        with self.assertRaises(ValueError):
            report.nest_bench([BenchRecord("a.b", 1, 0), BenchRecord("a", 2, 0)])
        with self.assertRaises(ValueError):
            report.nest_bench([BenchRecord("a..b", 1, 0)])

    def test_bench_lines(self):
        self.assertEqual(report.bench_lines("desmume", [BenchRecord("x.y", -25, 2)]),
                         ["[desmume] x.y = -0.25"])


class Profile(unittest.TestCase):
    def test_table(self):
        box = mailbox.parse(synth.block(
            state=1, rom_kind=0, frames_profiled=10, overhead=34, overruns=1,
            phases=[("frame", 0, 335_140, 400_000, 3_351_400, 1), ("physics", 1, 33_514, 40_000, 335_140, 2)]))
        lines = report.profile_table("desmume", box, 120)
        text = "\n".join(lines)
        frame = next(l for l in lines if l.startswith("frame "))
        # last 335140 cycles = 10000 us; avg = 3351400/10 cycles = 10000 us; 59.8% of 16715 us
        self.assertEqual(re.split(r" +", frame.strip()), ["frame", "10000.0", "10000.0", "11935.3", "59.8%", "1"])
        self.assertTrue(any(l.startswith("  physics ") for l in lines), text)
        self.assertIn("profiler overhead: 34 cycles", text)
        self.assertIn("overruns: 1 of 10 frames", text)


if __name__ == "__main__":
    unittest.main()
