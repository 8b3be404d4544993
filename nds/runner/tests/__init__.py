"""Runner tests (plain unittest). Either of these works:
    .venv/bin/python -m unittest discover -s nds/runner/tests -t nds/runner
    .venv/bin/python -m unittest discover -s nds/runner/tests
Importing the package puts nds/runner and this folder on sys.path.
"""
import os
import sys

_here = os.path.dirname(os.path.abspath(__file__))
for _p in (os.path.dirname(_here), _here):
    if _p not in sys.path:
        sys.path.insert(0, _p)
