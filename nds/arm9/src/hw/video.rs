//! Both screens as 256x192 BGR555 bitmaps: the top screen is the main
//! engine's VRAM display (bank A), the bottom the sub engine's BG3 direct
//! bitmap (bank C). Simple and enough for text, bars and debug drawing.

use super::regs::*;

pub const WIDTH: usize = 256;
pub const HEIGHT: usize = 192;
const PIXELS: usize = WIDTH * HEIGHT;

const TOP_VRAM: usize = 0x0680_0000; // bank A in LCDC mode
const BOTTOM_VRAM: usize = 0x0620_0000; // bank C as sub BG

/// Which physical screen a surface shows on.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Screen {
    Top,
    Bottom,
}

/// Powers the LCDs and both 2D engines and maps the two bitmaps.
pub fn init() {
    // LCDs, 2D engine A, 2D engine B, and main engine on the top screen.
    POWCNT1.write(0x0001 | 0x0002 | 0x0200 | 0x8000);
    VRAMCNT_A.write(0x80); // enabled, LCDC
    DISPCNT.write(0x0002_0000); // display mode 2: VRAM bank A
    VRAMCNT_C.write(0x84); // enabled, sub BG at 0x06200000
    DISPCNT_SUB.write(0x0001_0000 | 5 | (1 << 11)); // graphics, mode 5, BG3 on
    BG3CNT_SUB.write(0x4084); // 256x256, direct-colour bitmap at offset 0
    BG3PA_SUB.write(0x100);
    BG3PB_SUB.write(0);
    BG3PC_SUB.write(0);
    BG3PD_SUB.write(0x100);
    BG3X_SUB.write(0);
    BG3Y_SUB.write(0);
}

/// Waits for the start of the next VBlank (line 192).
pub fn wait_vblank() {
    while VCOUNT.read() >= 192 {}
    while VCOUNT.read() < 192 {}
}

/// A screen's pixels. The sub engine's direct bitmap needs bit 15 set for
/// a pixel to show, so every write sets it (the main engine ignores it).
pub struct Surface {
    pixels: &'static mut [u16],
}

impl Surface {
    /// Each screen's surface exists once; a second call returns `None`.
    pub fn take(screen: Screen) -> Option<Surface> {
        static mut TAKEN: [bool; 2] = [false; 2];
        let i = screen as usize;
        // SAFETY: single core and no interrupt handler touches TAKEN, so this
        // check-and-set cannot race; it makes each slice below unique.
        let taken = unsafe { &mut *core::ptr::addr_of_mut!(TAKEN) };
        if taken[i] {
            return None;
        }
        taken[i] = true;
        // SAFETY: both banks are mapped by `init`, are PIXELS halfwords long,
        // and the flag above makes this the only reference to each.
        Some(unsafe { Surface::steal(screen) })
    }

    /// For the panic handler only, which may run while a surface is live.
    ///
    /// # Safety
    /// The caller must not use another surface of the same screen again.
    pub unsafe fn steal(screen: Screen) -> Surface {
        let addr = match screen {
            Screen::Top => TOP_VRAM,
            Screen::Bottom => BOTTOM_VRAM,
        };
        // SAFETY: per the contract above; VRAM is always mapped once `init` ran.
        let pixels = unsafe { core::slice::from_raw_parts_mut(addr as *mut u16, PIXELS) };
        Surface { pixels }
    }

    /// Pixels `x..x + w` of line `y`, clipped to the screen (empty below
    /// it): for writers that fill a span without a bounds check a pixel.
    #[inline]
    pub fn span_mut(&mut self, x: usize, y: usize, w: usize) -> &mut [u16] {
        if y >= HEIGHT {
            return &mut [];
        }
        let (x0, x1) = (x.min(WIDTH), (x + w).min(WIDTH));
        &mut self.pixels[y * WIDTH + x0..y * WIDTH + x1]
    }

    pub fn fill_rect(&mut self, x: usize, y: usize, w: usize, h: usize, color: u16) {
        let x1 = (x + w).min(WIDTH);
        let y1 = (y + h).min(HEIGHT);
        for row in y.min(HEIGHT)..y1 {
            self.pixels[row * WIDTH + x.min(WIDTH)..row * WIDTH + x1].fill(color | 0x8000);
        }
    }

    pub fn clear(&mut self, color: u16) {
        self.pixels.fill(color | 0x8000);
    }
}

/// BGR555 from 8-bit channels.
pub const fn rgb(r: u8, g: u8, b: u8) -> u16 {
    ((r as u16 >> 3) | ((g as u16 >> 3) << 5) | ((b as u16 >> 3) << 10)) | 0x8000
}
