//! The ARM9 program. crt0 (hw/start.rs) sets up the memory system and
//! calls `rust_start`, which runs the ROM this build was made for.
#![no_std]
#![no_main]
// Each ROM build (demo, test, panic test) uses part of the shared code.
#![cfg_attr(
    any(
        feature = "test-rom",
        feature = "panic-test",
        feature = "bench-rom",
        feature = "pc-profile"
    ),
    allow(dead_code)
)]

#[cfg(feature = "bench-rom")]
mod bench;
mod clock;
mod console;
mod demo;
mod font;
mod hw;
#[cfg(feature = "pc-profile")]
mod pc_profile;
mod physics;
/// The collision worlds, compiled from `assets/worlds/` by build.rs.
#[allow(dead_code)]
mod worlds {
    include!(concat!(env!("OUT_DIR"), "/worlds.rs"));
}
mod profile_view;
mod render;
mod scenes;
#[cfg(feature = "test-rom")]
mod selftest;

#[no_mangle]
extern "C" fn rust_start() -> ! {
    // First: whatever the loader left running or faded out.
    hw::boot::reset_io();
    hw::timer::start_cycle_clock();
    hw::video::init();
    hw::stack_guard::arm();

    #[cfg(feature = "panic-test")]
    {
        let _mailbox = hw::mailbox::init(mailbox::RomKind::PanicTest);
        // The deliberate panic: a stack overflow, caught by the canary.
        overflow_the_stack();
        hw::stack_guard::check();
        panic!("the panic-test ROM overflowed its stack, but the guard missed it");
    }
    #[cfg(feature = "test-rom")]
    selftest::run_all(hw::mailbox::init(mailbox::RomKind::Test));
    #[cfg(feature = "pc-profile")]
    pc_profile::run(hw::mailbox::init(mailbox::RomKind::Bench));
    #[cfg(feature = "bench-rom")]
    bench::run_all(hw::mailbox::init(mailbox::RomKind::Bench));
    #[cfg(not(any(
        feature = "panic-test",
        feature = "test-rom",
        feature = "bench-rom",
        feature = "pc-profile"
    )))]
    demo::run(hw::mailbox::init(mailbox::RomKind::Demo))
}

/// Recurses in 128-byte frames until the stack reaches the guard's
/// watched words, then returns: the panic-test ROM's overflow, which
/// `hw::stack_guard::check` must report.
#[cfg(feature = "panic-test")]
#[inline(never)]
fn overflow_the_stack() {
    let mut frame = [0u32; 32];
    core::hint::black_box(&mut frame);
    let guard_top = hw::stack_guard::region() as usize + hw::stack_guard::WORDS * 4;
    if frame.as_ptr() as usize >= guard_top {
        overflow_the_stack();
    }
    core::hint::black_box(&mut frame);
}

/// Ends a test or bench ROM: tells the runner it is done, then keeps the
/// frame counter going so the runner can see the ROM is alive.
#[cfg(any(feature = "test-rom", feature = "bench-rom"))]
fn finish(mb: &mut mailbox::Mailbox) -> ! {
    mb.header.state = mailbox::RomState::Done as u32;
    loop {
        hw::video::wait_vblank();
        mb.header.frame = mb.header.frame.wrapping_add(1);
    }
}
