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

/// Cycles one begin/end pair costs, measured on a scratch profiler so the
/// measurement leaves no phase behind in the real one.
pub fn measure_overhead() -> u32 {
    let mut scratch = Profiler::new(BusClock);
    let id = scratch.phase("scratch");
    scratch.measure_overhead(id)
}
