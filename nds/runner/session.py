"""One headless run of a ROM on one emulator: boot check, scripted input,
frame loop with a hard limit, then the whole mailbox read back.

Independent of the output mode: the caller decides what to print from the
RunResult, so test, profile and bench runs share the same loop.
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field

import mailbox
from emulator import Emulator, EmulatorError
from scripts import KeyEvent, TouchEvent

DEFAULT_FRAMES = 600
DEFAULT_BOOT_FRAMES = 60
DEFAULT_SETTLE_FRAMES = 10


@dataclass
class RunOptions:
    frames: int = DEFAULT_FRAMES          # hard limit, boot included
    boot_frames: int = DEFAULT_BOOT_FRAMES
    until_done: bool | None = None        # None: stop at Done for test/bench ROMs only
    keys: list[KeyEvent] = field(default_factory=list)
    touches: list[TouchEvent] = field(default_factory=list)
    host_commands: dict[int, int] = field(default_factory=dict)
    screenshot_dir: str | None = None
    screenshot_every: int | None = None   # also save every Nth frame
    screenshot_prefix: str = ""
    settle_frames: int = DEFAULT_SETTLE_FRAMES  # frames run after Done/Panicked, so the
                                                # last screenshot shows the final screen


@dataclass
class RunResult:
    emulator: str
    version: str = "?"
    frames_run: int = 0
    started: bool = False
    boot_frame: int | None = None         # frame after which the magic was seen
    stop_reason: str = "frame limit"      # done | panicked | frame limit | error
    error: str | None = None
    arm9_pc: int | None = None
    cpu_state: str | None = None          # backend's extra registers, for crash reports
    mailbox: mailbox.Mailbox | None = None
    screenshot: object | None = None      # PIL image of the last frame
    frame_files: list[str] = field(default_factory=list)

    @property
    def state(self) -> int | None:
        return self.mailbox.header.state if self.mailbox else None


def format_pc(pc: int | None) -> str:
    return "unknown" if pc is None else f"0x{pc:08X}"


def _stop_at_done(opts: RunOptions, rom_kind: int) -> bool:
    if opts.until_done is not None:
        return opts.until_done
    return rom_kind in (mailbox.KIND_TEST, mailbox.KIND_BENCH, mailbox.KIND_PANIC_TEST)


def _save_frame(emu: Emulator, opts: RunOptions, frame: int, result: RunResult) -> None:
    path = os.path.join(opts.screenshot_dir or ".", "frames",
                        f"{opts.screenshot_prefix}frame{frame:05d}.png")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    emu.screenshot().save(path)
    result.frame_files.append(path)


def run(emu: Emulator, rom: str, opts: RunOptions) -> RunResult:
    """Run `rom` for at most opts.frames frames; never raises EmulatorError."""
    result = RunResult(emulator=emu.name)
    try:
        result.version = emu.version()
        emu.open(rom)
        _loop(emu, opts, result)
    except (EmulatorError, mailbox.MailboxError) as e:
        result.error, result.stop_reason = str(e), "error"
    try:
        result.arm9_pc = emu.arm9_pc()
        result.cpu_state = emu.cpu_state()
        if result.started and result.mailbox is None:
            result.mailbox = mailbox.read(emu.read)
        result.screenshot = emu.screenshot()
    except (EmulatorError, mailbox.MailboxError) as e:
        result.error = result.error or str(e)
    return result


def _loop(emu: Emulator, opts: RunOptions, result: RunResult) -> None:
    keys, touches = list(opts.keys), list(opts.touches)
    stop_at_done = False
    for frame in range(opts.frames):
        while keys and keys[0].frame <= frame:
            emu.set_keys(set(keys.pop(0).keys))
        while touches and touches[0].frame <= frame:
            pos = touches.pop(0).pos
            emu.touch(*(pos if pos else (None, None)))
        emu.step()
        result.frames_run = frame + 1
        if opts.screenshot_every and result.frames_run % opts.screenshot_every == 0:
            _save_frame(emu, opts, result.frames_run, result)

        if not result.started:
            header = mailbox.read_header(emu.read)
            if header.magic != mailbox.MAGIC:
                if result.frames_run >= opts.boot_frames:
                    result.stop_reason = "error"
                    result.error = f"ROM did not start (ARM9 PC={format_pc(emu.arm9_pc())})"
                    return
                continue
            mailbox.check(header)  # a layout mismatch ends the run here
            result.started, result.boot_frame = True, result.frames_run
            stop_at_done = _stop_at_done(opts, header.rom_kind)
            for index, value in sorted(opts.host_commands.items()):
                emu.write_u32(mailbox.BASE_ADDRESS + mailbox.OFFSET_HOST_COMMAND + 4 * index, value)

        state = emu.read_u32(mailbox.BASE_ADDRESS + mailbox.OFFSET_STATE)
        if state == mailbox.STATE_PANICKED:
            result.stop_reason = "panicked"
        elif state == mailbox.STATE_DONE and stop_at_done:
            result.stop_reason = "done"
        else:
            continue
        _settle(emu, opts, result)
        return


def _settle(emu: Emulator, opts: RunOptions, result: RunResult) -> None:
    """A few more frames (within the hard limit) so the ROM's final screen is drawn."""
    for _ in range(min(opts.settle_frames, opts.frames - result.frames_run)):
        emu.step()
        result.frames_run += 1
        if opts.screenshot_every and result.frames_run % opts.screenshot_every == 0:
            _save_frame(emu, opts, result.frames_run, result)
