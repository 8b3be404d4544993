//! The word-aligned memory copies and clears the compiler calls
//! (`__aeabi_memcpy4/8`, `__aeabi_memclr4/8`, `__aeabi_memset4/8`), as
//! eight-register load and store multiples.
//!
//! Why: `compiler_builtins`' versions move a word per loop of four
//! instructions. The box scenes clear each contact patch's point slots
//! and copy 80-byte solver rows; `make insn-count PCPROFILE=boxes` gave
//! those loops 6 % of a shot pile's step. A store-multiple of eight
//! registers moves 32 bytes in one instruction (eight cycles in DTCM by
//! DeSmuME's rules, against five a word for the loop). These strong
//! definitions take the place of `compiler_builtins`' weak ones; the
//! unaligned `memcpy` and `memset` stay theirs.
//!
//! They live in sections named `.text.__aeabi_memclr4` and
//! `.text.__aeabi_memcpy4`, so that `linker.ld` puts them in the shared
//! part of ITCM with the rest of the `__aeabi_mem*` family.
//! The ARM EABI lets these clobber r0-r3 and r12; r4-r9 are saved.

core::arch::global_asm!(
    r#"
    .section .text.__aeabi_memclr4, "ax", %progbits
    .arm
    .p2align 2
    .global __aeabi_memclr4
    .global __aeabi_memclr8
    .type __aeabi_memclr4, %function
    .type __aeabi_memclr8, %function
@ (dest, n): dest word aligned.
__aeabi_memclr4:
__aeabi_memclr8:
    mov     r2, #0
    b       .Lmem_set_words
    .size __aeabi_memclr4, . - __aeabi_memclr4
    .size __aeabi_memclr8, . - __aeabi_memclr8

@ In the same section: the clears branch into it.
    .global __aeabi_memset4
    .global __aeabi_memset8
    .type __aeabi_memset4, %function
    .type __aeabi_memset8, %function
@ (dest, n, c): dest word aligned; every byte becomes c.
__aeabi_memset4:
__aeabi_memset8:
    and     r2, r2, #0xFF
    orr     r2, r2, r2, lsl #8
    orr     r2, r2, r2, lsl #16
.Lmem_set_words:
    push    {{r4, r5, r6, r7, lr}}
    mov     r3, r2
    mov     r4, r2
    mov     r5, r2
    mov     r6, r2
    mov     r7, r2
    mov     r12, r2
    mov     lr, r2
    subs    r1, r1, #32
    blo     2f
1:  stm     r0!, {{r2, r3, r4, r5, r6, r7, r12, lr}}
    subs    r1, r1, #32
    bhs     1b
@ Fewer than 32 bytes left: n's low five bits say which pieces.
2:  tst     r1, #16
    stmne   r0!, {{r2, r3, r4, r5}}
    tst     r1, #8
    stmne   r0!, {{r2, r3}}
    tst     r1, #4
    strne   r2, [r0], #4
    tst     r1, #2
    strhne  r2, [r0], #2
    tst     r1, #1
    strbne  r2, [r0]
    pop     {{r4, r5, r6, r7, pc}}
    .size __aeabi_memset4, . - __aeabi_memset4
    .size __aeabi_memset8, . - __aeabi_memset8

    .section .text.__aeabi_memcpy4, "ax", %progbits
    .arm
    .p2align 2
    .global __aeabi_memcpy4
    .global __aeabi_memcpy8
    .type __aeabi_memcpy4, %function
    .type __aeabi_memcpy8, %function
@ (dest, src, n): both word aligned, not overlapping.
__aeabi_memcpy4:
__aeabi_memcpy8:
    push    {{r4, r5, r6, r7, r8, r9, lr}}
    subs    r2, r2, #32
    blo     2f
1:  ldm     r1!, {{r3, r4, r5, r6, r7, r8, r9, r12}}
    stm     r0!, {{r3, r4, r5, r6, r7, r8, r9, r12}}
    subs    r2, r2, #32
    bhs     1b
2:  tst     r2, #16
    ldmne   r1!, {{r3, r4, r5, r6}}
    stmne   r0!, {{r3, r4, r5, r6}}
    tst     r2, #8
    ldmne   r1!, {{r3, r4}}
    stmne   r0!, {{r3, r4}}
    tst     r2, #4
    ldrne   r3, [r1], #4
    strne   r3, [r0], #4
    tst     r2, #2
    ldrhne  r3, [r1], #2
    strhne  r3, [r0], #2
    tst     r2, #1
    ldrbne  r3, [r1]
    strbne  r3, [r0]
    pop     {{r4, r5, r6, r7, r8, r9, pc}}
    .size __aeabi_memcpy4, . - __aeabi_memcpy4
    .size __aeabi_memcpy8, . - __aeabi_memcpy8
"#
);

#[cfg(feature = "test-rom")]
unsafe extern "C" {
    fn __aeabi_memcpy4(dest: *mut u8, src: *const u8, n: usize);
    fn __aeabi_memclr4(dest: *mut u8, n: usize);
    fn __aeabi_memset4(dest: *mut u8, n: usize, c: i32);
}

/// Bytes with an 8-byte aligned start.
#[cfg(feature = "test-rom")]
#[repr(align(8))]
struct Buf([u8; 144]);

/// Checks the routines against what they must do, byte by byte: every
/// length from 0 to 100 bytes, at starts aligned to 8 and to 4 only, with
/// the bytes around the range left alone. Returns the checks made, or
/// the routine and length of the first mismatch (the in-ROM test
/// `mem_routines_do_what_they_say`).
#[cfg(feature = "test-rom")]
pub fn check() -> Result<u32, (&'static str, usize)> {
    let mut checks = 0;
    let mut src = Buf([0; 144]);
    for (i, b) in src.0.iter_mut().enumerate() {
        *b = (i as u8).wrapping_mul(7).wrapping_add(3);
    }
    for off in [0usize, 4] {
        for n in 0..=100usize {
            let at = 16 + off;
            for (name, want) in [
                ("memcpy4", None),
                ("memclr4", Some(0u8)),
                ("memset4", Some(0x5Cu8)),
            ] {
                let mut dst = Buf([0xAA; 144]);
                let d = dst.0[at..].as_mut_ptr();
                // SAFETY: `at + n <= 116` and `off + n <= 104` stay inside
                // the 144-byte buffers; `d` and the source start are word
                // aligned (an 8-aligned buffer, offsets of 4 or 16 + 4);
                // the buffers do not overlap.
                unsafe {
                    match want {
                        None => __aeabi_memcpy4(d, src.0[off..].as_ptr(), n),
                        Some(0) => __aeabi_memclr4(d, n),
                        Some(c) => __aeabi_memset4(d, n, c as i32),
                    }
                }
                for (k, &b) in dst.0.iter().enumerate() {
                    let inside = (at..at + n).contains(&k);
                    let expected = match (inside, want) {
                        (false, _) => 0xAA,
                        (true, None) => src.0[off + k - at],
                        (true, Some(c)) => c,
                    };
                    if b != expected {
                        return Err((name, n));
                    }
                }
                checks += 1;
            }
        }
    }
    Ok(checks)
}
