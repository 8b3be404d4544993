#!/usr/bin/env python3
"""Drive the demo ROM through its scenes, as a user would, and check what
the screens show.

    .venv/bin/python nds/runner/scenes.py --rom target/nds/ragdoll.nds --out target/screenshots
    .venv/bin/python nds/runner/scenes.py --rom target/nds/ragdoll.nds --check nds/runner/reference
    .venv/bin/python nds/runner/scenes.py --rom target/nds/ragdoll.nds --gif target/screenshots/drop.gif

For each scene it presses START (or X, reset, for the first scene, which
the ROM boots into), runs --frames frames, takes a screenshot and reads
the ROM's live figures from the mailbox (see nds/arm9/src/demo/live.rs).

--check compares each scene's top screen with the reference image
REFDIR/<emulator>/scene_<letter>.png within a tolerance; a missing
reference is written out and fails the run (as agb's tests do), so a new
reference is always looked at before it is committed. It also checks
that the top screen shows geometry in the middle of the screen, that the
bottom screen shows the profiler, that no scene ever submitted more than
2048 polygons, and it runs the stylus drag tests (a ragdoll's particle in
scene (a), a box in scene (b)), the overrun test (the
profiler's frame bar turns red after an overrun, and the footer shows the
count) and the touch camera test (drags in the edge strips orbit and zoom).

Exit status: 0 when every check passed, 1 otherwise, 2 on bad arguments.
"""
from __future__ import annotations

import argparse
import dataclasses
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import backends  # noqa: E402
import console_text  # noqa: E402
import power_paths  # noqa: E402
import mailbox  # noqa: E402
from emulator import Emulator, EmulatorError, split_screens  # noqa: E402

SCENE_LETTERS = "abcdefg"
DEFAULT_FRAMES = 120
MAX_POLYGONS = 2048
MAX_VERTICES = 6144
# Two top screens "match" when at most this share of pixels differ by more
# than PIXEL_TOLERANCE in some channel (emulator rounding, a ragdoll a
# pixel off after a change of solver settings stays within it).
PIXEL_TOLERANCE = 48
MAX_DIFFERING_SHARE = 0.03
SKY = (24, 32, 64)  # the ROM's rear-plane colour (demo.rs), BGR555-rounded
# The bottom screen (nds/arm9/src/demo/screen.rs, profile_view.rs): 11-pixel
# text rows, the frame's bar in row 6 from x = 120, the overrun count in the
# footer (row 16); two rows are redrawn per frame, 17 rows in all.
CONSOLE_BG = (16, 16, 32)
FRAME_BAR = (120, 6 * 11 + 2, 240, 6 * 11 + 9)
FOOTER_ROW = 16
REDRAW_FRAMES = 9


@dataclasses.dataclass
class Shot:
    letter: str
    top: object
    bottom: object
    live: dict


# One frame of the DS: 560190 bus cycles at 33.513982 MHz, in us.
FRAME_US = 16715


def live_values(emu: Emulator) -> dict:
    box = mailbox.read(emu.read)
    return {b.key: b.value for b in box.bench}


def boot(emu: Emulator, rom: str, max_frames: int = 120) -> None:
    emu.open(rom)
    for _ in range(max_frames):
        emu.step()
        if mailbox.read_header(emu.read).magic == mailbox.MAGIC:
            # A few frames more, so the ARM7's first input block is there.
            for _ in range(5):
                emu.step()
            return
    raise EmulatorError(f"the ROM did not start within {max_frames} frames")


def press(emu: Emulator, key: str, frames: int = 3) -> None:
    """Holds `key` for a few frames, then lets go (one press to the ROM)."""
    emu.set_keys({key})
    for _ in range(frames):
        emu.step()
    emu.set_keys(set())
    emu.step()


def run_frames(emu: Emulator, n: int, every: int = 0, frames: list | None = None) -> None:
    for i in range(n):
        emu.step()
        if every and frames is not None and i % every == 0:
            frames.append(split_screens(emu.screenshot())[0])


def cycle_scenes(emu: Emulator, rom: str, frames: int, gif_frames: list | None = None) -> list[Shot]:
    """Every scene in turn: select it, run `frames` frames, screenshot."""
    boot(emu, rom)
    shots = []
    for i, letter in enumerate(SCENE_LETTERS):
        press(emu, "X" if i == 0 else "START")
        run_frames(emu, frames, every=2 if i == 0 and gif_frames is not None else 0,
                   frames=gif_frames)
        top, bottom = split_screens(emu.screenshot())
        box = mailbox.read(emu.read)
        if box.panic_message is not None:
            raise EmulatorError(f"scene {letter}: the ROM panicked: {box.panic_message}")
        live = live_values(emu)
        if live.get("scene") != i:
            raise EmulatorError(f"pressed my way to scene {letter} but the ROM shows scene "
                                f"index {live.get('scene')}")
        shots.append(Shot(letter, top, bottom, live))
    return shots


# --------------------------------------------------------------- checks
def differing_share(a, b, tolerance: int = PIXEL_TOLERANCE) -> float:
    """Share of pixels where some channel differs by more than `tolerance`."""
    from PIL import ImageChops
    diff = ImageChops.difference(a.convert("RGB"), b.convert("RGB"))
    bands = diff.split()
    mask = None
    for band in bands:
        over = band.point(lambda v: 255 if v > tolerance else 0)
        mask = over if mask is None else ImageChops.lighter(mask, over)
    hist = mask.histogram()
    return hist[255] / (a.width * a.height)


def geometry_share(top, box=(64, 48, 192, 144)) -> float:
    """Share of the middle of the top screen that is not sky."""
    region = top.convert("RGB").crop(box)
    pixels = list(getattr(region, "get_flattened_data", region.getdata)())
    not_sky = sum(1 for p in pixels if max(abs(p[c] - SKY[c]) for c in range(3)) > 24)
    return not_sky / len(pixels)


def profiler_shown(bottom) -> tuple[bool, str]:
    """The profiler's bars: the yellow budget marker in many rows, and some
    green (or red) bar pixels left of it."""
    rgb = bottom.convert("RGB")
    marker_rows = sum(1 for y in range(66, 192)
                      if any(_yellow(rgb.getpixel((x, y))) for x in range(244, 252)))
    bar = sum(1 for y in range(66, 192) for x in range(120, 244)
              if _bar(rgb.getpixel((x, y))))
    ok = marker_rows >= 60 and bar >= 20
    return ok, f"budget marker in {marker_rows} rows, {bar} bar pixels"


def _yellow(p) -> bool:
    return p[0] > 200 and p[1] > 160 and p[2] < 80


def _bar(p) -> bool:
    green = p[1] > 150 and p[0] < 120 and p[2] < 140
    red = p[0] > 200 and p[1] < 80 and p[2] < 80
    return green or red


def check_reference(top, path: str) -> tuple[bool, str]:
    from PIL import Image
    if not os.path.isfile(path):
        os.makedirs(os.path.dirname(path), exist_ok=True)
        top.save(path)
        return False, f"no reference: wrote {path} (look at it, then commit it)"
    share = differing_share(top, Image.open(path))
    ok = share <= MAX_DIFFERING_SHARE
    return ok, f"{share:.2%} of pixels differ (limit {MAX_DIFFERING_SHARE:.0%})"


def stylus_drag(emu: Emulator, rom: str) -> tuple[bool, str]:
    """Scene (a): let the ragdoll land, put the pen on its head, drag it
    40 px right and 30 px up over 20 frames, hold; the held particle must
    then show within a few pixels of the pen, and be let go on release."""
    boot(emu, rom)
    press(emu, "X")
    run_frames(emu, 90)
    live = live_values(emu)
    hx, hy = int(live["probe.screen_x"]), int(live["probe.screen_y"])
    if not (0 <= hx < 256 and 0 <= hy < 192):
        return False, f"the head is off screen at ({hx}, {hy})"
    emu.touch(hx, hy)
    emu.step()
    emu.step()
    live = live_values(emu)
    if live["grab.particle"] < 0:
        return False, (f"touching the head at ({hx}, {hy}) grabbed nothing (touch "
                       f"{live['touch.down']} at ({live['touch.x']}, {live['touch.y']}))")
    tx, ty = hx + 40, hy - 30
    pen_move(emu, (hx, hy), (tx, ty))
    run_frames(emu, 10)
    live = live_values(emu)
    gx, gy = live["grab.screen_x"], live["grab.screen_y"]
    err = max(abs(gx - tx), abs(gy - ty))
    emu.touch(None, None)
    run_frames(emu, 3)
    released = live_values(emu)["grab.particle"] < 0
    ok = err <= 3 and released
    return ok, (f"pen at ({tx}, {ty}), particle {int(live['grab.particle'])} shown at "
                f"({gx}, {gy}): {err} px off; {'released' if released else 'NOT released'}")


def box_drag(emu: Emulator, rom: str) -> tuple[bool, str]:
    """Scene (b): put the pen on the pyramid's top box, drag it 50 px
    right and 30 px up over 20 frames and hold it there: the box must be
    grabbed (by the engine's force-limited grab, not moved by hand), the
    held point must come to the pen, the box's centre move towards it,
    and the box be let go, falling, when the pen lifts. The pyramid's
    frames take two or three video frames each (about 36 ms of work
    in DeSmuME, 23 ms in melonDS), so the pen is held for 140 video
    frames: 45 to 70 steps of the ROM."""
    boot(emu, rom)
    press(emu, "X")
    press(emu, "START")
    run_frames(emu, 60)
    live = live_values(emu)
    if live["scene"] != 1:
        return False, f"pressed my way to scene b but the ROM shows scene index {live['scene']}"
    bx, by = int(live["body_probe.screen_x"]), int(live["body_probe.screen_y"])
    if not (0 <= bx < 256 and 0 <= by < 192):
        return False, f"the top box is off screen at ({bx}, {by})"
    emu.touch(bx, by)
    run_frames(emu, 6)
    live = live_values(emu)
    body = int(live["grab.body"])
    if body < 0:
        return False, (f"touching the top box at ({bx}, {by}) grabbed nothing (touch "
                       f"{live['touch.down']} at ({live['touch.x']}, {live['touch.y']}), "
                       f"particle {int(live['grab.particle'])}, shots {int(live['stylus.shots'])})")
    tx, ty = bx + 50, by - 30
    pen_move(emu, (bx, by), (tx, ty))
    run_frames(emu, 120)
    live = live_values(emu)
    gx, gy = int(live["grab.screen_x"]), int(live["grab.screen_y"])
    cx, cy = int(live["body_probe.screen_x"]), int(live["body_probe.screen_y"])
    held = int(live["grab.body"])
    err = max(abs(gx - tx), abs(gy - ty))
    before = ((tx - bx) ** 2 + (ty - by) ** 2) ** 0.5
    after = ((tx - cx) ** 2 + (ty - cy) ** 2) ** 0.5
    emu.touch(None, None)
    run_frames(emu, 10)
    released = live_values(emu)["grab.body"] < 0
    run_frames(emu, 60)
    fell = live_values(emu)["body_probe.screen_y"] > cy + 10
    ok = held == body and err <= 6 and after < before / 2 and released and fell
    return ok, (f"grabbed body {body} at ({bx}, {by}); pen at ({tx}, {ty}), held point shown "
                f"at ({gx}, {gy}): {err} px off; box centre {before:.0f} -> {after:.0f} px from "
                f"the pen; {'released' if released else 'NOT released'}, "
                f"{'fell' if fell else 'did NOT fall'}")


def pen_move(emu: Emulator, start: tuple[int, int], end: tuple[int, int], frames: int = 20) -> None:
    """Moves the pen, already down at `start`, to `end` in a straight
    line over `frames` frames, and keeps it down there."""
    (x0, y0), (x1, y1) = start, end
    for i in range(1, frames + 1):
        emu.touch(x0 + (x1 - x0) * i // frames, y0 + (y1 - y0) * i // frames)
        emu.step()


def pen_drag(emu: Emulator, start: tuple[int, int], end: tuple[int, int], frames: int = 20) -> None:
    """Puts the pen down at `start`, moves it to `end` over `frames`
    frames, and lifts it."""
    emu.touch(*start)
    emu.step()
    pen_move(emu, start, end, frames)
    emu.touch(None, None)
    run_frames(emu, 2)


def touch_camera(emu: Emulator, rom: str) -> tuple[bool, str]:
    """Scene (a): a drag along the bottom strip 80 px right turns the
    camera by 80 x 128 binary angle units (the D-pad's direction), one
    60 px up the bottom strip's edge tilts it, and one 60 px down the
    right strip moves it out; none of them grabs or shoots. The head's
    projection moves with the view."""
    boot(emu, rom)
    press(emu, "X")
    run_frames(emu, 60)
    v0 = live_values(emu)
    pen_drag(emu, (60, 186), (140, 186))
    v1 = live_values(emu)
    pen_drag(emu, (100, 186), (100, 126))
    v2 = live_values(emu)
    pen_drag(emu, (250, 40), (250, 100))
    v3 = live_values(emu)
    turned = (int(v1["camera.yaw"]) - int(v0["camera.yaw"])) % 65536
    tilted = int(v2["camera.pitch"]) - int(v1["camera.pitch"])
    zoomed = v3["camera.distance"] / v2["camera.distance"]
    moved = (v0["probe.screen_x"], v0["probe.screen_y"]) != (v3["probe.screen_x"], v3["probe.screen_y"])
    untouched = v3["stylus.shots"] == v0["stylus.shots"] and v3["grab.particle"] < 0
    ok = (turned == 80 * 128 and v2["camera.yaw"] == v1["camera.yaw"]
          and 0 < tilted <= 60 * 128 and 1.5 < zoomed < 3.5 and moved and untouched)
    return ok, (f"yaw +{turned} (want {80 * 128}), pitch +{tilted}, distance "
                f"{v2['camera.distance']:.2f} -> {v3['camera.distance']:.2f} m (x{zoomed:.2f}), "
                f"head moved {'yes' if moved else 'NO'}, "
                f"{int(v3['stylus.shots'] - v0['stylus.shots'])} shots, grab {int(v3['grab.particle'])}")


def frame_bar_red(bottom) -> int:
    """Red pixels in the frame's bar on the bottom screen."""
    rgb = bottom.convert("RGB")
    x0, y0, x1, y1 = FRAME_BAR
    return sum(1 for y in range(y0, y1) for x in range(x0, x1)
               if _bar(rgb.getpixel((x, y))) and rgb.getpixel((x, y))[0] > 200)


def overruns(emu: Emulator) -> int:
    return mailbox.read_header(emu.read).overruns


def overrun_shown(emu: Emulator, rom: str) -> tuple[bool, str]:
    """The frame's bar is green while no frame overruns (scene a), and
    turns red within one redraw of the bar after a frame that overran
    (scene g rains until one does); the footer then shows the count the
    mailbox has."""
    boot(emu, rom)
    press(emu, "X")
    run_frames(emu, 60)
    before = overruns(emu)
    run_frames(emu, 2 * REDRAW_FRAMES)
    quiet = overruns(emu) == before
    red = frame_bar_red(split_screens(emu.screenshot())[1])
    if not quiet or red:
        return False, (f"scene a: {overruns(emu) - before} overruns in {2 * REDRAW_FRAMES} frames, "
                       f"{red} red bar pixels (want none of either)")
    for _ in range(len(SCENE_LETTERS) - 1):
        press(emu, "START")
    run_frames(emu, 5)
    base = overruns(emu)
    # The rain drops a ragdoll once the last one rests: its first
    # overrun comes after 40-60 s (2500-3500 frames).
    for waited in range(6000):
        emu.step()
        if overruns(emu) > base:
            break
    else:
        return False, f"scene g: no frame overran in {waited + 1} frames of rain"
    first = overruns(emu)
    for after in range(1, REDRAW_FRAMES + 2):
        emu.step()
        red = frame_bar_red(split_screens(emu.screenshot())[1])
        if red:
            break
    if not red:
        return False, f"scene g: the frame's bar stayed green for {after} frames after an overrun"
    # A full rotation of the console's rows in ROM frames, not VBlanks:
    # while the rain overruns, a ROM frame spans two or more VBlanks, and
    # REDRAW_FRAMES + 1 VBlanks missed the footer's redraw.
    start = mailbox.read_header(emu.read).frame
    for _ in range(8 * (REDRAW_FRAMES + 1)):
        if mailbox.read_header(emu.read).frame - start > REDRAW_FRAMES:
            break
        emu.step()
    # The footer was drawn within the last redraw cycle: its count lies
    # between the first overrun's and now.
    footer = console_text.read_row(split_screens(emu.screenshot())[1], FOOTER_ROW, CONSOLE_BG)
    now = overruns(emu)
    m = re.search(r"overruns (\d+)", footer)
    shown = int(m.group(1)) if m else -1
    ok = first <= shown <= now
    return ok, (f"scene a: bar green, 0 overruns; scene g: overrun after {waited + 1} frames, "
                f"bar red {after} frame(s) later ({red} px); footer {footer.strip()!r}, "
                f"mailbox {first}..{now}")


# --------------------------------------------------------------- output
def save_gif(frames: list, path: str) -> None:
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    frames[0].save(path, save_all=True, append_images=frames[1:], duration=33, loop=0)


def run_one(name: str, args: argparse.Namespace) -> bool:
    tag = f"[{name}]"
    ok = True
    gif_frames: list | None = [] if args.gif else None
    emu = backends.create(name)
    try:
        shots = cycle_scenes(emu, args.rom, args.frames, gif_frames)
        drag = stylus_drag(emu, args.rom) if args.check else None
        box = box_drag(emu, args.rom) if args.check else None
        overrun = overrun_shown(emu, args.rom) if args.check else None
        camera = touch_camera(emu, args.rom) if args.check else None
        lid = power_paths.lid_sleep(emu, boot, args.rom, overruns) if args.check else None
        # Last: each ends the ROM.
        loader = power_paths.to_loader(emu, boot, args.rom) if args.check else None
        shutdown = power_paths.power_off(emu, boot, args.rom) if args.check else None
    except EmulatorError as e:
        print(f"{tag} ERROR: {e}")
        return False
    finally:
        emu.close()
    for s in shots:
        pending = " (parts not landed yet)" if s.live.get("scene.pending") else ""
        print(f"{tag} scene {s.letter}: {int(s.live['ragdolls'])} ragdolls, "
              f"{int(s.live['polys.submitted'])} polygons submitted "
              f"(max {int(s.live['polys.max_submitted'])}), {int(s.live['polys.stored'])} stored, "
              f"frame work {int(s.live['frame.busy_us'])} us{pending}")
        if args.out:
            out = os.path.join(args.out, name) if args.emulator == "both" else args.out
            os.makedirs(out, exist_ok=True)
            s.top.save(os.path.join(out, f"scene_{s.letter}_top.png"))
            s.bottom.save(os.path.join(out, f"scene_{s.letter}_bottom.png"))
    if args.out:
        print(f"{tag} screenshots: {args.out}/scene_<a..g>_<top|bottom>.png")
    if args.gif and gif_frames:
        path = args.gif if args.emulator != "both" else args.gif.replace(".gif", f"-{name}.gif")
        save_gif(gif_frames, path)
        print(f"{tag} animated GIF of the single-ragdoll drop: {path} ({len(gif_frames)} frames)")
    if not args.check:
        return ok
    for s in shots:
        checks = []
        share = geometry_share(s.top)
        checks.append(("geometry", share >= 0.2, f"{share:.0%} of the middle is not sky"))
        checks.append(("profiler",) + profiler_shown(s.bottom))
        polys = int(s.live["polys.max_submitted"])
        checks.append(("polygons", polys <= MAX_POLYGONS and s.live["polys.max_stored"] <= MAX_POLYGONS,
                       f"max {polys} submitted, {int(s.live['polys.max_stored'])} stored"))
        checks.append(("gx_errors", s.live["gx.errors"] == 0, f"{int(s.live['gx.errors'])} overflows"))
        verts = int(s.live["verts.max_stored"])
        checks.append(("vertices", 0 < verts <= MAX_VERTICES,
                       f"max {verts} stored of {MAX_VERTICES}; "
                       f"{int(s.live['gx.underflows'])} colour-buffer underflows"))
        # Frames are paced by the VBlank interrupt, the CPU halted between
        # them: the handler counted VBlanks, and the last wait slept.
        vblanks, idle = int(s.live["irq.vblanks"]), int(s.live["frame.idle_us"])
        checks.append(("vblank_halt", vblanks >= args.frames and idle > 0,
                       f"{vblanks} VBlank interrupts, {idle} us halted in the last frame"))
        if s.letter == "a":
            # Both emulators boot in DS mode: the DSi-mode check must not
            # misfire (it would turn the touch screen's notice on).
            dsi = int(s.live["dsi_mode"])
            checks.append(("ds_mode", dsi == 0, f"dsi_mode {dsi} (SCFG_A9ROM & 3 == 1)"))
            # A quiet frame of the single ragdoll leaves most of the frame
            # to the halted CPU (issue 22: at least 70 %).
            share = idle / FRAME_US
            checks.append(("idle_share", share >= 0.7,
                           f"{share:.0%} of the {FRAME_US} us frame halted"))
        if s.letter == "e":
            # Standing quiet, the powered ragdoll folds into one body
            # (seed 002's level of detail) and rests: only folded steps
            # come to rest, so a demo that stepped its bare world (as it
            # did until 0349eb8: folded at reset, never stepped folded)
            # shows 1 here.
            lod = int(s.live["powered.lod"])
            checks.append(("resting", lod == 2,
                           f"level of detail {lod} (0 full, 1 folded, 2 resting)"))
        ref = os.path.join(args.check, name, f"scene_{s.letter}.png")
        checks.append(("reference",) + check_reference(s.top, ref))
        for what, passed, detail in checks:
            print(f"{tag} {'PASS' if passed else 'FAIL'} scene_{s.letter}_{what}  ({detail})")
            ok &= passed
    if args.check and lid is None:
        print(f"{tag} SKIP lid_sleep  (this emulator's lid cannot be driven from the runner)")
    elif lid is not None:
        print(f"{tag} {'PASS' if lid[0] else 'FAIL'} lid_sleep  ({lid[1]})")
        ok &= lid[0]
    for what, (passed, detail) in (("stylus_drag", drag), ("box_drag", box), ("overrun_shown", overrun),
                                   ("touch_camera", camera), ("exit_to_loader", loader),
                                   ("exit_power_off", shutdown)):
        print(f"{tag} {'PASS' if passed else 'FAIL'} {what}  ({detail})")
        ok &= passed
    return ok


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--rom", required=True)
    p.add_argument("--emulator", choices=("desmume", "melonds", "both"), default="desmume")
    p.add_argument("--frames", type=int, default=DEFAULT_FRAMES, help="frames per scene")
    p.add_argument("--out", metavar="DIR", help="write scene_<letter>_<top|bottom>.png here")
    p.add_argument("--gif", metavar="FILE", help="animated GIF of the single-ragdoll drop")
    p.add_argument("--check", metavar="REFDIR", help="run the checks against these references")
    args = p.parse_args(argv)
    if not os.path.isfile(args.rom):
        p.error(f"ROM not found: {args.rom}")
    names = backends.NAMES if args.emulator == "both" else (args.emulator,)
    ok = True
    for name in names:
        ok &= run_one(name, args)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
