//! Display lists to the geometry engine by DMA: channel 0 in the
//! "geometry command FIFO" start mode (GBATEK "DS DMA Transfers", start
//! timing 7), which moves 112 words whenever the GXFIFO is less than half
//! full, until the list is through, while the CPU goes on with other work.
//!
//! DMA reads main RAM, not the data cache, so the list's cache lines are
//! cleaned (written back) before the transfer starts. While a transfer
//! runs, nothing else may write a GX command (its words would land in the
//! middle of the list): a [`Transfer`] borrows the list and waits for the
//! end when it is dropped, so the list stays put and the caller waits
//! before its next GX command.

use super::reg::Reg;
use core::marker::PhantomData;

const DMA0SAD: Reg<u32> = Reg::at(0x0400_00B0);
const DMA0DAD: Reg<u32> = Reg::at(0x0400_00B4);
const DMA0CNT: Reg<u32> = Reg::at(0x0400_00B8);
/// The GXFIFO's packed-command port.
const GXFIFO: u32 = 0x0400_0400;

/// DMA0CNT: word count in bits 0-20; destination fixed (bits 21-22 = 2),
/// source incrementing, 32-bit units (bit 26), start on the geometry
/// command FIFO (bits 27-29 = 7), enable (bit 31).
const FIFO_MODE: u32 = 2 << 21 | 1 << 26 | 7 << 27 | 1 << 31;
const ENABLE: u32 = 1 << 31;
/// The largest word count (a count of 0 would mean 0x200000).
const MAX_WORDS: usize = (1 << 21) - 1;
/// The data cache's line size (ARM946E-S).
const CACHE_LINE: usize = 32;

/// A list on its way to the GXFIFO; waits for the end when dropped.
#[must_use = "dropping a Transfer waits for it at once"]
pub struct Transfer<'a> {
    _list: PhantomData<&'a [u32]>,
}

impl Transfer<'_> {
    /// Whether the DMA is still moving words.
    pub fn busy(&self) -> bool {
        DMA0CNT.read() & ENABLE != 0
    }

    /// Waits until the last word is in the FIFO (the geometry engine may
    /// still be running the last commands: see `gx::wait_idle`).
    pub fn wait(self) {}
}

impl Drop for Transfer<'_> {
    fn drop(&mut self) {
        while self.busy() {}
    }
}

/// Starts sending `words` (packed GX commands) to the GXFIFO. `None` for
/// an empty list.
pub fn send(words: &[u32]) -> Option<Transfer<'_>> {
    if words.is_empty() {
        return None;
    }
    clean(words);
    send_cleaned(words)
}

/// Writes the CPU's changes to `words` back to main RAM, where the DMA of
/// [`send_cleaned`] reads them.
pub fn clean(words: &[u32]) {
    clean_dcache(words.as_ptr() as usize, words.len() * 4);
}

/// [`send`] for a list whose changed words were passed to [`clean`]
/// since the CPU wrote them: a list that is mostly the same from frame
/// to frame cleans only the lines it changed. Words not cleaned go out as
/// main RAM holds them.
pub fn send_cleaned(words: &[u32]) -> Option<Transfer<'_>> {
    if words.is_empty() {
        return None;
    }
    assert!(
        words.len() <= MAX_WORDS,
        "display list too long for one DMA"
    );
    // A transfer left running would interleave with this one: wait it out.
    while DMA0CNT.read() & ENABLE != 0 {}
    let start = words.as_ptr() as usize;
    DMA0SAD.write(start as u32);
    DMA0DAD.write(GXFIFO);
    DMA0CNT.write(words.len() as u32 | FIFO_MODE);
    Some(Transfer { _list: PhantomData })
}

/// Writes the data cache's dirty lines over `[start, start + len)` back to
/// memory, then drains the write buffer, so that DMA reads what the CPU
/// wrote.
fn clean_dcache(start: usize, len: usize) {
    let mut line = start & !(CACHE_LINE - 1);
    while line < start + len {
        // SAFETY: CP15 c7,c10,1 (clean data-cache line by address) only
        // writes a dirty line back; memory and registers keep their values.
        // Not `nomem`: the compiler must have stored the list first.
        unsafe { core::arch::asm!("mcr p15, 0, {0}, c7, c10, 1", in(reg) line, options(nostack)) };
        line += CACHE_LINE;
    }
    // SAFETY: CP15 c7,c10,4 (drain write buffer) waits for buffered writes
    // to reach memory; it changes no state the program sees.
    unsafe { core::arch::asm!("mcr p15, 0, {0}, c7, c10, 4", in(reg) 0u32, options(nostack)) };
}
