//! What the ARM7 reads for us: X, Y, the lid and the touch screen, from
//! the shared block it fills once per frame (layout in the ARM7 crate).

#[path = "../../../arm7/src/input_block.rs"]
#[allow(dead_code)] // the ARM7's half of the layout (Calibration) is unused here
mod input_block;

pub use input_block::{InputBlock, EXT_LID_CLOSED, EXT_X, EXT_Y};

/// A consistent copy of the block, or `None` until the ARM7 has written
/// one. Retries while the ARM7 is mid-write (a few microseconds at most).
pub fn read() -> Option<InputBlock> {
    let block = input_block::ADDRESS as *const InputBlock;
    for _ in 0..64 {
        // SAFETY: ADDRESS is in the uncached main-RAM range that nothing is
        // linked into and only the ARM7 writes; volatile reads of plain
        // integers are always valid, and the sequence check below throws
        // away a torn copy.
        let (before, copy, after) = unsafe {
            let seq = core::ptr::addr_of!((*block).seq);
            let before = seq.read_volatile();
            let copy = block.read_volatile();
            (before, copy, seq.read_volatile())
        };
        if copy.magic != input_block::MAGIC {
            return None;
        }
        if before == after && before & 1 == 0 {
            return Some(copy);
        }
    }
    None
}
