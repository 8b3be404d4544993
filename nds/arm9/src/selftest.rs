//! The in-ROM test suite: each test runs on the DS itself, timed in bus
//! cycles, and its result goes to the mailbox for the runner to print.

mod cases;

use crate::console::{draw_text, TextBuf};
use crate::hw::timer;
use crate::hw::video::{rgb, Screen, Surface};
use crate::text;
use mailbox::{Mailbox, TestStatus, MAX_TESTS};

pub type Detail = TextBuf<{ mailbox::TEST_DETAIL_BYTES }>;
pub type Outcome = Result<Detail, Detail>;

/// Compares a scenario's DS hash with the host's (the `*_hash` tests).
pub fn compare_hash(frames: u32, got: u32, want: u32) -> Outcome {
    if got != want {
        return Err(text!(48; "DS {:#010x} host {:#010x}", got, want));
    }
    Ok(text!(48; "{} frames, hashes equal ({:#010x})", frames, got))
}

pub struct Test {
    pub name: &'static str,
    pub run: fn(&mut Mailbox) -> Outcome,
}

pub fn run_all(mb: &'static mut Mailbox) -> ! {
    let mut screen = Surface::take(Screen::Bottom).expect("bottom screen");
    let bg = rgb(16, 16, 32);
    screen.clear(bg);
    draw_text(&mut screen, 0, 0, "in-ROM tests", rgb(230, 230, 230), bg);
    let tests = cases::ALL;
    assert!(tests.len() <= MAX_TESTS);
    let (mut passed, mut failed) = (0, 0);
    for (i, test) in tests.iter().enumerate() {
        let t0 = timer::cycles();
        let outcome = (test.run)(mb);
        let cycles = timer::cycles().wrapping_sub(t0);
        crate::hw::stack_guard::check();
        let (status, detail, color) = match outcome {
            Ok(d) => (TestStatus::Pass, d, rgb(60, 200, 90)),
            Err(d) => (TestStatus::Fail, d, rgb(230, 40, 40)),
        };
        if status == TestStatus::Pass {
            passed += 1;
        } else {
            failed += 1;
        }
        let rec = &mut mb.tests[i];
        mailbox::write_str(&mut rec.name, test.name);
        mailbox::write_str(&mut rec.detail, detail.as_str());
        rec.cycles = cycles;
        rec.status = status as u32;
        mb.header.test_count = i as u32 + 1;
        let line =
            text!(42; "{} {}", if status == TestStatus::Pass { "ok  " } else { "FAIL" }, test.name);
        draw_text(&mut screen, 0, 1 + i % 15, line.as_str(), color, bg);
    }
    let summary = text!(42; "{} passed, {} failed", passed, failed);
    draw_text(&mut screen, 0, 16, summary.as_str(), rgb(230, 230, 230), bg);
    crate::finish(mb)
}
