"""console_text reads back what the ROM's font draws, and scenes.py's
frame-bar check tells a red bar from a green one (synthetic screens, no
emulator)."""
import unittest

from PIL import Image, ImageDraw

import _path  # noqa: F401
import console_text
import scenes

BG = scenes.CONSOLE_BG
FG = (230, 230, 230)


def draw_text(img, row, text, font):
    """Draws `text` as the ROM does: glyph bits from font.rs, 6x11 cells."""
    bitmaps = {ch: rows for rows, ch in font.items()}
    for col, ch in enumerate(text):
        for dy, bits in enumerate(bitmaps[ch]):
            for dx in range(console_text.GLYPH_W):
                if bits & (1 << dx):
                    img.putpixel((col * 6 + dx, row * 11 + dy), FG)


class ConsoleText(unittest.TestCase):
    def test_reads_back_drawn_text(self):
        font = console_text.load_font()
        img = Image.new("RGB", (256, 192), BG)
        draw_text(img, 16, "us of 16715  overruns 42", font)
        row = console_text.read_row(img, 16, BG, font)
        self.assertTrue(row.startswith("us of 16715  overruns 42"), row)
        self.assertEqual(console_text.read_row(img, 3, BG, font).strip(), "")

    def test_font_has_every_printable_character(self):
        self.assertEqual(len(set(console_text.load_font().values())), 95)


class FrameBar(unittest.TestCase):
    def bar(self, color):
        img = Image.new("RGB", (256, 192), BG)
        x0, y0, _, y1 = scenes.FRAME_BAR
        ImageDraw.Draw(img).rectangle((x0, y0, x0 + 50, y1 - 1), fill=color)
        return img

    def test_red_bar_counts_green_does_not(self):
        self.assertGreater(scenes.frame_bar_red(self.bar((230, 40, 40))), 0)
        self.assertEqual(scenes.frame_bar_red(self.bar((60, 200, 90))), 0)


if __name__ == "__main__":
    unittest.main()
