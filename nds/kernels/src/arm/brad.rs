//! The brads' regular path in ARM (`brad::build`).

use crate::brad::{Frame, Plan};
use fxcore::vec3::Vec3;

// The brads from `from` to `count`: per brad two particle pairs, a unit
// vector by table and Newton step, a cross product and its unit vector,
// another cross product, and four load/store-multiples into the frame.
// The compiled loop worked out each column's place and sign from the
// axes per brad and spilled around the unit vectors; here the plan holds
// byte offsets and flags, and the loop's state lives in a stack frame
// read by one load-multiple.
//
// Stack (after the pushes): [sp] x, plan, frame, k, count, table - 128,
// then at 24 whether the last brad's vectors are kept, at 28 those
// vectors (r0-r8 as the placement takes them: A in r0-r2, B in r3, r7,
// r8, C in r4-r6), at 64 the goal pair.
core::arch::global_asm!(
    r#"
    .section .text.kernels_brads,"ax",%progbits
    .global kernels_brads
    .type kernels_brads,%function
    .arm
    .p2align 2

@ 2^30 / sqrt(l) for l = \l in [2^28, 2^32) into \r (unit32::inv_sqrt),
@ table - 128 at [sp, #20]; \t1-\t3 scratch.
.macro kernels_brad_inv_sqrt r, l, t1, t2, t3
    ldr   \t1, [sp, #20]
    lsr   \t2, \l, #22
    add   \t1, \t1, \t2, lsl #1
    ldrh  \t1, [\t1]                @ y0
    mul   \t2, \t1, \t1
    umull \t3, \r, \l, \t2          @ h = l y0^2 >> 32
    rsb   \r, \r, #0x30000000       @ f = 3 2^28 - h
    umull \t3, \t2, \t1, \r         @ y0 f
    lsr   \r, \t3, #29
    orr   \r, \r, \t2, lsl #3       @ (y0 f) >> 29
.endm

@ \c = (\c \r + 2^17 + sign) >> 18 (unit32::scale, one component).
.macro kernels_brad_scale c, r, t
    mul   \t, \c, \r
    add   \c, \t, #0x20000
    add   \c, \c, \t, asr #31
    asr   \c, \c, #18
.endm

@ \c = (\c + 2^11 + sign) >> 12 (brad::lower, one component).
.macro kernels_brad_lower d, c
    add   \d, \c, #2048
    add   \d, \d, \c, asr #31
    asr   \d, \d, #12
.endm

@ \d = \a \b - \c \e.
.macro kernels_brad_det d, a, b, c, e, t
    mul   \d, \a, \b
    mul   \t, \c, \e
    sub   \d, \d, \t
.endm

@ fn(x: *const Vec3, plans: *const Plan, frames: *mut Frame, from: u32,
@    count: u32, table_less_128: *const u16) -> u32
kernels_brads:
    push  {{r4-r11, lr}}
    ldr   r4, [sp, #36]             @ count
    ldr   r5, [sp, #40]             @ table - 128
    sub   sp, sp, #76
    add   r1, r1, r3, lsl #3        @ plans + 8 from
    add   r12, r3, r3, lsl #1
    add   r2, r2, r12, lsl #4       @ frames + 48 from
    stmia sp, {{r0, r1, r2, r3, r4, r5}}
    mov   r12, #0
    str   r12, [sp, #24]            @ nothing kept
1:
    ldmia sp, {{r4, r5, r6, r7, r8}}
    cmp   r7, r8
    bhs   8f
    ldmia r5, {{r9, r10}}           @ the plan: pairs, then particle, columns, flags
    tst   r10, #0x08000000          @ twin of the previous?
    ldrne r11, [sp, #24]
    cmpne r11, #0
    bne   5f
    and   r11, r9, #0xff
    add   r11, r4, r11
    ldmia r11, {{r0, r1, r2}}       @ x[a0]
    and   r11, r9, #0xff00
    add   r11, r4, r11, lsr #8
    ldmia r11, {{r3, r12, lr}}      @ x[a1]
    qsub  r0, r3, r0
    qsub  r1, r12, r1
    qsub  r2, lr, r2                @ A pair
    and   r11, r9, #0xff0000
    add   r11, r4, r11, lsr #16
    ldmia r11, {{r3, r12, lr}}      @ x[g0]
    add   r8, r4, r9, lsr #24
    ldmia r8, {{r4, r9, r11}}       @ x[g1]
    qsub  r3, r4, r3
    qsub  r12, r9, r12
    qsub  lr, r11, lr               @ goal pair
    eor   r4, r0, r0, asr #31
    eor   r5, r1, r1, asr #31
    orr   r4, r4, r5
    eor   r5, r2, r2, asr #31
    orr   r4, r4, r5
    eor   r5, r3, r3, asr #31
    orr   r4, r4, r5
    eor   r5, r12, r12, asr #31
    orr   r4, r4, r5
    eor   r5, lr, lr, asr #31
    orr   r4, r4, r5
    cmp   r4, #0x8000
    bhs   7f                        @ a pair beyond 8 m: the engine clamps
    add   r4, sp, #64
    stmia r4, {{r3, r12, lr}}       @ the goal, for the near test
    @ A: unit_q12_pair.
    mul   r4, r0, r0
    mla   r4, r1, r1, r4
    mla   r4, r2, r2, r4            @ l = |a|^2
    cmp   r4, #0
    beq   7f                        @ zero A
    clz   r5, r4
    subs  r5, r5, #2
    movmi r5, #0
    bic   r5, r5, #1                @ e
    lsl   r4, r4, r5
    lsr   r5, r5, #1
    lsl   r0, r0, r5
    lsl   r1, r1, r5
    lsl   r2, r2, r5
    kernels_brad_inv_sqrt r8, r4, r5, r6, r7
    kernels_brad_scale r0, r8, r5
    kernels_brad_scale r1, r8, r5
    kernels_brad_scale r2, r8, r5   @ A unit
    @ C = A x goal, and whether the goal is clear of A.
    kernels_brad_det r4, r1, lr, r2, r12, r7
    kernels_brad_det r5, r2, r3, r0, lr, r7
    kernels_brad_det r6, r0, r12, r1, r3, r7
    kernels_brad_lower r3, r4
    kernels_brad_lower r12, r5
    kernels_brad_lower lr, r6       @ c1
    orr   r7, r3, r12
    orrs  r7, r7, lr
    beq   7f                        @ parallel
    eor   r7, r3, r3, asr #31
    eor   r8, r12, r12, asr #31
    orr   r7, r7, r8
    eor   r8, lr, lr, asr #31
    orr   r7, r7, r8
    cmp   r7, #1024
    blo   6f                        @ near parallel: the exact test
2:
    @ C: unit_q12.
    eor   r3, r4, r4, asr #31
    sub   r3, r3, r4, asr #31
    eor   r7, r5, r5, asr #31
    sub   r7, r7, r5, asr #31
    orr   r3, r3, r7
    eor   r7, r6, r6, asr #31
    sub   r7, r7, r6, asr #31
    orr   r3, r3, r7                @ the largest magnitude's bits
    clz   r3, r3
    rsbs  r3, r3, #17               @ s
    ble   3f
    sub   r7, r3, #1
    mov   r8, #1
    lsl   r7, r8, r7                @ half
    add   r8, r4, r7
    add   r8, r8, r4, asr #31
    asr   r4, r8, r3
    add   r8, r5, r7
    add   r8, r8, r5, asr #31
    asr   r5, r8, r3
    add   r8, r6, r7
    add   r8, r8, r6, asr #31
    asr   r6, r8, r3
    b     4f
3:
    rsb   r3, r3, #0
    lsl   r4, r4, r3
    lsl   r5, r5, r3
    lsl   r6, r6, r3
4:
    mul   r7, r4, r4
    mla   r7, r5, r5, r7
    mla   r7, r6, r6, r7            @ |w|^2
    kernels_brad_inv_sqrt r8, r7, r3, r9, r11
    kernels_brad_scale r4, r8, r3
    kernels_brad_scale r5, r8, r3
    kernels_brad_scale r6, r8, r3   @ C unit
    @ B = lower(C x A).
    kernels_brad_det r9, r5, r2, r6, r1, r3
    kernels_brad_det r11, r6, r0, r4, r2, r3
    kernels_brad_det r12, r4, r1, r5, r0, r3
    kernels_brad_lower r3, r9
    kernels_brad_lower r7, r11
    kernels_brad_lower r8, r12      @ B
    add   r9, sp, #28
    stmia r9, {{r0-r8}}             @ kept for a twin
    mov   r9, #1
    str   r9, [sp, #24]
9:
    @ Placement: A, B, C each with its sign, then the particle.
    ldr   r11, [sp, #8]             @ the frame
    tst   r10, #0x01000000
    rsbne r0, r0, #0
    rsbne r1, r1, #0
    rsbne r2, r2, #0
    and   r9, r10, #0xff00
    add   r12, r11, r9, lsr #8
    stmia r12, {{r0, r1, r2}}
    tst   r10, #0x02000000
    rsbne r3, r3, #0
    rsbne r7, r7, #0
    rsbne r8, r8, #0
    and   r12, r10, #0xff0000
    add   r0, r11, r12, lsr #16
    stmia r0, {{r3, r7, r8}}
    tst   r10, #0x04000000
    rsbne r4, r4, #0
    rsbne r5, r5, #0
    rsbne r6, r6, #0
    lsr   r9, r9, #8
    add   r9, r9, r12, lsr #16
    rsb   r9, r9, #36
    add   r9, r11, r9
    stmia r9, {{r4, r5, r6}}
    ldr   r0, [sp]
    and   r9, r10, #0xff
    add   r9, r0, r9
    ldmia r9, {{r4, r5, r6}}
    add   r9, r11, #36
    stmia r9, {{r4, r5, r6}}
    add   r9, sp, #4
    ldmia r9, {{r5, r6, r7}}
    add   r5, r5, #8
    add   r6, r6, #48
    add   r7, r7, #1
    stmia r9, {{r5, r6, r7}}
    b     1b
5:
    @ The twin of the brad before: its vectors, A and C negated when its
    @ A runs the other way.
    add   r9, sp, #28
    ldmia r9, {{r0-r8}}
    tst   r10, #0x10000000
    beq   9b
    rsb   r0, r0, #0
    rsb   r1, r1, #0
    rsb   r2, r2, #0
    rsb   r4, r4, #0
    rsb   r5, r5, #0
    rsb   r6, r6, #0
    stmia r9, {{r0-r8}}
    b     9b
6:
    @ |c1|^2 < ceil(|goal|^2 / 2^12): the goal is parallel to A.
    mul   r7, r3, r3
    mla   r7, r12, r12, r7
    mla   r7, lr, lr, r7
    add   r8, sp, #64
    ldmia r8, {{r3, r12, lr}}
    mul   r8, r3, r3
    mla   r8, r12, r12, r8
    mla   r8, lr, lr, r8
    add   r8, r8, #4096
    sub   r8, r8, #1
    lsr   r8, r8, #12
    cmp   r7, r8
    bhs   2b
7:
    ldr   r0, [sp, #12]             @ left to the engine
    add   sp, sp, #76
    pop   {{r4-r11, pc}}
8:
    mov   r0, r8
    add   sp, sp, #76
    pop   {{r4-r11, pc}}
    .size kernels_brads, . - kernels_brads
"#
);

extern "C" {
    fn kernels_brads(
        x: *const Vec3,
        plans: *const Plan,
        frames: *mut Frame,
        from: u32,
        count: u32,
        table_less_128: *const u16,
    ) -> u32;
}

/// [`crate::brad::build`] in ARM, for `from < plans.len()`, every plan's
/// particles within `x` and at least as many frames as plans.
#[inline(always)]
pub(crate) fn build(x: &[Vec3], plans: &[Plan], frames: &mut [Frame], from: usize) -> usize {
    const {
        assert!(core::mem::size_of::<Plan>() == 8);
        assert!(core::mem::size_of::<Vec3>() == 12);
        assert!(core::mem::size_of::<Frame>() == 48);
    }
    assert!(from < plans.len() && frames.len() >= plans.len());
    let table = crate::unit32::TABLE.as_ptr().wrapping_sub(64);
    // SAFETY: the pass reads the plans `from..count` (eight bytes each,
    // `Plan` being `repr(C)` of bytes) and, for each, the positions at
    // the byte offsets it holds, which `Plan::new` made multiples of 12
    // below 16 x 12 and the caller checked within `x` (`Plans::highest`);
    // it writes frame `k` (48 bytes: offsets 0, 12, 24 and 36, each
    // three words) for each brad `k` it builds, `k < count <=
    // frames.len()`; it reads the table at `(l >> 22) - 64` for `l` in
    // `[2^28, 2^32)`, that is 0..960, within `TABLE`. It follows the
    // AAPCS (r4-r11 and the stack restored; its 76 stack bytes its own)
    // and returns an index in `from..=count`.
    let stop = unsafe {
        kernels_brads(
            x.as_ptr(),
            plans.as_ptr(),
            frames.as_mut_ptr(),
            from as u32,
            plans.len() as u32,
            table,
        )
    };
    stop as usize
}
