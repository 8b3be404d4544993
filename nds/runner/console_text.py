"""Reads the text the demo ROM draws on its bottom screen, from a
screenshot: the ROM's console is a grid of 6x11 glyphs from
nds/arm9/src/font.rs, so each cell is matched against that font's
bitmaps (the one the ROM draws with, parsed from its source).
"""
from __future__ import annotations

import os
import re

FONT_RS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "arm9", "src", "font.rs")
GLYPH_W, GLYPH_H = 6, 11
FIRST_CHAR = 32


def load_font(path: str = FONT_RS) -> dict[tuple[int, ...], str]:
    """Glyph bitmaps (one int per row, bit x lit) to their characters."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    body = text[text.index("GLYPHS"):]
    glyphs = re.findall(r"\[\s*((?:0x[0-9a-fA-F]{2},\s*){%d})\]" % GLYPH_H, body)
    if len(glyphs) != 95:
        raise ValueError(f"{path}: expected 95 glyphs, found {len(glyphs)}")
    font = {}
    for i, g in enumerate(glyphs):
        rows = tuple(int(v, 16) for v in re.findall(r"0x[0-9a-fA-F]{2}", g))
        font.setdefault(rows, chr(FIRST_CHAR + i))
    return font


def read_row(screen, row: int, background: tuple[int, int, int], font=None) -> str:
    """The characters of text row `row` of `screen` (a PIL image of one
    screen); a pixel is lit where it differs from `background`; a cell
    that matches no glyph reads as '?'."""
    font = font or load_font()
    rgb = screen.convert("RGB")
    out = []
    for col in range(rgb.width // GLYPH_W):
        bits = []
        for dy in range(GLYPH_H):
            v = 0
            for dx in range(GLYPH_W):
                p = rgb.getpixel((col * GLYPH_W + dx, row * GLYPH_H + dy))
                if max(abs(p[c] - background[c]) for c in range(3)) > 24:
                    v |= 1 << dx
            bits.append(v)
        out.append(font.get(tuple(bits), "?"))
    return "".join(out)
