//! The constraint pass in ARM (`relax::approximate` for 16 particles).

use crate::relax::Link;

// The relaxation pass for 16 particles (`relax::approximate`), written
// so that nothing spills: the compiled loop kept the two particles'
// addresses, `d` and the pass's bounds in memory (about 150 DeSmuME
// cycles a correction, this about 110). The link's words come by
// load-multiple (in main RAM DeSmuME charges those 4 cycles a word and
// no cache miss; a link's first single load missed once a step).
//
// r0 q (16 particles of 16 bytes), r1 the link, r2 (and [sp]) the end
// of the links; per link r6/r7 the addresses of a and b, r8-r10 d (then
// 2d), r11 |d|^2 >> 16, then e. The correction is written out for each
// bound (`kernels_relax_correct`), so that neither path branches to it.
core::arch::global_asm!(
    r#"
    .section .text.kernels_relax_approximate16,"ax",%progbits
    .global kernels_relax_approximate16
    .type kernels_relax_approximate16,%function
    .arm
    .p2align 2

@ e in r11, 1/(2t^2) in r12, the link's first word in r3. Moves a by
@ round(d fa), b by -round(d fb), then goes on to the next link.
.macro kernels_relax_correct
    lsr   r3, r3, #16               @ ratio_a
    lsl   r11, r11, #4
    mov   r4, #0x80000000
    mov   r5, #0
    smlal r4, r5, r11, r12          @ r5 = frac = ((e << 4) k + 2^31) >> 32
    mov   r11, #2048
    mla   r4, r5, r3, r11           @ frac ratio + 2^11
    asr   r4, r4, #12               @ fa
    sub   r5, r5, r4                @ fb = frac - fa
    lsl   r8, r8, #1
    lsl   r9, r9, #1
    lsl   r10, r10, #1
    mov   r2, #1
    ldmia r6, {{r11, r12, lr}}
    smlawb r3, r8, r4, r2           @ 1 + floor(2d fa / 2^16)
    add   r11, r11, r3, asr #1
    smlawb r3, r9, r4, r2
    add   r12, r12, r3, asr #1
    smlawb r3, r10, r4, r2
    add   lr, lr, r3, asr #1
    stmia r6, {{r11, r12, lr}}
    ldmia r7, {{r11, r12, lr}}      @ b again: it may be a
    smlawb r3, r8, r5, r2
    sub   r11, r11, r3, asr #1
    smlawb r3, r9, r5, r2
    sub   r12, r12, r3, asr #1
    smlawb r3, r10, r5, r2
    sub   lr, lr, r3, asr #1
    stmia r7, {{r11, r12, lr}}
    ldr   r2, [sp]
    add   r1, r1, #32
    b     1b
.endm

@ fn(q: *mut [i32; 4], first: *const Link, end: *const Link) -> *const Link
kernels_relax_approximate16:
    push  {{r2, r4-r11, lr}}
1:
    cmp   r1, r2
    bhs   3f
    ldmia r1, {{r3, r4, r5}}        @ packed, min2, max2
    and   r6, r3, #15
    and   r7, r3, #0xf00
    add   r6, r0, r6, lsl #4        @ &q[a]
    add   r7, r0, r7, lsr #4        @ &q[b]
    ldmia r6, {{r8, r9, r10}}
    ldmia r7, {{r11, r12, lr}}
    sub   r8, r11, r8
    sub   r9, r12, r9
    sub   r10, lr, r10              @ d = q[b] - q[a]
    smull r11, r12, r8, r8
    smlal r11, r12, r9, r9
    smlal r11, r12, r10, r10        @ |d|^2, Q40
    movs  lr, r12, asr #15
    bne   2f                        @ at or above 2^47: slow
    lsr   r11, r11, #16
    orr   r11, r11, r12, lsl #16    @ |d|^2 >> 16, Q24
    cmp   r11, r5
    bgt   4f                        @ too long
    cmp   r11, r4
    addge r1, r1, #32
    bge   1b                        @ within its bounds
    add   lr, r1, #12               @ too short:
    ldmia lr, {{r5, r12}}           @ min2_lo, inv_2min2
    cmp   r11, r5
    blt   2f
    sub   r11, r11, r4              @ e = |d|^2 - min^2
    kernels_relax_correct
4:
    add   lr, r1, #20
    ldmia lr, {{r4, r12}}           @ max2_hi, inv_2max2
    cmp   r11, r4
    bgt   2f
    sub   r11, r11, r5              @ e = |d|^2 - max^2
    kernels_relax_correct
2:
    mov   r0, r1
    pop   {{r2, r4-r11, pc}}
3:
    mov   r0, r2
    pop   {{r2, r4-r11, pc}}
    .size kernels_relax_approximate16, . - kernels_relax_approximate16
"#
);

extern "C" {
    fn kernels_relax_approximate16(
        q: *mut [i32; 4],
        first: *const Link,
        end: *const Link,
    ) -> *const Link;
}

/// `q` as a 16-particle array when `N` is 16.
#[inline(always)]
pub(crate) fn as_sixteen<const N: usize>(q: &mut [[i32; 4]; N]) -> Option<&mut [[i32; 4]; 16]> {
    (&mut q[..]).try_into().ok()
}

/// [`crate::relax::approximate`] for 16 particles: the ARM pass.
#[inline(always)]
pub(crate) fn approximate16(links: &[Link], q: &mut [[i32; 4]; 16]) -> usize {
    let range = links.as_ptr_range();
    // SAFETY: the pass reads the links in `[start, end)` (seven words
    // each, `Link` being `repr(C)` and 32 bytes) and no further, and
    // reads and writes only `q`'s 16 particles: each index is masked to
    // 0..15 before it addresses `q`. It follows the AAPCS (r4-r11 and
    // the stack restored, its one stack word its own) and returns a
    // pointer into `[start, end]`.
    let stop = unsafe { kernels_relax_approximate16(q.as_mut_ptr(), range.start, range.end) };
    (stop as usize - range.start as usize) / core::mem::size_of::<Link>()
}
