"""The panic-screen check: passes on a red screen with text, fails otherwise."""
import unittest

from PIL import Image, ImageDraw

import _path  # noqa: F401
import screens


def both_screens(color, text=True):
    img = Image.new("RGB", (256, 384), color)
    if text:
        draw = ImageDraw.Draw(img)
        for y in (10, 202):
            draw.rectangle((0, y, 200, y + 10), fill=(255, 255, 255))
    return img


class PanicScreen(unittest.TestCase):
    def test_red_screens_with_text_pass(self):
        ok, detail = screens.panic_screen_shown(both_screens((165, 0, 0)))
        self.assertTrue(ok, detail)

    def test_a_normal_screen_fails(self):
        ok, _ = screens.panic_screen_shown(both_screens((16, 16, 32)))
        self.assertFalse(ok)

    def test_red_without_text_fails(self):
        ok, _ = screens.panic_screen_shown(both_screens((165, 0, 0), text=False))
        self.assertFalse(ok)

    def test_no_screenshot_fails(self):
        self.assertEqual(screens.panic_screen_shown(None), (False, "no screenshot"))


if __name__ == "__main__":
    unittest.main()
