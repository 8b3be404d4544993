"""DeSmuME backend: py-desmume (libdesmume 0.9.12) driven headless, in-process.

libdesmume keeps global state, so only one instance can live per process;
the runner runs each emulator in turn and never needs two DeSmuMEs.
"""
from __future__ import annotations

import ctypes
import os

from emulator import KEYS, Emulator, EmulatorError
from quiet import captured

INSTALL_HINT = ("run `make venv` (or `bash nds/runner/setup.sh venv`) and use .venv/bin/python; "
                "py-desmume also needs the Debian packages libgl1 libglib2.0-0 "
                "(`bash nds/runner/setup.sh apt`)")

# Which Debian package provides each shared library libdesmume.so links to.
_LIB_PACKAGES = {"libGL": "libgl1", "libEGL": "libgl1", "libGLX": "libgl1",
                 "libglib": "libglib2.0-0", "libgthread": "libglib2.0-0",
                 "libgobject": "libglib2.0-0", "libgio": "libglib2.0-0"}

_instance_alive = False

_MODES = {0x10: "user", 0x11: "FIQ", 0x12: "IRQ", 0x13: "supervisor", 0x17: "abort",
          0x1B: "undefined", 0x1F: "system"}


def _load_desmume(headless: bool):
    """Import py-desmume and create the emulator, turning failures into advice."""
    if headless:
        os.environ["SDL_VIDEODRIVER"] = "dummy"  # must precede SDL's init in DeSmuME()
        os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    try:
        from desmume.emulator import DeSmuME
    except ImportError as e:
        raise EmulatorError(f"py-desmume is not importable ({e}): {INSTALL_HINT}") from e
    try:
        with captured() as log:
            emu = DeSmuME()
    except OSError as e:
        missing = [pkg for lib, pkg in _LIB_PACKAGES.items() if lib in str(e)]
        if missing:
            raise EmulatorError(f"libdesmume cannot load ({e}): install the Debian package(s) "
                                f"{' '.join(sorted(set(missing)))} "
                                f"(`bash nds/runner/setup.sh apt`)") from e
        raise EmulatorError(f"libdesmume cannot load ({e}): {INSTALL_HINT}") from e
    except RuntimeError as e:
        raise EmulatorError(f"DeSmuME failed to initialise ({e}); its log:\n{log.text}") from e
    return emu


class DesmumeEmulator(Emulator):
    name = "desmume"

    def __init__(self, headless: bool = True) -> None:
        global _instance_alive
        if _instance_alive:
            raise EmulatorError("only one DeSmuME can run per process (libdesmume is global state)")
        self._emu = _load_desmume(headless)
        _instance_alive = True
        from desmume.controls import Keys, keymask
        self._masks = {k: keymask(getattr(Keys, f"KEY_{k}")) for k in KEYS}
        self._held: set[str] = set()
        self._lib = self._emu.lib
        self._lib.desmume_memory_read_long.restype = ctypes.c_uint32
        self.log = ""

    def version(self) -> str:
        f = getattr(self._lib, "_Z28EMU_DESMUME_NAME_AND_VERSIONv", None)
        core = "DeSmuME"
        if f is not None:
            f.restype = ctypes.c_char_p
            core = f().decode()
        try:
            from importlib.metadata import version
            return f"{core} (py-desmume {version('py-desmume')})"
        except Exception:
            return core

    def open(self, rom_path: str) -> None:
        if not os.path.isfile(rom_path):
            raise EmulatorError(f"ROM not found: {rom_path}")
        try:
            with captured() as log:
                self._emu.open(os.path.abspath(rom_path))
        except RuntimeError as e:
            raise EmulatorError(f"DeSmuME could not open {rom_path}; its log:\n{log.text}") from e
        self.log = log.text
        self._held = set()

    def step(self) -> None:
        self._emu.cycle(False)  # False: no joystick polling

    def read(self, address: int, length: int) -> bytes:
        """Whole words where possible: one ctypes call per 4 bytes, not per byte."""
        read_long = self._lib.desmume_memory_read_long
        read_byte = self._lib.desmume_memory_read_byte
        out = bytearray()
        addr, end = address, address + length
        while addr < end and addr % 4:
            out.append(read_byte(addr) & 0xFF)
            addr += 1
        while addr + 4 <= end:
            out += read_long(addr).to_bytes(4, "little")
            addr += 4
        while addr < end:
            out.append(read_byte(addr) & 0xFF)
            addr += 1
        return bytes(out)

    def write_u32(self, address: int, value: int) -> None:
        self._emu.memory.write_long(address, value & 0xFFFF_FFFF)

    def set_keys(self, keys: set[str]) -> None:
        unknown = set(keys) - set(KEYS)
        if unknown:
            raise EmulatorError(f"unknown key(s) {sorted(unknown)}; keys are {', '.join(KEYS)}")
        for k in self._held - keys:
            self._emu.input.keypad_rm_key(self._masks[k])
        for k in keys - self._held:
            self._emu.input.keypad_add_key(self._masks[k])
        self._held = set(keys)

    def toggle_lid(self) -> None:
        """Closes an open lid or opens a closed one: DeSmuME's lid key is a
        toggle, taken when pressed and then ignored for 30 frames."""
        from desmume.controls import Keys, keymask
        self._emu.input.keypad_add_key(keymask(Keys.KEY_LID))
        self.step()
        self.step()
        self._emu.input.keypad_rm_key(keymask(Keys.KEY_LID))

    def touch(self, x: int | None, y: int | None) -> None:
        if x is None or y is None:
            self._emu.input.touch_release()
        else:
            self._emu.input.touch_set_pos(int(x), int(y))

    def screenshot(self):
        return self._emu.screenshot()

    def arm9_pc(self) -> int | None:
        """The address of the instruction executing, not raw r15 (which runs
        8 bytes ahead in ARM state and 4 in Thumb because of the pipeline)."""
        regs = self._emu.memory.register_arm9
        r15, cpsr = regs.pc & 0xFFFF_FFFF, regs.cpsr
        return (r15 - (4 if cpsr & 0x20 else 8)) & 0xFFFF_FFFF

    def cpu_state(self) -> str | None:
        regs = self._emu.memory.register_arm9
        cpsr = regs.cpsr & 0xFFFF_FFFF
        mode = _MODES.get(cpsr & 0x1F, f"mode {cpsr & 0x1F:#x}")
        return (f"cpsr=0x{cpsr:08X} ({mode}{', Thumb' if cpsr & 0x20 else ''}) "
                f"lr=0x{regs.lr & 0xFFFF_FFFF:08X} sp=0x{regs.sp & 0xFFFF_FFFF:08X}")

    def close(self) -> None:
        """Leaves libdesmume loaded: freeing and re-initialising it in one
        process is not supported, and the process ends soon after anyway."""
        try:
            self._emu.pause()
        except Exception:
            pass

    # Window mode (see window.py): the SDL window libdesmume itself provides.
    def sdl_window(self):
        return self._emu.create_sdl_window(auto_pause=False,
                                           use_opengl_if_possible=self._emu.has_opengl())
