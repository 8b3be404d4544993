//! A panic shows its message on both screens and in the results mailbox,
//! then the ARM9 waits forever: the runner sees state "panicked".

use crate::console::{draw_wrapped, TextBuf};
use crate::hw::video::{self, rgb, Screen, Surface};
use core::fmt::Write;

#[panic_handler]
fn panic(info: &core::panic::PanicInfo) -> ! {
    let mut text = TextBuf::<{ mailbox::PANIC_MESSAGE_BYTES }>::new();
    let _ = write!(text, "{}", info.message());
    if let Some(loc) = info.location() {
        let _ = write!(text, " at {}:{}", loc.file(), loc.line());
    }
    crate::hw::mailbox::record_panic(text.as_bytes());

    video::init();
    let (fg, bg) = (rgb(255, 255, 255), rgb(160, 0, 0));
    for screen in [Screen::Top, Screen::Bottom] {
        // SAFETY: nothing runs after the panic handler, so no other surface
        // of this screen is used again.
        let mut s = unsafe { Surface::steal(screen) };
        s.clear(bg);
        let row = draw_wrapped(&mut s, 0, "PANIC", fg, bg);
        draw_wrapped(&mut s, row + 1, text.as_str(), fg, bg);
    }
    loop {
        video::wait_vblank();
    }
}
