"""The ROM's power paths (issue 22), driven from outside.

The lid: close it and both CPUs stop with the backlights off until it
opens; then the ROM goes on, with the gap counted neither as idle time
nor as an overrun. Only DeSmuME's lid can be driven here (a toggle, with
30 frames of debounce); the melonDS harness has no lid.

The way out: hold L + R + START + SELECT and it goes back to the loader
through the loader's bootstub, or powers off.

No emulator here boots through a loader, so the bootstub check plants one
of its own: the protocol's signature at 0x02FF4000 and an ARM9 entry that
does what NDS Homebrew Menu's does with the ARM7 (points the ARM7's soft
reset at an entry of ours, sends libnds's reset code through the IPC FIFO,
runs the ARM9 half of the IPC-sync handshake), then marks a word and
spins. The ROM's real exit path on the ARM9 and the real handshake and
BIOS soft reset on the ARM7 run; the ARM7 entry marks another word. Both
marks prove the hand-over. The power-off check boots with no bootstub and
reads what the ARM7 recorded before telling the power manager."""

import struct

import mailbox
from emulator import Emulator

BOOTSTUB = 0x02FF4000
ARM9_ENTRY = BOOTSTUB + 0x100
ARM9_MARK = BOOTSTUB + 0x200
ARM7_MARK = BOOTSTUB + 0x204
ARM9_MARK_VALUE = 0x39414D52  # "RMA9"
ARM7_MARK_VALUE = 0x37414D52  # "RMA7"

# The fake bootstub's code at ARM9_ENTRY, assembled with
# `llvm-mc -triple=armv5te-none-eabi` from:
#
#   arm9: ldr   r0, =0x02FFFE34     @ the BIOS's ARM7 soft-reset entry
#         ldr   r1, =0x02FF4180     @ := arm7 below
#         str   r1, [r0]
#         mov   r2, #0x04000000
#         orr   r2, r2, #0x100
#         ldr   r1, =0x0C04000C     @ libnds's reset code
#         str   r1, [r2, #0x88]     @ IPCFIFOSEND
#   1:    ldrh  r1, [r2, #0x80]     @ IPCSYNC: wait for the ARM7's 1
#         and   r1, r1, #0xF
#         cmp   r1, #1
#         bne   1b
#         mov   r1, #0x100          @ answer 1
#         strh  r1, [r2, #0x80]
#   2:    ldrh  r1, [r2, #0x80]     @ wait for the ARM7's 0
#         ands  r1, r1, #0xF
#         bne   2b
#         strh  r1, [r2, #0x80]     @ answer 0
#         ldr   r0, =0x02FF4200
#         ldr   r1, =0x39414D52     @ ARM9_MARK_VALUE
#         str   r1, [r0]
#   3:    b     3b
#         .pool
#         .balign 128
#   arm7: ldr   r0, =0x02FF4204     @ (0x02FF4180) after the soft reset
#         ldr   r1, =0x37414D52     @ ARM7_MARK_VALUE
#         str   r1, [r0]
#   4:    b     4b
#         .pool
STUB_CODE = (
    0xE59F004C, 0xE59F104C, 0xE5801000, 0xE3A02301, 0xE3822C01, 0xE59F1040,
    0xE5821088, 0xE1D218B0, 0xE201100F, 0xE3510001, 0x1AFFFFFB, 0xE3A01C01,
    0xE1C218B0, 0xE1D218B0, 0xE211100F, 0x1AFFFFFC, 0xE1C218B0, 0xE59F0014,
    0xE59F1014, 0xE5801000, 0xEAFFFFFE, 0x02FFFE34, 0x02FF4180, 0x0C04000C,
    0x02FF4200, 0x39414D52, 0xE1A00000, 0xE1A00000, 0xE1A00000, 0xE1A00000,
    0xE1A00000, 0xE1A00000, 0xE59F0008, 0xE59F1008, 0xE5801000, 0xEAFFFFFE,
    0x02FF4204, 0x37414D52,
)

EXIT_KEYS = {"L", "R", "START", "SELECT"}
# The ROM leaves after 30 of its frames of the combination, and START
# takes it to scene (b), whose pyramid, reset and settling, can take two
# emulated frames per frame of the ROM's; then the ARM7 serves requests
# once a frame.
HOLD_FRAMES = 90

# The ARM7's input block (nds/arm7/src/input_block.rs): `power` is the
# u16 at offset 26; "OF" once it has taken a power-off request, "SL"
# while the console sleeps with the lid closed.
INPUT_BLOCK = 0x0231_0000
POWER_OFFSET = 26
POWERING_OFF = int.from_bytes(b"OF", "little")
SLEEPING = int.from_bytes(b"SL", "little")


def lid_sleep(emu: Emulator, boot, rom: str, overruns) -> tuple[bool, str] | None:
    """Closes the lid for 40 frames and opens it; None where the emulator
    cannot (`toggle_lid` is DeSmuME's)."""
    toggle = getattr(emu, "toggle_lid", None)
    if toggle is None:
        return None
    boot(emu, rom)
    for _ in range(30):
        emu.step()
    before = overruns(emu)
    toggle()
    frame0 = mailbox.read_header(emu.read).frame
    for _ in range(40):
        emu.step()
    asleep = struct.unpack("<H", emu.read(INPUT_BLOCK + POWER_OFFSET, 2))[0] == SLEEPING
    frozen = mailbox.read_header(emu.read).frame - frame0
    toggle()
    for _ in range(20):
        emu.step()
    resumed = mailbox.read_header(emu.read).frame - frame0 - frozen
    sleeps = next((int(b.value) for b in mailbox.read(emu.read).bench if b.key == "lid.sleeps"), 0)
    after = overruns(emu)
    ok = asleep and frozen <= 1 and resumed >= 10 and sleeps == 1 and after == before
    return ok, (f"closed: the ARM7 {'slept' if asleep else 'did NOT sleep'}, the ROM ran {frozen} "
                f"frame(s) in 40; opened: {resumed} frames in 20, lid.sleeps {sleeps}, "
                f"overruns {before} -> {after}")


def plant_bootstub(emu: Emulator) -> None:
    emu.write_u32(BOOTSTUB, int.from_bytes(b"boot", "little"))
    emu.write_u32(BOOTSTUB + 4, int.from_bytes(b"stub", "little"))
    emu.write_u32(BOOTSTUB + 8, ARM9_ENTRY)  # arm9reboot
    emu.write_u32(BOOTSTUB + 12, 0)          # arm7reboot (unused)
    emu.write_u32(BOOTSTUB + 16, 0)          # bootsize
    for k, word in enumerate(STUB_CODE):
        emu.write_u32(ARM9_ENTRY + 4 * k, word)
    emu.write_u32(ARM9_MARK, 0)
    emu.write_u32(ARM7_MARK, 0)


def exit_path(emu: Emulator) -> int:
    """The ROM's `exit.path` live value: 1 loader, 2 power off."""
    box = mailbox.read(emu.read)
    return next((int(b.value) for b in box.bench if b.key == "exit.path"), 0)


def hold_exit(emu: Emulator) -> None:
    emu.set_keys(EXIT_KEYS)
    for _ in range(HOLD_FRAMES):
        emu.step()
    emu.set_keys(set())
    for _ in range(5):
        emu.step()


def to_loader(emu: Emulator, boot, rom: str) -> tuple[bool, str]:
    boot(emu, rom)
    plant_bootstub(emu)
    hold_exit(emu)
    path = exit_path(emu)
    m9, m7 = emu.read_u32(ARM9_MARK), emu.read_u32(ARM7_MARK)
    ok = path == 1 and m9 == ARM9_MARK_VALUE and m7 == ARM7_MARK_VALUE
    return ok, (f"exit.path {path} (1: loader); the bootstub's ARM9 entry "
                f"{'ran the handshake' if m9 == ARM9_MARK_VALUE else 'did NOT finish'} "
                f"({m9:#010x}); the ARM7 {'soft-reset into the loader' if m7 == ARM7_MARK_VALUE else 'did NOT reset'} "
                f"({m7:#010x})")


def power_off(emu: Emulator, boot, rom: str) -> tuple[bool, str]:
    boot(emu, rom)
    # A loader's bootstub could survive in RAM from the last check.
    emu.write_u32(BOOTSTUB, 0)
    hold_exit(emu)
    path = exit_path(emu)
    raw = emu.read(INPUT_BLOCK + POWER_OFFSET, 2)
    power = struct.unpack("<H", raw)[0]
    ok = path == 2 and power == POWERING_OFF
    return ok, (f"exit.path {path} (2: power off); the ARM7 "
                f"{'took the request and told the power manager' if power == POWERING_OFF else 'did NOT take the request'}")
