"""Put nds/runner and this folder on sys.path, as run.py does for itself."""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
RUNNER = os.path.dirname(HERE)
REPO = os.path.dirname(os.path.dirname(RUNNER))
for p in (RUNNER, HERE):
    if p not in sys.path:
        sys.path.insert(0, p)
