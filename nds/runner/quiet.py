"""Silence C libraries that print to the process's stdout/stderr.

DeSmuME prints a dozen banner lines on every init and ROM load. The runner's
stdout is a report other tools read, so the chatter is captured into a
buffer instead (kept for error messages) by redirecting file descriptors
1 and 2, which Python-level redirection cannot reach.
"""
from __future__ import annotations

import contextlib
import ctypes
import os
import sys
import tempfile
from typing import Iterator

_libc = ctypes.CDLL(None)


class Captured:
    """What the C code printed inside the `captured()` block."""
    text: str = ""


@contextlib.contextmanager
def captured() -> Iterator[Captured]:
    """Run a block with fds 1 and 2 pointing at a temporary file."""
    result = Captured()
    sys.stdout.flush()
    sys.stderr.flush()
    saved = [os.dup(1), os.dup(2)]
    with tempfile.TemporaryFile() as sink:
        try:
            os.dup2(sink.fileno(), 1)
            os.dup2(sink.fileno(), 2)
            yield result
        finally:
            _libc.fflush(None)  # C stdio buffers still aimed at the sink
            sys.stdout.flush()
            sys.stderr.flush()
            os.dup2(saved[0], 1)
            os.dup2(saved[1], 2)
            for fd in saved:
                os.close(fd)
            sink.seek(0)
            result.text = sink.read().decode("utf-8", "replace")
