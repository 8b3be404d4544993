//! The broad phase's kept-list test in ARM (`reach::first_to_gather` for
//! 16 particles).

use core::ops::Range;

use fxcore::Fx1;

use crate::integrate::Motion;
use crate::reach::Bounds;

const _: () = assert!(core::mem::size_of::<Bounds>() == 24);

/// What the loop reads and writes (`repr(C)`: the assembly's offsets).
#[repr(C)]
struct Frame {
    /// `&cur[from]`; on a stop, the stopping particle's.
    p: *const [i32; 3],
    /// `&inner[from]`.
    inner: *const Bounds,
    /// `&inv_mass[from]`.
    inv: *const Fx1,
    /// `&cur[range.end]`.
    end: *const [i32; 3],
    lim: u32,
}

// About 60 DeSmuME cycles a particle against about 130 compiled: the
// positions and the box by load-multiples, each cut magnitude in four
// instructions.
//
// r0 &cur[i] (prev at +192), r1 &inner[i], r2 &inv_mass[i], r3 the end,
// r4 lim, r5-r7 cur then v then a corner, r8-r10 prev, r11 the step,
// r12 scratch, lr the frame.
core::arch::global_asm!(
    r#"
    .section .text.kernels_reach_first16,"ax",%progbits
    .global kernels_reach_first16
    .type kernels_reach_first16,%function
    .arm
    .p2align 2

@ \v = |\v| cut to r4, in \out
.macro kernels_reach_cut v, out
    eor   \out, \v, \v, asr #31
    sub   \out, \out, \v, asr #31
    cmp   \out, r4
    movhi \out, r4
.endm

@ fn(frame: *mut Frame) -> u32 (0 none, 1 found)
kernels_reach_first16:
    push  {{r4-r11, lr}}
    mov   lr, r0
    ldmia r0, {{r0-r4}}
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
    bgt   8f
    add   r0, r0, #12
    add   r1, r1, #24
    cmp   r0, r3
    blo   1b
9:
    mov   r0, #0
    pop   {{r4-r11, pc}}
8:
    str   r0, [lr]
    mov   r0, #1
    pop   {{r4-r11, pc}}
    .size kernels_reach_first16, . - kernels_reach_first16
"#
);

extern "C" {
    fn kernels_reach_first16(frame: *mut Frame) -> u32;
}

/// [`crate::reach::first_to_gather`] for 16 particles: the ARM loop
/// (`None` for any other count).
#[inline(always)]
pub(crate) fn first_to_gather16<const N: usize>(
    m: &Motion<N>,
    inv_mass: &[Fx1; N],
    inner: &[Bounds; N],
    range: Range<usize>,
    lim: u32,
) -> Option<Option<usize>> {
    if N != 16 || range.start > range.end || range.end > N {
        return None;
    }
    let base = core::ptr::from_ref(m).cast::<[i32; 3]>();
    let mut f = Frame {
        p: base.wrapping_add(range.start),
        inner: inner.as_ptr().wrapping_add(range.start),
        inv: inv_mass.as_ptr().wrapping_add(range.start),
        end: base.wrapping_add(range.end),
        lim,
    };
    // SAFETY: `N` is 16 and `Motion<16>` is `repr(C)` with `prev` 192
    // bytes after `cur` (checked at compile time in `arm/integrate.rs`),
    // `Bounds` six words (`repr(C)`, checked above), all words valid as
    // `i32`. The loop only reads particles `range` of `cur`, `prev`,
    // `inner` and `inv_mass`, through pointers derived from the borrows
    // it is given, and writes `f.p`. It follows the AAPCS (r4-r11, lr
    // restored) and leaves `f.p` a particle of `range` when it returns 1.
    let found = unsafe { kernels_reach_first16(&mut f) } != 0;
    let at = (f.p as usize - base as usize) / core::mem::size_of::<[i32; 3]>();
    Some(found.then_some(at))
}
