//! crt0: the first code the ARM9 runs, before any Rust.
//!
//! Order matters: caches and MPU off, TCMs mapped, MPU regions and caches
//! on, stacks in DTCM, then .itcm/.dtcm copied and .bss zeroed.
//!
//! MPU regions (a higher number wins where regions overlap):
//! - 0: the whole 4 GiB, uncached: I/O, VRAM, palettes, BIOS, TCM windows.
//! - 1: main RAM 0x02000000, 4 MiB, instruction and data cached, write-back.
//! - 2: main RAM 0x02300000, 1 MiB, uncached: the results mailbox and the
//!   block shared with the ARM7, so neither side sees stale cache lines.
//!
//! ITCM: 32 KiB at 0 (mirrored; code is linked at 0x01FF8000).
//! DTCM: 16 KiB at 0x0B000000.

core::arch::global_asm!(
    r#"
    .section .crt0, "ax"
    .arm
    .global _start
_start:
    @ Interrupts off at the controller (IME = 0) and in the CPU.
    mov     r0, #0x04000000
    str     r0, [r0, #0x208]
    mrs     r0, cpsr
    orr     r0, r0, #0xC0
    msr     cpsr_c, r0

    @ CP15 control: MPU, caches and TCMs off; high vectors (BIOS) on.
    ldr     r0, =0x00002078
    mcr     p15, 0, r0, c1, c0, 0
    mov     r0, #0
    mcr     p15, 0, r0, c7, c5, 0       @ invalidate I-cache
    mcr     p15, 0, r0, c7, c6, 0       @ invalidate D-cache
    mcr     p15, 0, r0, c7, c10, 4      @ drain write buffer

    @ TCM windows.
    ldr     r0, =0x0B00000A             @ DTCM at 0x0B000000, 16 KiB (512 << 5)
    mcr     p15, 0, r0, c9, c1, 0
    mov     r0, #0x20                   @ ITCM at 0, 32 MiB window (512 << 16)
    mcr     p15, 0, r0, c9, c1, 1

    @ MPU regions: base | size code (2^(n+1) bytes) << 1 | enable.
    ldr     r0, =0x0000003F             @ 0: 4 GiB
    mcr     p15, 0, r0, c6, c0, 0
    ldr     r0, =0x0200002B             @ 1: main RAM, 4 MiB
    mcr     p15, 0, r0, c6, c1, 0
    ldr     r0, =0x02300027             @ 2: uncached 1 MiB
    mcr     p15, 0, r0, c6, c2, 0
    mov     r0, #0
    mcr     p15, 0, r0, c6, c3, 0
    mcr     p15, 0, r0, c6, c4, 0
    mcr     p15, 0, r0, c6, c5, 0
    mcr     p15, 0, r0, c6, c6, 0
    mcr     p15, 0, r0, c6, c7, 0

    mov     r0, #0x02                   @ region 1 cacheable
    mcr     p15, 0, r0, c2, c0, 0       @ data
    mcr     p15, 0, r0, c2, c0, 1       @ instruction
    mcr     p15, 0, r0, c3, c0, 0       @ write buffer: write-back
    ldr     r0, =0x00000333             @ regions 0-2: read/write
    mcr     p15, 0, r0, c5, c0, 2       @ data access permissions
    mcr     p15, 0, r0, c5, c0, 3       @ instruction access permissions

    @ Everything on: MPU (0), D-cache (2), I-cache (12), DTCM (16), ITCM (18).
    mrc     p15, 0, r0, c1, c0, 0
    ldr     r1, =0x00051005
    orr     r0, r0, r1
    mcr     p15, 0, r0, c1, c0, 0

    @ Stacks in DTCM, interrupts masked in every mode.
    mov     r0, #0xD2                   @ IRQ
    msr     cpsr_c, r0
    ldr     sp, =__irq_stack_top
    mov     r0, #0xD3                   @ SVC
    msr     cpsr_c, r0
    ldr     sp, =__svc_stack_top
    mov     r0, #0xDF                   @ SYS: where the program runs
    msr     cpsr_c, r0
    ldr     sp, =__sys_stack_top

    @ Copy hot code and data into the TCMs.
    ldr     r0, =__itcm_lma
    ldr     r1, =__itcm_start
    ldr     r2, =__itcm_end
    bl      .Lcopy
    ldr     r0, =__dtcm_lma
    ldr     r1, =__dtcm_start
    ldr     r2, =__dtcm_end
    bl      .Lcopy

    @ Zero .bss.
    ldr     r1, =__bss_start
    ldr     r2, =__bss_end
    mov     r3, #0
.Lzero:
    cmp     r1, r2
    strlo   r3, [r1], #4
    blo     .Lzero

    bl      rust_start
.Lhang:
    b       .Lhang

@ Copies words from r0 to r1 until r1 reaches r2.
.Lcopy:
    cmp     r1, r2
    ldrlo   r3, [r0], #4
    strlo   r3, [r1], #4
    blo     .Lcopy
    bx      lr
    .pool
"#
);

/// The CP15 control register, for the memory-setup self-test.
#[cfg(feature = "test-rom")]
pub fn cp15_control() -> u32 {
    let value: u32;
    // SAFETY: reading c1 has no side effects.
    unsafe { core::arch::asm!("mrc p15, 0, {0}, c1, c0, 0", out(reg) value) };
    value
}

/// The data and instruction cacheable bits (c2), one bit per MPU region.
#[cfg(feature = "test-rom")]
pub fn cp15_cacheable() -> (u32, u32) {
    let (d, i): (u32, u32);
    // SAFETY: reading c2 has no side effects.
    unsafe {
        core::arch::asm!("mrc p15, 0, {0}, c2, c0, 0", out(reg) d);
        core::arch::asm!("mrc p15, 0, {0}, c2, c0, 1", out(reg) i);
    }
    (d, i)
}

/// Runs `f` with main RAM's instruction cache off (MPU region 1's bit),
/// so the benchmark can show what the cache buys, and turns it back on
/// afterwards. The cache is invalidated at each switch.
#[cfg(feature = "bench-rom")]
pub fn with_main_ram_icache_off<R>(f: impl FnOnce() -> R) -> R {
    set_main_ram_icache_bits(0x00);
    let r = f();
    set_main_ram_icache_bits(0x02);
    r
}

#[cfg(feature = "bench-rom")]
fn set_main_ram_icache_bits(bits: u32) {
    // SAFETY: rewrites region 1's instruction-cacheable bit and invalidates
    // the I-cache; code keeps running because main RAM stays executable.
    unsafe {
        core::arch::asm!(
            "mcr p15, 0, {bits}, c2, c0, 1",
            "mcr p15, 0, {zero}, c7, c5, 0",
            bits = in(reg) bits,
            zero = in(reg) 0u32,
        )
    };
}

/// Where the current stack pointer is, for the memory-setup self-test.
#[cfg(feature = "test-rom")]
pub fn stack_pointer() -> u32 {
    let sp: u32;
    // SAFETY: copying sp into a register has no side effects.
    unsafe { core::arch::asm!("mov {0}, sp", out(reg) sp) };
    sp
}
