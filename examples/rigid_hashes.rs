//! The rigid scenarios' state hashes, as the ROM's build writes them for
//! the in-ROM determinism tests (`nds/arm9/build.rs`): run it before and
//! after a change that should not move a single bit.
//!
//! `cargo run --release --example rigid_hashes`

use dsphys::rigid::characters::armed_mine::{crawl_in, recover_in, ArmedMine};
use dsphys::rigid::characters::powered::{push_and_recover_in, PoweredRagdoll};
use dsphys::rigid::room::{box_of_boxes_shot_in, pyramid_shot_in, BoxWorld};
use dsphys::rigid::Settings;

fn main() {
    let mut mine = Box::new(ArmedMine::PLACEHOLDER);
    println!("MINE_CRAWL {:#010x}", crawl_in(&mut mine, 1200));
    let (recover, upright) = recover_in(&mut mine, 600);
    println!("MINE_RECOVER {recover:#010x} upright at {upright:?}");
    let mut powered = Box::new(PoweredRagdoll::PLACEHOLDER);
    println!(
        "POWERED_PUSH {:#010x}",
        push_and_recover_in(&mut powered, 120)
    );
    let mut boxes = Box::new(BoxWorld::empty(Settings::DEFAULT));
    println!("PYRAMID_SHOT {:#010x}", pyramid_shot_in(&mut *boxes, 150));
    let pile = box_of_boxes_shot_in(&mut *boxes, 45).expect("room for the pile");
    println!("BOX_OF_BOXES_SHOT {pile:#010x}");
}
