"""Play the ROM in a real DeSmuME window (for `make run` on a desktop).

py-desmume ships two front ends. `desmume.frontend` is a GTK 3 app: it needs
PyGObject and GTK in the venv and opens ROMs only from its File menu. The
SDL window built into libdesmume (`DeSmuME.create_sdl_window`) needs
nothing extra, so that is the one used here. Its keys: arrows, X=A, Z=B,
S=X, A=Y, Q=L, W=R, Return=Start, right Shift=Select; the mouse touches
the bottom screen.

libdesmume calls exit() if it cannot create the window, so a child process
tries it first; on failure the runner explains why and falls back to a
headless run.
"""
from __future__ import annotations

import os
import subprocess
import sys
import time
from typing import Callable

import mailbox
import report

FRAME_SECONDS = 560_190 / mailbox.BUS_HZ  # one DS frame, 16.7 ms
RUNNER_DIR = os.path.dirname(os.path.abspath(__file__))

_PROBE = """
import sys
sys.path.insert(0, sys.argv[1])
from desmume_backend import DesmumeEmulator
emu = DesmumeEmulator(headless=False)
emu.sdl_window().draw()
print("window-ok")
"""


def why_no_window() -> str | None:
    """None if a DeSmuME SDL window opens here, else the reason it does not."""
    if not os.environ.get("DISPLAY") and not os.environ.get("WAYLAND_DISPLAY"):
        return "no display ($DISPLAY is not set)"
    try:
        child = subprocess.run([sys.executable, "-c", _PROBE, RUNNER_DIR],
                               capture_output=True, text=True, timeout=60)
    except subprocess.TimeoutExpired:
        return "opening a DeSmuME SDL window timed out after 60 s"
    if child.returncode == 0 and "window-ok" in child.stdout:
        return None
    lines = (child.stderr + child.stdout).splitlines()
    sdl = [l.strip() for l in lines if "SDL" in l and ("rror" in l or "fail" in l)]
    errors = [l.strip() for l in lines if "fail" in l.lower() or "error" in l.lower()]
    detail = (sdl or errors or [f"exit status {child.returncode}"])[-1]
    return f"DeSmuME could not open an SDL window ({detail})"


def play(rom: str, frames: int | None, say: Callable[[str], None] = print) -> int:
    """Run until the window is closed (or `frames` frames); returns an exit status."""
    from desmume_backend import DesmumeEmulator
    emu = DesmumeEmulator(headless=False)
    emu.open(rom)
    win = emu.sdl_window()
    say(f"[desmume] window open: {emu.version()}; close it to stop. Keys: arrows, "
        "X=A Z=B S=X A=Y Q=L W=R Return=Start RShift=Select, mouse=touch")
    n, last_state, status = 0, None, 0
    deadline = time.perf_counter()
    while not win.has_quit() and (frames is None or n < frames):
        win.process_input()
        emu.step()
        win.draw()
        n += 1
        if n % 30 == 0:
            header = mailbox.read_header(emu.read)
            if header.magic == mailbox.MAGIC and header.state != last_state:
                last_state = header.state
                say(f"[desmume] frame {n}: ROM state {header.state_name}")
                if header.state == mailbox.STATE_PANICKED:
                    box = mailbox.read(emu.read)
                    say(f"[desmume] PANIC: {box.panic_message or '(no message)'}")
                    status = 1
        deadline += FRAME_SECONDS
        delay = deadline - time.perf_counter()
        if delay > 0:
            time.sleep(delay)
        elif delay < -0.25:  # far behind (window dragged, host busy): don't race to catch up
            deadline = time.perf_counter()
    header = mailbox.read_header(emu.read)
    if header.magic == mailbox.MAGIC:
        try:
            for line in report.profile_table("desmume", mailbox.read(emu.read), n):
                say(line)
        except mailbox.MailboxError as e:
            say(f"[desmume] ERROR: {e}")
            status = 1
    else:
        say(f"[desmume] the ROM never wrote its mailbox in {n} frames")
    emu.close()
    return status
