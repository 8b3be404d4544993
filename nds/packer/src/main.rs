//! Command line: `ndspack --arm9 A.elf --arm7 B.elf -o out.nds` packs,
//! `ndspack check out.nds` validates.

use std::path::PathBuf;
use std::process::ExitCode;

use ndspack::{check_file, pack_files, Identity};

const USAGE: &str = "\
usage: ndspack --arm9 ARM9.elf --arm7 ARM7.elf -o OUT.nds
               [--title TITLE] [--game-code CODE] [--maker-code MK] [--rom-version N]
               [--banner BANNER.txt]
       ndspack check ROM.nds

  --title        up to 12 uppercase ASCII characters (default HOMEBREW)
  --game-code    4 uppercase letters/digits (default ####, ndstool's homebrew code)
  --maker-code   2 uppercase letters/digits (default 00)
  --rom-version  0..255 (default 0)
  --banner       the icon and title menus show (format: nds/packer/src/banner.rs;
                 default none)";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("check") => run_check(&args[1..]),
        Some("-h" | "--help") => {
            println!("{USAGE}");
            Ok(())
        }
        _ => run_pack(&args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(msg) => {
            eprintln!("ndspack: error: {msg}");
            ExitCode::FAILURE
        }
    }
}

fn run_check(args: &[String]) -> Result<(), String> {
    let [rom] = args else {
        return Err(format!("check takes exactly one ROM path\n{USAGE}"));
    };
    let info = check_file(rom.as_ref()).map_err(|e| e.to_string())?;
    println!("{rom}: OK\n{info}");
    Ok(())
}

fn run_pack(args: &[String]) -> Result<(), String> {
    let mut arm9 = None;
    let mut arm7 = None;
    let mut out = None;
    let mut title = "HOMEBREW".to_string();
    let mut game_code = "####".to_string();
    let mut maker_code = "00".to_string();
    let mut version = 0u8;
    let mut banner = None;

    let mut it = args.iter();
    while let Some(flag) = it.next() {
        let mut value = || {
            it.next()
                .cloned()
                .ok_or_else(|| format!("{flag} needs a value\n{USAGE}"))
        };
        match flag.as_str() {
            "--arm9" => arm9 = Some(PathBuf::from(value()?)),
            "--arm7" => arm7 = Some(PathBuf::from(value()?)),
            "-o" | "--output" => out = Some(PathBuf::from(value()?)),
            "--title" => title = value()?,
            "--game-code" => game_code = value()?,
            "--maker-code" => maker_code = value()?,
            "--banner" => banner = Some(PathBuf::from(value()?)),
            "--rom-version" => {
                let v = value()?;
                version = v
                    .parse()
                    .map_err(|_| format!("--rom-version {v:?}: not a number 0..255"))?;
            }
            other => return Err(format!("unknown argument {other:?}\n{USAGE}")),
        }
    }
    let missing = |what: &str| format!("missing {what}\n{USAGE}");
    let arm9 = arm9.ok_or_else(|| missing("--arm9"))?;
    let arm7 = arm7.ok_or_else(|| missing("--arm7"))?;
    let out = out.ok_or_else(|| missing("-o OUT.nds"))?;

    let id = Identity::new(&title, &game_code, &maker_code, version).map_err(|e| e.to_string())?;
    let rom = pack_files(&arm9, &arm7, &id, banner.as_deref()).map_err(|e| e.to_string())?;
    // Check what was written before anyone flashes it.
    let info = ndspack::check_rom(&rom).map_err(|e| format!("packed ROM fails its check: {e}"))?;
    std::fs::write(&out, &rom).map_err(|e| format!("cannot write {}: {e}", out.display()))?;
    println!("wrote {} ({} bytes)\n{info}", out.display(), rom.len());
    Ok(())
}
