//! The integration in ARM (`integrate::integrate` for 16 particles).

use core::mem::{offset_of, size_of, MaybeUninit};
use core::ops::Range;

use fxcore::{Fx1, Vec3};

use crate::integrate::{Left, Motion, Step, Stop, POSITION_LIMIT};

// The loop reaches a particle's `cur`, `prev` and `rem` from one pointer.
const _: () = assert!(size_of::<Vec3>() == 12 && size_of::<Fx1>() == 4);
const _: () = assert!(offset_of!(Motion<16>, prev) == 192 && offset_of!(Motion<16>, rem) == 384);
const _: () = assert!(POSITION_LIMIT + 1 == 0x10_0000);

/// What the loop reads and writes besides the arrays (`repr(C)`: the
/// assembly's offsets).
#[repr(C)]
struct Frame {
    /// `&cur[from]`; on a stop, the stopping particle's.
    p: *mut [i32; 3],
    /// `&q[from]`.
    q: *mut [i32; 4],
    /// `&inv_mass[from]`.
    inv: *const Fx1,
    /// `&cur[range.end]`.
    end: *const [i32; 3],
    damping: i32,
    /// `2048 - g dt^2`: the y axis' rounding bias and gravity in one add.
    g_bias: i32,
    within: i32,
    /// A finishing particle's move.
    disp: [i32; 3],
}

// One particle a turn, nothing spilled: the compiled loop read each
// position as three loads and kept its 64-bit sums in memory (about 195
// DeSmuME cycles a particle, this about 110). Each axis is one SMLAL of
// the velocity by the damping onto `rem + 2048 (+ gravity)`; the new
// remainder is the low 12 bits of that sum minus 2048 (bit 11 flipped,
// sign-extended from bit 11: `lsl #20`, `eor`, `asr #20`).
//
// r0 &cur[i] (prev at +192, rem at +384), r1 &q[i], r2 &inv_mass[i],
// r3 the end; r4-r6 x, then x + move, then q; r7 the new positions'
// spread, then 0; r8-r10 v, then the move; r11:r12 the 64-bit sum; lr
// the damping. [sp] the frame, [sp, #4] g_bias, [sp, #8] within.
core::arch::global_asm!(
    r#"
    .section .text.kernels_integrate16,"ax",%progbits
    .global kernels_integrate16
    .type kernels_integrate16,%function
    .arm
    .p2align 2

@ One axis: v in \v, x in \x, the 64-bit sum's low word already holding
@ rem + bias. Leaves the move in \v, q in \x, rem stored.
.macro kernels_integrate_axis v, x, off
    asr   r12, r11, #31
    smlal r11, r12, lr, \v           @ rem + bias + v damping (64 bits)
    lsr   \v, r11, #12
    orr   \v, \v, r12, lsl #20       @ move
    lsl   r11, r11, #20
    eor   r11, r11, #0x80000000      @ new rem << 20
    asr   r12, r11, #20
    str   r12, [r0, #\off]
    add   \x, \x, \v                 @ the new position
.endm

@ fn(frame: *mut Frame) -> u32 (0 done, 1 pinned, 2 finish)
kernels_integrate16:
    push  {{r4-r11, lr}}
    ldr   r4, [r0, #20]
    ldr   r5, [r0, #24]
    push  {{r0, r4, r5}}
    ldr   lr, [r0, #16]
    ldmia r0, {{r0-r3}}
    cmp   r0, r3
    bhs   9f
1:
    ldr   r11, [r2], #4
    cmp   r11, #0
    beq   7f                         @ pinned
    add   r12, r0, #192
    ldmia r0, {{r4-r6}}              @ x
    ldmia r12, {{r8-r10}}            @ prev
    sub   r8, r4, r8
    sub   r9, r5, r9
    sub   r10, r6, r10               @ v = x - prev
    stmia r12, {{r4-r6}}             @ prev = x
    ldr   r11, [r0, #384]
    add   r11, r11, #2048
    kernels_integrate_axis r8, r4, 384
    eor   r7, r4, r4, asr #31
    lsl   r4, r4, #8
    add   r4, r4, r11, asr #24       @ q = (x << 8) + (rem >> 4)
    ldr   r11, [r0, #388]
    ldr   r12, [sp, #4]
    add   r11, r11, r12
    kernels_integrate_axis r9, r5, 388
    eor   r12, r5, r5, asr #31
    orr   r7, r7, r12
    lsl   r5, r5, #8
    add   r5, r5, r11, asr #24
    ldr   r11, [r0, #392]
    add   r11, r11, #2048
    kernels_integrate_axis r10, r6, 392
    eor   r12, r6, r6, asr #31
    orr   r7, r7, r12
    lsl   r6, r6, #8
    add   r6, r6, r11, asr #24
    add   r7, r7, #1
    cmp   r7, #0x100000
    bhs   8f                         @ at or beyond the limit
    eor   r11, r8, r8, asr #31
    eor   r12, r9, r9, asr #31
    orr   r11, r11, r12
    eor   r12, r10, r10, asr #31
    orr   r11, r11, r12
    ldr   r12, [sp, #8]
    cmp   r11, r12
    bgt   8f                         @ perhaps over the cap
    mov   r7, #0
    stmia r1!, {{r4-r7}}
    add   r0, r0, #12
    cmp   r0, r3
    blo   1b
9:
    mov   r0, #0
    add   sp, sp, #12
    pop   {{r4-r11, pc}}
7:
    mov   r11, #1
    b     10f
8:
    ldr   r12, [sp]
    add   r12, r12, #28
    stmia r12, {{r8-r10}}            @ the move
    mov   r11, #2
10:
    ldr   r12, [sp]
    str   r0, [r12]                  @ where it stopped
    mov   r0, r11
    add   sp, sp, #12
    pop   {{r4-r11, pc}}
    .size kernels_integrate16, . - kernels_integrate16
"#
);

extern "C" {
    fn kernels_integrate16(frame: *mut Frame) -> u32;
}

/// True when the ARM loop serves `N` particles and `step`: 16 of them,
/// gravity below 2^30 (`g_bias` fits a word).
#[inline(always)]
pub(crate) fn fits<const N: usize>(step: &Step) -> bool {
    N == 16 && step.g_dt2.unsigned_abs() < 1 << 30
}

/// [`crate::integrate::integrate`] for 16 particles: the ARM loop,
/// writing the slots of `range` it steps at `q` (16 four-word slots,
/// which need not be initialised). `None` where it does not [`fits`].
#[inline(always)]
pub(crate) fn integrate16<const N: usize>(
    m: &mut Motion<N>,
    inv_mass: &[Fx1; N],
    range: Range<usize>,
    step: &Step,
    q: *mut [i32; 4],
) -> Option<Stop> {
    if !fits::<N>(step) || range.start > range.end || range.end > N {
        return None;
    }
    let base = core::ptr::from_mut(m).cast::<[i32; 3]>();
    let mut f = Frame {
        // `wrapping_add`: in bounds (range.end <= N), and no unsafe.
        p: base.wrapping_add(range.start),
        q: q.wrapping_add(range.start),
        inv: inv_mass.as_ptr().wrapping_add(range.start),
        end: base.wrapping_add(range.end),
        damping: step.damping,
        g_bias: 2048 - step.g_dt2,
        within: step.within,
        disp: [0; 3],
    };
    // SAFETY: `N` is 16 and `Motion<16>` is `repr(C)`: `cur`, `prev`
    // and `rem` are 16 three-word particles each, at 0, 192 and 384
    // bytes (checked above at compile time), all words valid as `i32`
    // and as `Fx1` (`repr(transparent)` over `i32`). The loop reads and
    // writes particles `range` of those arrays through a pointer derived
    // from the `&mut` it is given, writes only their slots at `q` (the
    // callers' 16-slot array), reads `inv_mass[range]` and writes `f`.
    // It follows the AAPCS (r4-r11, lr and the stack restored) and
    // leaves `f.p` a particle of `range` whenever it returns non-zero.
    let code = unsafe { kernels_integrate16(&mut f) };
    let i = (f.p as usize - base as usize) / size_of::<[i32; 3]>();
    Some(match code {
        0 => Stop::Done,
        1 => Stop::Still(i),
        _ => Stop::Finish(i, f.disp),
    })
}

/// [`crate::integrate::integrate_all`] where the ARM loop [`fits`]: it
/// writes `out` in place, `left` the slots it hands back and those from
/// `len` on.
#[inline(always)]
pub(crate) fn integrate_all16<'q, const N: usize>(
    m: &mut Motion<N>,
    inv_mass: &[Fx1; N],
    len: usize,
    step: &Step,
    left: &mut impl FnMut(&mut Motion<N>, Left) -> [i32; 4],
    out: &'q mut MaybeUninit<[[i32; 4]; N]>,
) -> &'q mut [[i32; 4]; N] {
    let len = len.min(N);
    let slots = out.as_mut_ptr().cast::<[i32; 4]>();
    let mut from = 0;
    while from < len {
        let (i, slot) = match integrate16(m, inv_mass, from..len, step, slots) {
            Some(Stop::Done) | None => break,
            Some(Stop::Still(i)) => (i, Left::Still(i)),
            Some(Stop::Finish(i, disp)) => (i, Left::Finish(i, disp)),
        };
        // SAFETY: `i < len <= N`: a slot of the array.
        unsafe { slots.add(i).write(left(m, slot)) };
        from = i + 1;
    }
    for i in len..N {
        // SAFETY: `i < N`: a slot of the array.
        unsafe { slots.add(i).write(left(m, Left::Still(i))) };
    }
    // SAFETY: every slot is written: below `len` by the loop (each one it
    // steps) or by `left` (each one it stops at), from `len` on by `left`.
    // The caller checked that the loop `fits`, and `from..len` is always
    // within `0..=N`, so `integrate16` never returned `None`.
    unsafe { out.assume_init_mut() }
}
