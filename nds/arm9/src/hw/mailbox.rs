//! The results mailbox at its fixed address (see nds/mailbox/LAYOUT.md).

use mailbox::{Header, Mailbox, RomKind, RomState, BASE_ADDRESS, PANIC_MESSAGE_BYTES, TOTAL_SIZE};

/// Reserves the region so nothing else is linked there; the ROM always
/// writes through `BASE_ADDRESS`, an address the compiler cannot see
/// through, so no store is optimised away.
#[used]
#[link_section = ".mailbox"]
static mut RESERVED: core::mem::MaybeUninit<Mailbox> = core::mem::MaybeUninit::uninit();

/// Writes a fresh block and returns the only handle to it.
pub fn init(kind: RomKind) -> &'static mut Mailbox {
    static mut TAKEN: bool = false;
    // SAFETY: single core, no interrupt handler: this check-and-set is the
    // only access to TAKEN, so at most one &mut to the block is ever made.
    unsafe {
        assert!(!TAKEN, "mailbox initialised twice");
        TAKEN = true;
    }
    assert_eq!(
        core::ptr::addr_of!(RESERVED) as u32,
        BASE_ADDRESS,
        "linker.ld misplaced the mailbox"
    );
    let block = BASE_ADDRESS as *mut Mailbox;
    write_fresh(kind);
    // SAFETY: the linker reserves size_of::<Mailbox>() bytes of uncached
    // main RAM at BASE_ADDRESS for this alone, TAKEN makes this reference
    // unique, and write_fresh left every field a valid value (all are
    // plain integers and byte arrays).
    unsafe { &mut *block }
}

/// Host command word `index` (`mailbox::Header::host_command`), loaded
/// afresh on every call: the runner writes it from outside the program
/// while the ROM runs, so the compiler must not keep an old value.
pub fn host_command(mb: &Mailbox, index: usize) -> u32 {
    let word: *const u32 = &mb.header.host_command[index];
    // SAFETY: the pointer comes from a live reference, so it is valid and
    // aligned for a u32 read; volatile only forces the load.
    unsafe { word.read_volatile() }
}

/// Zeroes the block word by word in place (it is larger than the DS stack)
/// and writes a fresh header; the magic goes last, so a runner never sees
/// a half-written block with a valid magic.
fn write_fresh(kind: RomKind) {
    let words = BASE_ADDRESS as *mut u32;
    // SAFETY: BASE_ADDRESS..+TOTAL_SIZE is the reserved, always-mapped
    // mailbox region; raw volatile writes make no references.
    unsafe {
        for i in 0..TOTAL_SIZE / 4 {
            words.add(i).write_volatile(0);
        }
        let mut header = Header::new(kind);
        let magic = header.magic;
        header.magic = 0;
        (BASE_ADDRESS as *mut Header).write_volatile(header);
        words.write_volatile(magic);
    }
}

/// Records a panic with volatile byte writes, usable from the panic
/// handler even while the `init` handle is live elsewhere.
pub fn record_panic(message: &[u8]) {
    let block = BASE_ADDRESS as *mut Mailbox;
    let n = message.len().min(PANIC_MESSAGE_BYTES);
    // SAFETY: the block is always mapped main RAM; the program that held the
    // handle is stopped for good (we are in the panic handler), and these
    // raw, volatile field writes create no references.
    unsafe {
        if core::ptr::addr_of!((*block).header.magic).read_volatile() != mailbox::MAGIC {
            // A panic before init: make the block readable first.
            write_fresh(RomKind::Demo);
        }
        let panic = core::ptr::addr_of_mut!((*block).panic);
        let msg = core::ptr::addr_of_mut!((*panic).message) as *mut u8;
        for (i, byte) in message[..n].iter().enumerate() {
            msg.add(i).write_volatile(*byte);
        }
        for i in n..PANIC_MESSAGE_BYTES {
            msg.add(i).write_volatile(0);
        }
        core::ptr::addr_of_mut!((*panic).len).write_volatile(n as u32);
        core::ptr::addr_of_mut!((*block).header.state).write_volatile(RomState::Panicked as u32);
    }
}
