"""Checks of what a screenshot shows, for tests that look at the screen."""
from __future__ import annotations

from emulator import split_screens


def panic_screen_shown(screenshot) -> tuple[bool, str]:
    """Whether both screens show the ROM's panic screen: mostly the panic
    red (160, 0, 0 in the ROM; BGR555 rounds it), with white text on it."""
    if screenshot is None:
        return False, "no screenshot"
    details = []
    ok = True
    for name, screen in zip(("top", "bottom"), split_screens(screenshot)):
        rgb = screen.convert("RGB")
        pixels = list(getattr(rgb, "get_flattened_data", rgb.getdata)())
        red = sum(1 for r, g, b in pixels if r > 120 and g < 40 and b < 40)
        white = sum(1 for r, g, b in pixels if r > 200 and g > 200 and b > 200)
        red_share = red / len(pixels)
        details.append(f"{name} {red_share:.0%} red, {white} text px")
        if red_share < 0.6 or white < 100:
            ok = False
    return ok, ", ".join(details)
