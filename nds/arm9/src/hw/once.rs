//! Statics that hand out one `&'static mut` each: for state too large for
//! the 10 KiB DTCM stack (the scenes' ragdoll pool), taken once at start-up.

use core::cell::UnsafeCell;

pub struct TakeOnce<T> {
    taken: UnsafeCell<bool>,
    value: UnsafeCell<T>,
}

// SAFETY: the ARM9 program is single-threaded with interrupts off, and
// `take` gives out at most one reference, so sharing the static is sound.
unsafe impl<T> Sync for TakeOnce<T> {}

impl<T> TakeOnce<T> {
    pub const fn new(value: T) -> Self {
        TakeOnce {
            taken: UnsafeCell::new(false),
            value: UnsafeCell::new(value),
        }
    }

    /// The value, the first time only; `None` afterwards.
    #[allow(clippy::mut_from_ref)] // `taken` makes the one `&mut` unique
    pub fn take(&'static self) -> Option<&'static mut T> {
        // SAFETY: single core, no interrupt handler: nothing else reads or
        // writes `taken` meanwhile, and the flag makes the `&mut` unique.
        unsafe {
            if *self.taken.get() {
                return None;
            }
            *self.taken.get() = true;
            Some(&mut *self.value.get())
        }
    }
}
