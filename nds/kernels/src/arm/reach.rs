//! The broad phase's kept-list test in ARM (`reach::to_gather` for 16
//! particles).

use fxcore::Fx1;

use crate::integrate::Motion;
use crate::reach::Bounds;

const _: () = assert!(core::mem::size_of::<Bounds>() == 24);

/// The step limit the loop has built in (`lim`, raw FX1: the engine's
/// `collision::MAX_STEP`, 2 m).
const LIM: u32 = 0x2000;

// About 60 DeSmuME cycles a particle against about 130 compiled: the
// positions and the box by load-multiples, each cut magnitude in four
// instructions, and no call per particle to gather (a mask).
//
// r0 &cur[i] (prev at +192), r1 &inner[i], r2 &inv_mass[i], r3 the end,
// r4 bit i, r5-r7 cur then v then a corner, r8-r10 prev, r11 the step,
// r12 scratch, lr the mask.
core::arch::global_asm!(
    r#"
    .section .text.kernels_reach_mask16,"ax",%progbits
    .global kernels_reach_mask16
    .type kernels_reach_mask16,%function
    .arm
    .p2align 2

@ \v = |\v| cut to 0x2000, in \out
.macro kernels_reach_cut v, out
    eor   \out, \v, \v, asr #31
    sub   \out, \out, \v, asr #31
    cmp   \out, #0x2000
    movhi \out, #0x2000
.endm

@ fn(cur: *const [i32; 3], inner: *const Bounds, inv: *const Fx1, end: *const [i32; 3]) -> u32
kernels_reach_mask16:
    push  {{r4-r11, lr}}
    mov   r4, #1
    mov   lr, #0
    cmp   r0, r3
    bhs   9f
1:
    ldr   r12, [r2], #4
    cmp   r12, #0
    beq   8f                         @ pinned
    add   r12, r0, #192
    ldmia r0, {{r5-r7}}              @ cur
    ldmia r12, {{r8-r10}}            @ prev
    sub   r5, r5, r8
    sub   r6, r6, r9
    sub   r7, r7, r10                @ v
    kernels_reach_cut r5, r11
    kernels_reach_cut r6, r12
    add   r11, r11, r12
    kernels_reach_cut r7, r12
    add   r11, r11, r12              @ the step
    ldmia r1, {{r5-r7}}              @ inner.lo
    sub   r12, r8, r11
    cmp   r5, r12
    bgt   8f
    sub   r12, r9, r11
    cmp   r6, r12
    bgt   8f
    sub   r12, r10, r11
    cmp   r7, r12
    bgt   8f
    add   r12, r1, #12
    ldmia r12, {{r5-r7}}             @ inner.hi
    add   r12, r8, r11
    cmp   r12, r5
    bgt   8f
    add   r12, r9, r11
    cmp   r12, r6
    bgt   8f
    add   r12, r10, r11
    cmp   r12, r7
    ble   7f
8:
    orr   lr, lr, r4                 @ to gather
7:
    add   r0, r0, #12
    add   r1, r1, #24
    lsl   r4, r4, #1
    cmp   r0, r3
    blo   1b
9:
    mov   r0, lr
    pop   {{r4-r11, pc}}
    .size kernels_reach_mask16, . - kernels_reach_mask16
"#
);

extern "C" {
    fn kernels_reach_mask16(
        cur: *const [i32; 3],
        inner: *const Bounds,
        inv: *const Fx1,
        end: *const [i32; 3],
    ) -> u32;
}

/// [`crate::reach::to_gather`] for 16 particles and the built-in step
/// limit: the ARM loop (`None` otherwise).
#[inline(always)]
pub(crate) fn to_gather16<const N: usize>(
    m: &Motion<N>,
    inv_mass: &[Fx1; N],
    inner: &[Bounds; N],
    len: usize,
    lim: u32,
) -> Option<u32> {
    if N != 16 || lim != LIM {
        return None;
    }
    let base = core::ptr::from_ref(m).cast::<[i32; 3]>();
    // SAFETY: `N` is 16 and `Motion<16>` is `repr(C)` with `prev` 192
    // bytes after `cur` (checked at compile time in `arm/integrate.rs`),
    // `Bounds` six words (`repr(C)`, checked above), all words valid as
    // `i32`. The loop only reads particles `0..len.min(16)` of `cur`,
    // `prev`, `inner` and `inv_mass`, through pointers derived from the
    // borrows it is given. It follows the AAPCS (r4-r11, lr restored).
    let mask = unsafe {
        kernels_reach_mask16(
            base,
            inner.as_ptr(),
            inv_mass.as_ptr(),
            base.wrapping_add(len.min(N)),
        )
    };
    Some(mask)
}
