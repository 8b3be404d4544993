"""Text and JSON shapes of what the runner prints: test lines, the closing
count line, the profiler table and bench figures. Pure functions, so the
formats are unit-tested without an emulator.
"""
from __future__ import annotations

from mailbox import (FRAME_BUDGET_US, TEST_FAIL, TEST_PASS, BenchRecord, Mailbox,
                     TestRecord, cycles_to_us)

NAME_WIDTH = 32


def test_passed(record: TestRecord) -> bool:
    return record.status == TEST_PASS


def test_line(emulator: str, record: TestRecord) -> str:
    """`[desmume] PASS fx_selftest_hash    12345 cycles  (368.4 us)  detail`."""
    if record.status == TEST_PASS:
        verdict = "PASS"
    elif record.status == TEST_FAIL:
        verdict = "FAIL"
    else:
        verdict = "FAIL"  # a test the ROM never ran counts against it
        return f"[{emulator}] {verdict} {record.name:<{NAME_WIDTH}} (not run)"
    line = (f"[{emulator}] {verdict} {record.name:<{NAME_WIDTH}} {record.cycles:>9} cycles"
            f"  ({cycles_to_us(record.cycles):.1f} us)")
    return f"{line}  {record.detail}" if record.detail else line


def closing_line(passed: int, failed: int) -> str:
    """The last line of a test run; scripts match it exactly."""
    return f"{passed} passed, {failed} failed"


def profile_table(emulator: str, box: Mailbox, frames_run: int) -> list[str]:
    """The profiler's phases as a table, times in microseconds."""
    h = box.header
    lines = [f"[{emulator}] profile: {frames_run} frames run, {h.frames_profiled} profiled "
             f"(emulator timings are estimates, not hardware)",
             f"{'phase':<24} {'last us':>9} {'avg us':>9} {'max us':>9} {'%budget':>8} {'calls':>6}"]
    for p in box.phases:
        avg = p.total_cycles / h.frames_profiled if h.frames_profiled else 0.0
        avg_us = cycles_to_us(avg)
        name = "  " * p.depth + p.name
        lines.append(f"{name:<24} {cycles_to_us(p.last_frame_cycles):>9.1f} {avg_us:>9.1f} "
                     f"{cycles_to_us(p.max_frame_cycles):>9.1f} "
                     f"{100 * avg_us / FRAME_BUDGET_US:>7.1f}% {p.calls_last_frame:>6}")
    if not box.phases:
        lines.append("(no profiler phases recorded)")
    lines.append(f"profiler overhead: {h.profiler_overhead_cycles} cycles "
                 f"({cycles_to_us(h.profiler_overhead_cycles):.2f} us) per begin/end pair")
    lines.append(f"overruns: {h.overruns} of {h.frames_profiled} frames over the "
                 f"{FRAME_BUDGET_US:,.0f} us budget")
    idle = next((r.value for r in box.bench if r.key == "frame.idle_us"), None)
    if idle is not None:
        lines.append(f"idle (CPU halted until VBlank) in the last frame: {idle:,.0f} us "
                     f"({100 * idle / FRAME_BUDGET_US:.0f}% of the frame)")
    return lines


def bench_lines(emulator: str, records: list[BenchRecord]) -> list[str]:
    return [f"[{emulator}] {r.key} = {r.formatted()}" for r in records]


def nest_bench(records: list[BenchRecord]) -> dict:
    """{"a.b": 1} -> {"a": {"b": 1}}; a key that is both a value and a group is an error."""
    root: dict = {}
    for r in records:
        parts = r.key.split(".")
        if not all(parts):
            raise ValueError(f"bench key {r.key!r} has an empty part")
        node = root
        for i, part in enumerate(parts[:-1]):
            node = node.setdefault(part, {})
            if not isinstance(node, dict):
                raise ValueError(f"bench key {r.key!r}: {'.'.join(parts[:i + 1])!r} is already a value")
        if parts[-1] in node:
            what = "a group" if isinstance(node[parts[-1]], dict) else "a value"
            raise ValueError(f"bench key {r.key!r} is already {what}")
        node[parts[-1]] = r.value
    return root
