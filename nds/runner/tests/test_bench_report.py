"""bench_report: merging runs and the report's shape."""
import json
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


class Lists(unittest.TestCase):
    def test_scaling_becomes_a_sorted_list_of_objects(self):
        raw = {"emulators": {"desmume": run("D", {"scaling": {"2": 5.0, "64": 99.5, "1": 2.5}})}}
        report = bench_report.build_report(raw)
        self.assertEqual(report["scaling"], [{"ragdolls": 1, "physics_us": 2.5},
                                             {"ragdolls": 2, "physics_us": 5.0},
                                             {"ragdolls": 64, "physics_us": 99.5}])

    def test_kdtree_entries_keep_their_fields(self):
        raw = {"emulators": {"melonds": run("M", {"kdtree": {"128": {"kd_us": 2, "brute_us": 9},
                                                            "64": {"kd_us": 1, "brute_us": 4}}})}}
        report = bench_report.build_report(raw)
        self.assertEqual(report["kdtree"], [{"triangles": 64, "kd_us": 1, "brute_us": 4},
                                            {"triangles": 128, "kd_us": 2, "brute_us": 9}])

    def test_a_non_numeric_entry_is_an_error(self):
        with self.assertRaisesRegex(ValueError, "scaling.many"):
            bench_report.build_report({"emulators": {"desmume": run("D", {"scaling": {"many": 1}})}})

    def test_the_table_shows_list_rows(self):
        raw = {"emulators": {"desmume": run("D", {"scaling": {"1": 2.5}})}}
        lines = bench_report.table(bench_report.build_report(raw))
        self.assertTrue(any(line.startswith("scaling.1.physics_us") and "2.5" in line for line in lines))


class Precision(unittest.TestCase):
    ROM = {"precision": {"rom_sweeps": 2000, "rom_seed": 1, "rom_misses_tracked": 0,
                         "rom_misses_naive": 4, "us_per_sweep": 2296.1}}

    @staticmethod
    def host(sweeps, seed):
        return {"sweeps": sweeps, "seed": seed, "misses_tracked": 0,
                "misses_naive": 4 if sweeps == 2000 else 389}

    def test_the_hosts_full_run_fills_the_key_when_the_rom_agrees(self):
        raw = {"emulators": {"desmume": run("D", json.loads(json.dumps(self.ROM)))}}
        p = bench_report.build_report(raw, host=self.host)["precision"]
        self.assertEqual((p["sweeps"], p["misses_tracked"], p["misses_naive"]), (100000, 0, 389))
        self.assertEqual(p["rom_misses_naive"], 4)

    def test_a_rom_that_disagrees_with_the_host_is_an_error(self):
        bench = json.loads(json.dumps(self.ROM))
        bench["precision"]["rom_misses_naive"] = 5
        with self.assertRaisesRegex(ValueError, "rom_misses_naive"):
            bench_report.build_report({"emulators": {"desmume": run("D", bench)}}, host=self.host)


if __name__ == "__main__":
    unittest.main()
