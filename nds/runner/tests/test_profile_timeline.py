"""make profile's trace: its events from synthetic timeline frames, and
the check that `make test` runs on the real ones (schema and nesting)."""
import copy
import unittest

import _path  # noqa: F401
import mailbox
import profile_timeline


def phase(name: str, depth: int) -> mailbox.PhaseRecord:
    return mailbox.PhaseRecord(name, depth, 0, 0, 0, 1)


PHASES = [phase("frame", 0), phase("physics", 1), phase("collide", 2), phase("render", 1)]


def frame(n: int, spans: list, busy: int, overran: bool = False) -> mailbox.TimelineFrame:
    starts = [s for s, _ in spans] + [None] * (mailbox.MAX_PHASES - len(spans))
    cycles = [c for _, c in spans] + [0] * (mailbox.MAX_PHASES - len(spans))
    return mailbox.TimelineFrame(n, busy, 1000, overran, starts, cycles)


# Cycles: the frame 0-9000, physics 100-6100 with collide at 2000-5000,
# render 6200-8200; the second frame overruns (two frame slots) and has
# no collide.
FRAMES = [
    frame(10, [(0, 9000), (100, 6000), (2000, 3000), (6200, 2000)], 9000),
    frame(11, [(0, 700_000), (100, 690_000), (None, 0), (690_200, 5000)], 700_000, overran=True),
    frame(12, [(0, 9000), (100, 6000), (2000, 3000), (6200, 2000)], 9000),
]


class Trace(unittest.TestCase):
    def test_events_lay_frames_on_vblanks_and_nest(self):
        trace = profile_timeline.trace_events(PHASES, FRAMES, "test", "b")
        self.assertEqual(profile_timeline.check_trace(trace), [])
        spans = [e for e in trace["traceEvents"] if e["ph"] == "X"]
        self.assertEqual([e["name"] for e in spans[:4]], ["frame", "physics", "collide", "render"])
        self.assertAlmostEqual(spans[2]["ts"], mailbox.cycles_to_us(2000), places=2)
        self.assertAlmostEqual(spans[2]["dur"], mailbox.cycles_to_us(3000), places=2)
        # The overrunning frame took two slots: the third starts on the
        # third VBlank after the first.
        starts = [e["ts"] for e in spans if e["name"] == "frame"]
        self.assertAlmostEqual(starts[1], mailbox.FRAME_BUDGET_US, places=2)
        self.assertAlmostEqual(starts[2], 3 * mailbox.FRAME_BUDGET_US, places=2)
        overruns = [e for e in trace["traceEvents"] if e["name"] == "overrun"]
        self.assertEqual([e["args"]["frame"] for e in overruns], [11])

    def test_check_finds_schema_errors(self):
        trace = profile_timeline.trace_events(PHASES, FRAMES, "test", "b")
        bad = copy.deepcopy(trace)
        del next(e for e in bad["traceEvents"] if e["ph"] == "X")["dur"]
        self.assertTrue(any("dur" in p for p in profile_timeline.check_trace(bad)))
        bad = copy.deepcopy(trace)
        bad["traceEvents"][0]["ph"] = "Q"
        self.assertTrue(profile_timeline.check_trace(bad))

    def test_check_finds_a_child_outside_its_parent(self):
        broken = copy.deepcopy(FRAMES)
        broken[0].starts[2] = 5500  # collide 5500-8500 sticks out of physics
        problems = profile_timeline.check_trace(profile_timeline.trace_events(PHASES, broken, "test", "b"))
        self.assertTrue(any("collide" in p and "physics" in p for p in problems), problems)


if __name__ == "__main__":
    unittest.main()
