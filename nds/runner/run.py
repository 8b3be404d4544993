#!/usr/bin/env python3
"""Run a ROM in an emulator and report what its results mailbox says.

    .venv/bin/python nds/runner/run.py --rom target/nds/ragdoll-test.nds
    .venv/bin/python nds/runner/run.py --rom target/nds/ragdoll.nds --mode profile \\
        --frames 600 --screenshots target/nds/shots
    .venv/bin/python nds/runner/run.py --rom target/nds/ragdoll-bench.nds --json bench.json
    .venv/bin/python nds/runner/run.py --rom target/nds/ragdoll.nds --mode window

Exit status: 0 when everything passed, 1 on any failure (a failed test, a
panic, no Done within --frames, a ROM that did not start, an emulator that
could not run), 2 on bad arguments.
"""
from __future__ import annotations

import argparse
import dataclasses
import json
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import backends  # noqa: E402
import mailbox  # noqa: E402
import report  # noqa: E402
import screens  # noqa: E402
import session  # noqa: E402
from emulator import EmulatorError, split_screens, vector_name  # noqa: E402
from scripts import ScriptError, parse_host_commands, parse_press, parse_touch  # noqa: E402

MODES = ("auto", "test", "profile", "bench", "window")
AUTO_MODE = {mailbox.KIND_DEMO: "profile", mailbox.KIND_TEST: "test",
             mailbox.KIND_BENCH: "bench", mailbox.KIND_PANIC_TEST: "test"}


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--rom", required=True, help="the .nds file")
    p.add_argument("--emulator", choices=("desmume", "melonds", "both"), default="desmume")
    p.add_argument("--mode", choices=MODES, default="auto",
                   help="auto (default) picks test, bench or profile from the ROM's kind")
    p.add_argument("--frames", type=int, default=None,
                   help=f"hard frame limit, boot included (default {session.DEFAULT_FRAMES}; "
                        "window mode: until the window closes)")
    p.add_argument("--until-done", action="store_true", default=None,
                   help="stop once the ROM says Done or Panicked (implied for test and bench ROMs)")
    p.add_argument("--boot-frames", type=int, default=session.DEFAULT_BOOT_FRAMES,
                   help="fail if the mailbox magic is not written within this many frames")
    p.add_argument("--press", default="", metavar="SCRIPT",
                   help='keys held from a frame on: "FRAME:KEY+KEY,FRAME:-" (- = none)')
    p.add_argument("--touch", default="", metavar="SCRIPT",
                   help='bottom-screen touches: "FRAME:X,Y;FRAME:release"')
    p.add_argument("--screenshots", metavar="DIR",
                   help="write top.png and bottom.png of the last frame here")
    p.add_argument("--screenshot-every", type=int, metavar="N",
                   help="also save every Nth frame (both screens) under DIR/frames/")
    p.add_argument("--settle-frames", type=int, default=session.DEFAULT_SETTLE_FRAMES, metavar="N",
                   help="frames still run after Done/Panicked, so screenshots show the final "
                        f"screen (default {session.DEFAULT_SETTLE_FRAMES}; within --frames)")
    p.add_argument("--json", metavar="OUT", help="write everything read from the mailbox here")
    p.add_argument("--window-status", metavar="FILE",
                   help="window mode: write the live figures here every 15 frames (tests)")
    p.add_argument("--host-command", action="append", default=[], metavar="I=V",
                   help="write mailbox host_command word I after boot (repeatable, or I=V,I=V)")
    p.add_argument("--expect-panic", action="store_true",
                   help="the ROM is meant to panic: a panic passes, anything else fails")
    p.add_argument("--expect-message", metavar="TEXT",
                   help="with --expect-panic: the panic message must contain TEXT")
    args = p.parse_args(argv)
    if args.frames is not None and args.frames <= 0:
        p.error("--frames must be positive")
    if args.boot_frames <= 0:
        p.error("--boot-frames must be positive")
    if args.screenshot_every is not None and (args.screenshot_every <= 0 or not args.screenshots):
        p.error("--screenshot-every needs a positive N and --screenshots DIR")
    try:
        args.key_events = parse_press(args.press)
        args.touch_events = parse_touch(args.touch)
        args.host_commands = parse_host_commands(args.host_command, mailbox.HOST_COMMAND_WORDS)
    except ScriptError as e:
        p.error(str(e))
    if not os.path.isfile(args.rom):
        p.error(f"ROM not found: {args.rom}")
    return args


@dataclasses.dataclass
class Tally:
    passed: int = 0
    failed: int = 0
    ok: bool = True


def run_options(args: argparse.Namespace, shot_dir: str | None) -> session.RunOptions:
    return session.RunOptions(
        frames=args.frames or session.DEFAULT_FRAMES, boot_frames=args.boot_frames,
        until_done=args.until_done, keys=args.key_events, touches=args.touch_events,
        host_commands=args.host_commands, screenshot_dir=shot_dir,
        screenshot_every=args.screenshot_every, settle_frames=max(0, args.settle_frames))


def save_screens(result: session.RunResult, shot_dir: str | None) -> None:
    if not shot_dir or result.screenshot is None:
        return
    os.makedirs(shot_dir, exist_ok=True)
    top, bottom = split_screens(result.screenshot)
    top.save(os.path.join(shot_dir, "top.png"))
    bottom.save(os.path.join(shot_dir, "bottom.png"))
    print(f"[{result.emulator}] screenshots: {shot_dir}/top.png, {shot_dir}/bottom.png")


def report_run(result: session.RunResult, mode: str, args: argparse.Namespace,
               tally: Tally, dump: dict) -> None:
    """Print one emulator's results in `mode` and record them in `dump`."""
    tag = f"[{result.emulator}]"
    box = result.mailbox
    frames = args.frames or session.DEFAULT_FRAMES
    if result.error:
        print(f"{tag} ERROR: {result.error}")
        tally.ok = False
    elif not result.started:
        print(f"{tag} ERROR: ROM did not start (ARM9 PC={session.format_pc(result.arm9_pc)}) "
              f"in the {result.frames_run} frames --frames allows")
        tally.ok = False
    if not result.started and (result.cpu_state or vector_name(result.arm9_pc)):
        print(f"{tag} ARM9 at PC={session.format_pc(result.arm9_pc)} {result.cpu_state or ''}".rstrip())
        vector = vector_name(result.arm9_pc)
        if vector:
            print(f"{tag} the PC is in the exception vectors ({vector}): the ARM9 took an "
                  "exception or jumped to a null address before it wrote the mailbox")
    if box is None:
        return
    panicked = box.header.state == mailbox.STATE_PANICKED
    if mode == "test":
        for t in box.tests:
            print(report.test_line(result.emulator, t))
            if report.test_passed(t):
                tally.passed += 1
            else:
                tally.failed += 1
        if not box.tests and not args.expect_panic and not panicked:
            print(f"{tag} ERROR: the ROM reported no tests")
            tally.ok = False
    elif mode == "profile":
        for line in report.profile_table(result.emulator, box, result.frames_run):
            print(line)
    elif mode == "bench":
        for line in report.bench_lines(result.emulator, box.bench):
            print(line)
        try:
            dump["bench"] = report.nest_bench(box.bench)
        except ValueError as e:
            print(f"{tag} ERROR: {e}")
            dump["bench_error"] = str(e)
            tally.ok = False
    if panicked:
        print(f"{tag} PANIC: {box.panic_message or '(no message)'}")
        if args.expect_panic:
            wanted = args.expect_message
            if wanted is None or wanted in (box.panic_message or ""):
                print(f"{tag} PASS expected_panic")
                tally.passed += 1
            else:
                print(f"{tag} FAIL expected_panic: the message lacks {wanted!r}")
                tally.failed += 1
            shown, detail = screens.panic_screen_shown(result.screenshot)
            print(f"{tag} {'PASS' if shown else 'FAIL'} panic_on_screen  ({detail})")
            if shown:
                tally.passed += 1
            else:
                tally.failed += 1
        else:
            tally.ok = False
    elif args.expect_panic:
        print(f"{tag} FAIL expected_panic: the ROM is {box.header.state_name} after "
              f"{result.frames_run} frames")
        tally.failed += 1
    elif mode in ("test", "bench") and box.header.state != mailbox.STATE_DONE:
        print(f"{tag} ERROR: ROM did not reach Done within {frames} frames "
              f"(state {box.header.state_name}, ROM frame {box.header.frame})")
        tally.ok = False


def result_json(result: session.RunResult, mode: str) -> dict:
    box = result.mailbox
    out = {"version": result.version, "mode": mode, "frames_run": result.frames_run,
           "started": result.started, "boot_frame": result.boot_frame,
           "stop_reason": result.stop_reason, "error": result.error,
           "arm9_pc": result.arm9_pc, "cpu_state": result.cpu_state}
    if box is not None:
        out["header"] = dataclasses.asdict(box.header)
        out["header"]["state_name"] = box.header.state_name
        out["header"]["rom_kind_name"] = box.header.kind_name
        out["panic"] = box.panic_message
        out["phases"] = [dict(dataclasses.asdict(p),
                              last_frame_us=mailbox.cycles_to_us(p.last_frame_cycles),
                              max_frame_us=mailbox.cycles_to_us(p.max_frame_cycles))
                         for p in box.phases]
        out["tests"] = [dict(dataclasses.asdict(t), us=mailbox.cycles_to_us(t.cycles),
                             passed=report.test_passed(t)) for t in box.tests]
        out["bench_records"] = [dict(dataclasses.asdict(b), value=b.value) for b in box.bench]
    return out


def run_headless(args: argparse.Namespace, mode: str) -> int:
    names = backends.NAMES if args.emulator == "both" else (args.emulator,)
    tally = Tally()
    dump: dict = {"rom": os.path.abspath(args.rom), "emulators": {}}
    for name in names:
        shot_dir = args.screenshots
        if shot_dir and len(names) > 1:
            shot_dir = os.path.join(shot_dir, name)
        try:
            emu = backends.create(name)
        except EmulatorError as e:
            print(f"[{name}] ERROR: {e}")
            dump["emulators"][name] = {"error": str(e)}
            tally.ok = False
            continue
        started_at = time.monotonic()
        try:
            result = session.run(emu, args.rom, run_options(args, shot_dir))
        finally:
            emu.close()
        run_mode = mode
        if mode == "auto":
            kind = result.mailbox.header.rom_kind if result.mailbox else None
            run_mode = AUTO_MODE.get(kind, "test")
        print(f"[{name}] {result.version}: {result.frames_run} frames, stopped: "
              f"{result.stop_reason} ({time.monotonic() - started_at:.1f} s wall)")
        record = result_json(result, run_mode)
        report_run(result, run_mode, args, tally, record)
        save_screens(result, shot_dir)
        dump["emulators"][name] = record
        dump["mode"] = run_mode
    if dump.get("mode", mode) == "test" or mode == "test":
        print(report.closing_line(tally.passed, tally.failed))
    if args.json:
        os.makedirs(os.path.dirname(os.path.abspath(args.json)), exist_ok=True)
        with open(args.json, "w") as f:
            json.dump(dump, f, indent=2)
            f.write("\n")
    return 0 if tally.ok and tally.failed == 0 else 1


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    mode = args.mode
    if mode == "window":
        import window
        if args.emulator != "desmume":
            print("window mode always uses DeSmuME (the melonDS backend is headless only)")
        reason = window.why_no_window()
        if reason is None:
            return window.play(args.rom, args.frames, status_file=args.window_status,
                               shots_dir=args.screenshots or "target/screenshots")
        print(f"window mode unavailable: {reason}; running headless in profile mode instead")
        mode = "profile"
    return run_headless(args, mode)


if __name__ == "__main__":
    sys.exit(main())
