"""Parse the CLI's scripted input: key presses, touches and host commands.

Scripts are keyed by emulator frame (0 = the first frame after the ROM is
opened), so a run with the same script is repeatable on every backend.
"""
from __future__ import annotations

from dataclasses import dataclass

from emulator import KEYS

TOUCH_WIDTH, TOUCH_HEIGHT = 256, 192


class ScriptError(ValueError):
    """A script argument that does not parse; the message quotes the bad part."""


@dataclass(frozen=True)
class KeyEvent:
    frame: int
    keys: frozenset[str]  # held from this frame on; empty = release all


@dataclass(frozen=True)
class TouchEvent:
    frame: int
    pos: tuple[int, int] | None  # None = release the pen


def _frame(text: str, item: str) -> int:
    try:
        frame = int(text.strip(), 0)
    except ValueError:
        raise ScriptError(f"bad frame number {text.strip()!r} in {item!r}") from None
    if frame < 0:
        raise ScriptError(f"negative frame in {item!r}")
    return frame


def _split(item: str) -> tuple[str, str]:
    if ":" not in item:
        raise ScriptError(f"expected FRAME:..., got {item!r}")
    frame, rest = item.split(":", 1)
    return frame, rest.strip()


def parse_press(script: str) -> list[KeyEvent]:
    """`"FRAME:KEY+KEY,FRAME:-"`: from FRAME on hold exactly these keys ("-" = none)."""
    events = []
    for item in filter(None, (s.strip() for s in script.split(","))):
        frame_text, rest = _split(item)
        if rest in ("-", ""):
            keys: frozenset[str] = frozenset()
        else:
            names = [k.strip().upper() for k in rest.split("+")]
            bad = [k for k in names if k not in KEYS]
            if bad:
                raise ScriptError(f"unknown key {bad[0]!r} in {item!r}; keys are {', '.join(KEYS)}")
            keys = frozenset(names)
        events.append(KeyEvent(_frame(frame_text, item), keys))
    return sorted(events, key=lambda e: e.frame)


def parse_touch(script: str) -> list[TouchEvent]:
    """`"FRAME:X,Y;FRAME:release"`: touch the bottom screen at pixel (X, Y), or lift."""
    events = []
    for item in filter(None, (s.strip() for s in script.split(";"))):
        frame_text, rest = _split(item)
        if rest.lower() in ("release", "-", "up"):
            events.append(TouchEvent(_frame(frame_text, item), None))
            continue
        try:
            x, y = (int(v, 0) for v in rest.split(","))
        except ValueError:
            raise ScriptError(f"expected FRAME:X,Y or FRAME:release, got {item!r}") from None
        if not (0 <= x < TOUCH_WIDTH and 0 <= y < TOUCH_HEIGHT):
            raise ScriptError(f"touch ({x}, {y}) is off the {TOUCH_WIDTH}x{TOUCH_HEIGHT} screen in {item!r}")
        events.append(TouchEvent(_frame(frame_text, item), (x, y)))
    return sorted(events, key=lambda e: e.frame)


def parse_host_commands(args: list[str], words: int) -> dict[int, int]:
    """`["0=1", "3=0x10,4=2"]` -> {0: 1, 3: 16, 4: 2}: mailbox host_command words."""
    out: dict[int, int] = {}
    for arg in args:
        for item in filter(None, (s.strip() for s in arg.split(","))):
            if "=" not in item:
                raise ScriptError(f"expected INDEX=VALUE, got {item!r}")
            i_text, v_text = item.split("=", 1)
            try:
                index, value = int(i_text, 0), int(v_text, 0)
            except ValueError:
                raise ScriptError(f"expected INDEX=VALUE with integers, got {item!r}") from None
            if not 0 <= index < words:
                raise ScriptError(f"host_command index {index} out of range 0..{words - 1}")
            if not -(1 << 31) <= value < (1 << 32):
                raise ScriptError(f"host_command value {value} does not fit a 32-bit word")
            out[index] = value & 0xFFFF_FFFF
    return out
