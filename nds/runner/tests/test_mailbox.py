"""The parser against blocks built independently from LAYOUT.md."""
import os
import re
import unittest

import _path  # noqa: F401
import mailbox
import synth


class LayoutConstants(unittest.TestCase):
    def test_match_layout_md(self):
        with open(os.path.join(_path.REPO, "nds", "mailbox", "LAYOUT.md")) as f:
            doc = f.read()
        for name in ("OFFSET_PANIC", "OFFSET_PHASES", "OFFSET_TESTS", "OFFSET_BENCH", "OFFSET_TIMELINE",
                     "TOTAL_SIZE", "PHASE_RECORD", "TEST_RECORD", "BENCH_RECORD", "TIMELINE_FRAME"):
            m = re.search(rf"{name} = (0x[0-9a-fA-F]+|\d+)", doc)
            self.assertIsNotNone(m, f"LAYOUT.md does not give {name}")
            self.assertEqual(getattr(mailbox, name), int(m.group(1), 0), name)
        self.assertIn("0x02300000", doc)
        self.assertEqual(mailbox.BASE_ADDRESS, 0x02300000)
        self.assertEqual(mailbox.MAGIC, 0x4C444752)


class Parse(unittest.TestCase):
    def test_all_sections(self):
        raw = synth.block(
            state=2, rom_kind=1, frame=77, overhead=31, frames_profiled=50, overruns=2,
            tests=[("fx_selftest_hash", 1, 12345, "ok"), ("broken", 2, 7, "got 4"), ("later", 0, 0, "")],
            phases=[("frame", 0, 1000, 2000, (1 << 32) + 5, 1), ("physics", 1, 500, 900, 25000, 3)],
            bench=[("ragdoll_step_us.total", 1234, 1), ("bodies", -5, 0)])
        box = mailbox.parse(raw)
        h = box.header
        self.assertEqual((h.state, h.rom_kind, h.frame), (2, 1, 77))
        self.assertEqual((h.profiler_overhead_cycles, h.frames_profiled, h.overruns), (31, 50, 2))
        self.assertEqual(h.state_name, "done")
        self.assertEqual(h.kind_name, "test")
        self.assertIsNone(box.panic_message)
        self.assertEqual([t.name for t in box.tests], ["fx_selftest_hash", "broken", "later"])
        self.assertEqual((box.tests[0].status, box.tests[0].cycles, box.tests[0].detail), (1, 12345, "ok"))
        self.assertEqual(box.tests[1].detail, "got 4")
        self.assertEqual(box.phases[0].total_cycles, (1 << 32) + 5)
        self.assertEqual((box.phases[1].name, box.phases[1].depth, box.phases[1].calls_last_frame),
                         ("physics", 1, 3))
        self.assertEqual(box.bench[0].value, 123.4)
        self.assertEqual(box.bench[0].formatted(), "123.4")
        self.assertEqual(box.bench[1].value, -5)
        self.assertEqual(box.bench[1].formatted(), "-5")

    def test_full_width_names_have_no_nul(self):
        box = mailbox.parse(synth.block(tests=[("x" * 40, 1, 1, "d" * 48)]))
        self.assertEqual(box.tests[0].name, "x" * 40)
        self.assertEqual(box.tests[0].detail, "d" * 48)

    def test_panic_message(self):
        box = mailbox.parse(synth.block(state=3, panic="panicked at src/main.rs:10: boom"))
        self.assertEqual(box.panic_message, "panicked at src/main.rs:10: boom")

    def test_panic_without_message(self):
        self.assertEqual(mailbox.parse(synth.block(state=3)).panic_message, "")

    def test_cycles_to_us(self):
        self.assertAlmostEqual(mailbox.cycles_to_us(12345), 368.4, places=1)
        self.assertAlmostEqual(mailbox.cycles_to_us(560_190), 16_715, delta=1)


class Timeline(unittest.TestCase):
    def test_ring_frames_oldest_first(self):
        raw = synth.block(timeline=[
            (65, 900, 100, 1, [(0, 900), (10, 500), (0xFFFF_FFFF, 0)]),
            (64, 800, 200, 0, [(0, 800), (12, 400)]),
        ])
        frames = mailbox.read_timeline(lambda addr, n: raw[addr - mailbox.BASE_ADDRESS:][:n])
        self.assertEqual([f.frame for f in frames], [64, 65])
        f = frames[1]
        self.assertEqual((f.busy_cycles, f.idle_cycles, f.overran), (900, 100, True))
        self.assertEqual((f.starts[:3], f.cycles[:3]), ([0, 10, None], [900, 500, 0]))
        self.assertFalse(frames[0].overran)
        self.assertIsNone(frames[0].starts[5])


class Mismatch(unittest.TestCase):
    def assert_mismatch(self, expected_text, **kw):
        with self.assertRaises(mailbox.MailboxError) as cm:
            mailbox.parse(synth.block(**kw))
        self.assertIn(expected_text, str(cm.exception))

    def test_version(self):
        self.assert_mismatch("mailbox layout mismatch: ROM says version = 0x1, runner expects 0x2", version=1)

    def test_total_size(self):
        self.assert_mismatch("mailbox layout mismatch: ROM says total_size = 0x6660, runner expects 0xaa60",
                             total_size=0x6660)

    def test_section_offset(self):
        self.assert_mismatch("mailbox layout mismatch: ROM says tests offset = 0x700, runner expects 0x660",
                             layout=(0x60, 0x160, 0x700, 0x3660))

    def test_no_magic(self):
        self.assert_mismatch("no mailbox", magic=0)

    def test_counts_beyond_capacity(self):
        raw = bytearray(synth.block())
        raw[0x1C:0x20] = (129).to_bytes(4, "little")  # test_count
        with self.assertRaisesRegex(mailbox.MailboxError, "test_count = 129"):
            mailbox.parse(bytes(raw))

    def test_short_block(self):
        with self.assertRaises(mailbox.MailboxError):
            mailbox.parse(synth.block()[:0x100])


class ReadThroughEmulator(unittest.TestCase):
    def test_read_uses_base_address(self):
        raw = synth.block(tests=[("t", 1, 5, "")])

        def read(addr, length):
            off = addr - mailbox.BASE_ADDRESS
            self.assertGreaterEqual(off, 0)
            return raw[off:off + length]
        self.assertEqual(mailbox.read(read).tests[0].name, "t")


if __name__ == "__main__":
    unittest.main()
