#!/usr/bin/env python3
"""docs/performance.md's `make bench` table, written from a report.

    .venv/bin/python nds/runner/bench_table.py target/bench/report.json > target/bench/table.md

`make bench` runs this, so the table in docs/performance.md is a copy of
`target/bench/table.md` from the run it names, never typed by hand.
DeSmuME's figures are the report's top level, melonDS's are under
"melonds"; a figure missing from either is shown as "-".
"""
from __future__ import annotations

import json
import sys


def get(report: dict, path: str):
    """The value at a dotted path (list keys pick by their size field)."""
    node = report
    for key in path.split("."):
        if isinstance(node, list):
            field = "ragdolls" if "ragdolls" in node[0] else "triangles"
            node = next((x for x in node if str(x[field]) == key), None)
        elif isinstance(node, dict):
            node = node.get(key)
        else:
            return None
        if node is None:
            return None
    return node


def us(v) -> str:
    return "-" if v is None else f"{v:.1f} us"


def ratio(a, b) -> str:
    return "-" if a is None or b is None or a == 0 else f"{b / a:.1f}x"


def rows(r: dict) -> list[tuple[str, str]]:
    """(figure, value) for one emulator's report."""
    step = lambda k: us(get(r, f"ragdoll_step_us.{k}"))  # noqa: E731
    scale = lambda ns: " / ".join(  # noqa: E731
        "-" if get(r, f"scaling.{n}.physics_us") is None
        else f"{get(r, f'scaling.{n}.physics_us'):.0f}" for n in ns) + " us"
    kd, brute = get(r, "kdtree.4096.kd_us"), get(r, "kdtree.4096.brute_us")
    kdb, bruteb = get(r, "kdtree.4096.kd_broad_us"), get(r, "kdtree.4096.brute_broad_us")
    fixed, soft = get(r, "float_vs_fixed.fixed_us"), get(r, "float_vs_fixed.softfloat_us")
    micro = get(r, "float_vs_fixed.micromath_us")
    soak = get(r, "soak") or {}
    prec = get(r, "precision") or {}
    return [
        ("one ragdoll, integrate (15 particles)", step("integrate")),
        ("one ragdoll, constraints (2 passes of 32)", step("constraints")),
        ("one ragdoll, collision: broad phase", step("broad_phase")),
        ("one ragdoll, collision: narrow phase (swept spheres, response)", step("narrow_phase")),
        ("**one ragdoll, total** (`ragdoll_step_us.total`; seed 004: 2000-2500 us; goal 250 us)",
         f"**{step('total')}**"),
        ("frames of the 240 in which the ragdoll is awake, the ones averaged (`awake_frames`)",
         str(get(r, "ragdoll_step_us.awake_frames") or "-")),
        ("brads for one ragdoll (`ragdoll_step_us.brads`)", step("brads")),
        ("crowd physics, 1 / 2 / 4 / 8 ragdolls (`scaling`, with brads and ragdoll contacts)",
         scale([1, 2, 4, 8])),
        ("crowd physics, 16 / 32 / 64 ragdolls", scale([16, 32, 64])),
        ("**ragdolls at 60 Hz** (`ragdolls_at_60hz`, goal 64)", f"**{get(r, 'ragdolls_at_60hz')}**"),
        ("collision at 4096 triangles, k-d tree / brute force (`kdtree`, goal 20x)",
         f"{us(kd)} / {us(brute)} ({ratio(kd, brute)})"),
        ("of which the broad phase, k-d tree / brute force",
         f"{us(kdb)} / {us(bruteb)} ({ratio(kdb, bruteb)})"),
        ("tunnelling in 100,000 hand-sized sweeps, tracked / naive (`precision`, host; goal 0)",
         f"{prec.get('misses_tracked', '-')} / {prec.get('misses_naive', '-')}"),
        ("the same in the ROM, 2000 sweeps (equal to the host's)",
         f"{prec.get('rom_misses_tracked', '-')} / {prec.get('rom_misses_naive', '-')}"),
        ("one ragdoll's Verlet frame, fixed point / f32 soft float with `libm` / with `micromath` "
         "(`float_vs_fixed`, goal 5x)",
         f"{us(fixed)} / {us(soft)} ({ratio(fixed, soft)}) / {us(micro)} ({ratio(fixed, micro)})"),
        ("a limp character's brads, then its skinning palette built on the geometry engine, 25 joints (`anim_us.total`, goal 60 us, bar 150 us)", us(get(r, "anim_us.total"))),
        ("of which the palette's commands to the geometry engine (`anim_us.palette_cpu`)", us(get(r, "anim_us.palette_cpu"))),
        ("the same with expand and the palette as CPU products (`anim_us.cpu_palette`)", us(get(r, "anim_us.cpu_palette"))),
        ("powered ragdoll, 13 boxes (`motor_character_us.total`, goal 1000 us)",
         us(get(r, "motor_character_us.total"))),
        ("of which the solver (`motor_character_us.solve`)", us(get(r, "motor_character_us.solve"))),
        ("of the powered ragdoll's 240 frames, folded, of them resting, folded above the ankles "
         "(`motor_character.folded_frames`, `.resting_frames`, `.partial_frames`); a folded / "
         "a partly folded / a full frame (`motor_character_us.folded`, `.partial`, `.unfolded`)",
         f"{get(r, 'motor_character.folded_frames')}, {get(r, 'motor_character.resting_frames')}, "
         f"{get(r, 'motor_character.partial_frames')}; "
         f"{us(get(r, 'motor_character_us.folded'))} / {us(get(r, 'motor_character_us.partial'))} / "
         f"{us(get(r, 'motor_character_us.unfolded'))}"),
        ("pyramid, 180 frames after a shot: average / worst (`rigid_scene_us.pyramid_moving`)",
         f"{us(get(r, 'rigid_scene_us.pyramid_moving'))} / "
         f"{us(get(r, 'rigid_scene_worst_us.pyramid_moving'))}"),
        ("box of boxes, 180 frames after a shot wakes it: average / worst "
         "(`rigid_scene_us.box_of_boxes_moving`)",
         f"{us(get(r, 'rigid_scene_us.box_of_boxes_moving'))} / "
         f"{us(get(r, 'rigid_scene_worst_us.box_of_boxes_moving'))}"),
        ("the worst frame of each: contact rows built / solved (`rigid_worst_phase_us`), rows "
         "(`rigid_worst_rows`), pyramid; box of boxes",
         "; ".join(f"{us(get(r, f'rigid_worst_phase_us.{k}.contacts'))} / "
                   f"{us(get(r, f'rigid_worst_phase_us.{k}.solve'))}, "
                   f"{get(r, f'rigid_worst_rows.{k}') or '-'} rows" for k in ("pyramid", "boxes"))),
        ("Armed Mine, 180 frames righting itself from upside down: average / worst "
         "(`rigid_scene_us.mine`)",
         f"{us(get(r, 'rigid_scene_us.mine'))} / {us(get(r, 'rigid_scene_worst_us.mine'))}"),
        ("soak: frames, panics, escaped particles, top speed (cap 25 m/s), energy growth",
         f"{soak.get('frames', '-')}, {soak.get('panics', '-')}, {soak.get('escaped_particles', '-')}, "
         f"{soak.get('max_speed', '-')} m/s, {soak.get('energy_growth', '-')}"),
        ("one ragdoll as shipped / with main RAM's instruction cache off",
         f"{us(get(r, 'memory.ragdoll_step_as_shipped_us'))} / {us(get(r, 'memory.ragdoll_step_icache_off_us'))}"),
        ("one ragdoll with its data in DTCM (`ragdoll_step_us.total`) / in main RAM "
         "(`memory.ragdoll_step_main_ram_data_us`)",
         f"{us(get(r, 'ragdoll_step_us.total'))} / "
         f"{us(get(r, 'memory.ragdoll_step_main_ram_data_us'))}"),
        ("one ragdoll, hot code left in cached / uncached main RAM",
         f"{us(get(r, 'memory.ragdoll_main_ram_cached_us'))} / {us(get(r, 'memory.ragdoll_main_ram_uncached_us'))}"),
        ("Verlet-style kernel in ITCM / cached / uncached main RAM",
         f"{us(get(r, 'memory.kernel_itcm_us'))} / {us(get(r, 'memory.kernel_main_ram_cached_us'))} / "
         f"{us(get(r, 'memory.kernel_main_ram_uncached_us'))}"),
        ("64-bit division, hardware divider / software (cycles per op)",
         f"{get(r, 'divider.hw_div64_cycles')} / {get(r, 'divider.soft_div64_cycles')}"),
        ("profiler begin/end pair (cycles)", f"{get(r, 'profiler.overhead_cycles')}"),
    ]


def table(report: dict) -> str:
    des, mel = rows(report), rows(report.get("melonds", {}))
    name = lambda r: (r.get("emulator") or "?").split(" git")[0].split(" (")[0]  # noqa: E731
    out = [f"| figure | {name(report)} | {name(report.get('melonds', {}))} |", "|---|---:|---:|"]
    out += [f"| {a[0]} | {a[1]} | {b[1]} |" for a, b in zip(des, mel)]
    return "\n".join(out) + "\n"


def main() -> None:
    if len(sys.argv) != 2:
        raise SystemExit("usage: bench_table.py REPORT.json")
    with open(sys.argv[1]) as f:
        sys.stdout.write(table(json.load(f)))


if __name__ == "__main__":
    main()
