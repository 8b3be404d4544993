"""The bench's plots, from target/bench/report.json, as PNG files next to
it (`make bench` calls this after bench_report.py):

- scaling.png: crowd physics time against the ragdoll count, every
  emulator, with the 16,715 us frame budget;
- kdtree.png: one ragdoll's collision phase against the world's triangle
  count, k-d tree and brute force, log axes;
- phases.png: one ragdoll's phases stacked, per emulator, beside seed
  004's measured 2000-2500 us band.
"""
from __future__ import annotations

import argparse
import json
import os
import sys

import matplotlib

matplotlib.use("Agg")  # headless
import matplotlib.pyplot as plt  # noqa: E402

SEED_BAND_US = (2000, 2500)
PHASES = ("integrate", "constraints", "broad_phase", "narrow_phase")


def short(emulator: str) -> str:
    """"DeSmuME 0.9.12 git#0 ..." -> "DeSmuME 0.9.12"."""
    return " ".join(emulator.split()[:2])


def columns(report: dict) -> list[tuple[str, dict]]:
    """(emulator name, its figures): the top level, then each nested run."""
    out = [(short(report["emulator"]), report)]
    for value in report.values():
        if isinstance(value, dict) and "emulator" in value:
            out.append((short(value["emulator"]), value))
    return out


def save(fig, path: str) -> None:
    """Lays out, writes the PNG and frees the figure."""
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    plt.close(fig)


def scaling(report: dict, path: str) -> None:
    fig, ax = plt.subplots(figsize=(6, 4))
    for name, col in columns(report):
        rows = col.get("scaling") or []
        ax.plot([r["ragdolls"] for r in rows], [r["physics_us"] for r in rows], "o-", label=name)
    ax.axhline(report["frame_budget_us"], color="red", ls="--", label="frame budget (16,715 us)")
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xlabel("ragdolls in the 2528-triangle arena")
    ax.set_ylabel("physics per frame (us)")
    ax.set_title("Crowd physics (with ragdoll contacts and brads)")
    ax.legend()
    save(fig, path)


def kdtree(report: dict, path: str) -> None:
    fig, ax = plt.subplots(figsize=(6, 4))
    for name, col in columns(report):
        rows = col.get("kdtree") or []
        tris = [r["triangles"] for r in rows]
        ax.plot(tris, [r["kd_us"] for r in rows], "o-", label=f"k-d tree, {name}")
        ax.plot(tris, [r["brute_us"] for r in rows], "s--", label=f"brute force, {name}")
    if any(col.get("kdtree") for _, col in columns(report)):
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
    else:
        ax.text(0.5, 0.5, "no kdtree figures in this report", ha="center", transform=ax.transAxes)
    ax.set_xlabel("world triangles")
    ax.set_ylabel("collision phase per frame (us)")
    ax.set_title("One ragdoll's collision: k-d tree vs brute force")
    ax.legend(fontsize=8)
    save(fig, path)


def phases(report: dict, path: str) -> None:
    fig, ax = plt.subplots(figsize=(6, 4))
    cols = columns(report)
    for x, (name, col) in enumerate(cols):
        step = col.get("ragdoll_step_us") or {}
        bottom = 0.0
        for i, phase in enumerate(PHASES):
            v = step.get(phase, 0.0)
            ax.bar(x, v, bottom=bottom, color=f"C{i}", label=phase.replace("_", " ") if x == 0 else None)
            bottom += v
        rest = max(step.get("total", bottom) - bottom, 0.0)
        ax.bar(x, rest, bottom=bottom, color="0.7", label="other" if x == 0 else None)
    seed = len(cols)
    lo, hi = SEED_BAND_US
    ax.bar(seed, hi - lo, bottom=lo, color="none", edgecolor="black", hatch="//",
           label="seed 004: 2000-2500 us")
    ax.axhline(250, color="green", ls=":", label="goal: 250 us")
    ax.set_xticks(range(seed + 1), [n for n, _ in cols] + ["seed 004"])
    ax.set_ylabel("one ragdoll's frame (us)")
    ax.set_title("One ragdoll in the 2528-triangle arena, by phase")
    ax.legend(fontsize=8)
    save(fig, path)


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("report", help="report.json from bench_report.py")
    args = ap.parse_args(argv)
    with open(args.report) as f:
        report = json.load(f)
    out = os.path.dirname(os.path.abspath(args.report))
    for name, draw in (("scaling", scaling), ("kdtree", kdtree), ("phases", phases)):
        path = os.path.join(out, f"{name}.png")
        draw(report, path)
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
