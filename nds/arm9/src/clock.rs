//! The profiler's clock: the hardware bus-cycle counter.

use crate::hw::timer;

pub struct BusClock;

impl profiler::Clock for BusClock {
    #[inline(always)]
    fn now(&mut self) -> u32 {
        timer::cycles()
    }
}

pub type Profiler = profiler::Profiler<BusClock, { mailbox::MAX_PHASES }>;

/// Copies the profiler's figures into the mailbox.
pub fn publish(p: &Profiler, mb: &mut mailbox::Mailbox) {
    let mut n = 0;
    for (rec, (name, s)) in mb.phases.iter_mut().zip(p.phases()) {
        mailbox::write_str(&mut rec.name, name);
        rec.depth = s.depth;
        rec.last_frame_cycles = s.last_frame_cycles;
        rec.max_frame_cycles = s.max_frame_cycles;
        rec.total_cycles_lo = s.total_cycles as u32;
        rec.total_cycles_hi = (s.total_cycles >> 32) as u32;
        rec.calls_last_frame = s.calls_last_frame;
        n += 1;
    }
    mb.header.phase_count = n;
    mb.header.frames_profiled = p.frames();
}

/// Writes the last frame into the mailbox's timeline ring (slot `frame %
/// TIMELINE_FRAMES`): each phase's start in the frame and its cycles,
/// the frame's work and the time halted before it. About 2 x 32 stores
/// to uncached RAM a frame.
pub fn publish_timeline(p: &Profiler, mb: &mut mailbox::Mailbox, idle: u32, overran: bool) {
    let frame = mb.header.frame;
    let slot = &mut mb.timeline[frame as usize % mailbox::TIMELINE_FRAMES];
    let mut busy = 0;
    for (rec, (_, s)) in slot.phases.iter_mut().zip(p.phases()) {
        rec.start = s.start_offset;
        rec.cycles = s.last_frame_cycles;
        if s.depth == 0 {
            busy += s.last_frame_cycles;
        }
    }
    slot.busy_cycles = busy;
    slot.idle_cycles = idle;
    slot.flags = if overran {
        mailbox::TIMELINE_OVERRUN
    } else {
        0
    };
    // Last, so a reader that sees the new frame number sees its figures.
    slot.frame = frame;
}

/// Cycles one begin/end pair costs, measured on a scratch profiler so the
/// measurement leaves no phase behind in the real one.
pub fn measure_overhead() -> u32 {
    let mut scratch = Profiler::new(BusClock);
    let id = scratch.phase("scratch");
    scratch.measure_overhead(id)
}
