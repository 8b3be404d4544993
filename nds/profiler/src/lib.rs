//! Named, nested phases timed by a bus-cycle clock, with per-frame figures
//! and running totals. The clock is a trait so the same logic runs on the
//! DS (hardware timers) and in host tests (a fake clock).
//!
//! A phase's time includes its children's time and the cost of their
//! begin/end calls; [`Profiler::measure_overhead`] says what one pair costs.
#![cfg_attr(not(test), no_std)]

/// A monotonic cycle counter that may wrap at 2^32 (differences are taken
/// with wrapping arithmetic, so one wrap between begin and end is fine).
pub trait Clock {
    fn now(&mut self) -> u32;
}

/// Index of a registered phase.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PhaseId(u8);

impl PhaseId {
    /// Its position in [`Profiler::phases`].
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// The figures of one phase, as reported.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PhaseStats {
    pub depth: u32,
    pub last_frame_cycles: u32,
    pub max_frame_cycles: u32,
    pub total_cycles: u64,
    pub calls_last_frame: u32,
    /// When the phase was first entered in the last frame, in cycles
    /// after the frame's first top-level phase began ([`NOT_ENTERED`]
    /// if it was not): with `last_frame_cycles`, where it sits on a
    /// timeline of the frame.
    pub start_offset: u32,
}

/// [`PhaseStats::start_offset`] of a phase not entered in the frame.
pub const NOT_ENTERED: u32 = u32::MAX;

const MAX_DEPTH: usize = 16;

pub struct Profiler<C: Clock, const N: usize> {
    clock: C,
    names: [&'static str; N],
    count: usize,
    stack: [u8; MAX_DEPTH],
    stack_len: usize,
    started: [u32; N],
    this_frame: [u32; N],
    calls_this_frame: [u32; N],
    /// The clock at each phase's first begin this frame.
    first_begin: [u32; N],
    /// The clock at the frame's first top-level begin, once one has ended.
    origin: Option<u32>,
    stats: [PhaseStats; N],
    frames: u32,
}

impl<C: Clock, const N: usize> Profiler<C, N> {
    pub fn new(clock: C) -> Self {
        assert!(N <= 255, "phase ids are u8");
        Profiler {
            clock,
            names: [""; N],
            count: 0,
            stack: [0; MAX_DEPTH],
            stack_len: 0,
            started: [0; N],
            this_frame: [0; N],
            calls_this_frame: [0; N],
            first_begin: [0; N],
            origin: None,
            stats: [PhaseStats::default(); N],
            frames: 0,
        }
    }

    /// Registers a phase, or returns the id it already has.
    /// Panics when more than `N` phases are registered.
    pub fn phase(&mut self, name: &'static str) -> PhaseId {
        if let Some(i) = self.names[..self.count].iter().position(|n| *n == name) {
            return PhaseId(i as u8);
        }
        assert!(self.count < N, "profiler: more than N phases");
        self.names[self.count] = name;
        self.count += 1;
        PhaseId((self.count - 1) as u8)
    }

    /// Opens a phase. Its depth is the number of phases open around it.
    #[inline]
    pub fn begin(&mut self, id: PhaseId) {
        assert!(
            self.stack_len < MAX_DEPTH,
            "profiler: phases nested too deep"
        );
        self.stack[self.stack_len] = id.0;
        self.stack_len += 1;
        self.stats[id.0 as usize].depth = (self.stack_len - 1) as u32;
        // Read the clock last, so the bookkeeping above is not charged.
        self.started[id.0 as usize] = self.clock.now();
    }

    /// Closes the innermost phase, which must be `id`.
    #[inline]
    pub fn end(&mut self, id: PhaseId) {
        let now = self.clock.now();
        assert!(
            self.stack_len > 0 && self.stack[self.stack_len - 1] == id.0,
            "profiler: end() of a phase that is not the innermost open one"
        );
        self.stack_len -= 1;
        let i = id.0 as usize;
        self.this_frame[i] = self.this_frame[i].wrapping_add(now.wrapping_sub(self.started[i]));
        // After the clock read, so charged to the parent, not the phase.
        if self.calls_this_frame[i] == 0 {
            self.first_begin[i] = self.started[i];
        }
        // Top-level phases do not overlap: the first to end began first.
        if self.stack_len == 0 && self.origin.is_none() {
            self.origin = Some(self.started[i]);
        }
        self.calls_this_frame[i] += 1;
    }

    /// Runs `f` inside phase `id`; `f` gets the profiler back for nesting.
    #[inline]
    pub fn time<R>(&mut self, id: PhaseId, f: impl FnOnce(&mut Self) -> R) -> R {
        self.begin(id);
        let r = f(self);
        self.end(id);
        r
    }

    /// Closes the frame: this frame's figures become the last frame's, and
    /// are added to the running totals.
    pub fn end_frame(&mut self) {
        assert_eq!(self.stack_len, 0, "profiler: frame ended with phases open");
        let origin = self.origin.take().unwrap_or(0);
        for i in 0..self.count {
            let s = &mut self.stats[i];
            s.last_frame_cycles = self.this_frame[i];
            s.calls_last_frame = self.calls_this_frame[i];
            s.start_offset = if self.calls_this_frame[i] == 0 {
                NOT_ENTERED
            } else {
                self.first_begin[i].wrapping_sub(origin)
            };
            s.max_frame_cycles = s.max_frame_cycles.max(self.this_frame[i]);
            s.total_cycles += self.this_frame[i] as u64;
        }
        self.this_frame = [0; N];
        self.calls_this_frame = [0; N];
        self.frames += 1;
    }

    /// Forgets all figures, keeping the registered phases.
    pub fn reset_totals(&mut self) {
        for s in &mut self.stats[..self.count] {
            let depth = s.depth;
            *s = PhaseStats {
                depth,
                ..PhaseStats::default()
            };
        }
        self.frames = 0;
    }

    /// Cycles one empty begin/end pair adds to the phase around it, as the
    /// median of `samples` measurements (median: robust to one interrupt).
    pub fn measure_overhead(&mut self, scratch: PhaseId) -> u32 {
        const SAMPLES: usize = 15;
        let mut samples = [0u32; SAMPLES];
        let saved = (
            self.this_frame[scratch.0 as usize],
            self.calls_this_frame[scratch.0 as usize],
        );
        let saved_origin = self.origin;
        for s in &mut samples {
            let t0 = self.clock.now();
            self.begin(scratch);
            self.end(scratch);
            let t1 = self.clock.now();
            *s = t1.wrapping_sub(t0);
        }
        // Take away the cost of one bare clock read pair.
        let mut bare = [0u32; SAMPLES];
        for b in &mut bare {
            let t0 = self.clock.now();
            let t1 = self.clock.now();
            *b = t1.wrapping_sub(t0);
        }
        (
            self.this_frame[scratch.0 as usize],
            self.calls_this_frame[scratch.0 as usize],
        ) = saved;
        self.origin = saved_origin;
        samples.sort_unstable();
        bare.sort_unstable();
        samples[SAMPLES / 2].saturating_sub(bare[SAMPLES / 2])
    }

    pub fn frames(&self) -> u32 {
        self.frames
    }

    pub fn clock(&mut self) -> &mut C {
        &mut self.clock
    }

    /// The registered phases in registration order, with their figures.
    pub fn phases(&self) -> impl Iterator<Item = (&'static str, PhaseStats)> + '_ {
        self.names[..self.count]
            .iter()
            .copied()
            .zip(self.stats[..self.count].iter().copied())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Advances by `step` on every read, and by whatever `work` adds.
    struct FakeClock {
        t: u32,
        step: u32,
    }
    impl Clock for FakeClock {
        fn now(&mut self) -> u32 {
            self.t = self.t.wrapping_add(self.step);
            self.t
        }
    }

    fn work(p: &mut Profiler<FakeClock, 8>, cycles: u32) {
        p.clock().t = p.clock().t.wrapping_add(cycles);
    }

    #[test]
    fn nested_phases_have_depths_and_include_children() {
        let mut p: Profiler<FakeClock, 8> = Profiler::new(FakeClock { t: 0, step: 0 });
        let physics = p.phase("physics");
        let verlet = p.phase("verlet");
        assert_eq!(p.phase("physics"), physics);
        p.time(physics, |p| {
            work(p, 100);
            p.time(verlet, |p| work(p, 40));
            p.time(verlet, |p| work(p, 2));
        });
        p.end_frame();
        let stats: Vec<_> = p.phases().collect();
        assert_eq!(stats[0].0, "physics");
        assert_eq!(stats[0].1.last_frame_cycles, 142);
        assert_eq!(stats[0].1.depth, 0);
        assert_eq!(stats[1].1.last_frame_cycles, 42);
        assert_eq!(stats[1].1.calls_last_frame, 2);
        assert_eq!(stats[1].1.depth, 1);
    }

    #[test]
    fn start_offsets_place_phases_on_the_frame() {
        let mut p: Profiler<FakeClock, 8> = Profiler::new(FakeClock { t: 1000, step: 0 });
        let (input, physics, verlet, idle) = (
            p.phase("input"),
            p.phase("physics"),
            p.phase("verlet"),
            p.phase("idle"),
        );
        for _ in 0..2 {
            p.time(input, |p| work(p, 7));
            work(&mut p, 3);
            p.time(physics, |p| {
                work(p, 100);
                p.time(verlet, |p| work(p, 40));
                work(p, 5);
                p.time(verlet, |p| work(p, 2));
            });
            p.end_frame();
            work(&mut p, 1000);
        }
        let offsets: Vec<_> = p.phases().map(|(_, s)| s.start_offset).collect();
        // verlet: its first call, at 7 + 3 + 100.
        assert_eq!(offsets, [0, 10, 110, NOT_ENTERED]);
        let _ = idle;
    }

    #[test]
    fn totals_and_max_accumulate_over_frames() {
        let mut p: Profiler<FakeClock, 8> = Profiler::new(FakeClock { t: 0, step: 0 });
        let a = p.phase("a");
        for cycles in [10, 30, 20] {
            p.time(a, |p| work(p, cycles));
            p.end_frame();
        }
        let (_, s) = p.phases().next().unwrap();
        assert_eq!(
            (s.last_frame_cycles, s.max_frame_cycles, s.total_cycles),
            (20, 30, 60)
        );
        assert_eq!(p.frames(), 3);
        p.reset_totals();
        let (_, s) = p.phases().next().unwrap();
        assert_eq!((s.total_cycles, p.frames()), (0, 0));
    }

    #[test]
    fn a_clock_wrap_inside_a_phase_is_measured_correctly() {
        let mut p: Profiler<FakeClock, 8> = Profiler::new(FakeClock {
            t: u32::MAX - 5,
            step: 0,
        });
        let a = p.phase("a");
        p.time(a, |p| work(p, 50));
        p.end_frame();
        assert_eq!(p.phases().next().unwrap().1.last_frame_cycles, 50);
    }

    #[test]
    fn overhead_is_the_clock_reads_a_pair_adds() {
        // Every clock read costs 3 cycles; a begin/end pair makes 2 reads,
        // and the bare measurement 2 as well: the pair adds one read's
        // worth on each side of the measured region (2 reads x 3).
        let mut p: Profiler<FakeClock, 8> = Profiler::new(FakeClock { t: 0, step: 3 });
        let scratch = p.phase("overhead");
        assert_eq!(p.measure_overhead(scratch), 6);
        // The scratch phase's own figures are left as they were.
        p.end_frame();
        assert_eq!(p.phases().next().unwrap().1.calls_last_frame, 0);
    }

    #[test]
    #[should_panic(expected = "innermost")]
    fn ending_the_wrong_phase_panics() {
        let mut p: Profiler<FakeClock, 8> = Profiler::new(FakeClock { t: 0, step: 0 });
        let a = p.phase("a");
        let b = p.phase("b");
        p.begin(a);
        p.end(b);
    }
}
