"""Create an emulator backend by name, importing each one only when asked,
so a missing melonDS setup never breaks DeSmuME runs (and vice versa).
"""
from __future__ import annotations

import importlib

from emulator import Emulator, EmulatorError

NAMES = ("desmume", "melonds")


def create(name: str, headless: bool = True) -> Emulator:
    if name == "desmume":
        from desmume_backend import DesmumeEmulator
        return DesmumeEmulator(headless=headless)
    if name == "melonds":
        try:
            module = importlib.import_module("melonds_backend")
        except ModuleNotFoundError as e:
            if e.name == "melonds_backend":
                raise EmulatorError("melonDS backend not available "
                                    "(nds/runner/melonds_backend.py does not exist)") from e
            raise EmulatorError(f"melonDS backend cannot be imported: {e}") from e
        cls = getattr(module, "MelondsEmulator", None)
        if cls is None:
            raise EmulatorError("melonDS backend not available "
                                "(melonds_backend.py has no MelondsEmulator)")
        return cls()
    raise EmulatorError(f"unknown emulator {name!r}; choose from {', '.join(NAMES)}")
