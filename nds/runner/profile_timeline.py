"""`make profile`: a frame timeline of one scene, from the ROM's own timers.

The demo ROM keeps its last 64 frames in the mailbox's timeline ring: for
every profiler phase, when it started in the frame and how long it took
(DS hardware timers, bus cycles). This runs the ROM in an emulator, picks
the scene, reads the ring every 48 frames while FRAMES frames pass, and
writes:
- `trace.json`: Chrome trace events (one "X" span per phase per frame,
  nested as the phases are, the overruns as instant events, the frame's
  work as a counter), which Perfetto (ui.perfetto.dev) and speedscope
  open;
- `timeline.png`: the top-level phases stacked per frame against the
  16.7 ms line, overrunning frames in red.

Frames are laid out as the ROM paces them: each starts on a VBlank, and
a frame whose work overran takes as many frame slots as it needed.

With --stress the scene gets `make stress-test`'s scripted disturbance
first (a shot into the pile, a strike, the rain run to its end ...), and
the record starts from it.
"""
from __future__ import annotations

import argparse
import json
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import backends  # noqa: E402
import mailbox  # noqa: E402
import scenes  # noqa: E402
from emulator import Emulator, EmulatorError  # noqa: E402

SCENES = scenes.SCENE_LETTERS
SCHEMA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "trace_schema.json")
# Emulated frames between two reads of the 64-frame ring.
READ_EVERY = 48


def select_scene(emu: Emulator, scene: str) -> None:
    """START until the demo shows `scene` (the demo starts in scene a)."""
    want = SCENES.index(scene)
    for _ in range(len(SCENES)):
        if scenes.live_values(emu)["scene"] == want:
            return
        scenes.press(emu, "START")
    raise EmulatorError(f"the demo did not reach scene ({scene})")


def disturb(emu: Emulator, scene: str) -> tuple[int, str]:
    """The stress test's settling and disturbance of `scene`; returns the
    ROM frame it started at and what it did."""
    import stress
    w = stress.Watch(emu)
    w.step(stress.SETTLE_FRAMES)
    start = mailbox.read_header(emu.read).frame
    words, act = stress.DISTURBANCES[scene]
    detail = act(w)
    return start, f"{words} ({detail})"


def capture(emu: Emulator, frames: int, start: int | None = None
            ) -> tuple[list[mailbox.PhaseRecord], list[mailbox.TimelineFrame]]:
    """Steps `frames` emulated frames; returns the phases and every ROM
    frame after `start` (default: now) the ring held on the way, oldest
    first."""
    seen: dict[int, mailbox.TimelineFrame] = {}
    if start is None:
        start = mailbox.read_header(emu.read).frame
    for f in mailbox.read_timeline(emu.read):
        if f.frame > start:
            seen[f.frame] = f
    for k in range(frames):
        emu.step()
        if k % READ_EVERY == READ_EVERY - 1 or k == frames - 1:
            for f in mailbox.read_timeline(emu.read):
                if f.frame > start:
                    seen[f.frame] = f
    return mailbox.read(emu.read).phases, [seen[n] for n in sorted(seen)]


def us(cycles: int) -> float:
    return round(mailbox.cycles_to_us(cycles), 3)


def layout(frames: list[mailbox.TimelineFrame]) -> list[float]:
    """Each frame's start (us): the VBlank after the last frame's work."""
    starts, t = [], 0.0
    for f in frames:
        starts.append(t)
        t += mailbox.FRAME_BUDGET_US * max(1, math.ceil(us(f.busy_cycles) / mailbox.FRAME_BUDGET_US))
    return starts


def trace_events(phases: list[mailbox.PhaseRecord], frames: list[mailbox.TimelineFrame],
                 emulator: str, scene: str) -> dict:
    starts = layout(frames)
    events: list[dict] = [
        {"name": "process_name", "ph": "M", "pid": 1, "tid": 1,
         "args": {"name": f"ARM9, scene ({scene}), {emulator}"}},
        {"name": "thread_name", "ph": "M", "pid": 1, "tid": 1, "args": {"name": "frame work"}},
    ]
    for base, f in zip(starts, frames):
        spans = [(f.starts[k], f.cycles[k], k) for k in range(len(phases)) if f.starts[k] is not None]
        # Parents before children at equal starts, as trace viewers nest them.
        for start, cycles, k in sorted(spans, key=lambda s: (s[0], phases[s[2]].depth)):
            events.append({"name": phases[k].name, "cat": "phase", "ph": "X", "pid": 1, "tid": 1,
                           "ts": round(base + us(start), 3), "dur": us(cycles),
                           "args": {"frame": f.frame, "depth": phases[k].depth}})
        events.append({"name": "frame work (us)", "ph": "C", "pid": 1, "tid": 1, "ts": round(base, 3),
                       "args": {"busy": us(f.busy_cycles), "idle": us(f.idle_cycles)}})
        if f.overran:
            events.append({"name": "overrun", "cat": "frame", "ph": "i", "s": "t", "pid": 1, "tid": 1,
                           "ts": round(base, 3), "args": {"frame": f.frame, "busy_us": us(f.busy_cycles)}})
    return {"traceEvents": events, "displayTimeUnit": "ms",
            "otherData": {"emulator": emulator, "scene": scene, "frames": len(frames),
                          "frame_budget_us": mailbox.FRAME_BUDGET_US}}


def plot(phases: list[mailbox.PhaseRecord], frames: list[mailbox.TimelineFrame], path: str,
         title: str) -> None:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    # Stack the frame's parts: the phases one level below the outermost.
    top = min((p.depth for p in phases), default=0)
    stack = [k for k, p in enumerate(phases) if p.depth == top + 1] or \
            [k for k, p in enumerate(phases) if p.depth == top]
    xs = [f.frame for f in frames]
    fig, ax = plt.subplots(figsize=(12, 5))
    bottom = [0.0] * len(frames)
    cmap = plt.get_cmap("tab20")
    for n, k in enumerate(stack):
        h = [us(f.cycles[k]) / 1000 for f in frames]
        ax.bar(xs, h, bottom=bottom, width=1.0, color=cmap(n % 20), label=phases[k].name)
        bottom = [b + v for b, v in zip(bottom, h)]
    rest = [max(0.0, us(f.busy_cycles) / 1000 - b) for f, b in zip(frames, bottom)]
    ax.bar(xs, rest, bottom=bottom, width=1.0, color="0.75", label="other")
    for f in frames:
        if f.overran:
            ax.axvspan(f.frame - 0.5, f.frame + 0.5, color="red", alpha=0.25, lw=0)
    ax.axhline(mailbox.FRAME_BUDGET_US / 1000, color="red", lw=1.5, ls="--", label="16.7 ms frame")
    ax.set_xlabel("frame")
    ax.set_ylabel("work (ms)")
    over = sum(f.overran for f in frames)
    ax.set_title(f"{title}: {len(frames)} frames, {over} overrun (red)")
    ax.legend(loc="upper left", bbox_to_anchor=(1.0, 1.0), fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def check_trace(trace: dict) -> list[str]:
    """What is wrong with `trace`: against the trace-event schema, then
    the spans of each frame nest (a phase inside the phase around it)."""
    import jsonschema
    with open(SCHEMA) as f:
        schema = json.load(f)
    problems = [f"schema: {e.message} at {list(e.path)}"
                for e in jsonschema.Draft202012Validator(schema).iter_errors(trace)][:5]
    if problems:
        return problems
    open_spans: list[dict] = []
    for e in (e for e in trace["traceEvents"] if e["ph"] == "X"):
        depth = e["args"]["depth"]
        del open_spans[depth:]
        if depth and len(open_spans) == depth:
            parent = open_spans[-1]
            end, parent_end = e["ts"] + e["dur"], parent["ts"] + parent["dur"]
            if e["ts"] < parent["ts"] or end > parent_end + 0.01:
                problems.append(f"frame {e['args']['frame']}: {e['name']} "
                                f"[{e['ts']}, {end}] is outside {parent['name']} "
                                f"[{parent['ts']}, {parent_end}]")
        open_spans.append(e)
    return problems[:5]


def run(name: str, rom: str, scene: str, frames: int, out: str, check: bool = False,
        stressed: bool = False) -> int:
    tag = f"[{name}]"
    emu = backends.create(name)
    try:
        scenes.boot(emu, rom)
        select_scene(emu, scene)
        start, what = disturb(emu, scene) if stressed else (None, "")
        if what:
            print(f"{tag} scene ({scene}): {what}")
        phases, timeline = capture(emu, frames, start)
        version = emu.version()
    except Exception as e:  # EmulatorError, or the stress script's StressError
        if not isinstance(e, EmulatorError) and type(e).__name__ != "StressError":
            raise
        print(f"{tag} ERROR: {e}")
        return 1
    finally:
        emu.close()
    if not timeline:
        print(f"{tag} ERROR: the ROM wrote no timeline frames (a ROM older than the timeline?)")
        return 1
    os.makedirs(out, exist_ok=True)
    trace = os.path.join(out, "trace.json")
    events = trace_events(phases, timeline, version, scene)
    with open(trace, "w") as f:
        json.dump(events, f)
    png = os.path.join(out, "timeline.png")
    plot(phases, timeline, png, f"scene ({scene}), {name}")
    lost = timeline[-1].frame - timeline[0].frame + 1 - len(timeline)
    worst = max(timeline, key=lambda f: f.busy_cycles)
    parts = sorted(((worst.cycles[k], p.name) for k, p in enumerate(phases)
                    if p.depth == min(q.depth for q in phases) + 1), reverse=True)[:3]
    print(f"{tag} {version}: scene ({scene}), {len(timeline)} ROM frames in {frames} emulated "
          f"({lost} missed), {sum(f.overran for f in timeline)} overruns")
    print(f"{tag} worst frame {worst.frame}: {us(worst.busy_cycles):.0f} us of work; "
          + ", ".join(f"{n} {us(c):.0f} us" for c, n in parts))
    print(f"{tag} wrote {trace} (open in ui.perfetto.dev or speedscope) and {png}")
    if not check:
        return 0
    with open(trace) as f:
        problems = check_trace(json.load(f))
    from PIL import Image
    with Image.open(png) as im:
        if im.format != "PNG" or im.width < 800:
            problems.append(f"{png}: {im.format} {im.width}x{im.height}, not the timeline")
    if lost:
        problems.append(f"{lost} ROM frames missed between ring reads")
    for p in problems:
        print(f"{tag} FAIL profile_trace  ({p})")
    if not problems:
        spans = sum(e["ph"] == "X" for e in events["traceEvents"])
        print(f"{tag} PASS profile_trace  ({spans} spans in {len(timeline)} frames: "
              f"trace-event schema, phases nested, timeline.png written)")
    return 1 if problems else 0


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--rom", required=True)
    p.add_argument("--emulator", choices=("desmume", "melonds", "both"), default="desmume")
    p.add_argument("--scene", choices=list(SCENES), default="b")
    p.add_argument("--frames", type=int, default=600, help="emulated frames to record")
    p.add_argument("--out", default="target/profile",
                   help="output directory (with --emulator both, one subdirectory each)")
    p.add_argument("--stress", action="store_true",
                   help="give the scene make stress-test's disturbance first, and record from it")
    p.add_argument("--check", action="store_true",
                   help="fail unless the trace fits the trace-event schema and nests, and the PNG is written")
    args = p.parse_args(argv)
    if not os.path.isfile(args.rom):
        p.error(f"ROM not found: {args.rom}")
    if args.frames < 1:
        p.error("--frames must be at least 1")
    names = backends.NAMES if args.emulator == "both" else (args.emulator,)
    status = 0
    for name in names:
        out = os.path.join(args.out, name) if args.emulator == "both" else args.out
        status |= run(name, args.rom, args.scene, args.frames, out, args.check, args.stress)
    return status


if __name__ == "__main__":
    sys.exit(main())
