"""bench_report: merging runs and the report's shape."""
import unittest

import _path  # noqa: F401
import bench_report


def run(version, bench):
    return {"version": version, "bench": bench}


class Merge(unittest.TestCase):
    def test_later_runs_add_their_figures_per_emulator(self):
        a = {"emulators": {"desmume": run("D", {"memory": {"x": 1}}), "melonds": run("M", {"memory": {"x": 2}})}}
        b = {"emulators": {"desmume": run("D", {"memory": {"y": 3}}), "melonds": run("M", {"memory": {"y": 4}})}}
        report = bench_report.build_report(bench_report.merge_runs([a, b]))
        self.assertEqual(report["memory"], {"x": 1, "y": 3})
        self.assertEqual(report["melonds"]["memory"], {"x": 2, "y": 4})
        self.assertEqual(report["emulator"], "D")
        self.assertEqual(report["frame_budget_us"], 16715)

    def test_a_figure_measured_twice_is_an_error(self):
        a = {"emulators": {"desmume": run("D", {"k": 1})}}
        b = {"emulators": {"desmume": run("D", {"k": 2})}}
        with self.assertRaisesRegex(ValueError, "measured twice"):
            bench_report.merge_runs([a, b])

    def test_a_run_without_figures_is_an_error(self):
        with self.assertRaisesRegex(ValueError, "no bench figures"):
            bench_report.build_report({"emulators": {"desmume": {"version": "D", "error": "boom"}}})


if __name__ == "__main__":
    unittest.main()
