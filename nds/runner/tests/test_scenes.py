"""The scene checks of scenes.py on synthetic screens (no emulator): the
reference comparison and its tolerance, a missing reference written out
and failing, geometry in the middle of the top screen, and the profiler
on the bottom screen."""
import os
import tempfile
import unittest

from PIL import Image, ImageDraw

import _path  # noqa: F401
import scenes


def top_screen(box=True, shift=0):
    img = Image.new("RGB", (256, 192), scenes.SKY)
    if box:
        ImageDraw.Draw(img).rectangle((50 + shift, 40, 200 + shift, 160), fill=(110, 150, 110))
    return img


def bottom_screen(bars=True):
    img = Image.new("RGB", (256, 192), (16, 16, 32))
    if bars:
        d = ImageDraw.Draw(img)
        for row in range(6, 17):
            y = row * 11
            d.rectangle((120, y + 2, 150, y + 8), fill=(60, 200, 90))
            d.rectangle((248, y, 249, y + 10), fill=(250, 200, 0))
    return img


class Reference(unittest.TestCase):
    def test_missing_reference_is_written_and_fails(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "desmume", "scene_a.png")
            ok, detail = scenes.check_reference(top_screen(), path)
            self.assertFalse(ok)
            self.assertIn("wrote", detail)
            self.assertTrue(os.path.isfile(path))
            ok, _ = scenes.check_reference(top_screen(), path)
            self.assertTrue(ok)

    def test_small_differences_pass_large_fail(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "ref.png")
            top_screen().save(path)
            self.assertTrue(scenes.check_reference(top_screen(shift=1), path)[0])
            self.assertFalse(scenes.check_reference(top_screen(shift=30), path)[0])
            self.assertFalse(scenes.check_reference(top_screen(box=False), path)[0])

    def test_differing_share_counts_pixels_over_the_tolerance(self):
        a = Image.new("RGB", (10, 10), (0, 0, 0))
        b = a.copy()
        b.putpixel((0, 0), (scenes.PIXEL_TOLERANCE + 1, 0, 0))
        b.putpixel((1, 0), (scenes.PIXEL_TOLERANCE, 0, 0))
        self.assertAlmostEqual(scenes.differing_share(a, b), 0.01)


class Screens(unittest.TestCase):
    def test_geometry_in_the_middle(self):
        self.assertGreater(scenes.geometry_share(top_screen()), 0.5)
        self.assertEqual(scenes.geometry_share(top_screen(box=False)), 0.0)

    def test_profiler_shown(self):
        self.assertTrue(scenes.profiler_shown(bottom_screen())[0])
        self.assertFalse(scenes.profiler_shown(bottom_screen(bars=False))[0])


if __name__ == "__main__":
    unittest.main()
