"""melonDS backend: drives nds/runner/melonds/harness.mjs (RetroArch 1.21.0 +
the melonDS 0.9.3 libretro core, compiled to WebAssembly, run headless in
Node.js) over its line-based JSON protocol on stdin/stdout.

Set up once with `make melonds` (nds/runner/melonds/setup.sh). What the
harness can and cannot do, and every edit it needs in the unpacked core, is
described at the top of harness.mjs and in nds/runner/melonds/README.md.

Every command has a timeout; a harness that dies or hangs is killed and
reported as EmulatorError with the tail of its stderr, never a hang.
"""
from __future__ import annotations

import base64
import collections
import json
import os
import queue
import shutil
import subprocess
import threading
import time

from emulator import KEYS, Emulator, EmulatorError

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
HARNESS = os.path.join(HERE, "melonds", "harness.mjs")
DEFAULT_CORE_DIR = os.path.join(ROOT, ".tools", "melonds", "core")
VERSION = "melonDS 0.9.3 (libretro core, RetroArch 1.21.0 wasm, @emulatorjs/core-melonds 4.2.3)"
SETUP_HINT = "run `make melonds` (nds/runner/melonds/setup.sh)"

MAIN_RAM_START, MAIN_RAM_END = 0x02000000, 0x03000000


class MelondsEmulator(Emulator):
    name = "melonds"

    def __init__(self, *, node: str | None = None, core_dir: str | None = None,
                 boot_timeout: float = 60.0, command_timeout: float = 30.0,
                 frame_timeout: float = 0.25):
        """`command_timeout` bounds every command; a step of n frames gets
        `command_timeout + n * frame_timeout` seconds."""
        self._node = node
        self._core_dir = core_dir or os.environ.get("MELONDS_CORE_DIR") or DEFAULT_CORE_DIR
        self.boot_timeout = boot_timeout
        self.command_timeout = command_timeout
        self.frame_timeout = frame_timeout
        self._proc: subprocess.Popen | None = None
        self._lines: queue.Queue = queue.Queue()
        self._stderr: collections.deque = collections.deque(maxlen=60)
        self.rom_path: str | None = None
        self.ram_base: int | None = None  # where DS main RAM sits in the wasm heap
        self.frames = 0

    # ------------------------------------------------------------ plumbing
    def _check_setup(self) -> str:
        node = self._node or shutil.which("node")
        if not node:
            raise EmulatorError(f"melonDS needs Node.js (node not found on PATH): install Node 20, then {SETUP_HINT}")
        for f in ("melonds_libretro.js", "melonds_libretro.wasm"):
            if not os.path.isfile(os.path.join(self._core_dir, f)):
                raise EmulatorError(f"melonDS is not set up ({os.path.join(self._core_dir, f)} missing): {SETUP_HINT}")
        if not os.path.isfile(HARNESS):
            raise EmulatorError(f"{HARNESS} missing")
        return node

    def _stderr_tail(self, n: int = 25) -> str:
        lines = list(self._stderr)[-n:]
        return "\n".join(lines) if lines else "(no stderr)"

    def _pump_stdout(self, stream, q):
        for line in iter(stream.readline, b""):
            q.put(line)
        q.put(None)  # EOF

    def _pump_stderr(self, stream):
        for line in iter(stream.readline, b""):
            self._stderr.append(line.decode("utf-8", "replace").rstrip("\n"))

    def _kill(self) -> None:
        p, self._proc = self._proc, None
        if p is None:
            return
        if p.poll() is None:
            p.kill()
        try:
            p.wait(timeout=5)
        except subprocess.TimeoutExpired:
            pass
        for s in (p.stdin, p.stdout, p.stderr):
            try:
                s.close()
            except Exception:
                pass

    def _fail(self, what: str, exiting: bool = False) -> EmulatorError:
        p = self._proc
        if p is not None and exiting:
            try:
                p.wait(timeout=2)  # it said goodbye (fatal reply or EOF): collect the exit code
            except subprocess.TimeoutExpired:
                pass
        code = p.poll() if p else None
        self._kill()
        time.sleep(0.05)  # let the stderr pump catch the last lines
        status = f"exit code {code}" if code is not None else "killed"
        return EmulatorError(f"melonDS harness {what} ({status}); stderr tail:\n{self._stderr_tail()}")

    def _receive(self, timeout: float, what: str) -> dict:
        try:
            line = self._lines.get(timeout=timeout)
        except queue.Empty:
            raise self._fail(f"timed out after {timeout:.1f} s waiting for {what}") from None
        if line is None:
            # The harness prints a fatal reply before exiting when it can.
            raise self._fail(f"exited while waiting for {what}", exiting=True)
        try:
            msg = json.loads(line)
        except ValueError:
            raise self._fail(f"sent a non-JSON line while waiting for {what}: {line[:200]!r}") from None
        if msg.get("fatal"):
            err = msg.get("error", "?")
            raise self._fail(f"failed: {err}", exiting=True)
        return msg

    def _call(self, cmd: str, timeout: float | None = None, **args) -> dict:
        if self._proc is None:
            raise EmulatorError("melonDS: no ROM open (call open() first, or the harness died earlier)")
        req = json.dumps({"cmd": cmd, **args}) + "\n"
        try:
            self._proc.stdin.write(req.encode())
            self._proc.stdin.flush()
        except (BrokenPipeError, OSError):
            raise self._fail(f"is gone (writing {cmd})") from None
        msg = self._receive(self.command_timeout if timeout is None else timeout, f"the reply to {cmd}")
        if not msg.get("ok"):
            raise EmulatorError(f"melonDS {cmd}: {msg.get('error', msg)}")
        return msg

    # ------------------------------------------------------------ interface
    def version(self) -> str:
        return VERSION

    def open(self, rom_path: str) -> None:
        if self._proc is not None:
            self.close()
        node = self._check_setup()
        if not os.path.isfile(rom_path):
            raise EmulatorError(f"ROM not found: {rom_path}")
        env = dict(os.environ, MELONDS_CORE_DIR=self._core_dir)
        self._lines = queue.Queue()
        self._stderr.clear()
        try:
            self._proc = subprocess.Popen([node, HARNESS, os.path.abspath(rom_path)],
                                          stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                          stderr=subprocess.PIPE, env=env, cwd=HERE)
        except OSError as e:
            raise EmulatorError(f"could not start {node}: {e}; {SETUP_HINT}") from None
        threading.Thread(target=self._pump_stdout, args=(self._proc.stdout, self._lines), daemon=True).start()
        threading.Thread(target=self._pump_stderr, args=(self._proc.stderr,), daemon=True).start()
        msg = self._receive(self.boot_timeout, "boot")
        if not msg.get("ready"):
            raise self._fail(f"sent {msg!r} instead of its ready line")
        self.rom_path = rom_path
        self.ram_base = msg.get("ram_base")
        self.frames = 0

    def step(self, frames: int = 1) -> None:
        """Run exactly `frames` frames (default one)."""
        if frames < 0:
            raise ValueError("frames must be >= 0")
        msg = self._call("step", timeout=self.command_timeout + frames * self.frame_timeout, frames=frames)
        self.frames = msg["frame"]

    def read(self, address: int, length: int) -> bytes:
        if not (MAIN_RAM_START <= address and address + length <= MAIN_RAM_END):
            raise EmulatorError(f"melonDS backend reads main RAM only (0x02000000-0x02FFFFFF), "
                                f"not 0x{address:08X}+{length}")
        if length == 0:
            return b""
        msg = self._call("read", addr=address, len=length, enc="base64")
        data = base64.b64decode(msg["base64"])
        if len(data) != length:
            raise EmulatorError(f"melonDS read returned {len(data)} bytes, wanted {length}")
        return data

    def write_u32(self, address: int, value: int) -> None:
        self._call("write32", addr=address, value=value & 0xFFFFFFFF)

    def set_keys(self, keys: set[str]) -> None:
        names = {k.upper() for k in keys}
        unknown = names - set(KEYS)
        if unknown:
            raise EmulatorError(f"unknown key(s) {sorted(unknown)}; known: {' '.join(KEYS)}")
        self._call("keys", keys=sorted(names))

    def touch(self, x: int | None, y: int | None) -> None:
        if x is None or y is None:
            self._call("touch", x=None, y=None)
        else:
            self._call("touch", x=int(x), y=int(y))

    def screenshot(self):
        try:
            from PIL import Image
        except ImportError:
            raise EmulatorError("screenshot needs Pillow (in .venv: nds/runner/setup.sh venv)") from None
        msg = self._call("screenshot")
        return Image.frombytes("RGB", (msg["width"], msg["height"]), base64.b64decode(msg["rgb"]))

    def arm9_pc(self) -> int | None:
        return self._call("pc").get("pc")

    def close(self) -> None:
        p = self._proc
        if p is None:
            return
        try:
            if p.poll() is None:
                p.stdin.write(b'{"cmd":"quit"}\n')
                p.stdin.flush()
                p.wait(timeout=5)
        except (OSError, subprocess.TimeoutExpired):
            pass
        self._kill()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        try:
            self._kill()
        except Exception:
            pass
