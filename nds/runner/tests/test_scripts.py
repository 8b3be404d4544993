"""Key, touch and host-command script parsing."""
import unittest

import _path  # noqa: F401
from scripts import (KeyEvent, ScriptError, TouchEvent, parse_host_commands, parse_press,
                     parse_touch)


class Press(unittest.TestCase):
    def test_keys_and_release(self):
        self.assertEqual(parse_press("10:A+right, 30:-, 20:start"), [
            KeyEvent(10, frozenset({"A", "RIGHT"})),
            KeyEvent(20, frozenset({"START"})),
            KeyEvent(30, frozenset()),
        ])

    def test_empty(self):
        self.assertEqual(parse_press(""), [])

    def test_unknown_key(self):
        with self.assertRaisesRegex(ScriptError, "unknown key 'JUMP'"):
            parse_press("5:A+JUMP")

    def test_bad_frame(self):
        for bad in ("x:A", "A", "-3:A"):
            with self.assertRaises(ScriptError, msg=bad):
                parse_press(bad)


class Touch(unittest.TestCase):
    def test_touch_and_release(self):
        self.assertEqual(parse_touch("90:release; 60:128,96"), [
            TouchEvent(60, (128, 96)), TouchEvent(90, None)])

    def test_off_screen(self):
        with self.assertRaisesRegex(ScriptError, "off the 256x192"):
            parse_touch("1:256,10")

    def test_malformed(self):
        with self.assertRaises(ScriptError):
            parse_touch("1:12")


class HostCommands(unittest.TestCase):
    def test_values(self):
        self.assertEqual(parse_host_commands(["0=1", "3=0x10,7=-1"], 8),
                         {0: 1, 3: 16, 7: 0xFFFFFFFF})

    def test_index_range(self):
        with self.assertRaisesRegex(ScriptError, "out of range"):
            parse_host_commands(["8=1"], 8)

    def test_malformed(self):
        with self.assertRaises(ScriptError):
            parse_host_commands(["1"], 8)


if __name__ == "__main__":
    unittest.main()
