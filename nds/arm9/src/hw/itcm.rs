//! ITCM overlays: the Verlet ragdolls' and the rigid bodies' per-frame
//! physics each fill most of the 32 KiB ITCM, so the two share it, and
//! the ROM copies in the one it is about to run (`linker.ld`).
//!
//! Call [`verlet`] or [`rigid`] before stepping that engine. Each is a
//! compare when the overlay is already in, and a copy from main RAM of
//! about 30 KiB (about 1.1 ms in melonDS) when it is not: the scenes load
//! theirs when they are selected, so a frame never pays it.
//! `ndspack` checks the rule when it packs the ROM: a function outside an
//! overlay that can reach it must call its loader, or be called only by
//! functions that do (`nds/packer/src/overlay.rs`; it finds the loaders by
//! these functions' symbol names).

use core::cell::Cell;

extern "C" {
    static __itcm_verlet_start: u32;
    static __itcm_verlet_end: u32;
    static __itcm_verlet_lma: u32;
    static __itcm_rigid_start: u32;
    static __itcm_rigid_end: u32;
    static __itcm_rigid_lma: u32;
}

/// No overlay is in at boot (crt0 copies only the shared part).
const NONE: u8 = 0;
const VERLET: u8 = 1;
const RIGID: u8 = 2;

/// The overlay in ITCM now.
struct Loaded(Cell<u8>);

// SAFETY: the ARM9 program is single-threaded, and the IRQ handler never
// touches this static.
unsafe impl Sync for Loaded {}

static LOADED: Loaded = Loaded(Cell::new(NONE));

/// Copies the words from `lma` to `start..end` (ITCM) unless overlay `id`
/// is already in.
#[inline(always)]
fn load(id: u8, start: *const u32, end: *const u32, lma: *const u32) {
    if LOADED.0.get() == id {
        return;
    }
    let words = (end as usize - start as usize) / 4;
    // SAFETY: the linker script places the overlay's image at `lma` in
    // main RAM and reserves `start..end` in ITCM for it (both word
    // aligned, `words` long, not overlapping). The caller runs in main RAM
    // and no code of either overlay is running (the loaders are called
    // between engine steps, never from inside one, and the IRQ handler
    // lives in ITCM's shared part). ITCM is not cached, so the next fetch
    // sees the new code.
    unsafe {
        core::ptr::copy_nonoverlapping(lma, start as *mut u32, words);
    }
    LOADED.0.set(id);
}

/// Puts the Verlet overlay into ITCM.
#[unsafe(no_mangle)]
#[inline(never)]
pub extern "C" fn itcm_overlay_verlet() {
    let (s, e, l) = (
        &raw const __itcm_verlet_start,
        &raw const __itcm_verlet_end,
        &raw const __itcm_verlet_lma,
    );
    load(VERLET, s, e, l);
}

/// Puts the rigid-body overlay into ITCM.
#[unsafe(no_mangle)]
#[inline(never)]
pub extern "C" fn itcm_overlay_rigid() {
    let (s, e, l) = (
        &raw const __itcm_rigid_start,
        &raw const __itcm_rigid_end,
        &raw const __itcm_rigid_lma,
    );
    load(RIGID, s, e, l);
}

/// [`itcm_overlay_verlet`], by a shorter name.
#[inline(always)]
pub fn verlet() {
    itcm_overlay_verlet();
}

/// [`itcm_overlay_rigid`], by a shorter name.
#[inline(always)]
pub fn rigid() {
    itcm_overlay_rigid();
}

/// The first word of the rigid overlay (`linker.ld`): with it, no function
/// of that overlay starts at the address where the Verlet overlay's first
/// one does.
#[used]
#[link_section = ".text.itcm_overlay_pad"]
static OVERLAY_PAD: u32 = 0;
