//! The test cases. Each returns Ok(detail) or Err(detail); the detail is
//! at most 48 characters and is printed by the runner.

use super::{Detail, Outcome, Test};
use crate::hw::once::TakeOnce;
use crate::hw::{boot, start, timer};
use crate::text;
use mailbox::Mailbox;

#[path = "anim_cases.rs"]
mod anim_cases;
use anim_cases::{anim_brads_hash, anim_expand_hash};
#[path = "rigid_cases.rs"]
mod rigid_cases;
use rigid_cases::{box_scenes_shot_hash, mine_crawl_hash, mine_recover_hash, powered_push_hash};
#[path = "soak_case.rs"]
mod soak_case;
use soak_case::soak_short;

/// Each test is named after its function.
macro_rules! tests {
    ($($f:ident),* $(,)?) => { &[$(Test { name: stringify!($f), run: $f }),*] };
}

pub const ALL: &[Test] = tests![
    mem_routines_do_what_they_say,
    text_buffer_cuts_whole_characters,
    divider_matches_host,
    sqrt_matches_host,
    smlawb_matches_host,
    relax_kernel_matches_host,
    integrate_kernel_matches_host,
    cap_kernel_matches_host,
    reach_kernel_matches_host,
    q20_kernel_matches_host,
    brad_kernel_matches_host,
    timers_advance_and_carry,
    profiler_overhead_small,
    mailbox_layout,
    memory_setup,
    boot_reset_clears_loader_state,
    fx_selftest_hash,
    ragdoll_drop_hash,
    stairs_drop_hash,
    braced_drop_hash,
    crowd_drop_hash,
    anim_expand_hash,
    anim_brads_hash,
    mine_crawl_hash,
    mine_recover_hash,
    powered_push_hash,
    box_scenes_shot_hash,
    gx_matrix_unit_matches_model,
    gx_palette_matches_model,
    lit_list_templates_walk,
    soak_short,
];

macro_rules! check {
    ($cond:expr, $($arg:tt)*) => {
        if !$cond {
            return Err(text!({ mailbox::TEST_DETAIL_BYTES }; $($arg)*));
        }
    };
}

mod host {
    include!(concat!(env!("OUT_DIR"), "/host_results.rs"));
}

/// Thousands of generated FX operations (mul, lower, div, sqrt, normalise,
/// quaternions, trig) hashed on the DS, against the host's hash of the
/// same engine code, baked in by build.rs.
fn fx_selftest_hash(_: &mut Mailbox) -> Outcome {
    let mut ops = 0;
    let mut last = 0;
    for (seed, count, want) in host::FX_HASH_CASES {
        let got = dsphys::fx::selftest::selftest_hash(seed, count);
        check!(
            got == want,
            "seed {:#x}: DS {:#010x} host {:#010x}",
            seed,
            got,
            want
        );
        ops += count;
        last = got;
    }
    ok(text!(48; "{} ops, hashes equal ({:#010x})", ops, last))
}

fn ok(d: Detail) -> Outcome {
    Ok(d)
}

/// The default ragdoll thrown into the room for 600 frames (integrate,
/// relax, collide), hashed on the DS against the host's hash.
fn ragdoll_drop_hash(_: &mut Mailbox) -> Outcome {
    crate::hw::itcm::verlet();
    let (frames, want) = host::RAGDOLL_DROP;
    let got = dsphys::scenario::ragdoll_drop_hash(frames);
    check!(got == want, "DS {:#010x} host {:#010x}", got, want);
    ok(text!(48; "{} frames, hashes equal ({:#010x})", frames, got))
}

/// The ragdoll thrown down the stairs world (480 triangles, compiled
/// from OBJ at build time) for 600 frames: k-d tree broad phase, swept
/// spheres, sleeping; the hash must equal the host's.
fn stairs_drop_hash(_: &mut Mailbox) -> Outcome {
    crate::hw::itcm::verlet();
    let (frames, want) = host::STAIRS_DROP;
    let got = dsphys::scenario::world_drop_hash(
        &crate::worlds::STAIRS,
        dsphys::scenario::stairs_drop,
        frames,
    );
    check!(got == want, "DS {:#010x} host {:#010x}", got, want);
    ok(text!(48; "{} frames, hashes equal ({:#010x})", frames, got))
}

/// The tumbled arena drop with the humanoid's side constraints
/// (`verlet::sides`, not in the shipped definition) for 600 frames: the
/// sides' test and push on the DS; the hash must equal the host's.
fn braced_drop_hash(_: &mut Mailbox) -> Outcome {
    crate::hw::itcm::verlet();
    let (frames, want) = host::BRACED_DROP;
    let got = dsphys::scenario::world_drop_hash(
        &crate::worlds::ARENA,
        dsphys::scenario::braced_arena_drop,
        frames,
    );
    check!(got == want, "DS {:#010x} host {:#010x}", got, want);
    ok(text!(48; "{} frames, hashes equal ({:#010x})", frames, got))
}

/// The crowd and its broad-phase scratch (about 10 KiB): a static, not
/// the DTCM stack.
struct Crowd {
    ragdolls: [Option<dsphys::verlet::Ragdoll>; dsphys::scenario::CROWD_DROP_RAGDOLLS],
    contacts: dsphys::verlet::WorldContacts,
}

static CROWD: crate::hw::once::TakeOnce<Crowd> = crate::hw::once::TakeOnce::new(Crowd {
    ragdolls: [const { None }; dsphys::scenario::CROWD_DROP_RAGDOLLS],
    contacts: dsphys::verlet::WorldContacts::new(),
});

/// Four ragdolls falling into a pile (ragdoll-vs-ragdoll contacts).
#[inline(never)]
fn crowd_drop_hash(_: &mut Mailbox) -> Outcome {
    crate::hw::itcm::verlet();
    let (frames, want) = host::CROWD_DROP;
    let c = CROWD.take().expect("crowd taken once");
    let got = dsphys::scenario::crowd_drop_hash(
        &crate::worlds::ARENA,
        &mut c.ragdolls,
        &mut c.contacts,
        frames,
    );
    check!(got == want, "DS {:#010x} host {:#010x}", got, want);
    ok(text!(48; "{} frames of 4, hashes equal ({:#010x})", frames, got))
}

/// xorshift32: operands spread over the whole range, with the same
/// sequence on every run.
struct Rng(u32);
impl Rng {
    fn next(&mut self) -> u32 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 17;
        self.0 ^= self.0 << 5;
        self.0
    }
    fn wide(&mut self) -> u64 {
        ((self.next() as u64) << 32) | self.next() as u64
    }
    /// Small, large and edge-case values, so every mode is exercised.
    fn operand(&mut self) -> i64 {
        match self.next() % 8 {
            0 => 0,
            1 => -1,
            2 => (self.next() % 100) as i64 - 50,
            3 => self.next() as i32 as i64,
            4 => i64::MIN,
            5 => self.wide() as i64 >> (self.next() % 63),
            _ => self.wide() as i64,
        }
    }
}

const DIVISIONS: u32 = 3000;

/// The quotient `divsqrt`'s contract promises for `n / d` in a mode whose
/// result spans `min..=max`, worked out here in `i128` without any of the
/// crate's code: truncation towards zero; `x / 0` saturates to `max` for
/// `x > 0`, `min` for `x < 0` and is `0` for `0 / 0`; a quotient out of
/// range (only `MIN / -1`) saturates to `max`. The expected value of the
/// edge cases, which both backends settle before dividing (so comparing
/// the hardware path with the soft one there compares a value with
/// itself).
fn contract_quotient(n: i64, d: i64, min: i64, max: i64) -> i64 {
    if d == 0 {
        return match n {
            0 => 0,
            n if n > 0 => max,
            _ => min,
        };
    }
    (n as i128 / d as i128).clamp(min as i128, max as i128) as i64
}

/// Edge cases every run checks, with their quotients written out by hand
/// (the random operands rarely give `i32::MIN / -1`): `(n, d, n / d)` in
/// 32/32 mode, and the same operands in 64/64 mode.
const EDGES_32: [(i32, i32, i32); 8] = [
    (7, 0, i32::MAX),
    (-7, 0, i32::MIN),
    (0, 0, 0),
    (i32::MIN, -1, i32::MAX),
    (i32::MIN, 1, i32::MIN),
    (i32::MAX, -1, -i32::MAX),
    (i32::MIN, 0, i32::MIN),
    (-7, 2, -3),
];
const EDGES_64: [(i64, i64, i64); 6] = [
    (7, 0, i64::MAX),
    (-7, 0, i64::MIN),
    (0, 0, 0),
    (i64::MIN, -1, i64::MAX),
    (i64::MIN, 1, i64::MIN),
    (i64::MIN, 0, i64::MIN),
];

/// The console's text buffer (`console::TextBuf`, one copy a piece since
/// it was made fast): what fits is kept, a character that does not fit
/// whole is dropped, padding is written, nothing is cut mid-sequence.
fn text_buffer_cuts_whole_characters(_: &mut Mailbox) -> Outcome {
    use crate::console::TextBuf;
    let t = text!(8; "{:<6}|", "ab");
    check!(t.as_str() == "ab    |", "padding: {:?}", t.as_str());
    let t = text!(6; "{}{:>4}", "xyz", 12345);
    check!(t.as_str() == "xyz123", "cut: {:?}", t.as_str());
    // "é" is two bytes: at 5 of 6 it does not fit whole. A piece is cut
    // there (a literal argument joins its format string: one piece) ...
    let t = text!(6; "abcde{}f", "é");
    check!(t.as_str() == "abcde", "char boundary: {:?}", t.as_str());
    // ... and a later piece that fits is kept.
    let t = text!(6; "abcde{}f", 'é');
    check!(t.as_str() == "abcdef", "next piece: {:?}", t.as_str());
    let mut b = TextBuf::<4>::new();
    let _ = core::fmt::Write::write_char(&mut b, 'é');
    let _ = core::fmt::Write::write_char(&mut b, 'z');
    let _ = core::fmt::Write::write_char(&mut b, 'q');
    let _ = core::fmt::Write::write_char(&mut b, 'w');
    check!(b.as_str() == "ézq", "chars: {:?}", b.as_str());
    ok(text!(48; "padding, cuts and characters kept whole"))
}

/// The lit boxes' packed command templates (`render::lit_list`), walked
/// as the GXFIFO reads them: every command known, no packed word ending
/// on MTX_PUSH, the parameters exactly filling each template, and every
/// slot push, frame, scale, material, quads, pop.
fn lit_list_templates_walk(_: &mut Mailbox) -> Outcome {
    match crate::render::lit_list::check_templates() {
        Ok(n) => ok(text!(48; "{} commands in the templates, all well formed", n)),
        Err(e) => Err(text!({ mailbox::TEST_DETAIL_BYTES }; "{}", e)),
    }
}

/// The ROM's word-aligned copy, clear and fill (`hw::mem`, load and store
/// multiples in place of `compiler_builtins`' loops) against what they
/// must do, byte by byte, for every length up to 100 bytes.
fn mem_routines_do_what_they_say(_: &mut Mailbox) -> Outcome {
    match crate::hw::mem::check() {
        Ok(checks) => {
            Ok(text!({ mailbox::TEST_DETAIL_BYTES }; "{} copies, clears and fills", checks))
        }
        Err((name, n)) => {
            Err(text!({ mailbox::TEST_DETAIL_BYTES }; "{} of {} bytes wrong", name, n))
        }
    }
}

fn divider_matches_host(_: &mut Mailbox) -> Outcome {
    let (min32, max32) = (i32::MIN as i64, i32::MAX as i64);
    for (n, d, want) in EDGES_32 {
        let got = divsqrt::div_i32(n, d);
        check!(got == want, "32/32 {}/{}: {} not {}", n, d, got, want);
        let got = divsqrt::div_i64_i32(n as i64, d);
        let want = contract_quotient(n as i64, d as i64, i64::MIN, i64::MAX);
        check!(got == want, "64/32 {}/{}: {} not {}", n, d, got, want);
    }
    for (n, d, want) in EDGES_64 {
        let got = divsqrt::div_i64(n, d);
        check!(got == want, "64/64 {}/{}: {} not {}", n, d, got, want);
    }
    let mut rng = Rng(0x1234_5678);
    for i in 0..DIVISIONS {
        let (n, d) = (rng.operand(), rng.operand());
        let (n32, d32) = (n as i32, d as i32);
        let hw = divsqrt::div_i32(n32, d32);
        let sw = if d32 == 0 || (n32 == i32::MIN && d32 == -1) {
            contract_quotient(n32 as i64, d32 as i64, min32, max32) as i32
        } else {
            divsqrt::soft::div_i32(n32, d32)
        };
        check!(hw == sw, "32/32 #{} {}/{}: {} != {}", i, n32, d32, hw, sw);
        let hw = divsqrt::div_i64_i32(n, d32);
        let edge = d32 == 0 || (n == i64::MIN && d32 == -1);
        let sw = if edge {
            contract_quotient(n, d32 as i64, i64::MIN, i64::MAX)
        } else {
            divsqrt::soft::div_i64_i32(n, d32)
        };
        check!(hw == sw, "64/32 #{}: {} != {}", i, hw, sw);
        let hw = divsqrt::div_i64(n, d);
        let edge = d == 0 || (n == i64::MIN && d == -1);
        let sw = if edge {
            contract_quotient(n, d, i64::MIN, i64::MAX)
        } else {
            divsqrt::soft::div_i64(n, d)
        };
        check!(hw == sw, "64/64 #{}: {} != {}", i, hw, sw);
    }
    ok(text!(48; "{} x 3 modes agree, {} edges", DIVISIONS, EDGES_32.len() + EDGES_64.len()))
}

fn sqrt_matches_host(_: &mut Mailbox) -> Outcome {
    let mut rng = Rng(0x9E37_79B9);
    for i in 0..DIVISIONS {
        let x = rng.wide() >> (rng.next() % 64);
        let hw = divsqrt::sqrt_u64(x);
        let sw = divsqrt::soft::sqrt_u64(x);
        check!(hw == sw, "sqrt64 #{} of {}: {} != {}", i, x, hw, sw);
        let y = x as u32;
        let (hw, sw) = (divsqrt::sqrt_u32(y), divsqrt::soft::sqrt_u32(y));
        check!(hw == sw, "sqrt32 #{} of {}: {} != {}", i, y, hw, sw);
    }
    ok(text!(48; "{} x 2 modes agree", DIVISIONS))
}

/// The `SMLAWB` instruction (`divsqrt::smlawb` on the DS) against the
/// software form the host runs, which the constraint solver's moves rest
/// on: random words, multipliers whose high half must be ignored, and
/// the ends of the ranges.
fn smlawb_matches_host(_: &mut Mailbox) -> Outcome {
    let edges = [0, 1, -1, 0x7fff, -0x8000, 0x1_8000, i32::MAX, i32::MIN];
    for &n in &edges {
        for &m in &edges {
            for &s in &edges {
                let (hw, sw) = (divsqrt::smlawb(n, m, s), divsqrt::soft::smlawb(n, m, s));
                check!(hw == sw, "smlawb {} {} {}: {} != {}", n, m, s, hw, sw);
            }
        }
    }
    let mut rng = Rng(0x0bad_5eed);
    for i in 0..DIVISIONS {
        let (n, m, s) = (rng.next() as i32, rng.next() as i32, rng.next() as i32);
        let (hw, sw) = (divsqrt::smlawb(n, m, s), divsqrt::soft::smlawb(n, m, s));
        check!(
            hw == sw,
            "smlawb #{} {} {} {}: {} != {}",
            i,
            n,
            m,
            s,
            hw,
            sw
        );
    }
    ok(text!(48; "{} and {} edges agree", DIVISIONS, edges.len().pow(3)))
}

/// The constraint pass in ARM (`kernels::relax::approximate` for 16
/// particles) against its Rust form, which the host runs: random links
/// (sticks, ranges, one-sided bounds, windows from none to 0.9, both ends
/// pinned, any mass ratio) over random bodies, some stretched or crushed
/// beyond every window and some beyond 128 m^2, each pass restarted after
/// every link it leaves to the slow path. Positions, stops and the count
/// of corrections must all agree.
fn relax_kernel_matches_host(_: &mut Mailbox) -> Outcome {
    use dsphys::kernels::relax::{approximate, project, Link, Projection};
    const LINKS: usize = 32;
    // The ARM pass runs from the Verlet overlay.
    crate::hw::itcm::verlet();
    let mut rng = Rng(0x5eed_0c0d);
    let (mut corrections, mut stops) = (0u32, 0u32);
    for round in 0..RELAX_ROUNDS {
        // Each body within `spread` (Q20) of its centre: 2^18 and 2^20
        // (a quarter and one metre) are a ragdoll's scales, 2^27 stretches
        // links beyond 128 m^2.
        let spread = [1 << 18, 1 << 19, 1 << 20, 1 << 27][round as usize % 4];
        let centre = (rng.next() as i32) >> 4;
        let mut q = [[0i32; 4]; 16];
        for p in &mut q {
            for c in p.iter_mut().take(3) {
                *c = centre + (rng.next() as i32 % spread);
            }
        }
        let links: [Link; LINKS] = core::array::from_fn(|_| random_link(&mut rng, &q));
        let mut soft = q;
        let mut i = 0;
        while i < LINKS {
            let stop = i + approximate(&links[i..], &mut q);
            // The reference, link by link.
            let mut j = i;
            while j < LINKS {
                match project(&links[j], &mut soft) {
                    Projection::Slow => break,
                    Projection::Approximated => corrections += 1,
                    Projection::Satisfied => {}
                }
                j += 1;
            }
            check!(stop == j, "round {} stop {} != {}", round, stop, j);
            check!(q == soft, "round {} from link {}: positions", round, i);
            stops += (stop < LINKS) as u32;
            i = stop + 1;
        }
    }
    check!(
        corrections > RELAX_ROUNDS * 8 && stops > RELAX_ROUNDS,
        "too few cases: {} corrections, {} stops",
        corrections,
        stops
    );
    ok(text!(48; "{} corrections, {} stops agree", corrections, stops))
}

/// The ARM integration (`kernels::integrate`) against its Rust
/// reference, bit for bit: random particles at a ragdoll's scales and
/// beyond (moves past the speed cap, positions at the passes' limit,
/// pinned particles), random damping, gravity and caps, each pass
/// restarted after every particle it stops at. Stops, positions,
/// remainders and the Q20 array must all agree.
fn integrate_kernel_matches_host(_: &mut Mailbox) -> Outcome {
    use dsphys::fx::{Fx1, Vec3};
    use dsphys::kernels::integrate::{integrate, integrate_portable, Motion, Step, Stop};
    // The ARM loop runs from the Verlet overlay.
    crate::hw::itcm::verlet();
    let mut rng = Rng(0x1e7e_4a11);
    let (mut stepped, mut finished, mut pinned) = (0u32, 0u32, 0u32);
    for round in 0..INTEGRATE_ROUNDS {
        // Speeds up to 2^6, 2^10 (a ragdoll's, raw FX1 a step) and 2^20;
        // positions near the origin or near the 2^20 limit.
        let speed = [1 << 6, 1 << 10, 1 << 20][round as usize % 3];
        let centre = [0, 0, 0, (1 << 20) - 300, 300 - (1 << 20)][round as usize / 3 % 5];
        let mut m = Motion::<16>::ZERO;
        let word = |rng: &mut Rng, spread: i32| rng.next() as i32 % spread;
        for i in 0..16 {
            let x = [0; 3].map(|_| centre + word(&mut rng, 1 << 9));
            let v = [0; 3].map(|_| word(&mut rng, speed));
            m.cur[i] = Vec3::from_raw(x[0], x[1], x[2]);
            m.prev[i] = Vec3::from_raw(x[0] - v[0], x[1] - v[1], x[2] - v[2]);
            m.rem[i] = [0; 3].map(|_| word(&mut rng, 2048));
        }
        let inv_mass: [Fx1; 16] = core::array::from_fn(|_| {
            if rng.next().is_multiple_of(8) {
                Fx1::ZERO
            } else {
                Fx1::ONE
            }
        });
        let step = Step {
            damping: (rng.next() % 4097) as i32,
            g_dt2: word(
                &mut rng,
                [1 << 16, 1 << 16, 1 << 16, 1 << 30][round as usize % 4],
            ),
            within: [-1, 200, 1 << 30, 1 << 30][rng.next() as usize % 4],
        };
        let len = 1 + rng.next() as usize % 16;
        let (mut q, mut soft_q) = ([[0x55; 4]; 16], [[0x55; 4]; 16]);
        let mut soft = m.clone();
        let mut from = 0;
        while from < len {
            let stop = integrate(&mut m, &inv_mass, from..len, &step, &mut q);
            let want = integrate_portable(&mut soft, &inv_mass, from..len, &step, &mut soft_q);
            check!(stop == want, "round {} from {}: stop", round, from);
            check!(
                q == soft_q && m.cur == soft.cur && m.prev == soft.prev && m.rem == soft.rem,
                "round {} from {}: state",
                round,
                from
            );
            let (end, next) = match stop {
                Stop::Done => (len, len),
                Stop::Still(i) => {
                    pinned += 1;
                    (i, i + 1)
                }
                Stop::Finish(i, _) => {
                    finished += 1;
                    (i, i + 1)
                }
            };
            stepped += (end - from) as u32;
            from = next;
        }
    }
    check!(
        stepped > INTEGRATE_ROUNDS * 2
            && finished > INTEGRATE_ROUNDS / 4
            && pinned > INTEGRATE_ROUNDS / 4,
        "too few cases: {} stepped, {} finished, {} pinned",
        stepped,
        finished,
        pinned
    );
    ok(text!(48; "{} stepped, {} finished, {} pinned agree", stepped, finished, pinned))
}

/// Rounds of `integrate_kernel_matches_host`.
const INTEGRATE_ROUNDS: u32 = 300;

/// The ARM speed-cap measure (`kernels::cap::measure`) against its Rust
/// reference: random moves from none to beyond 2^31 a component (both
/// signs, so that `-2^31` occurs), random bounds, each pass restarted
/// after every particle it hands back. Stops and folds must agree.
fn cap_kernel_matches_host(_: &mut Mailbox) -> Outcome {
    use dsphys::fx::Vec3;
    use dsphys::kernels::cap::{measure, measure_portable};
    use dsphys::kernels::integrate::Motion;
    crate::hw::itcm::verlet();
    let mut rng = Rng(0xca9_5eed);
    let (mut passed, mut stops) = (0u32, 0u32);
    for round in 0..CAP_ROUNDS {
        let shift = [20, 24, 28, 0][round as usize % 4];
        let mut m = Motion::<16>::ZERO;
        for i in 0..16 {
            let x = [0; 3].map(|_| rng.next() as i32);
            let d = [0; 3].map(|_| (rng.next() as i32) >> shift);
            m.cur[i] = Vec3::from_raw(x[0], x[1], x[2]);
            m.prev[i] = Vec3::from_raw(
                x[0].wrapping_sub(d[0]),
                x[1].wrapping_sub(d[1]),
                x[2].wrapping_sub(d[2]),
            );
        }
        let within = [0, 900, 1 << 10, 1 << 31][rng.next() as usize % 4];
        let len = 1 + rng.next() as usize % 16;
        let (mut from, mut moved) = (0, (rng.next() as i32) >> 20);
        while from < len {
            let got = measure(&m, from..len, within, moved);
            let want = measure_portable(&m, from..len, within, moved);
            check!(got == want, "round {} from {}", round, from);
            moved = got.0;
            from = match got.1 {
                Some(i) => {
                    stops += 1;
                    passed += (i - from) as u32;
                    i + 1
                }
                None => {
                    passed += (len - from) as u32;
                    len
                }
            };
        }
    }
    check!(
        passed > CAP_ROUNDS * 2 && stops > CAP_ROUNDS,
        "too few cases: {} passed, {} stops",
        passed,
        stops
    );
    ok(text!(48; "{} passed, {} stops agree", passed, stops))
}

/// Rounds of `cap_kernel_matches_host`.
const CAP_ROUNDS: u32 = 300;

/// The ARM kept-list test (`kernels::reach::to_gather`) against its
/// Rust reference: random steps (some beyond the per-axis limit), boxes
/// around the previous positions that hold the step or miss it by one
/// on a random side, empty boxes and pinned particles, any count from
/// none to 16. The masks must agree.
fn reach_kernel_matches_host(_: &mut Mailbox) -> Outcome {
    use dsphys::fx::{Fx1, Vec3};
    use dsphys::kernels::integrate::Motion;
    use dsphys::kernels::reach::{step_length, to_gather, to_gather_portable, Bounds};
    crate::hw::itcm::verlet();
    let mut rng = Rng(0x4eac_4b0c);
    // The engine's step limit, which the ARM loop has built in.
    let lim = dsphys::collision::MAX_STEP.raw() as u32;
    let (mut kept, mut gathered) = (0u32, 0u32);
    for round in 0..REACH_ROUNDS {
        let mut m = Motion::<16>::ZERO;
        let mut inner = [Bounds::EMPTY; 16];
        let speed = [1 << 8, 1 << 12, 1 << 14][round as usize % 3];
        for (i, b) in inner.iter_mut().enumerate() {
            let x = [0; 3].map(|_| (rng.next() as i32) >> 6);
            let v = [0; 3].map(|_| rng.next() as i32 % speed);
            m.prev[i] = Vec3::from_raw(x[0], x[1], x[2]);
            m.cur[i] = Vec3::from_raw(x[0] + v[0], x[1] + v[1], x[2] + v[2]);
            let step = step_length(v, lim) as i32;
            let slack = [0; 6].map(|_| (rng.next() % 64) as i32);
            *b = Bounds {
                lo: [0, 1, 2].map(|c| x[c] - step - slack[c]),
                hi: [0, 1, 2].map(|c| x[c] + step + slack[c + 3]),
            };
            match rng.next() % 8 {
                0 => *b = Bounds::EMPTY,
                1 => {
                    let c = rng.next() as usize % 3;
                    b.lo[c] = x[c] - step + 1;
                }
                2 => {
                    let c = rng.next() as usize % 3;
                    b.hi[c] = x[c] + step - 1;
                }
                _ => {}
            }
        }
        let inv_mass: [Fx1; 16] = core::array::from_fn(|_| {
            if rng.next().is_multiple_of(16) {
                Fx1::ZERO
            } else {
                Fx1::ONE
            }
        });
        let len = rng.next() as usize % 17;
        let got = to_gather(&m, &inv_mass, &inner, len, lim);
        let want = to_gather_portable(&m, &inv_mass, &inner, len, lim);
        check!(got == want, "round {}: {:#x} != {:#x}", round, got, want);
        gathered += got.count_ones();
        kept += len as u32 - got.count_ones();
    }
    check!(
        kept > REACH_ROUNDS * 2 && gathered > REACH_ROUNDS,
        "too few cases: {} kept, {} to gather",
        kept,
        gathered
    );
    ok(text!(48; "{} kept, {} to gather agree", kept, gathered))
}

/// Rounds of `reach_kernel_matches_host`.
const REACH_ROUNDS: u32 = 300;

/// The ARM way back from Q20 (`kernels::q20::from_q20`) and the ARM
/// moment (`kernels::q20::moment`) against their Rust references: random
/// positions over the whole range the passes use, both signs, random
/// remainders, and masses up to 4096 kg.
fn q20_kernel_matches_host(_: &mut Mailbox) -> Outcome {
    use dsphys::fx::Fx1;
    use dsphys::fx::Vec3;
    use dsphys::kernels::q20::{from_q20, from_q20_portable, moment, moment_portable};
    crate::hw::itcm::verlet();
    let mut rng = Rng(0x0020_5eed);
    for round in 0..Q20_ROUNDS {
        let shift = [2, 8, 20][round as usize % 3];
        let q: [[i32; 4]; 16] = core::array::from_fn(|_| {
            let mut c = || (rng.next() as i32) >> shift;
            [c(), c(), c(), 0]
        });
        let rem: [[i32; 3]; 16] =
            core::array::from_fn(|_| [0; 3].map(|_| rng.next() as i32 % 2048));
        let (mut x, mut soft_x) = ([Vec3::ZERO; 16], [Vec3::ZERO; 16]);
        let (mut r, mut soft_r) = (rem, rem);
        from_q20(&q, &mut x, &mut r);
        from_q20_portable(&q, &mut soft_x, &mut soft_r);
        check!(x == soft_x && r == soft_r, "round {}: positions", round);
        let masses: [Fx1; 16] = core::array::from_fn(|_| {
            Fx1::from_raw((rng.next() >> [8, 18, 26][round as usize % 3]) as i32)
        });
        let q = q.map(|[a, b, c, d]| [a >> 2, b >> 2, c >> 2, d]);
        check!(
            moment(&q, &masses) == moment_portable(&q, &masses),
            "round {}: moment",
            round
        );
    }
    ok(text!(48; "{} rounds of 16 agree", Q20_ROUNDS))
}

/// Rounds of `q20_kernel_matches_host`.
const Q20_ROUNDS: u32 = 300;

/// The ARM brads (`kernels::brad::build`) against their Rust reference:
/// random tables (any particles, columns and signs, twins either way
/// round, some brads built and some left to the engine), positions from
/// centimetres to beyond the 8 m clamp, with particles put on one another
/// (a zero A) and on the line of two others (a goal parallel to A), and
/// random starting brads. Both the brad the pass stopped at and every
/// frame must agree.
fn brad_kernel_matches_host(_: &mut Mailbox) -> Outcome {
    use dsphys::fx::Vec3;
    use dsphys::kernels::brad::{build, build_portable, Frame, Plan, Plans};
    let mut rng = Rng(0x00b4_ad5e);
    let (mut built, mut left) = (0u32, 0u32);
    for round in 0..BRAD_ROUNDS {
        let mut plans = Plans::<16>::EMPTY;
        let count = 1 + rng.next() as usize % 16;
        for _ in 0..count {
            let mut p = || (rng.next() % 16) as u8;
            let (a, goal, at) = ([p(), p()], [p(), p()], p());
            let ca = rng.next() as usize % 3;
            let cb = (ca + 1 + rng.next() as usize % 2) % 3;
            let flags = (rng.next() % 32) as u8;
            plans.push(Plan::new(a, goal, at, [ca, cb, 3 - ca - cb], flags));
        }
        let shift = [13, 17, 18, 22][round as usize % 4];
        let mut x: [Vec3; 16] = core::array::from_fn(|_| {
            let mut c = || (rng.next() as i32) >> shift;
            Vec3::from_raw(c(), c(), c())
        });
        let mut pick = || (rng.next() % 16) as usize;
        match round % 3 {
            0 => x[pick()] = x[pick()],
            1 => {
                let (i, j, k) = (pick(), pick(), pick());
                x[i] = x[j] + (x[j] - x[k]);
            }
            _ => {}
        }
        let start: [Frame; 16] = core::array::from_fn(|_| {
            core::array::from_fn(|_| Vec3::from_raw(rng.next() as i32, 0, 0))
        });
        let from = rng.next() as usize % count;
        let (mut arm, mut soft) = (start, start);
        let stop = build(&x, &plans, &mut arm, from);
        let soft_stop = build_portable(&x, plans.as_slice(), &mut soft, from);
        check!(
            stop == soft_stop && arm == soft,
            "round {}: stop {} / {}",
            round,
            stop,
            soft_stop
        );
        built += (stop - from) as u32;
        left += (stop < count) as u32;
    }
    check!(built > 1000 && left > 100, "{} built, {} left", built, left);
    ok(text!(48; "{} rounds: {} built, {} left", BRAD_ROUNDS, built, left))
}

/// Rounds of `brad_kernel_matches_host`.
const BRAD_ROUNDS: u32 = 400;

/// Rounds of `relax_kernel_matches_host`.
const RELAX_ROUNDS: u32 = 200;

/// A link within the ranges the pass documents, at random, its bounds
/// near its particles' distance in `q` (within -30 % .. +30 %, so that
/// some take the approximation and some do not), between 1/64 m and 2 m.
fn random_link(rng: &mut Rng, q: &[[i32; 4]; 16]) -> dsphys::kernels::relax::Link {
    use dsphys::kernels::relax::Link;
    let (a, b) = (rng.next() as u8, rng.next() as u8);
    let (pa, pb) = (q[a as usize & 15], q[b as usize & 15]);
    let d2: i64 = (0..3).map(|c| (pb[c] - pa[c]) as i64).map(|d| d * d).sum();
    // FX1 raw (Q12): the distance, then a bound near it.
    let dist = (dsphys::divsqrt::sqrt_u64(d2 as u64) >> 8) as i32;
    let near = |rng: &mut Rng| {
        let scale = 4096 - 1229 + (rng.next() % 2458) as i32;
        ((dist as i64 * scale as i64) >> 12).clamp(65, 8192) as i32
    };
    let (t0, t1) = (near(rng), near(rng));
    let (lo, hi) = (t0.min(t1), t0.max(t1));
    let (min, max) = match rng.next() % 8 {
        0..=2 => (lo, lo),   // a stick
        3 | 4 => (lo, hi),   // a range
        5 => (lo, i32::MAX), // a minimum only
        _ => (0, hi),        // a maximum only
    };
    let window = (rng.next() % 3687) as i64; // up to 0.9, Q12
                                             // 1/(2 t^2) in Q20, as the engine compiles it (to within rounding).
    let inv = |t: i32| (((1i64 << 48) / (2 * t as i64 * t as i64)) >> 12 << 8) as i32;
    let (min2, max2) = (min * min, if max == i32::MAX { max } else { max * max });
    let widen = |t2: i32| ((t2 as i64 * window) >> 12) as i32;
    let mut l = Link {
        packed: Link::pack(a, b, (rng.next() % 4097) as u16),
        min2,
        max2,
        min2_lo: i32::MAX,
        inv_2min2: 0,
        max2_hi: i32::MIN,
        inv_2max2: 0,
    };
    if min > 0 && window > 0 {
        (l.min2_lo, l.inv_2min2) = (min2 - widen(min2), inv(min));
    }
    if max < i32::MAX && window > 0 {
        (l.max2_hi, l.inv_2max2) = (max2 + widen(max2), inv(max));
    }
    if rng.next().is_multiple_of(16) {
        // Both ends pinned: nothing is out of bounds.
        (l.min2, l.max2) = (i32::MIN, i32::MAX);
    }
    l
}

fn timers_advance_and_carry(_: &mut Mailbox) -> Outcome {
    // Never backwards over many consecutive reads.
    let mut last = timer::cycles();
    for _ in 0..2000 {
        let now = timer::cycles();
        check!(
            now.wrapping_sub(last) < 1 << 31,
            "went backwards: {} then {}",
            last,
            now
        );
        last = now;
    }
    // The high half carries: wait across at least two 16-bit wraps.
    let t0 = timer::cycles();
    let mut t1 = t0;
    let mut spins = 0u32;
    while t1.wrapping_sub(t0) < 140_000 {
        t1 = timer::cycles();
        spins += 1;
        check!(spins < 10_000_000, "timer stuck at {}", t1);
    }
    check!(
        (t1 >> 16) != (t0 >> 16),
        "high half did not carry: {} -> {}",
        t0,
        t1
    );
    ok(text!(48; "{} cycles in {} reads", t1.wrapping_sub(t0), spins))
}

fn profiler_overhead_small(_: &mut Mailbox) -> Outcome {
    let overhead = crate::clock::measure_overhead();
    // A begin/end pair is a handful of loads and stores plus two timer
    // reads: anything near a microsecond (34 cycles) is fine, 300 is not.
    check!(overhead < 300, "begin/end pair costs {} cycles", overhead);
    ok(text!(48; "{} cycles per begin/end pair", overhead))
}

fn mailbox_layout(mb: &mut Mailbox) -> Outcome {
    let addr = mb as *mut Mailbox as u32;
    check!(addr == mailbox::BASE_ADDRESS, "mailbox at {:#x}", addr);
    check!(
        mb.header.magic == mailbox::MAGIC,
        "magic {:#x}",
        mb.header.magic
    );
    check!(
        mb.header.total_size as usize == mailbox::TOTAL_SIZE,
        "size {}",
        mb.header.total_size
    );
    // The runner checks these same words against its own constants.
    let want = [
        mailbox::OFFSET_PANIC,
        mailbox::OFFSET_PHASES,
        mailbox::OFFSET_TESTS,
        mailbox::OFFSET_BENCH,
    ];
    for (got, want) in mb.header.layout.iter().zip(want) {
        check!(*got as usize == want, "offset {} != {}", got, want);
    }
    ok(text!(48; "{} bytes at {:#x}", mailbox::TOTAL_SIZE, addr))
}

#[link_section = ".itcm"]
#[inline(never)]
fn runs_in_itcm(x: u32) -> u32 {
    x.wrapping_mul(2654435761).rotate_left(7)
}

#[link_section = ".dtcm"]
static DTCM_PROBE: u32 = 0x0DEC_AF00;

/// What a loader may leave (a master-brightness fade on both screens, BG
/// and blend registers, DMA3 armed to repeat on VBlank, timer 2 running,
/// an interrupt enabled) is written on purpose and read back (so the
/// test knows each write took), then `reset_io`, which the ROM runs
/// first thing at boot, must clear all of it. Emulators start with these
/// zero, so only this test sees the reset work.
fn boot_reset_clears_loader_state(_: &mut Mailbox) -> Outcome {
    static SCRATCH: TakeOnce<[u32; 2]> = TakeOnce::new([0x5EED_0001, 0]);
    let scratch = SCRATCH.take().ok_or(text!(48; "scratch taken twice"))?;
    boot::dirty_for_test(scratch);
    for (name, value) in boot::leftovers() {
        check!(value != 0, "{} did not take the loader's value", name);
    }
    boot::reset_io();
    for (name, value) in boot::leftovers() {
        check!(value == 0, "{} left at {:#x}", name, value);
    }
    check!(boot::interrupts_off(), "IME still on");
    Ok(text!(48; "{} registers dirtied, then cleared", boot::leftovers().len()))
}

fn memory_setup(_: &mut Mailbox) -> Outcome {
    let control = start::cp15_control();
    let want = (1 << 0) | (1 << 2) | (1 << 12) | (1 << 16) | (1 << 18);
    check!(control & want == want, "CP15 control {:#x}", control);
    let (data, instr) = start::cp15_cacheable();
    check!(
        data & 2 != 0 && instr & 2 != 0,
        "main RAM not cached: {:#x}/{:#x}",
        data,
        instr
    );
    let sp = start::stack_pointer();
    check!(
        (0x0B00_0000..0x0B00_4000).contains(&sp),
        "stack at {:#x}, not DTCM",
        sp
    );
    let f = runs_in_itcm as *const () as usize as u32;
    check!(
        (0x01FF_8000..0x0200_0000).contains(&f),
        "ITCM code at {:#x}",
        f
    );
    // linker.ld moves the engine's per-frame loops into ITCM by name, in
    // two overlays that take turns (hw/itcm.rs).
    crate::hw::itcm::rigid();
    let sweep = dsphys::rigid::kernel::sweep_split::<dsphys::rigid::kernel::Prepared> as *const ()
        as usize as u32;
    check!(
        (0x01FF_8000..0x0200_0000).contains(&sweep),
        "rigid sweep at {:#x}, not ITCM",
        sweep
    );
    crate::hw::itcm::verlet();
    let relax = dsphys::verlet::Constraints::<40>::relax::<16> as *const () as usize as u32;
    check!(
        (0x01FF_8000..0x0200_0000).contains(&relax),
        "Verlet relax at {:#x}, not ITCM",
        relax
    );
    check!(
        runs_in_itcm(3) == 3u32.wrapping_mul(2654435761).rotate_left(7),
        "ITCM code result"
    );
    let probe = core::ptr::addr_of!(DTCM_PROBE) as u32;
    check!(
        (0x0B00_0000..0x0B00_4000).contains(&probe),
        "DTCM data at {:#x}",
        probe
    );
    // black_box makes this a real load from DTCM, not a folded constant.
    let value = *core::hint::black_box(&DTCM_PROBE);
    check!(value == 0x0DEC_AF00, ".dtcm not copied: {:#x}", value);
    ok(text!(48; "ctl {:#x} sp {:#x}", control, sp))
}

/// The skinning palette as scene (d) builds it on the geometry engine
/// for a limp character (`render::skinned::load_palette`: the brads'
/// joints sent whole, the others expanded on the engine), for the
/// tumbled ragdoll's pose under a random camera: each joint's slot
/// restored and read back from CLIPMTX_RESULT (identity projection),
/// against the host model's stack replaying the same commands
/// (`gx_palette::palette_ops`; STORE/RESTORE copies, one floor per
/// product).
fn gx_palette_matches_model(_: &mut Mailbox) -> Outcome {
    crate::hw::itcm::verlet();
    // The ragdoll and the 4 KB character in separate frames (the stack).
    let x = dsphys::anim::workload::tumbled_positions(40);
    gx_palette_of(&x)
}

#[inline(never)]
fn gx_palette_of(x: &[dsphys::fx::Vec3; 16]) -> Outcome {
    use crate::hw::gx;
    use crate::render::skinned::{load_palette, PalettePose};
    use crate::render::GX_SHIFT;
    use dsphys::anim::gx_matrix::{hash_words, GxMatrix, GxStack, ProductCase};
    use dsphys::anim::gx_palette::{all_local_words, palette_ops};
    let mut c = dsphys::anim::workload::character();
    // As scene (d) draws a limp character: the brads' joints from their
    // matrices, the others expanded on the engine.
    let from_model = c.brads_from_ragdoll(x);
    let n = c.joints();
    let mut local_words = [[0; 12]; 25];
    all_local_words(&c.local[..n], GX_SHIFT, &mut local_words);
    let mut rng = dsphys::xorshift::XorShift32::new(0x6E0_0025);
    let camera = ProductCase::next(&mut rng).a;
    gx::init_top_screen();
    gx::matrix_mode(gx::MatrixMode::Projection);
    gx::identity();
    gx::matrix_mode(gx::MatrixMode::PositionVector);
    gx::load_4x3(&camera);
    load_palette(&PalettePose {
        character: &c,
        from_model,
        local_words: &local_words,
        needed: u32::MAX,
    });
    let mut stack = GxStack::new(GxMatrix::from_4x3(&camera));
    palette_ops(
        c.skeleton.parents,
        &local_words[..n],
        &c.placement,
        &c.model[..n],
        from_model,
        u32::MAX,
        GX_SHIFT,
        |op| stack.apply(op),
    );
    check!(
        gx::clip_matrix() == stack.current.words(),
        "the camera is not current after the palette"
    );
    let (mut hash, mut wrong, mut first_bad) = (0x811C_9DC5u32, 0u32, None);
    for j in 0..n {
        gx::restore(j as u32);
        let want = stack.slot(j);
        hash = hash_words(hash, want);
        if gx::clip_matrix() != want.words() {
            wrong += 1;
            first_bad.get_or_insert(j);
        }
    }
    check!(
        wrong == 0,
        "{wrong} of {n} slots differ, first {}",
        first_bad.unwrap_or(0)
    );
    Ok(text!({ mailbox::TEST_DETAIL_BYTES }; "{n} slots equal ({hash:#010x})"))
}

/// Products read back from the geometry engine's matrix unit: 2000 times
/// a random 4x3 loaded and two multiplied in, with the identity
/// projection, CLIPMTX_RESULT against the host model
/// (`dsphys::anim::gx_matrix`: floor rounding, no saturation).
fn gx_matrix_unit_matches_model(_: &mut Mailbox) -> Outcome {
    use crate::hw::gx;
    use dsphys::anim::gx_matrix::{hash_words, ProductCase};
    gx::init_top_screen();
    gx::matrix_mode(gx::MatrixMode::Projection);
    gx::identity();
    gx::matrix_mode(gx::MatrixMode::PositionVector);
    let mut rng = dsphys::xorshift::XorShift32::new(0x6E0_0024);
    let (mut hash, mut wrong, mut first_bad) = (0x811C_9DC5u32, 0u32, None);
    const PRODUCTS: u32 = 2000;
    for k in 0..PRODUCTS {
        let case = ProductCase::next(&mut rng);
        gx::load_4x3(&case.a);
        gx::mult_4x3(&case.b);
        gx::mult_4x3(&case.c);
        let got = gx::clip_matrix();
        let want = case.expected();
        hash = hash_words(hash, &want);
        if got != want.words() {
            wrong += 1;
            first_bad.get_or_insert(k);
        }
    }
    check!(
        wrong == 0,
        "{wrong} of {PRODUCTS} differ, first #{}",
        first_bad.unwrap_or(0)
    );
    Ok(text!({ mailbox::TEST_DETAIL_BYTES }; "{PRODUCTS} products equal ({hash:#010x})"))
}
