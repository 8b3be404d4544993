"""`make test`'s check of the play window (`window.py`, as `make run`
opens it through `run.py --mode window`) under Xvfb, driven by real X
key and mouse events (xdotool):
- the window is at least 512x768;
- Return (START) moves the demo from scene (a) to scene (b);
- a click held on a box of the pyramid grabs it;
- F12 saves both screens to a PNG;
- Esc closes the window, and the profile table is printed.

Needs Xvfb and xdotool (`make apt`).
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

RUNNER_DIR = os.path.dirname(os.path.abspath(__file__))
WM_CLASS = "ragdoll-ds"  # window.WM_CLASS


class CheckError(RuntimeError):
    pass


def xdo(display: str, *args: str) -> str:
    out = subprocess.run(["xdotool", *args], capture_output=True, text=True, timeout=20,
                         env={**os.environ, "DISPLAY": display})
    return out.stdout.strip()


def wait_for(what: str, test, timeout: float = 60.0):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        value = test()
        if value:
            return value
        time.sleep(0.1)
    raise CheckError(f"waited {timeout:.0f} s for {what}")


def read_status(path: str) -> dict:
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return {}


def free_display() -> str:
    for n in range(90, 140):
        if not os.path.exists(f"/tmp/.X11-unix/X{n}") and not os.path.exists(f"/tmp/.X{n}-lock"):
            return f":{n}"
    raise CheckError("no free X display number in :90-:139")


def run(rom: str) -> list[tuple[str, bool, str]]:
    for tool in ("Xvfb", "xdotool"):
        if shutil.which(tool) is None:
            raise CheckError(f"{tool} is missing: run `make apt` (Debian packages xvfb, xdotool)")
    display = free_display()
    xvfb = subprocess.Popen(["Xvfb", display, "-screen", "0", "1280x1024x24", "-nolisten", "tcp"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    tmp = tempfile.TemporaryDirectory()
    status = os.path.join(tmp.name, "status.json")
    shots = os.path.join(tmp.name, "shots")
    results: list[tuple[str, bool, str]] = []
    win = None
    try:
        wait_for("Xvfb", lambda: os.path.exists(f"/tmp/.X11-unix/X{display[1:]}"), 20)
        # The socket appears before the server answers: wait until it
        # does, so that the window's first connection is not refused.
        wait_for("Xvfb to answer", lambda: xdo(display, "getdisplaygeometry"), 20)
        # The path `make run` takes on a desktop: run.py's window mode.
        win = subprocess.Popen(
            [sys.executable, os.path.join(RUNNER_DIR, "run.py"), "--rom", rom, "--mode", "window",
             "--window-status", status, "--screenshots", shots, "--frames", "5000"],
            env={**os.environ, "DISPLAY": display}, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
            text=True)
        def window_or_exit() -> str:
            # A window that never opens because run.py stopped: say why
            # (2026-11-28, a fresh clone's `make test` waited 60 s for a
            # window that opened in 4 s when run again).
            if win.poll() is not None:
                raise CheckError(f"run.py exited ({win.returncode}) before its window opened:\n"
                                 f"{win.stdout.read()[-2000:]}")
            return xdo(display, "search", "--class", WM_CLASS).split("\n")[0]
        try:
            wid = wait_for("the window", window_or_exit)
        except CheckError as e:
            if win.poll() is None:
                win.kill()
                raise CheckError(f"{e}; run.py said:\n{win.communicate()[0][-2000:]}") from e
            raise
        xdo(display, "windowactivate", "--sync", wid)
        live = lambda: read_status(status).get("live", {})  # noqa: E731
        wait_for("the ROM's first figures", lambda: "scene" in live())
        # Retried, the window found again each time: on a loaded machine
        # xdotool has answered nothing here (an empty reply, then an
        # IndexError), and once nothing for 20 s for the id found first
        # (2026-11-28, a fresh clone's `make test`; the same tree passed
        # three times after), as if that id were not the window's.
        def geometry_now() -> str:
            nonlocal wid
            wid = xdo(display, "search", "--class", WM_CLASS).split("\n")[0] or wid
            return xdo(display, "getwindowgeometry", wid)
        geometry = wait_for("the window's geometry", geometry_now, 60)
        w, h = read_status(status)["size"]
        results.append(("window_size", w >= 512 and h >= 768, f"{w}x{h} ({geometry.splitlines()[-1].strip()})"))

        scene0 = live()["scene"]
        xdo(display, "keydown", "--window", wid, "Return")
        time.sleep(0.3)
        xdo(display, "keyup", "--window", wid, "Return")
        try:
            wait_for("scene (b)", lambda: live().get("scene") == scene0 + 1, 20)
            results.append(("start_changes_scene", True, f"scene index {scene0} -> {scene0 + 1}"))
        except CheckError as e:
            results.append(("start_changes_scene", False, f"{e}; scene {live().get('scene')}"))

        # Let the pyramid show, then press on one of its boxes.
        time.sleep(2.0)
        v = live()
        bx, by = int(v.get("body_probe.screen_x", -1)), int(v.get("body_probe.screen_y", -1))
        scale = w // 256
        xdo(display, "mousemove", "--window", wid, str(bx * scale + scale // 2),
            str((by + 192) * scale + scale // 2))
        xdo(display, "mousedown", "1")
        try:
            wait_for("a grab", lambda: live().get("grab.body", -1) >= 0, 10)
            results.append(("click_grabs", True, f"box {int(live()['grab.body'])} held at ({bx}, {by})"))
        except CheckError as e:
            results.append(("click_grabs", False, f"{e}; pen at ({bx}, {by}), touch {live().get('touch.down')}"))
        xdo(display, "mouseup", "1")

        xdo(display, "key", "--window", wid, "F12")
        try:
            path = wait_for("the screenshot", lambda: (read_status(status).get("screenshots") or [None])[-1], 10)
            ok = os.path.isfile(path) and open(path, "rb").read(8) == b"\x89PNG\r\n\x1a\n"
            results.append(("screenshot_key", ok, path))
        except CheckError as e:
            results.append(("screenshot_key", False, str(e)))

        xdo(display, "key", "--window", wid, "Escape")
        out, _ = win.communicate(timeout=60)
        table = "profiler overhead" in out
        results.append(("escape_closes", win.returncode == 0 and table,
                        f"exit {win.returncode}, profile table {'printed' if table else 'MISSING'}"))
    finally:
        if win is not None and win.poll() is None:
            win.kill()
        xvfb.terminate()
        xvfb.wait(timeout=10)
        tmp.cleanup()
    return results


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--rom", required=True)
    args = p.parse_args(argv)
    try:
        results = run(args.rom)
    except (CheckError, subprocess.TimeoutExpired) as e:
        print(f"[window] FAIL window  ({e})")
        return 1
    for name, ok, detail in results:
        print(f"[window] {'PASS' if ok else 'FAIL'} {name}  ({detail})")
    return 0 if all(ok for _, ok, _ in results) else 1


if __name__ == "__main__":
    sys.exit(main())
