//! The results mailbox: a fixed block of uncached main RAM that the ROM
//! writes and the emulator runners (`nds/runner/`) read back.
//!
//! All fields are little-endian `u32` words or fixed-size byte strings
//! (NUL-padded ASCII). The ROM also writes the offsets of every section
//! into the header (`layout` words), so a runner can check that it agrees
//! with the ROM before trusting anything else it reads.
//!
//! The layout is also written out in `LAYOUT.md` beside this crate; a host
//! test keeps the two in step.
#![cfg_attr(not(test), no_std)]

/// Where the linker places the block (the `mailbox` region of `linker.ld`).
pub const BASE_ADDRESS: u32 = 0x0230_0000;
/// "RGDL" read as a little-endian word.
pub const MAGIC: u32 = u32::from_le_bytes(*b"RGDL");
/// Bumped whenever a field moves or a section is added.
pub const LAYOUT_VERSION: u32 = 2;

pub const PANIC_MESSAGE_BYTES: usize = 252;
pub const PHASE_NAME_BYTES: usize = 16;
pub const MAX_PHASES: usize = 32;
pub const TEST_NAME_BYTES: usize = 40;
pub const TEST_DETAIL_BYTES: usize = 48;
pub const MAX_TESTS: usize = 128;
pub const BENCH_KEY_BYTES: usize = 40;
pub const MAX_BENCH: usize = 256;
pub const HOST_COMMAND_WORDS: usize = 8;
/// Frames the timeline ring holds (about a second).
pub const TIMELINE_FRAMES: usize = 64;
/// [`TimelineFrame::flags`]: the frame's work overran the frame.
pub const TIMELINE_OVERRUN: u32 = 1;
/// [`TimelinePhase::start`] of a phase not entered in the frame.
pub const TIMELINE_NOT_ENTERED: u32 = u32::MAX;

/// What the ROM is doing, in [`Header::state`].
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RomState {
    /// Never written by the ROM: the block is still whatever RAM held.
    Booting = 0,
    /// The main loop is running; frames advance.
    Running = 1,
    /// Tests or benchmarks finished: the runner may stop.
    Done = 2,
    /// A panic happened; [`Panic`] holds the message.
    Panicked = 3,
}

/// Which ROM build wrote the block, in [`Header::rom_kind`].
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RomKind {
    Demo = 0,
    Test = 1,
    Bench = 2,
    PanicTest = 3,
}

/// Result of one in-ROM test, in [`TestRecord::status`].
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TestStatus {
    NotRun = 0,
    Pass = 1,
    Fail = 2,
}

#[repr(C)]
#[derive(Clone, Copy)]
pub struct Header {
    pub magic: u32,
    pub version: u32,
    /// `size_of::<Mailbox>()`.
    pub total_size: u32,
    pub state: u32,
    /// Frames since boot (incremented once per VBlank by the main loop).
    pub frame: u32,
    pub rom_kind: u32,
    pub phase_count: u32,
    pub test_count: u32,
    pub bench_count: u32,
    /// Measured cost of one profiler begin/end pair, in bus cycles.
    pub profiler_overhead_cycles: u32,
    /// Frames accumulated in the running phase totals.
    pub frames_profiled: u32,
    /// Frames whose work overran the 560,190-cycle frame.
    pub overruns: u32,
    /// Byte offsets of the sections: panic, phases, tests, bench.
    pub layout: [u32; 4],
    /// Written by the runner, read by the ROM (scripted control).
    pub host_command: [u32; HOST_COMMAND_WORDS],
}

#[repr(C)]
#[derive(Clone, Copy)]
pub struct Panic {
    /// Length of the message in bytes (at most `PANIC_MESSAGE_BYTES`).
    pub len: u32,
    pub message: [u8; PANIC_MESSAGE_BYTES],
}

/// One profiler phase. Cycles are DS bus cycles (33.513982 MHz).
#[repr(C)]
#[derive(Clone, Copy)]
pub struct PhaseRecord {
    pub name: [u8; PHASE_NAME_BYTES],
    /// Nesting depth: 0 for top-level phases.
    pub depth: u32,
    /// Cycles spent in the phase during the last complete frame.
    pub last_frame_cycles: u32,
    /// Largest per-frame figure seen.
    pub max_frame_cycles: u32,
    /// Running total over `frames_profiled` frames, low then high word.
    pub total_cycles_lo: u32,
    pub total_cycles_hi: u32,
    /// Times the phase was entered during the last frame.
    pub calls_last_frame: u32,
}

#[repr(C)]
#[derive(Clone, Copy)]
pub struct TestRecord {
    pub name: [u8; TEST_NAME_BYTES],
    pub status: u32,
    /// Bus cycles the test took.
    pub cycles: u32,
    pub detail: [u8; TEST_DETAIL_BYTES],
}

/// One benchmark figure: a dotted key such as `ragdoll_step_us.total`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct BenchRecord {
    pub key: [u8; BENCH_KEY_BYTES],
    /// The value, scaled by `10^decimals` (so 12.5 us is 125 with 1 decimal).
    pub value: i32,
    pub decimals: u32,
}

/// One phase in one frame of the timeline.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct TimelinePhase {
    /// Cycles from the frame's first top-level phase to the phase's first
    /// entry ([`TIMELINE_NOT_ENTERED`] if it was not entered).
    pub start: u32,
    /// Cycles in the phase over the frame (all its calls).
    pub cycles: u32,
}

/// One frame of the timeline ring: slot `frame % TIMELINE_FRAMES`. The
/// phases are in the order of the phases section.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct TimelineFrame {
    /// The header's frame count when it was written (0: never written).
    pub frame: u32,
    /// The frame's work, and the time halted before it, in cycles.
    pub busy_cycles: u32,
    pub idle_cycles: u32,
    /// [`TIMELINE_OVERRUN`].
    pub flags: u32,
    pub phases: [TimelinePhase; MAX_PHASES],
}

#[repr(C)]
#[derive(Clone, Copy)]
pub struct Mailbox {
    pub header: Header,
    pub panic: Panic,
    pub phases: [PhaseRecord; MAX_PHASES],
    pub tests: [TestRecord; MAX_TESTS],
    pub bench: [BenchRecord; MAX_BENCH],
    /// The demo's last [`TIMELINE_FRAMES`] frames, phase by phase, for
    /// `make profile` (after the bench section, so the header's offsets
    /// of the other sections stay where they were).
    pub timeline: [TimelineFrame; TIMELINE_FRAMES],
}

/// Section offsets, for [`Header::layout`] and for the runners.
pub const OFFSET_PANIC: usize = core::mem::offset_of!(Mailbox, panic);
pub const OFFSET_PHASES: usize = core::mem::offset_of!(Mailbox, phases);
pub const OFFSET_TESTS: usize = core::mem::offset_of!(Mailbox, tests);
pub const OFFSET_BENCH: usize = core::mem::offset_of!(Mailbox, bench);
pub const OFFSET_TIMELINE: usize = core::mem::offset_of!(Mailbox, timeline);
pub const TOTAL_SIZE: usize = core::mem::size_of::<Mailbox>();
// linker.ld gives the mailbox region 64 KiB.
const _: () = assert!(TOTAL_SIZE <= 64 * 1024);

/// Copies `text` into a NUL-padded fixed field, cutting it if too long.
pub fn write_str(field: &mut [u8], text: &str) {
    let bytes = text.as_bytes();
    let n = bytes.len().min(field.len());
    field[..n].copy_from_slice(&bytes[..n]);
    field[n..].fill(0);
}

impl Header {
    /// The header of a freshly started ROM. The rest of the block starts
    /// zeroed (the ROM zeroes it in place: the block is too big for the
    /// DS's 16 KiB stack, so it is never built as one value there).
    pub const fn new(rom_kind: RomKind) -> Self {
        Header {
            magic: MAGIC,
            version: LAYOUT_VERSION,
            total_size: TOTAL_SIZE as u32,
            state: RomState::Running as u32,
            frame: 0,
            rom_kind: rom_kind as u32,
            phase_count: 0,
            test_count: 0,
            bench_count: 0,
            profiler_overhead_cycles: 0,
            frames_profiled: 0,
            overruns: 0,
            layout: [
                OFFSET_PANIC as u32,
                OFFSET_PHASES as u32,
                OFFSET_TESTS as u32,
                OFFSET_BENCH as u32,
            ],
            host_command: [0; HOST_COMMAND_WORDS],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sections_are_word_aligned() {
        for off in [
            OFFSET_PANIC,
            OFFSET_PHASES,
            OFFSET_TESTS,
            OFFSET_BENCH,
            OFFSET_TIMELINE,
        ] {
            assert_eq!(off % 4, 0);
        }
    }

    #[test]
    fn layout_md_matches_the_struct() {
        let doc = include_str!("../LAYOUT.md");
        for (name, value) in [
            ("OFFSET_PANIC", OFFSET_PANIC),
            ("OFFSET_PHASES", OFFSET_PHASES),
            ("OFFSET_TESTS", OFFSET_TESTS),
            ("OFFSET_BENCH", OFFSET_BENCH),
            ("OFFSET_TIMELINE", OFFSET_TIMELINE),
            ("TOTAL_SIZE", TOTAL_SIZE),
        ] {
            let line = format!("{name} = {value:#06x}");
            assert!(doc.contains(&line), "LAYOUT.md should say `{line}`");
        }
        for (name, value) in [
            ("PHASE_RECORD", core::mem::size_of::<PhaseRecord>()),
            ("TEST_RECORD", core::mem::size_of::<TestRecord>()),
            ("BENCH_RECORD", core::mem::size_of::<BenchRecord>()),
            ("TIMELINE_FRAME", core::mem::size_of::<TimelineFrame>()),
        ] {
            let line = format!("{name} = {value}");
            assert!(doc.contains(&line), "LAYOUT.md should say `{line}`");
        }
    }

    #[test]
    fn write_str_truncates_and_pads() {
        let mut f = [0xffu8; 4];
        write_str(&mut f, "ab");
        assert_eq!(f, *b"ab\0\0");
        write_str(&mut f, "abcdef");
        assert_eq!(f, *b"abcd");
    }
}
