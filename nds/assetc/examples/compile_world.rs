//! Compiles an OBJ collision world to Rust source and prints the build
//! report (what was dropped, the tree's shape).
//!
//! `cargo run -p assetc --example compile_world -- assets/worlds/stairs.obj STAIRS [out.rs]`
//! writes the source to `out.rs`, or to stdout without it.

use std::path::Path;
use std::process::ExitCode;

use assetc::kdtree_build::{compile_obj, emit_world_rs};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [obj, name, rest @ ..] = args.as_slice() else {
        eprintln!("usage: compile_world WORLD.obj NAME [OUT.rs]");
        return ExitCode::from(2);
    };
    let world = match compile_obj(Path::new(obj)) {
        Ok(w) => w,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    eprint!("{}", world.report);
    let src = emit_world_rs(name, &world);
    match rest.first() {
        Some(out) => {
            if let Err(e) = std::fs::write(out, src) {
                eprintln!("error: {out}: {e}");
                return ExitCode::FAILURE;
            }
        }
        None => print!("{src}"),
    }
    ExitCode::SUCCESS
}
