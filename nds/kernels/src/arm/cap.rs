//! The speed cap's measure in ARM (`cap::measure` for 16 particles).

use core::ops::Range;

use crate::integrate::Motion;

/// What the loop reads and writes (`repr(C)`: the assembly's offsets).
#[repr(C)]
struct Frame {
    /// `&cur[from]`; on a stop, the stopping particle's.
    p: *const [i32; 3],
    /// `&cur[range.end]`.
    end: *const [i32; 3],
    within: u32,
    /// The fold so far; on return, the fold.
    moved: i32,
}

// About 33 DeSmuME cycles a particle, against 61 compiled: the position
// pair by two load-multiples, each magnitude in two instructions
// (`eor` and `sub` of the sign), no 64-bit work.
//
// r0 &cur[i] (prev at +192), r1 the end, r2 within, r3 moved, r4-r6 x,
// r7-r9 prev then d, r10 a magnitude, r12 the particle's largest, lr the
// frame.
core::arch::global_asm!(
    r#"
    .section .text.kernels_cap_measure16,"ax",%progbits
    .global kernels_cap_measure16
    .type kernels_cap_measure16,%function
    .arm
    .p2align 2

@ fn(frame: *mut Frame) -> u32 (0 done, 1 stopped)
kernels_cap_measure16:
    push  {{r4-r10, lr}}
    mov   lr, r0
    ldmia r0, {{r0-r3}}
    cmp   r0, r1
    bhs   9f
1:
    add   r12, r0, #192
    ldmia r0, {{r4-r6}}
    ldmia r12, {{r7-r9}}
    sub   r7, r4, r7
    sub   r8, r5, r8
    sub   r9, r6, r9                 @ d = cur - prev
    eor   r12, r7, r7, asr #31
    sub   r12, r12, r7, asr #31      @ |d.x|
    eor   r10, r8, r8, asr #31
    sub   r10, r10, r8, asr #31
    cmp   r12, r10
    movlo r12, r10
    eor   r10, r9, r9, asr #31
    sub   r10, r10, r9, asr #31
    cmp   r12, r10
    movlo r12, r10                   @ the largest, unsigned
    cmp   r12, r2
    bhi   8f                         @ beyond within
    cmp   r3, r12
    movlt r3, r12                    @ moved = max(moved, largest as i32)
    add   r0, r0, #12
    cmp   r0, r1
    blo   1b
9:
    str   r3, [lr, #12]
    mov   r0, #0
    pop   {{r4-r10, pc}}
8:
    str   r0, [lr]
    str   r3, [lr, #12]
    mov   r0, #1
    pop   {{r4-r10, pc}}
    .size kernels_cap_measure16, . - kernels_cap_measure16
"#
);

extern "C" {
    fn kernels_cap_measure16(frame: *mut Frame) -> u32;
}

/// [`crate::cap::measure`] for 16 particles: the ARM loop (`None` for
/// any other count).
#[inline(always)]
pub(crate) fn measure16<const N: usize>(
    m: &Motion<N>,
    range: Range<usize>,
    within: u32,
    moved: i32,
) -> Option<(i32, Option<usize>)> {
    if N != 16 || range.start > range.end || range.end > N {
        return None;
    }
    let base = core::ptr::from_ref(m).cast::<[i32; 3]>();
    let mut f = Frame {
        p: base.wrapping_add(range.start),
        end: base.wrapping_add(range.end),
        within,
        moved,
    };
    // SAFETY: `N` is 16 and `Motion<16>` is `repr(C)` with `prev` 192
    // bytes after `cur` (checked at compile time in `arm/integrate.rs`),
    // all words valid as `i32`. The loop only reads particles `range` of
    // `cur` and `prev`, through a pointer derived from the borrow it is
    // given, and writes `f`. It follows the AAPCS (r4-r10, lr and the
    // stack restored) and leaves `f.p` a particle of `range` when it
    // returns 1.
    let stopped = unsafe { kernels_cap_measure16(&mut f) } != 0;
    let at = (f.p as usize - base as usize) / core::mem::size_of::<[i32; 3]>();
    Some((f.moved, stopped.then_some(at)))
}
