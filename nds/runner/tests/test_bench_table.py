"""bench_table: docs/performance.md's table from a report."""
import unittest

import _path  # noqa: F401
import bench_table


def report(step_total, at60, kd=(100.0, 2500.0)):
    return {
        "emulator": "DeSmuME 0.9.12 git#0 x64-JIT SSE2 (py-desmume 0.0.9)",
        "ragdoll_step_us": {"total": step_total},
        "ragdolls_at_60hz": at60,
        "scaling": [{"ragdolls": 1, "physics_us": 500.0}, {"ragdolls": 2, "physics_us": 1000.4}],
        "kdtree": [{"triangles": 4096, "kd_us": kd[0], "brute_us": kd[1]}],
    }


class Table(unittest.TestCase):
    def setUp(self):
        r = report(1166.2, 24)
        r["melonds"] = dict(report(825.5, 34, (50.0, 100.0)), emulator="melonDS 0.9.3 (libretro core)")
        self.lines = bench_table.table(r).splitlines()

    def row(self, start):
        return next(line for line in self.lines if line.startswith(start))

    def test_columns_are_named_by_emulator(self):
        self.assertEqual(self.lines[0], "| figure | DeSmuME 0.9.12 | melonDS 0.9.3 |")

    def test_each_emulator_gives_its_own_figures(self):
        self.assertIn("| **1166.2 us** | **825.5 us** |", self.row("| **one ragdoll, total**"))
        self.assertIn("| **24** | **34** |", self.row("| **ragdolls at 60 Hz**"))

    def test_lists_are_read_by_their_size_and_ratios_computed(self):
        self.assertIn("500 / 1000 / - / - us", self.row("| crowd physics, 1 / 2"))
        self.assertIn("(25.0x)", self.row("| collision at 4096"))
        self.assertIn("(2.0x)", self.row("| collision at 4096"))

    def test_missing_figures_show_as_a_dash(self):
        self.assertIn("| - | - |", self.row("| one ragdoll, integrate"))
        self.assertIn("| - | - |", self.row("| frames of the 240"))

    def test_the_awake_frames_averaged_are_shown(self):
        r = report(1400.0, 24)
        r["ragdoll_step_us"]["awake_frames"] = 169
        lines = bench_table.table(r).splitlines()
        self.assertIn("| 169 |", next(x for x in lines if x.startswith("| frames of the 240")))


if __name__ == "__main__":
    unittest.main()
