//! The benchmark ROM: measures with the hardware timers and writes each
//! figure to the mailbox as a dotted key (see `make bench`). Figures are
//! bus cycles or microseconds as the key says; emulator timings only
//! approximate the hardware, so `make bench` names the emulator.

mod anim;
mod crowd;
mod float;
mod kdtree;
mod kernels;
mod motor;
mod precision;
mod rigid_scenes;
mod soak;

use crate::console::draw_text;
use crate::hw::once::TakeOnce;
use crate::hw::video::{rgb, Screen, Surface};
use crate::hw::{start, timer};
use crate::text;
use mailbox::{Mailbox, MAX_BENCH};

/// Writes one figure; `decimals` says how many of `value`'s digits are
/// fractional (12.5 us is `record(mb, key, 125, 1)`).
fn record(mb: &mut Mailbox, key: &str, value: i32, decimals: u32) {
    // A truncated key could clash with another; refuse it instead.
    assert!(
        key.len() <= mailbox::BENCH_KEY_BYTES,
        "bench key too long: {key}"
    );
    let i = mb.header.bench_count as usize;
    assert!(i < MAX_BENCH, "more than {MAX_BENCH} bench records");
    mailbox::write_str(&mut mb.bench[i].key, key);
    mb.bench[i].value = value;
    mb.bench[i].decimals = decimals;
    mb.header.bench_count += 1;
}

/// Microseconds with one decimal, from bus cycles.
fn us_x10(cycles: u32) -> i32 {
    timer::cycles_to_tenths_us(cycles) as i32
}

/// Cycles of `f`, the median of `runs` runs (robust to a stray slow run).
fn median_cycles(runs: usize, f: impl FnMut()) -> u32 {
    median_cycles_after(runs, || {}, f)
}

/// [`median_cycles`], with `before` run ahead of each timed run, outside
/// the timing.
fn median_cycles_after(runs: usize, mut before: impl FnMut(), mut f: impl FnMut()) -> u32 {
    let mut samples = [0u32; 15];
    let runs = runs.clamp(1, samples.len());
    for s in samples.iter_mut().take(runs) {
        before();
        let t0 = timer::cycles();
        f();
        *s = timer::cycles().wrapping_sub(t0);
    }
    let used = &mut samples[..runs];
    used.sort_unstable();
    used[runs / 2]
}

pub fn run_all(mb: &'static mut Mailbox) -> ! {
    let mut screen = Surface::take(Screen::Bottom).expect("bottom screen");
    let bg = rgb(16, 16, 32);
    screen.clear(bg);
    draw_text(
        &mut screen,
        0,
        0,
        "benchmarks running...",
        rgb(230, 230, 230),
        bg,
    );

    #[cfg(feature = "hot-code-in-main-ram")]
    with_workload_in_dtcm(|w| hot_code_in_main_ram(mb, w));
    #[cfg(not(feature = "hot-code-in-main-ram"))]
    all_figures(mb, ragdoll_workload());

    let done = text!(42; "{} figures written", mb.header.bench_count);
    draw_text(&mut screen, 0, 1, done.as_str(), rgb(60, 200, 90), bg);
    crate::finish(mb)
}

fn all_figures(mb: &mut Mailbox, ragdoll: &mut RagdollWorkload) {
    let budget_us = timer::cycles_to_us(timer::FRAME_CYCLES) as i32;
    record(mb, "frame_budget_us", budget_us, 0);
    let overhead = crate::clock::measure_overhead() as i32;
    record(mb, "profiler.overhead_cycles", overhead, 0);
    // Each group of figures, then the stack guard (a group that ran the
    // stack into the bottom of DTCM stops the bench with a message, not
    // a hang later) and how deep that group took the stack.
    // What ran before the figures (boot, and building the ragdoll
    // workload in place) is a group of its own.
    let mut peak = group_stack_peak(mb, "setup");
    let mut group = |mb: &mut Mailbox, name: &str, figures: &mut dyn FnMut(&mut Mailbox)| {
        figures(mb);
        peak = peak.max(group_stack_peak(mb, name));
    };
    group(mb, "ragdoll", &mut |mb| {
        with_workload_in_dtcm(|w| ragdoll_step(mb, w));
        ragdoll_step_in_main_ram(mb, ragdoll);
    });
    group(mb, "kdtree", &mut |mb| {
        with_workload_in_dtcm(|w| kdtree::figures(mb, w))
    });
    group(mb, "crowd", &mut |mb| crowd::figures(mb));
    group(mb, "precision", &mut |mb| precision::figures(mb));
    group(mb, "float", &mut |mb| float::figures(mb));
    group(mb, "anim", &mut |mb| anim::figures(mb));
    group(mb, "motor", &mut |mb| motor::figures(mb));
    group(mb, "rigid", &mut |mb| rigid_scenes::figures(mb));
    group(mb, "hardware", &mut |mb| {
        memory_layout(mb);
        divider(mb);
        fx_ops(mb);
    });
    group(mb, "soak", &mut |mb| soak::figures(mb));
    // How deep the stack went over every group: what DTCM it leaves free
    // for hot data.
    record(mb, "stack.peak_bytes", peak as i32, 0);
    let capacity = crate::hw::stack_guard::capacity() as i32;
    record(mb, "stack.capacity_bytes", capacity, 0);
}

/// After a group of figures: checks the stack guard, records how deep
/// the group took the stack (`stack.peak_by_group.<name>`, bytes: which code
/// decides how much DTCM the stack leaves for data) and paints the
/// stack again for the next group. Returns the depth, bytes.
#[inline(never)]
fn group_stack_peak(mb: &mut Mailbox, name: &str) -> usize {
    use crate::hw::stack_guard;
    stack_guard::check();
    let peak = stack_guard::peak_bytes();
    let key = text!(40; "stack.peak_by_group.{}", name);
    record(mb, key.as_str(), peak as i32, 0);
    stack_guard::arm();
    peak
}

/// The bench ROM built with the engine's loops left in main RAM: the
/// ragdoll frame with the instruction cache on and off, to compare with
/// the shipped layout's `ragdoll_step_us.total`.
#[cfg(feature = "hot-code-in-main-ram")]
fn hot_code_in_main_ram(mb: &mut Mailbox, w: &mut RagdollWorkload) {
    let cached = time_ragdoll_frames(RAGDOLL_FRAMES, w);
    let uncached = start::with_main_ram_icache_off(|| time_ragdoll_frames(RAGDOLL_FRAMES, w));
    let key = "memory.ragdoll_main_ram_cached_us";
    record(mb, key, cached.per_awake_frame(cached.total), 1);
    let key = "memory.ragdoll_main_ram_uncached_us";
    record(mb, key, uncached.per_awake_frame(uncached.total), 1);
}

/// Frames of the tumbling drop averaged for the ragdoll figures: the
/// first two seconds, while it flies, hits the wall and lands.
const RAGDOLL_FRAMES: u32 = 240;

/// Cycles per phase of one ragdoll frame, summed over `frames` frames of
/// the tumbling drop, timed through the profiler exactly as the demo is.
struct RagdollPhases {
    integrate: u64,
    constraints: u64,
    collision: u64,
    broad: u64,
    narrow: u64,
    total: u64,
    /// Frames in which the ragdoll was awake: an asleep ragdoll's step
    /// does nothing, so only these frames are timed and averaged.
    awake: u32,
}

impl RagdollPhases {
    /// `cycles` summed over the run as us x 10 per awake frame.
    fn per_awake_frame(&self, cycles: u64) -> i32 {
        us_x10((cycles / self.awake.max(1) as u64) as u32)
    }
}

/// The ragdoll and its broad-phase scratch (about 5.6 KiB).
pub struct RagdollWorkload {
    ragdoll: dsphys::verlet::Ragdoll,
    contacts: dsphys::verlet::WorldContacts,
}

impl RagdollWorkload {
    const EMPTY: RagdollWorkload = RagdollWorkload {
        ragdoll: dsphys::verlet::Ragdoll::EMPTY,
        contacts: dsphys::verlet::WorldContacts::new(),
    };
}

/// The workload in main RAM: built in place, as a constant (made at run
/// time and moved in, it had a 7 KB frame on the DTCM stack).
static RAGDOLL_WORKLOAD: TakeOnce<RagdollWorkload> = TakeOnce::new(RagdollWorkload::EMPTY);

fn ragdoll_workload() -> &'static mut RagdollWorkload {
    RAGDOLL_WORKLOAD.take().expect("bench workload taken once")
}

/// `f` on a workload in DTCM: on the stack, in a frame of its own that
/// ends with `f`, so that the groups after it have the whole stack (the
/// rigid solver's rows need it). The placement docs/performance.md
/// recommends for a game's one ragdoll: its arrays then cost one cycle a
/// word to load and store in blocks (main RAM's cost four in DeSmuME)
/// and evict nothing from the data cache.
#[inline(never)]
fn with_workload_in_dtcm<R>(f: impl FnOnce(&mut RagdollWorkload) -> R) -> R {
    let mut w = RagdollWorkload::EMPTY;
    f(&mut w)
}

/// Out of line (and its callers' frames stay small): with everything
/// inlined into one frame the bench overran the DTCM stack.
#[inline(never)]
fn time_ragdoll_frames(frames: u32, w: &mut RagdollWorkload) -> RagdollPhases {
    use crate::clock::{BusClock, Profiler};
    use crate::physics::{step_ragdoll_in_world, PhysicsPhases};
    let mut prof = Profiler::new(BusClock);
    let ph = PhysicsPhases::register(&mut prof);
    let settings = dsphys::verlet::Settings::DEFAULT;
    dsphys::scenario::arena_drop_into(&mut w.ragdoll);
    let (r, contacts) = (&mut w.ragdoll, &mut w.contacts);
    let mut awake = 0;
    for frame in 0..frames {
        // A kick every 2 s wakes it: what is timed is tumbling, landing
        // and settling. It sleeps for part of each 2 s (71 of the 240
        // frames), and those frames, which cost nothing, are left out of
        // the averages (`awake_frames`).
        dsphys::scenario::kick_arena_drop(r, frame);
        awake += !r.is_asleep() as u32;
        step_ragdoll_in_world(
            r,
            &settings,
            &crate::worlds::ARENA,
            contacts,
            &mut prof,
            &ph,
        );
        prof.end_frame();
    }
    core::hint::black_box(r.state_hash());
    let total = |id: profiler::PhaseId| {
        prof.phases()
            .nth(id.index())
            .map_or(0, |(_, s)| s.total_cycles)
    };
    RagdollPhases {
        integrate: total(ph.integrate),
        constraints: total(ph.constraints),
        collision: total(ph.collision),
        broad: total(ph.broad),
        narrow: total(ph.narrow),
        total: total(ph.physics),
        awake,
    }
}

/// `ragdoll_step_us`: one default ragdoll, per phase and in total per
/// awake frame (`awake_frames` of the 240), as shipped (caches on,
/// stacks in DTCM, hot code where the linker puts it), with the
/// ragdoll's data in DTCM (`w`: [`with_workload_in_dtcm`]).
/// Each figure includes the profiler's own begin/end cost (about 1.5 us
/// per phase, `profiler.overhead_cycles`).
/// The world is `assets/worlds/arena.obj` (2528 triangles).
#[inline(never)]
fn ragdoll_step(mb: &mut Mailbox, w: &mut RagdollWorkload) {
    let t = time_ragdoll_frames(RAGDOLL_FRAMES, w);
    let per_frame = |c: u64| t.per_awake_frame(c);
    record(mb, "ragdoll_step_us.awake_frames", t.awake as i32, 0);
    record(mb, "ragdoll_step_us.integrate", per_frame(t.integrate), 1);
    record(
        mb,
        "ragdoll_step_us.constraints",
        per_frame(t.constraints),
        1,
    );
    record(mb, "ragdoll_step_us.collision", per_frame(t.collision), 1);
    record(mb, "ragdoll_step_us.broad_phase", per_frame(t.broad), 1);
    record(mb, "ragdoll_step_us.narrow_phase", per_frame(t.narrow), 1);
    record(mb, "ragdoll_step_us.total", per_frame(t.total), 1);
    // The same frames with main RAM's instruction cache off: what the
    // memory layout is worth for the real workload.
    let slow = start::with_main_ram_icache_off(|| time_ragdoll_frames(RAGDOLL_FRAMES, w));
    record(
        mb,
        "memory.ragdoll_step_as_shipped_us",
        per_frame(t.total),
        1,
    );
    record(
        mb,
        "memory.ragdoll_step_icache_off_us",
        slow.per_awake_frame(slow.total),
        1,
    );
}

/// `memory.ragdoll_step_main_ram_data_us`: `ragdoll_step_us.total` with
/// the ragdoll and its scratch in main RAM (a static, `w`), as a crowd's
/// ragdolls are: what DTCM is worth to one ragdoll.
#[inline(never)]
fn ragdoll_step_in_main_ram(mb: &mut Mailbox, w: &mut RagdollWorkload) {
    let t = time_ragdoll_frames(RAGDOLL_FRAMES, w);
    let key = "memory.ragdoll_step_main_ram_data_us";
    record(mb, key, t.per_awake_frame(t.total), 1);
}

/// The same kernel run from ITCM, from cached main RAM, and from main RAM
/// with the instruction cache off: the evidence that the memory layout
/// does its job (and where the two emulators disagree).
fn memory_layout(mb: &mut Mailbox) {
    let mut data = kernels::Particles::new();
    let itcm = median_cycles(5, || kernels::verlet_itcm(&mut data));
    let cached = median_cycles(5, || kernels::verlet_main_ram(&mut data));
    let uncached = start::with_main_ram_icache_off(|| {
        median_cycles(5, || kernels::verlet_main_ram(&mut data))
    });
    record(mb, "memory.kernel_itcm_us", us_x10(itcm), 1);
    record(mb, "memory.kernel_main_ram_cached_us", us_x10(cached), 1);
    record(
        mb,
        "memory.kernel_main_ram_uncached_us",
        us_x10(uncached),
        1,
    );
    // The checksum keeps the kernel's work observable.
    record(mb, "memory.kernel_checksum", data.checksum() as i32, 0);
}

/// One division: the hardware unit against the compiler's software call.
fn divider(mb: &mut Mailbox) {
    const N: i64 = 1000;
    let mut sink = 0i64;
    let hw = median_cycles(5, || {
        for i in 1..=N {
            sink = sink.wrapping_add(divsqrt::div_i64(core::hint::black_box(i << 40), i * 7 + 3));
        }
    });
    let sw = median_cycles(5, || {
        for i in 1..=N {
            sink = sink.wrapping_add(core::hint::black_box(i << 40) / (i * 7 + 3));
        }
    });
    core::hint::black_box(sink);
    record(
        mb,
        "divider.hw_div64_cycles",
        (hw as i64 * 10 / N) as i32,
        1,
    );
    record(
        mb,
        "divider.soft_div64_cycles",
        (sw as i64 * 10 / N) as i32,
        1,
    );
    let hw_sqrt = median_cycles(5, || {
        for i in 1..=N {
            sink =
                sink.wrapping_add(divsqrt::sqrt_u64(core::hint::black_box(i as u64) << 40) as i64);
        }
    });
    core::hint::black_box(sink);
    record(
        mb,
        "divider.hw_sqrt64_cycles",
        (hw_sqrt as i64 * 10 / N) as i32,
        1,
    );
}

/// The FX self-test mix (mul, div, sqrt, normalise, quaternions, trig).
fn fx_ops(mb: &mut Mailbox) {
    const OPS: u32 = 1000;
    let cycles = median_cycles(3, || {
        core::hint::black_box(dsphys::fx::selftest::selftest_hash(1, OPS));
    });
    record(mb, "fx.selftest_mix_us_per_1000_ops", us_x10(cycles), 1);
}
