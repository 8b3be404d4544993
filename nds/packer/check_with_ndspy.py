#!/usr/bin/env python3
"""Independent check of a .nds ROM with ndspy (PyPI), outside the Rust code.

usage: check_with_ndspy.py ROM [--arm9-elf ARM9.elf --arm7-elf ARM7.elf]

ndspy parses the ROM; this script recomputes the header CRC itself and
checks the ARM9/ARM7 offsets, entry points, RAM addresses, sizes and bytes
against values read from the ELF files (its own ELF reader, by load
address) or, without ELFs, against the raw header. Exits 1 with a message
on the first disagreement, prints one summary line on success.
"""
import argparse
import struct
import sys

try:
    import ndspy.rom
except ImportError:
    sys.exit("check_with_ndspy: ndspy is not installed (run: bash nds/runner/setup.sh venv)")

LOGO_CRC = 0xCF56
SECURE_AREA = (0x4000, 0x8000)


def crc16_modbus(data):
    crc = 0xFFFF
    for byte in data:
        crc ^= byte
        for _ in range(8):
            crc = (crc >> 1) ^ 0xA001 if crc & 1 else crc >> 1
    return crc


class Mismatch(Exception):
    pass


def elf_image(path):
    """(ram_addr, entry, flat image padded to 4) from PT_LOAD segments by p_paddr."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:4] != b"\x7fELF":
        raise Mismatch(f"{path}: not an ELF file (bad magic)")
    if data[4] != 1 or data[5] != 1:
        raise Mismatch(f"{path}: not a 32-bit little-endian ELF")
    entry, phoff = struct.unpack_from("<II", data, 0x18)
    phentsize, phnum = struct.unpack_from("<HH", data, 0x2A)
    segs = []
    for i in range(phnum):
        p_type, off, _vaddr, paddr, filesz, _memsz = struct.unpack_from(
            "<6I", data, phoff + i * phentsize)
        if p_type == 1 and filesz > 0:
            segs.append((paddr, data[off:off + filesz]))
    if not segs:
        raise Mismatch(f"{path}: no loadable segment")
    base = min(p for p, _ in segs)
    end = max(p + len(b) for p, b in segs)
    image = bytearray(((end - base) + 3) & ~3)
    for paddr, b in segs:
        image[paddr - base:paddr - base + len(b)] = b
    return base, entry, bytes(image)


def check(rom_path, arm9_elf=None, arm7_elf=None):
    with open(rom_path, "rb") as f:
        raw = f.read()
    if len(raw) < 0x200:
        raise Mismatch(f"file is {len(raw)} bytes, shorter than a header")
    rom = ndspy.rom.NintendoDSRom(raw)

    stored = struct.unpack_from("<H", raw, 0x15E)[0]
    computed = crc16_modbus(raw[:0x15E])
    if stored != computed:
        raise Mismatch(f"header CRC at 0x15E is {stored:#06x}, computed {computed:#06x}")
    logo_stored = struct.unpack_from("<H", raw, 0x15C)[0]
    if crc16_modbus(bytes(rom.nintendoLogo)) != LOGO_CRC or logo_stored != LOGO_CRC:
        raise Mismatch(f"Nintendo logo or its CRC is wrong (stored {logo_stored:#06x})")
    header_size = struct.unpack_from("<I", raw, 0x84)[0]
    if header_size != 0x4000:
        raise Mismatch(f"header size at 0x84 is {header_size:#x}, expected 0x4000")

    used = struct.unpack_from("<I", raw, 0x80)[0]
    if used > len(raw):
        raise Mismatch(f"used ROM size {used:#x} is larger than the file ({len(raw):#x})")

    cpus = {}
    for name, at, ndspy_bin, ndspy_entry, ndspy_ram, elf in (
        ("arm9", 0x20, rom.arm9, rom.arm9EntryAddress, rom.arm9RamAddress, arm9_elf),
        ("arm7", 0x30, rom.arm7, rom.arm7EntryAddress, rom.arm7RamAddress, arm7_elf),
    ):
        offset, entry, ram, size = struct.unpack_from("<4I", raw, at)
        if offset + size > len(raw):
            raise Mismatch(f"{name} {offset:#x}+{size:#x} runs past the end of the file")
        # ndspy's view must agree with the raw header words...
        got = (ndspy_entry, ndspy_ram, len(ndspy_bin))
        if got != (entry, ram, size):
            raise Mismatch(f"{name}: ndspy reads entry/ram/size {got}, header has "
                           f"{(entry, ram, size)}")
        # ...and, when given, with the ELF file.
        if elf:
            want_ram, want_entry, image = elf_image(elf)
            for field, have, want in (("RAM address", ram, want_ram),
                                      ("entry", entry, want_entry),
                                      ("size", size, len(image))):
                if have != want:
                    raise Mismatch(f"{name} {field} is {have:#x} in the ROM, "
                                   f"{want:#x} from {elf}")
            if bytes(ndspy_bin) != image:
                diff = next(i for i in range(len(image)) if ndspy_bin[i] != image[i])
                raise Mismatch(f"{name} bytes differ from {elf} at image offset {diff:#x}")
        cpus[name] = (offset, size, ram, entry)

    a9_off, a9_size = cpus["arm9"][:2]
    if a9_off < SECURE_AREA[1] and a9_off + a9_size > SECURE_AREA[0]:
        raise Mismatch(f"arm9 at ROM {a9_off:#x}..{a9_off + a9_size:#x} is inside the "
                       f"secure area 0x4000..0x8000 (melonDS corrupts it)")
    for name, (off, size, _, _) in cpus.items():
        if off < header_size:
            raise Mismatch(f"{name} at {off:#x} overlaps the header")
    (o9, s9, _, _), (o7, s7, _, _) = cpus["arm9"], cpus["arm7"]
    if o9 < o7 + s7 and o7 < o9 + s9:
        raise Mismatch("arm9 and arm7 overlap in the ROM")

    banner = check_banner(raw, rom)

    title = bytes(rom.name).decode("ascii", "replace")
    parts = [f"{name} rom {o:#x}+{s:#x} ram {r:#010x} entry {e:#010x}"
             for name, (o, s, r, e) in cpus.items()]
    source = "ELF files" if arm9_elf or arm7_elf else "header"
    return (f"ndspy OK: {rom_path}: {title!r} {bytes(rom.idCode).decode('ascii', 'replace')}, "
            f"{'; '.join(parts)}; header CRC {computed:#06x}; {banner}; agrees with {source}")


def check_banner(raw, rom):
    """The icon/title block at header 0x68: ndspy's copy equals the bytes
    there, its version is 1 or more, its CRC-16 (0x20..0x840) is right,
    and its English title is readable. Returns a summary."""
    (offset,) = struct.unpack_from("<I", raw, 0x68)
    if offset == 0:
        return "no icon/title"
    block = raw[offset:offset + 0x840]
    if len(block) < 0x840:
        raise Mismatch(f"icon/title at {offset:#x} runs past the end of the file")
    if bytes(rom.iconBanner[:0x840]) != block:
        raise Mismatch("ndspy's icon/title bytes differ from the block at header 0x68")
    version, stored = struct.unpack_from("<HH", block, 0)
    if version < 1:
        raise Mismatch(f"icon/title version {version}")
    crc = crc16_modbus(block[0x20:0x840])
    if crc != stored:
        raise Mismatch(f"icon/title CRC {stored:#06x}, recomputed {crc:#06x}")
    english = block[0x340:0x440].decode("utf-16-le").split("\0")[0]
    if not english.strip():
        raise Mismatch("icon/title: the English title is empty")
    return f"icon/title at {offset:#x}, CRC {crc:#06x}, {english.splitlines()[0]!r}"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("rom")
    ap.add_argument("--arm9-elf")
    ap.add_argument("--arm7-elf")
    args = ap.parse_args()
    try:
        print(check(args.rom, args.arm9_elf, args.arm7_elf))
    except (Mismatch, OSError) as e:
        sys.exit(f"check_with_ndspy: {args.rom}: {e}")
    except Exception as e:  # ndspy's own asserts on a malformed ROM
        sys.exit(f"check_with_ndspy: {args.rom}: ndspy could not parse it: {e!r}")


if __name__ == "__main__":
    main()
