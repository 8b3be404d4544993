"""Play the ROM in a window (for `make run` on a desktop).

The window is pygame's; DeSmuME runs headless in a child process and
sends each frame's two screens back. (py-desmume's own SDL window ignored
START, SELECT and Y, opened at 1x, and its SDL and pygame's cannot share
one process.) The screens are scaled 2x (`--scale`), every control is on
the keyboard and mouse, H shows the key map, F12 saves both screens to a
PNG, and the profile table is printed when the window closes.
"""
from __future__ import annotations

import json
import multiprocessing as mp
import os
import subprocess
import sys
import time
from typing import Callable

import mailbox
import report
from scenes import SCENE_LETTERS

RUNNER_DIR = os.path.dirname(os.path.abspath(__file__))
FRAME_SECONDS = 560_190 / mailbox.BUS_HZ  # one DS frame, 16.7 ms
W, H = 256, 384  # both screens, top above bottom

# pygame key name -> DS button (the runner's key names).
KEYMAP = {
    "up": "UP", "down": "DOWN", "left": "LEFT", "right": "RIGHT",
    "x": "A", "z": "B", "s": "X", "a": "Y", "q": "L", "w": "R",
    "return": "START", "right shift": "SELECT", "backspace": "SELECT",
}
HELP = [
    "Keys (DS button: key)",
    "D-pad: arrows      A: X      B: Z",
    "X: S      Y: A      L: Q      R: W",
    "START: Return    SELECT: Right Shift / Backspace",
    "stylus: mouse on the bottom screen",
    "lid: F2 (close / open)    screenshot: F12",
    "help: H    quit: Esc or close the window",
    "",
    "START next scene   SELECT draw mode   A pause",
    "B step   X reset   Y gravity   L/R zoom",
    "L+R+START+SELECT (half a second): leave",
]
TITLE_HINT = "H: keys, F12: screenshot"
WM_CLASS = "ragdoll-ds"


def why_no_window() -> str | None:
    """None if a pygame window opens here, else the reason it does not."""
    if not os.environ.get("DISPLAY") and not os.environ.get("WAYLAND_DISPLAY"):
        return "no display ($DISPLAY is not set)"
    probe = ("import os; os.environ['PYGAME_HIDE_SUPPORT_PROMPT'] = '1'; import pygame; "
             "pygame.display.init(); pygame.display.set_mode((64, 64)); print('window-ok')")
    try:
        child = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60)
    except subprocess.TimeoutExpired:
        return "opening a pygame window timed out after 60 s"
    if child.returncode == 0 and "window-ok" in child.stdout:
        return None
    lines = [l for l in (child.stderr + child.stdout).splitlines() if l.strip()]
    return f"pygame could not open a window ({lines[-1] if lines else f'exit {child.returncode}'})"


def emulator(conn, rom: str) -> None:
    """The child: DeSmuME headless, one frame per request."""
    sys.path.insert(0, RUNNER_DIR)
    from desmume_backend import DesmumeEmulator
    emu = DesmumeEmulator()
    emu.open(rom)
    n = 0
    while True:
        msg = conn.recv()
        if msg[0] == "frame":
            _, keys, touch, lid = msg
            if lid:
                emu.toggle_lid()
            emu.set_keys(set(keys))
            emu.touch(*touch) if touch else emu.touch(None, None)
            emu.step()
            n += 1
            live = None
            if n % 15 == 0:
                header = mailbox.read_header(emu.read)
                if header.magic == mailbox.MAGIC:
                    live = {b.key: b.value for b in mailbox.read(emu.read).bench}
                    live["state"] = header.state_name
                    if header.state == mailbox.STATE_PANICKED:
                        live["panic"] = mailbox.read(emu.read).panic_message
            conn.send((emu.screenshot().convert("RGB").tobytes(), live))
        elif msg[0] == "quit":
            lines, status = [], 0
            header = mailbox.read_header(emu.read)
            if header.magic == mailbox.MAGIC:
                try:
                    lines = report.profile_table("desmume", mailbox.read(emu.read), n)
                except mailbox.MailboxError as e:
                    lines, status = [f"[desmume] ERROR: {e}"], 1
            else:
                lines, status = [f"[desmume] the ROM never wrote its mailbox in {n} frames"], 1
            conn.send((lines, status, emu.version()))
            emu.close()
            return


def scene_title(live: dict | None) -> str:
    if not live:
        return "Ragdoll DS"
    letter = SCENE_LETTERS[int(live.get("scene", 0)) % len(SCENE_LETTERS)]
    paused = "  PAUSED" if live.get("paused") else ""
    return f"Ragdoll DS - scene ({letter}){paused}  [{TITLE_HINT}]"


def play(rom: str, frames: int | None, say: Callable[[str], None] = print, scale: int = 2,
         status_file: str | None = None, shots_dir: str = "target/screenshots") -> int:
    """Runs until the window is closed (or `frames` frames); returns an exit status."""
    if not os.path.isfile(rom):
        say(f"[window] ROM not found: {rom}")
        return 1
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    # The X window class, for window managers and `xdotool search --class`.
    os.environ.setdefault("SDL_VIDEO_X11_WMCLASS", WM_CLASS)
    import pygame
    ctx = mp.get_context("spawn")
    parent, child = ctx.Pipe()
    proc = ctx.Process(target=emulator, args=(child, rom), daemon=True)
    proc.start()
    # Only the child writes its end: closed here, a child that dies ends
    # the parent's wait with EOFError instead of hanging it.
    child.close()
    pygame.display.init()
    pygame.font.init()
    window = pygame.display.set_mode((W * scale, H * scale))
    pygame.display.set_caption(scene_title(None))
    font = pygame.font.Font(None, 13 * scale)
    say(f"[window] {W * scale}x{H * scale}: {TITLE_HINT}; close it or press Esc to stop")
    held: set[str] = set()
    show_help, lid, touch = False, False, None
    live: dict | None = None
    shots: list[str] = []
    n, status = 0, 0
    last_image = bytes(W * H * 3)
    deadline = time.perf_counter()
    running = True
    while running and (frames is None or n < frames):
        for e in pygame.event.get():
            if e.type == pygame.QUIT:
                running = False
            elif e.type in (pygame.KEYDOWN, pygame.KEYUP):
                name = pygame.key.name(e.key)
                down = e.type == pygame.KEYDOWN
                if name in KEYMAP:
                    (held.add if down else held.discard)(KEYMAP[name])
                elif down and name == "escape":
                    running = False
                elif down and name == "h":
                    show_help = not show_help
                elif down and name == "f2":
                    lid = True
                elif down and name == "f12":
                    shots.append(save_screens(pygame, last_image, shots_dir))
                    say(f"[window] saved {shots[-1]}")
        buttons = pygame.mouse.get_pressed()
        mx, my = pygame.mouse.get_pos()
        x, y = mx // scale, my // scale - 192
        touch = (x, y) if buttons[0] and 0 <= x < 256 and 0 <= y < 192 else None
        try:
            parent.send(("frame", sorted(held), touch, lid))
            rgb, fresh = parent.recv()
        except (EOFError, OSError):
            say(f"[desmume] the emulator process stopped (exit code {proc.exitcode}) after {n} frames")
            pygame.display.quit()
            return 1
        lid = False
        last_image = rgb
        if fresh:
            live = fresh
            pygame.display.set_caption(scene_title(live))
            if live.get("panic") and status == 0:
                say(f"[desmume] PANIC: {live['panic']}")
                status = 1
        image = pygame.image.frombuffer(rgb, (W, H), "RGB")
        window.blit(pygame.transform.scale(image, (W * scale, H * scale)), (0, 0))
        if show_help:
            draw_help(pygame, window, font, scale)
        pygame.display.flip()
        n += 1
        if status_file and n % 15 == 0:
            write_status(status_file, n, live, shots, show_help, window.get_size())
        deadline += FRAME_SECONDS
        delay = deadline - time.perf_counter()
        if delay > 0:
            time.sleep(delay)
        elif delay < -0.25:  # far behind (host busy): don't race to catch up
            deadline = time.perf_counter()
    parent.send(("quit",))
    lines, child_status, version = parent.recv()
    proc.join(timeout=10)
    size = window.get_size()
    pygame.display.quit()
    if status_file:
        write_status(status_file, n, live, shots, show_help, size, done=True)
    say(f"[desmume] {version}: {n} frames in the window")
    for line in lines:
        say(line)
    return status or child_status


def save_screens(pygame, rgb: bytes, directory: str) -> str:
    """Both screens, 1x, to the next free `play-NNN.png` in `directory`."""
    os.makedirs(directory, exist_ok=True)
    k = 0
    while os.path.exists(os.path.join(directory, f"play-{k:03d}.png")):
        k += 1
    path = os.path.join(directory, f"play-{k:03d}.png")
    pygame.image.save(pygame.image.frombuffer(rgb, (W, H), "RGB"), path)
    return path


def draw_help(pygame, window, font, scale: int) -> None:
    pad = 6 * scale
    lines = [font.render(t, True, (240, 240, 240)) for t in HELP]
    h = sum(l.get_height() for l in lines) + 2 * pad
    w = max(l.get_width() for l in lines) + 2 * pad
    box = pygame.Surface((w, h), pygame.SRCALPHA)
    box.fill((10, 10, 30, 215))
    y = pad
    for l in lines:
        box.blit(l, (pad, y))
        y += l.get_height()
    window.blit(box, ((window.get_width() - w) // 2, 8 * scale))


def write_status(path: str, frames: int, live: dict | None, shots: list[str], help_shown: bool,
                 size: tuple[int, int], done: bool = False) -> None:
    """What a test of the window reads: the ROM's live figures, the
    screenshots taken, the window's size."""
    data = {"frames": frames, "live": live or {}, "screenshots": shots, "help": help_shown,
            "size": list(size), "done": done}
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        json.dump(data, f)
    os.replace(tmp, path)


def main(argv: list[str] | None = None) -> int:
    import argparse
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--rom", required=True)
    p.add_argument("--frames", type=int, help="stop after this many frames")
    p.add_argument("--scale", type=int, default=2)
    p.add_argument("--status", help="write the live figures here every 15 frames (tests)")
    p.add_argument("--screenshots", default="target/screenshots")
    args = p.parse_args(argv)
    return play(args.rom, args.frames, scale=args.scale, status_file=args.status,
                shots_dir=args.screenshots)


if __name__ == "__main__":
    sys.exit(main())
