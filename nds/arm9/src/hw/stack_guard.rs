//! A canary at the bottom of the ARM9's stack. The stack grows down in
//! DTCM towards the `.dtcm` data (`linker.ld`; it reserves at least
//! `__sys_stack_min`, 10 KiB, for the stack, and the rest of the 16 KiB
//! beyond the data is usable too) with no hardware guard: running into the
//! data, or off the bottom of DTCM, would corrupt state and hang silently.
//! At boot, [`arm`] fills the lowest free words above the data with a
//! pattern; [`check`] (every demo frame, after each in-ROM test) panics
//! with a message if any of them changed, so a stack that came within
//! 256 bytes of the data shows on screen and in the mailbox like any other
//! panic.

use core::ptr::{addr_of, read_volatile, write_volatile};

extern "C" {
    static __dtcm_end: u32;
    static __sys_stack_top: u32;
}

/// Words watched at the bottom: a stack that reaches them has 256 bytes
/// left before the data.
pub const WORDS: usize = 64;

const CANARY: u32 = 0x57AC_C0DE;

/// The watched words: the `WORDS` words just above the `.dtcm` data.
pub fn region() -> *mut u32 {
    // Only the symbol's address is used.
    addr_of!(__dtcm_end) as usize as *mut u32
}

/// Bytes of stack the guard allows: from the stack's top to the watched
/// words.
pub fn capacity() -> usize {
    addr_of!(__sys_stack_top) as usize - (region() as usize + WORDS * 4)
}

/// Words left unpainted under the caller's frame when arming.
const ARM_MARGIN_WORDS: usize = 64;

/// Writes the canary over every free stack word, from the data up to a
/// margin below the caller's frame: the bottom `WORDS` are the guard,
/// and the rest let [`peak_bytes`] measure how deep the stack has been.
/// Call once at boot, while the stack is shallow.
pub fn arm() {
    let base = region();
    let here = 0u32;
    // Only the local's address is used: it is inside the current frame.
    let sp = core::hint::black_box(&here) as *const u32 as usize;
    let words = ((sp - base as usize) / 4).saturating_sub(ARM_MARGIN_WORDS);
    for i in 0..words.max(WORDS) {
        // SAFETY: the words are free DTCM between the data and the
        // caller's frame (linker.ld keeps 10 KiB free above the data),
        // below the margin; nothing else uses them while the stack is
        // shallow.
        unsafe { write_volatile(base.add(i), CANARY) };
    }
}

/// The deepest the stack has been since [`arm`], in bytes below its top:
/// the lowest painted word that changed. A measurement, for the bench
/// (`stack.peak_bytes`): what DTCM the stack leaves free for data.
#[cfg(feature = "bench-rom")]
pub fn peak_bytes() -> usize {
    let base = region();
    let top = addr_of!(__sys_stack_top) as usize;
    let words = (top - base as usize) / 4;
    for i in 0..words {
        // SAFETY: as in `arm`: DTCM words between the data and the
        // stack's top, read only.
        if unsafe { read_volatile(base.add(i)) } != CANARY {
            return top - (base as usize + i * 4);
        }
    }
    0
}

/// Panics if the stack has grown past its limit since [`arm`].
pub fn check() {
    let base = region();
    for i in 0..WORDS {
        // SAFETY: as in `arm`: free DTCM words, read only.
        if unsafe { read_volatile(base.add(i)) } != CANARY {
            panic!(
                "stack overflow: the ARM9 stack used more than its {} bytes of DTCM; keep big state in statics",
                capacity()
            );
        }
    }
}
