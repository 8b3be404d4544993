//! The ARM7 program. It has nothing to do yet (touch input comes with the
//! scenes), so it parks itself: interrupts off, then the BIOS Halt call in
//! a loop, which stops the CPU instead of letting it run garbage.
#![no_std]
#![no_main]

core::arch::global_asm!(
    r#"
    .section .crt0, "ax"
    .arm
    .global _start
_start:
    mov     r0, #0x04000000
    str     r0, [r0, #0x208]        @ IME = 0
    ldr     sp, =__stack_top
    bl      arm7_main
    b       .
    .pool
"#
);

#[no_mangle]
extern "C" fn arm7_main() -> ! {
    loop {
        // SAFETY: SWI 6 is the BIOS Halt call; it touches no memory of ours
        // and returns (if ever) with all registers but r0-r3 preserved.
        unsafe {
            core::arch::asm!("swi 0x060000", out("r0") _, out("r1") _, out("r2") _, out("r3") _)
        };
    }
}

#[panic_handler]
fn panic(_: &core::panic::PanicInfo) -> ! {
    loop {}
}
