"""Turns the runner's bench JSON (one run per emulator) into
target/bench/report.json and prints a side-by-side table.

report.json keeps the keys of the first emulator (DeSmuME) at the top
level, as the issues ask, and adds one object per further emulator
(`"melonds": {...}`) with the same keys.
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
from typing import Callable

FRAME_BUDGET_US = 16715
PRIMARY = "desmume"

# Figures the ROM writes as one key per entry ("scaling.8" = us) that the
# report gives as lists of objects, sorted by the entry's number:
# name -> (the number's field, the value's field when the entry is a number).
LISTS = {"scaling": ("ragdolls", "physics_us"), "kdtree": ("triangles", None)}


def as_lists(bench: dict) -> dict:
    """{"scaling": {"2": 5.0, "1": 2.5}} -> {"scaling": [{"ragdolls": 1,
    "physics_us": 2.5}, {"ragdolls": 2, "physics_us": 5.0}]}; an entry that
    is an object keeps its fields. A non-numeric entry is an error."""
    out = dict(bench)
    for name, (count_field, value_field) in LISTS.items():
        entries = out.get(name)
        if not isinstance(entries, dict):
            continue
        rows = []
        for key, value in entries.items():
            if not key.isdigit():
                raise ValueError(f"bench key {name}.{key}: expected a number after {name}.")
            row = {count_field: int(key)}
            row.update(value if isinstance(value, dict) else {value_field: value})
            rows.append(row)
        out[name] = sorted(rows, key=lambda r: r[count_field])
    return out


def flatten(tree: dict, prefix: str = "") -> dict:
    """Dotted keys; a list of objects is keyed by each row's first field."""
    out = {}
    for key, value in tree.items():
        path = f"{prefix}.{key}" if prefix else key
        if isinstance(value, list):
            value = {str(next(iter(row.values()))): {k: v for k, v in list(row.items())[1:]}
                     for row in value}
        if isinstance(value, dict):
            out.update(flatten(value, path))
        else:
            out[path] = value
    return out


def merge_runs(raws: list[dict]) -> dict:
    """Adds each later run's bench figures to the first run's, per emulator.
    A key measured twice is an error: no figure silently replaces another."""
    merged = json.loads(json.dumps(raws[0]))
    for raw in raws[1:]:
        for name, run in raw.get("emulators", {}).items():
            target = merged.setdefault("emulators", {}).setdefault(name, run)
            if target is run:
                continue
            if "bench" not in run:
                raise ValueError(f"{name}: no bench figures (error: {run.get('error')})")
            have = flatten(target.setdefault("bench", {}))
            for key, value in flatten(run["bench"]).items():
                if key in have:
                    raise ValueError(f"{name}: bench key {key} measured twice")
                node = target["bench"]
                *groups, leaf = key.split(".")
                for g in groups:
                    node = node.setdefault(g, {})
                node[leaf] = value
    return merged


# The precision benchmark's full run, on the host (the ROM runs fewer
# sweeps of the same seed; see nds/arm9/src/bench/precision.rs).
PRECISION_SWEEPS = 100_000


def host_precision(sweeps: int, seed: int) -> dict:
    """The host's counts: `cargo run --release --example precision`."""
    out = subprocess.run(["cargo", "run", "-q", "--release", "--example", "precision", "--",
                          str(sweeps), str(seed)], check=True, capture_output=True, text=True)
    return json.loads(out.stdout)


def add_precision(bench: dict, name: str, host: Callable[[int, int], dict]) -> None:
    """Fills `precision` with the host's 100,000-sweep counts, once the
    ROM's own counts (`rom_*`) equal the host's for the same sweeps and
    seed; a mismatch is an error (the DS and the host must agree)."""
    p = bench.get("precision")
    if not isinstance(p, dict) or "rom_sweeps" not in p:
        return
    check = host(p["rom_sweeps"], p["rom_seed"])
    for field in ("sweeps", "misses_tracked", "misses_naive"):
        if p[f"rom_{field}"] != check[field]:
            raise ValueError(f"{name}: precision.rom_{field} = {p[f'rom_{field}']}, "
                             f"the host's {check[field]} (same sweeps and seed)")
    full = host(PRECISION_SWEEPS, p["rom_seed"])
    p.update(sweeps=full["sweeps"], misses_tracked=full["misses_tracked"],
             misses_naive=full["misses_naive"], measured_on="host (the rom_* counts: in the ROM)")


def build_report(raw: dict, host: Callable[[int, int], dict] = host_precision) -> dict:
    runs = raw.get("emulators", {})
    if not runs:
        raise ValueError("the bench JSON has no emulator runs")
    for name, run in runs.items():
        if "bench" not in run:
            raise ValueError(f"{name}: no bench figures (error: {run.get('error')})")
    for name, run in runs.items():
        add_precision(run["bench"], name, host)
    primary = PRIMARY if PRIMARY in runs else next(iter(runs))
    report = {"emulator": runs[primary]["version"], "frame_budget_us": FRAME_BUDGET_US}
    report.update(as_lists(runs[primary]["bench"]))
    for name, run in runs.items():
        if name != primary:
            report[name] = {"emulator": run["version"], "frame_budget_us": FRAME_BUDGET_US,
                            **as_lists(run["bench"])}
    return report


def table(report: dict) -> list[str]:
    columns = [("desmume", report)] + [(k, v) for k, v in report.items()
                                       if isinstance(v, dict) and "emulator" in v]
    flat = [(name, flatten({k: v for k, v in col.items() if not (isinstance(v, dict) and "emulator" in v)}))
            for name, col in columns]
    keys = [k for k in flat[0][1] if k != "emulator"]
    lines = [f"{'figure':<42}" + "".join(f"{name:>14}" for name, _ in flat)]
    for key in keys:
        lines.append(f"{key:<42}" + "".join(f"{str(values.get(key, '-')):>14}" for _, values in flat))
    lines.append("emulators: " + "; ".join(str(col.get("emulator")) for _, col in columns))
    lines.append("Emulator timings approximate the DS; see docs/performance.md.")
    return lines


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("raw", nargs="+", help="the runner's --json output of bench runs; "
                    "the figures of later files join those of the first")
    ap.add_argument("out", help="where to write report.json")
    args = ap.parse_args(argv)
    raws = []
    for path in args.raw:
        with open(path) as f:
            raws.append(json.load(f))
    try:
        report = build_report(merge_runs(raws))
    except ValueError as e:
        print(f"bench_report: {e}", file=sys.stderr)
        return 1
    with open(args.out, "w") as f:
        json.dump(report, f, indent=2)
        f.write("\n")
    print("\n".join(table(report)))
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
