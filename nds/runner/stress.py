#!/usr/bin/env python3
"""Each scene under stress: the worst frame of work after a scripted
disturbance, scene by scene, in DeSmuME and/or melonDS.

    .venv/bin/python nds/runner/stress.py --rom target/nds/ragdoll.nds --emulator both
    .venv/bin/python nds/runner/stress.py --rom target/nds/ragdoll.nds --budget-us 16715

The demo ROM boots once per emulator and goes through its scenes as a
user would (X resets the scene it boots into, START moves on: scenes.py's
`boot` and `press`). Each scene is left to settle for 120 frames, then
disturbed, then watched: the mailbox's live figures are read every frame,
and the scene's figure is the largest `frame.busy_us` (the frame's work,
from its start to the end of the render submission; demo.rs) over the
180 frames from the disturbance's first frame on. A shot acts in the frame
the pen lands, so that frame counts. Frames are the emulator's video
frames: a ROM frame longer than 16.7 ms spans several, and the mailbox
shows its figure for each of them, which leaves the maximum as it is.
The figures are the emulators' timers, estimates of the hardware's.

The disturbances (the pen's rules are in nds/arm9/src/demo/stylus.rs):

  (a) single ragdoll drop: a stylus shot at the ragdoll;
  (b) box pyramid: a stylus shot into the pile (an 8 m/s kick to a box);
  (c) box of boxes: the same; the pile starts asleep and the shot wakes
      it, the expensive case;
  (d) animated character: a shot at the walker (it goes limp);
  (e) powered ragdoll: a 30 N s strike (the stylus's strike on a body);
  (f) the Armed Mine: a new goal (the pen on the floor), then the Mine
      turned upside down where it stands (the runner adds one to mailbox
      host command word 1; demo.rs), so it rights itself;
  (g) ragdoll rain: no input. The rain drops a ragdoll once the last one
      rests (or 240 frames on), while the frames have room
      (scenes/rain.rs), and stops for good at the first overrun, taking
      out the ragdoll that was landing, and the newest again at each
      overrun while the pile that landing woke settles (until 120 frames
      pass without one); it is left to run to that end (or
      to its 64-ragdoll ceiling, or to STALL frames without a drop: the
      spawner also skips drops while a frame takes over 90 % of the
      budget, and could hover there), and the 180 frames measured are the
      ones after it stopped adding: the steady state with the ragdolls
      that fit. The rain's own frames are not measured: it stops on a
      frame over the budget by design, so they would report its stopping
      rule, not the cost of the scene it leaves.

A shot must land beside its target: within 48 px of it (the shot's
reach) but not on it (the pen would grab it instead). The pen comes down
from above: taps every 8 px from the top of the screen towards the
target's projection (the live `probe`, the first character's head, or
`body_probe`, the last body's centre), until the ROM counts a shot; a
tap that reaches nothing does nothing, and its frames are not measured.
So the shot takes the topmost part in reach: the ragdoll's or the
walker's head, the pyramid's top box, a cube at the back of the pile's
top layer, the powered ragdoll's head. A tap that grabs is an error, as
is one that never shoots.

One line per scene and emulator:

    [desmume] scene b (box pyramid): worst frame work 37282 us (budget 16715 us) after ...

A ROM that panics, or stops without a panic (a crash or a hang: its
frame counter in the mailbox stays put for STOPPED_FRAMES frames), ends
that emulator's run with an error that says so.

With --budget-us B the run fails when any scene's worst exceeds B, and
says which. Exit status: 0 when every scene ran (and, with --budget-us,
stayed within it), 1 otherwise, 2 on bad arguments.
"""
from __future__ import annotations

import argparse
import dataclasses
import os
import sys
from typing import Callable

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import backends  # noqa: E402
import mailbox  # noqa: E402
import scenes  # noqa: E402
from emulator import Emulator, EmulatorError  # noqa: E402

SCENE_NAMES = dict(zip(scenes.SCENE_LETTERS, (
    "single ragdoll drop", "box pyramid", "box of boxes", "animated character",
    "powered ragdoll", "the Armed Mine", "ragdoll rain")))
SETTLE_FRAMES = 120
WINDOW_FRAMES = 180
FRAME_BUDGET_US = round(mailbox.FRAME_BUDGET_US)
# demo.rs: HOST_FLIP_MINE.
HOST_FLIP_MINE = 1
# The touch camera owns 20 px strips along the bottom and right edges
# (touch_camera.rs); the pen stays off them.
PEN_WIDTH, PEN_HEIGHT = 256 - 20, 192 - 20
APPROACH_STEP = 8
# Frames to wait for the ROM to see the pen land or lift, a scene change,
# a flip (the box scenes' ROM frames span up to five video frames).
WAIT_FRAMES = 60
# Frames with no new ROM frame (the mailbox's frame counter) after which
# the ROM has stopped: crashed or hung with no panic recorded, as when a
# stack runs off DTCM past the guard. In a full run the counter stays put
# for at most 6 frames (scene (c)'s shot in DeSmuME). Below WAIT_FRAMES,
# so a stopped ROM is reported as such, not as a key or pen it never saw.
STOPPED_FRAMES = 30
# (f): the new goal, a floor pixel left of and below the Mine's path.
MINE_GOAL_PIXEL = (48, 150)
# (g): scenes/rain.rs and mod.rs.
MAX_RAGDOLLS = 64
STALL_FRAMES = 300
RAIN_FRAMES = 6000


class StressError(RuntimeError):
    """A scene's disturbance could not be carried out as scripted."""


@dataclasses.dataclass(frozen=True)
class Result:
    emulator: str
    letter: str
    worst_us: int
    disturbance: str


# ------------------------------------------------------------ pure parts
def parse_scenes(text: str) -> str:
    """`"bcf"` -> "bcf": scene letters, each once, in the ROM's order."""
    letters = text.strip().lower()
    bad = sorted(set(letters) - set(scenes.SCENE_LETTERS))
    if bad or not letters:
        raise ValueError(f"scenes are letters from {scenes.SCENE_LETTERS}, got {text!r}")
    return "".join(c for c in scenes.SCENE_LETTERS if c in letters)


def positive_int(text: str) -> int:
    try:
        value = int(text, 0)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value <= 0:
        raise argparse.ArgumentTypeError(f"expected a number above 0, got {value}")
    return value


def scenes_arg(text: str) -> str:
    try:
        return parse_scenes(text)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--rom", required=True, help="the demo ROM (target/nds/ragdoll.nds)")
    p.add_argument("--emulator", choices=("desmume", "melonds", "both"), default="desmume")
    p.add_argument("--budget-us", type=positive_int, metavar="US",
                   help="fail when a scene's worst frame work exceeds this (the frame: 16715)")
    p.add_argument("--scenes", type=scenes_arg, default=scenes.SCENE_LETTERS, metavar="LETTERS",
                   help=f"which scenes (default {scenes.SCENE_LETTERS})")
    args = p.parse_args(argv)
    if not os.path.isfile(args.rom):
        p.error(f"ROM not found: {args.rom}")
    return args


def format_line(r: Result, budget_us: int) -> str:
    return (f"[{r.emulator}] scene {r.letter} ({SCENE_NAMES[r.letter]}): worst frame work "
            f"{r.worst_us} us (budget {budget_us} us) {r.disturbance}")


def over_budget(results: list[Result], budget_us: int) -> list[Result]:
    """The results whose worst frame exceeds the budget (equal is within)."""
    return [r for r in results if r.worst_us > budget_us]


def verdict(results: list[Result], budget_us: int | None, errors: int) -> tuple[int, list[str]]:
    """Exit status and closing lines: failed runs always fail; the budget
    only when one was given."""
    lines = []
    if errors:
        lines.append(f"stress: {errors} scene run(s) failed (see ERROR above)")
    if budget_us is None:
        return (1 if errors else 0), lines
    over = over_budget(results, budget_us)
    if over:
        which = ", ".join(f"[{r.emulator}] {r.letter} {r.worst_us} us" for r in over)
        lines.append(f"stress: FAIL: {len(over)} scene(s) over the {budget_us} us budget: {which}")
    elif results and errors:
        # Not "all": the runs that errored have no worst frame.
        lines.append(f"stress: the {len(results)} scene run(s) that finished are within "
                     f"the {budget_us} us budget")
    elif results:
        lines.append(f"stress: all {len(results)} scene runs within the {budget_us} us budget")
    return (1 if errors or over else 0), lines


def approach(x: int, y: int, step: int = APPROACH_STEP) -> list[tuple[int, int]]:
    """Taps from the top of the screen down to just above (x, y), every
    `step` px, farthest first; none off the pen's area."""
    if not (0 <= x < PEN_WIDTH and 0 <= y < PEN_HEIGHT):
        return []
    return [(x, y - d) for d in range(y - y % step, 0, -step)]


def rain_end(live: dict, frames_without_drop: int) -> str | None:
    """Why the rain has stopped adding ragdolls, or None while it may add more."""
    if live["rain.full"]:
        return "stopped by its first overrun, settled"
    if live["ragdolls"] >= MAX_RAGDOLLS:
        return f"at its {MAX_RAGDOLLS}-ragdoll ceiling"
    if frames_without_drop >= STALL_FRAMES:
        return f"no drop for {STALL_FRAMES} frames"
    return None


# ------------------------------------------------------------ the emulator
class Watch:
    """Steps the emulator one frame at a time, reads the live figures after
    each, and keeps the worst `frame.busy_us` since `restart()`."""

    def __init__(self, emu: Emulator):
        self.emu = emu
        self.live: dict = {}
        self.frames = 0
        self.worst = 0
        self.rom_frame: int | None = None
        self.still = 0  # frames since the ROM's frame counter last moved

    def restart(self) -> None:
        self.frames, self.worst = 0, 0

    def step(self, n: int = 1) -> dict:
        for _ in range(n):
            self.emu.step()
            header = mailbox.read_header(self.emu.read)
            if header.state == mailbox.STATE_PANICKED:
                raise EmulatorError(f"the ROM panicked: {mailbox.read(self.emu.read).panic_message}")
            self.still = self.still + 1 if header.frame == self.rom_frame else 0
            self.rom_frame = header.frame
            if self.still >= STOPPED_FRAMES:
                pc = self.emu.arm9_pc()
                raise EmulatorError(
                    f"the ROM stopped: its frame counter stayed at {header.frame} for "
                    f"{STOPPED_FRAMES} frames, and it recorded no panic (a crash or a hang; "
                    f"ARM9 PC {'unknown' if pc is None else f'0x{pc:08X}'})")
            self.live = scenes.live_values(self.emu)
            self.frames += 1
            self.worst = max(self.worst, int(self.live["frame.busy_us"]))
        return self.live

    def until(self, done: Callable[[dict], bool], what: str, frames: int = WAIT_FRAMES) -> dict:
        for _ in range(frames):
            if done(self.step()):
                return self.live
        raise StressError(f"waited {frames} frames for {what}")

    def finish_window(self) -> int:
        """Runs the window's remaining frames; the worst frame in it."""
        self.step(max(0, WINDOW_FRAMES - self.frames))
        return self.worst


def tap(w: Watch, x: int, y: int) -> dict:
    """The pen down at (x, y) until the ROM has seen it, then up until the
    ROM has seen that; the live figures of the frame the pen landed in."""
    w.emu.touch(x, y)
    landed = w.until(lambda v: v["touch.down"] == 1, f"the pen to land at ({x}, {y})")
    w.emu.touch(None, None)
    w.until(lambda v: v["touch.down"] == 0, "the pen to lift")
    return landed


def shoot_from_above(w: Watch, probe: str) -> str:
    """A shot beside the `probe` (live `probe` or `body_probe`), the pen
    coming down from above; starts the window at the tap that shoots."""
    x, y = int(w.live[f"{probe}.screen_x"]), int(w.live[f"{probe}.screen_y"])
    points = approach(x, y)
    if not points:
        raise StressError(f"the {probe} is not on the pen's area: ({x}, {y})")
    for px, py in points:
        shots = w.live["stylus.shots"]
        w.restart()
        landed = tap(w, px, py)
        grabbed = max(landed["grab.particle"], landed["grab.body"])
        if grabbed >= 0:
            raise StressError(f"the pen at ({px}, {py}) grabbed {int(grabbed)} instead of shooting")
        if landed["stylus.shots"] > shots:
            return f"pen at {px},{py}"
    raise StressError(f"no tap from ({x}, {points[0][1]}) down to ({x}, {points[-1][1]}) shot")


def new_goal_then_flip(w: Watch) -> str:
    """(f): the pen on the floor (the new goal), then the flip request;
    the window starts as the pen lands."""
    w.restart()
    landed = tap(w, *MINE_GOAL_PIXEL)
    if landed["grab.body"] >= 0:
        raise StressError(f"the pen at {MINE_GOAL_PIXEL} grabbed the Mine instead of setting a goal")
    flips = w.live["mine.flips"]
    address = mailbox.BASE_ADDRESS + mailbox.OFFSET_HOST_COMMAND + 4 * HOST_FLIP_MINE
    w.emu.write_u32(address, (w.emu.read_u32(address) + 1) & 0xFFFF_FFFF)
    w.until(lambda v: v["mine.flips"] > flips, "the Mine to turn upside down")
    return "goal at {},{}; flipped {} frames in".format(*MINE_GOAL_PIXEL, w.frames)


def rain_to_its_end(w: Watch) -> str:
    """(g): runs the rain until it stops adding; the window starts then."""
    count, since = w.live["ragdolls"], 0
    most = count
    for _ in range(RAIN_FRAMES):
        live = w.step()
        since = 0 if live["ragdolls"] != count else since + 1
        count = live["ragdolls"]
        most = max(most, count)
        reason = rain_end(live, since)
        if reason:
            w.restart()
            return f"{int(count)} ragdolls, {int(most)} at most, {reason}"
    raise StressError(f"the rain still added ragdolls after {RAIN_FRAMES} frames")


# What each scene's disturbance is: the line's words, and the act.
DISTURBANCES: dict[str, tuple[str, Callable[[Watch], str]]] = {
    "a": ("after a stylus shot at the ragdoll", lambda w: shoot_from_above(w, "probe")),
    "b": ("after a stylus shot into the pile", lambda w: shoot_from_above(w, "body_probe")),
    "c": ("after a stylus shot into the sleeping pile",
          lambda w: shoot_from_above(w, "body_probe")),
    "d": ("after a stylus shot at the walker", lambda w: shoot_from_above(w, "probe")),
    "e": ("after a 30 N s strike (a stylus tap beside a body)",
          lambda w: shoot_from_above(w, "body_probe")),
    "f": ("after a new goal (stylus on the floor), then the Mine turned upside down",
          new_goal_then_flip),
    "g": ("in the 180 frames after the rain stopped adding", rain_to_its_end),
}


def select(w: Watch, letter: str, first: bool) -> None:
    """Moves to scene `letter` (X resets the boot scene the first time)."""
    index = scenes.SCENE_LETTERS.index(letter)
    if first and index == 0:
        scenes.press(w.emu, "X")
    while w.step()["scene"] != index:
        before = w.live["scene"]
        scenes.press(w.emu, "START")
        w.until(lambda v: v["scene"] != before, f"START to leave scene index {int(before)}")
        w.step(3)  # the ROM sees START let go before any next press


def stress_scene(w: Watch, letter: str, first: bool) -> Result:
    select(w, letter, first)
    w.step(SETTLE_FRAMES)
    words, act = DISTURBANCES[letter]
    detail = act(w)
    return Result(w.emu.name, letter, w.finish_window(), f"{words} ({detail})")


def run_one(name: str, rom: str, letters: str, budget_us: int,
            out: Callable[[str], None] = print) -> tuple[list[Result], int]:
    """Every scene in `letters` on emulator `name`: its results, and how
    many scenes failed to run."""
    results, errors = [], 0
    emu = backends.create(name)
    try:
        scenes.boot(emu, rom)
        w = Watch(emu)
        for i, letter in enumerate(letters):
            try:
                r = stress_scene(w, letter, first=i == 0)
            except StressError as e:
                out(f"[{name}] scene {letter} ({SCENE_NAMES[letter]}): ERROR: {e}")
                errors += 1
                continue
            results.append(r)
            out(format_line(r, budget_us))
    except (EmulatorError, mailbox.MailboxError) as e:
        out(f"[{name}] ERROR: {e}")
        errors += 1
    finally:
        emu.close()
    return results, errors


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    names = backends.NAMES if args.emulator == "both" else (args.emulator,)
    shown_budget = args.budget_us or FRAME_BUDGET_US
    results, errors = [], 0
    for name in names:
        r, e = run_one(name, args.rom, args.scenes, shown_budget,
                       out=lambda line: print(line, flush=True))
        results += r
        errors += e
    status, lines = verdict(results, args.budget_us, errors)
    for line in lines:
        print(line)
    return status


if __name__ == "__main__":
    sys.exit(main())
