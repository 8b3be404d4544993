//! Back from Q20 in ARM (`q20::from_q20` for 16 particles).

use fxcore::{Fx1, Vec3};

// About 32 DeSmuME cycles a particle against about 58 compiled: each
// array by load- and store-multiples, five instructions an axis.
//
// r0 &q[i], r1 &x[i], r2 &rem[i], r3 the end of q; r4-r6 q (r7 its
// padding), r8-r10 rem, r11, r12, lr the new position.
core::arch::global_asm!(
    r#"
    .section .text.kernels_q20_from16,"ax",%progbits
    .global kernels_q20_from16
    .type kernels_q20_from16,%function
    .arm
    .p2align 2

@ One axis: q in \q, rem in \r, the new FX1 position to \x.
.macro kernels_q20_axis q, r, x
    add   \x, \q, #128
    asr   \x, \x, #8                 @ (q + 128) >> 8
    sub   \q, \q, \x, lsl #8         @ what the rounding left out
    and   \r, \r, #15                @ the bits below Q20
    add   \r, \r, \q, lsl #4
.endm

@ fn(q: *const [i32; 4], x: *mut [i32; 3], rem: *mut [i32; 3], end: *const [i32; 4])
kernels_q20_from16:
    push  {{r4-r11, lr}}
1:
    ldmia r0!, {{r4-r7}}
    ldmia r2, {{r8-r10}}
    kernels_q20_axis r4, r8, r11
    kernels_q20_axis r5, r9, r12
    kernels_q20_axis r6, r10, lr
    stmia r1!, {{r11, r12, lr}}
    stmia r2!, {{r8-r10}}
    cmp   r0, r3
    blo   1b
    pop   {{r4-r11, pc}}
    .size kernels_q20_from16, . - kernels_q20_from16

@ fn(q: *const [i32; 4], masses: *const i32, end: *const [i32; 4], out: *mut [i64; 3])
@ r4:r5, r6:r7, r8:r9 the sums, r10-r12 q, lr the mass (the multiplier
@ whose size sets the multiply's time: a few kg is 13-16 bits).
    .section .text.kernels_q20_moment16,"ax",%progbits
    .global kernels_q20_moment16
    .type kernels_q20_moment16,%function
    .arm
    .p2align 2
kernels_q20_moment16:
    push  {{r4-r11, lr}}
    mov   r4, #0
    mov   r5, #0
    mov   r6, #0
    mov   r7, #0
    mov   r8, #0
    mov   r9, #0
1:
    ldmia r0, {{r10-r12}}
    add   r0, r0, #16
    ldr   lr, [r1], #4
    smlal r4, r5, r10, lr
    smlal r6, r7, r11, lr
    smlal r8, r9, r12, lr
    cmp   r0, r2
    blo   1b
    stmia r3, {{r4-r9}}
    pop   {{r4-r11, pc}}
    .size kernels_q20_moment16, . - kernels_q20_moment16
"#
);

extern "C" {
    fn kernels_q20_moment16(
        q: *const [i32; 4],
        masses: *const Fx1,
        end: *const [i32; 4],
        out: *mut [i64; 3],
    );
    fn kernels_q20_from16(
        q: *const [i32; 4],
        x: *mut Vec3,
        rem: *mut [i32; 3],
        end: *const [i32; 4],
    );
}

/// [`crate::q20::from_q20`] for 16 particles: the ARM loop (false, and
/// nothing written, for any other count).
#[inline(always)]
pub(crate) fn from_q20_16<const N: usize>(
    q: &[[i32; 4]; N],
    x: &mut [Vec3; N],
    rem: &mut [[i32; 3]; N],
) -> bool {
    if N != 16 {
        return false;
    }
    let range = q.as_ptr_range();
    // SAFETY: `N` is 16: the loop reads the 16 four-word slots of `q` in
    // `[start, end)` and writes the 16 slots of `x` (`Vec3` is `repr(C)`,
    // three words, checked in `arm/integrate.rs`) and `rem` (read and
    // written), through pointers derived from the borrows it is given.
    // It follows the AAPCS (r4-r11, lr restored).
    unsafe { kernels_q20_from16(range.start, x.as_mut_ptr(), rem.as_mut_ptr(), range.end) };
    true
}

/// [`crate::q20::moment`] for 16 particles: the ARM loop (`None` for any
/// other count).
#[inline(always)]
pub(crate) fn moment16<const N: usize>(q: &[[i32; 4]; N], masses: &[Fx1; N]) -> Option<[i64; 3]> {
    if N != 16 {
        return None;
    }
    let range = q.as_ptr_range();
    let mut sum = [0i64; 3];
    // SAFETY: `N` is 16: the loop reads the 16 slots of `q` in `[start,
    // end)` (three words of each four) and the 16 masses (`Fx1` is one
    // word, `repr(transparent)`), and writes the six words of `sum`
    // (each `i64` as low word, high word: little-endian). It follows the
    // AAPCS (r4-r11, lr restored).
    unsafe { kernels_q20_moment16(range.start, masses.as_ptr(), range.end, &mut sum) };
    Some(sum)
}
