"""The README starts as a newcomer needs (issue 23), and no link in it or
in docs/ points at a file that is not there (docs/ was split out of the
README, and a moved section's relative links are easy to break)."""
import glob
import os
import re
import unittest

import _path  # noqa: F401

LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")


class Readme(unittest.TestCase):
    def setUp(self):
        with open(os.path.join(_path.REPO, "README.md")) as f:
            self.lines = f.read().splitlines()

    def test_first_screen_has_what_a_picture_and_the_two_commands(self):
        first = "\n".join(self.lines[:60])
        self.assertTrue(self.lines[0].startswith("# "), "a title first")
        self.assertRegex(first, r"!\[[^\]]*\]\([^)]+\.(gif|png)\)", "a picture in the first 60 lines")
        for command in ("make run", "make test"):
            self.assertIn(command, first)
        # What they print: an excerpt of make run's table and make test's verdict.
        self.assertIn("phase                      last us", first)
        self.assertIn("passed, 0 failed", first)

    def test_relative_links_resolve(self):
        files = [os.path.join(_path.REPO, "README.md"), os.path.join(_path.REPO, "CHANGELOG.md")]
        files += glob.glob(os.path.join(_path.REPO, "docs", "*.md"))
        broken = []
        for path in files:
            with open(path) as f:
                text = f.read()
            for url in LINK.findall(text):
                if re.match(r"^(https?:|mailto:|#)", url):
                    continue
                target = os.path.normpath(os.path.join(os.path.dirname(path), url.split("#")[0]))
                if not os.path.exists(target):
                    broken.append(f"{os.path.relpath(path, _path.REPO)}: {url}")
        self.assertEqual(broken, [])


if __name__ == "__main__":
    unittest.main()
