//! The icon and title block that DS menus show for a ROM (GBATEK "DS
//! Cartridge Icon/Title"), version 1: 0x840 bytes.
//!
//! | offset | size | what |
//! |---|---|---|
//! | 0x000 | 2 | version (1) |
//! | 0x002 | 2 | CRC-16/MODBUS of 0x020..0x840 |
//! | 0x020 | 0x200 | 32x32 icon, 4 bits a pixel, 4x4 tiles of 8x8, low nibble first |
//! | 0x220 | 0x20 | 16 colours, BGR555 (colour 0 is transparent) |
//! | 0x240 | 6 x 0x100 | the title in Japanese, English, French, German, Italian, Spanish: UTF-16LE, lines split by '\n' |
//!
//! The source is a small text file (`assets/banner/banner.txt`):
//!
//! ```text
//! title: Ragdoll DS              (1 to 3 lines, 128 UTF-16 units in all)
//! colour 1: #1a2a5a              (colours 1..15, #rrggbb; 0 is transparent)
//! icon:                          (then 32 rows of 32 characters:
//! ....1111....                    '.' or '0' transparent, 1-9 a-f colours)
//! ```
//!
//! A mistake is an error naming the file, the line and the field.

use crate::crc::crc16_modbus;
use crate::error::{Error, Result};

pub const BANNER_LEN: usize = 0x840;
const ICON: usize = 0x20;
const PALETTE: usize = 0x220;
const TITLES: usize = 0x240;
const TITLE_LEN: usize = 0x100;
const LANGUAGES: usize = 6;
const SIDE: usize = 32;

/// A parsed banner source.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Banner {
    /// Title lines (joined by '\n' in the block).
    pub title: Vec<String>,
    /// BGR555 colours; 0 is transparent.
    pub palette: [u16; 16],
    /// Palette indices, row by row.
    pub icon: [[u8; SIDE]; SIDE],
}

impl Banner {
    /// Parses the text format; `file` names the source in errors.
    pub fn parse(file: &str, text: &str) -> Result<Banner> {
        let err = |line: usize, msg: String| Error::new(format!("{file}:{line}: {msg}"));
        let mut title = Vec::new();
        let mut palette = [0u16; 16];
        let mut icon = [[0u8; SIDE]; SIDE];
        let mut rows = 0usize;
        let mut in_icon = false;
        for (n, raw) in text.lines().enumerate() {
            let line = n + 1;
            if in_icon {
                if rows == SIDE {
                    if raw.trim().is_empty() {
                        continue;
                    }
                    return Err(err(line, "icon: more than 32 rows".into()));
                }
                let chars: Vec<char> = raw.trim_end().chars().collect();
                if chars.len() != SIDE {
                    return Err(err(
                        line,
                        format!("icon row {}: {} characters, want 32", rows + 1, chars.len()),
                    ));
                }
                for (x, c) in chars.into_iter().enumerate() {
                    icon[rows][x] = match c {
                        '.' => 0,
                        c => c.to_digit(16).ok_or_else(|| {
                            err(
                                line,
                                format!("icon row {}: {c:?} is not . or 0-9 a-f", rows + 1),
                            )
                        })? as u8,
                    };
                }
                rows += 1;
                continue;
            }
            let l = raw.trim();
            if l.is_empty() || l.starts_with('#') {
                continue;
            }
            let (key, value) = l
                .split_once(':')
                .ok_or_else(|| err(line, format!("{l:?}: want 'field: value'")))?;
            let (key, value) = (key.trim(), value.trim());
            if key == "title" {
                title.push(value.to_string());
            } else if key == "icon" {
                in_icon = true;
            } else if let Some(k) = key.strip_prefix("colour ") {
                let k: usize = k
                    .trim()
                    .parse()
                    .ok()
                    .filter(|k| (1..16).contains(k))
                    .ok_or_else(|| err(line, format!("{key}: the index must be 1..15")))?;
                palette[k] = bgr555(value).ok_or_else(|| {
                    err(line, format!("{key}: {value:?} is not a #rrggbb colour"))
                })?;
            } else {
                return Err(err(line, format!("unknown field {key:?}")));
            }
        }
        let end = text.lines().count();
        if rows != SIDE {
            return Err(err(end, format!("icon: {rows} rows, want 32")));
        }
        if title.is_empty() || title.len() > 3 {
            return Err(err(
                end,
                format!("title: {} lines, want 1 to 3", title.len()),
            ));
        }
        let units = title.join("\n").encode_utf16().count();
        if units > TITLE_LEN / 2 - 1 {
            return Err(err(
                end,
                format!("title: {units} UTF-16 units, at most 127"),
            ));
        }
        Ok(Banner {
            title,
            palette,
            icon,
        })
    }

    /// The 0x840-byte block, CRC included.
    pub fn build(&self) -> [u8; BANNER_LEN] {
        let mut b = [0u8; BANNER_LEN];
        b[0..2].copy_from_slice(&1u16.to_le_bytes());
        for (y, row) in self.icon.iter().enumerate() {
            for (x, &p) in row.iter().enumerate() {
                let (at, high) = pixel_offset(x, y);
                b[ICON + at] |= if high { p << 4 } else { p & 0xf };
            }
        }
        for (k, c) in self.palette.iter().enumerate() {
            b[PALETTE + 2 * k..PALETTE + 2 * k + 2].copy_from_slice(&c.to_le_bytes());
        }
        let title: Vec<u16> = self.title.join("\n").encode_utf16().collect();
        for lang in 0..LANGUAGES {
            let at = TITLES + lang * TITLE_LEN;
            for (k, u) in title.iter().enumerate() {
                b[at + 2 * k..at + 2 * k + 2].copy_from_slice(&u.to_le_bytes());
            }
        }
        let crc = crc16_modbus(&b[ICON..]);
        b[2..4].copy_from_slice(&crc.to_le_bytes());
        b
    }
}

/// The byte of icon pixel (x, y) within the icon, and whether it is the
/// high nibble: 8x8 tiles of 32 bytes, four tiles a row of tiles.
pub fn pixel_offset(x: usize, y: usize) -> (usize, bool) {
    let tile = (y / 8) * 4 + x / 8;
    let within = (y % 8) * 8 + x % 8;
    (tile * 32 + within / 2, within % 2 == 1)
}

/// `#rrggbb` as BGR555.
fn bgr555(s: &str) -> Option<u16> {
    let hex = s.strip_prefix('#').filter(|h| h.len() == 6)?;
    let v = u32::from_str_radix(hex, 16).ok()?;
    let (r, g, b) = ((v >> 16) & 0xff, (v >> 8) & 0xff, v & 0xff);
    Some(((b >> 3) << 10 | (g >> 3) << 5 | (r >> 3)) as u16)
}

/// Checks a banner block in a ROM: version 1 or more, and its CRC.
pub fn check(block: &[u8]) -> std::result::Result<(), String> {
    if block.len() < BANNER_LEN {
        return Err(format!(
            "icon/title block is {:#x} bytes, want {BANNER_LEN:#x}",
            block.len()
        ));
    }
    let version = u16::from_le_bytes([block[0], block[1]]);
    if version == 0 {
        return Err("icon/title block version is 0".into());
    }
    let stored = u16::from_le_bytes([block[2], block[3]]);
    let crc = crc16_modbus(&block[ICON..BANNER_LEN]);
    if stored != crc {
        return Err(format!(
            "icon/title CRC is {stored:#06x}, the data's is {crc:#06x}"
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn source(icon_row: &str, extra: &str) -> String {
        let mut s = String::from("title: Ragdoll DS\ntitle: physics\ncolour 1: #ff0000\n");
        s += extra;
        s += "icon:\n";
        for _ in 0..32 {
            s += icon_row;
            s += "\n";
        }
        s
    }

    #[test]
    fn a_pixel_lands_in_its_tile_and_nibble() {
        assert_eq!(pixel_offset(0, 0), (0, false));
        assert_eq!(pixel_offset(1, 0), (0, true));
        assert_eq!(pixel_offset(0, 1), (4, false));
        assert_eq!(pixel_offset(8, 0), (32, false));
        assert_eq!(pixel_offset(0, 8), (128, false));
        assert_eq!(pixel_offset(31, 31), (511, true));
    }

    #[test]
    fn the_block_has_version_crc_palette_and_titles() {
        let row = format!("1{}", ".".repeat(30)) + "f";
        let b = Banner::parse("t", &source(&row, "")).unwrap().build();
        assert_eq!(u16::from_le_bytes([b[0], b[1]]), 1);
        check(&b).unwrap();
        // Red is 0x001f in BGR555.
        assert_eq!(u16::from_le_bytes([b[0x222], b[0x223]]), 0x001f);
        // Pixel (0,0) is colour 1 (low nibble of the first byte); pixel
        // (31,0) colour 15, the high nibble of tile 3's first row's last byte.
        assert_eq!(b[0x20] & 0xf, 1);
        assert_eq!(b[0x20 + 3 * 32 + 3] >> 4, 0xf);
        // The English title (second slot): "Ragdoll DS\nphysics".
        let en: Vec<u16> = (0..18)
            .map(|k| u16::from_le_bytes([b[0x340 + 2 * k], b[0x341 + 2 * k]]))
            .collect();
        assert_eq!(String::from_utf16(&en).unwrap(), "Ragdoll DS\nphysics");
        // A flipped bit breaks the CRC.
        let mut bad = b;
        bad[0x300] ^= 1;
        assert!(check(&bad).unwrap_err().contains("CRC"));
    }

    #[test]
    fn mistakes_name_the_line_and_field() {
        let row = ".".repeat(32);
        let e = |s: &str| Banner::parse("b.txt", s).unwrap_err().to_string();
        assert!(e(&source(&row, "colour 16: #000000\n")).contains("b.txt:4: colour 16"));
        assert!(e(&source(&row, "colour 2: red\n")).contains("b.txt:4: colour 2"));
        assert!(e(&source(&row, "size: 3\n")).contains("b.txt:4: unknown field \"size\""));
        assert!(e(&source(&".".repeat(31), "")).contains("b.txt:5: icon row 1: 31 characters"));
        assert!(e(&source(&format!("{}g", ".".repeat(31)), "")).contains("icon row 1: 'g'"));
        let no_title = source(&row, "").replacen("title: Ragdoll DS\ntitle: physics\n", "", 1);
        assert!(e(&no_title).contains("title: 0 lines"));
        let short = source(&row, "")
            .lines()
            .take(20)
            .collect::<Vec<_>>()
            .join("\n");
        assert!(e(&short).contains("icon: 16 rows, want 32"));
    }
}
