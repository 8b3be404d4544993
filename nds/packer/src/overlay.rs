//! ITCM overlays: output sections named `.itcm_<name>` that share their
//! run addresses (the ARM9's `linker.ld`), each copied into ITCM by the
//! ROM's loader `itcm_overlay_<name>` before its code runs.
//!
//! A branch into an overlay from a function that never calls that
//! overlay's loader would run whichever overlay happens to be in ITCM:
//! a crash that only some paths take. So the packer refuses a ROM where:
//! - a function outside the overlays branches (`B`, `BL`, `BLX`) into
//!   one, or keeps the address of one of its functions in its literal
//!   pool, and neither it nor every function that calls it (up to one
//!   that is called through a pointer, or by nothing) calls that
//!   overlay's loader;
//! - a branch target in the overlays' range is not the start of an
//!   overlay's function;
//! - a function inside an overlay branches into another one;
//! - read-only or initialised data holds the address of an overlay
//!   function (a function pointer nobody guards).
//!
//! Overlays share their run addresses, so two of them can start a
//! function at the same address, and a branch from main RAM to it names
//! either. The ROM is linked with `--emit-relocs` (`.cargo/config.toml`):
//! the relocation of the branch (or literal) says which section the
//! linker meant, and only that overlay's function counts. Without
//! relocations every overlay starting a function there counts, so the
//! caller must be guarded for each.
//!
//! Limits: ARM code only (`$a` mapping symbols; the ROM has no Thumb
//! code). A function that calls the loader counts as guarded wherever in
//! it the call is, and a path that loads one overlay and then the other
//! before the branch is not caught. Calls through a register reach only
//! functions whose address is taken, which count as entry points.
//! Enough for how the ROM uses the loaders: the first thing an engine
//! step or a test case does.

use std::collections::HashMap;

use object::{Object, ObjectSection, ObjectSymbol, RelocationTarget, SectionKind};

/// One overlay: its name (after `.itcm_`), run addresses and section.
struct Overlay {
    name: String,
    start: u32,
    end: u32,
    section: object::SectionIndex,
}

/// A function symbol.
struct Func {
    name: String,
    start: u32,
    end: u32,
    section: object::SectionIndex,
}

/// The target of an ARM `B`, `BL` or `BLX` (immediate) at `addr`, or
/// `None` for any other instruction.
pub fn branch_target(addr: u32, word: u32) -> Option<u32> {
    if (word >> 25) & 7 != 0b101 {
        return None;
    }
    let offset = (((word & 0x00ff_ffff) << 8) as i32 >> 6) as u32;
    let target = addr.wrapping_add(8).wrapping_add(offset);
    if word >> 28 == 0xf {
        // BLX: to Thumb, with H as bit 1 of the target.
        Some(target.wrapping_add((word >> 23) & 2))
    } else {
        Some(target)
    }
}

/// Checks the rule of the module docs on the ARM9 ELF `data`; the error
/// names the function, the overlay and what to do.
pub fn check(data: &[u8]) -> Result<(), String> {
    let file = object::File::parse(data).map_err(|e| format!("malformed ELF ({e})"))?;
    let overlays: Vec<Overlay> = file
        .sections()
        .filter_map(|s| {
            let name = s.name().ok()?.strip_prefix(".itcm_")?.to_string();
            Some(Overlay {
                name,
                start: s.address() as u32,
                end: (s.address() + s.size()) as u32,
                section: s.index(),
            })
        })
        .collect();
    if overlays.is_empty() {
        return Ok(());
    }
    let (funcs, marks) = symbols(&file);
    let graph = Graph::build(&file, &overlays, &funcs, &marks)?;
    let mut errors = graph.errors;
    for (k, o) in overlays.iter().enumerate() {
        let loader = funcs
            .iter()
            .position(|f| f.name == format!("itcm_overlay_{}", o.name));
        let guarded = guarded(&funcs, &overlays, &graph.callers, &graph.roots, k, loader);
        for &(f, g) in &graph.edges {
            let runs_it = overlays[k].section == funcs[g].section;
            if runs_it && home(&overlays, &funcs[f]).is_none() && !guarded[f] {
                let from: Vec<&str> = entries(&graph.callers, &graph.roots, &guarded, f)
                    .into_iter()
                    .map(|e| funcs[e].name.as_str())
                    .collect();
                errors.push(format!(
                    "{} runs {} of ITCM overlay `{}` on paths from {} that never call \
                     itcm_overlay_{} (nds/arm9/src/hw/itcm.rs)",
                    funcs[f].name,
                    funcs[g].name,
                    o.name,
                    from.join(", "),
                    o.name
                ));
            }
        }
    }
    errors.sort();
    errors.dedup();
    if errors.is_empty() {
        Ok(())
    } else {
        Err(format!("ITCM overlays: {}", errors.join("; ")))
    }
}

/// Where the unguarded paths to `f` start: up its unguarded callers to
/// those called through a pointer or by nothing.
fn entries(callers: &[Vec<usize>], roots: &[bool], guarded: &[bool], f: usize) -> Vec<usize> {
    let mut seen = vec![false; callers.len()];
    let (mut stack, mut out) = (vec![f], Vec::new());
    while let Some(at) = stack.pop() {
        if std::mem::replace(&mut seen[at], true) {
            continue;
        }
        let up: Vec<usize> = callers[at]
            .iter()
            .copied()
            .filter(|&c| !guarded[c])
            .collect();
        if roots[at] || up.is_empty() {
            out.push(at);
        }
        stack.extend(up);
    }
    out
}

/// Function symbols, and the mapping symbols (section, address, ARM code
/// from there on) sorted by section and address.
fn symbols(file: &object::File) -> (Vec<Func>, Vec<(object::SectionIndex, u32, bool)>) {
    let mut funcs = Vec::new();
    let mut marks = Vec::new();
    for sym in file.symbols() {
        let (Ok(name), Some(section)) = (sym.name(), sym.section_index()) else {
            continue;
        };
        let addr = sym.address() as u32;
        if name == "$a" || name.starts_with("$a.") {
            marks.push((section, addr, true));
        } else if name.starts_with("$d") || name.starts_with("$t") {
            marks.push((section, addr, false));
        } else if sym.kind() == object::SymbolKind::Text && sym.size() > 0 {
            funcs.push(Func {
                name: name.to_string(),
                start: addr,
                end: addr + sym.size() as u32,
                section,
            });
        }
    }
    marks.sort_by_key(|m| (m.0 .0, m.1));
    (funcs, marks)
}

/// The overlay (index) a function is in, if any.
fn home(overlays: &[Overlay], f: &Func) -> Option<usize> {
    overlays.iter().position(|o| o.section == f.section)
}

/// Direct calls and branches between functions, by index.
struct Graph {
    /// (caller, callee), each pair once, self-calls left out.
    edges: Vec<(usize, usize)>,
    /// Each function's callers.
    callers: Vec<Vec<usize>>,
    /// Functions whose address is taken (called through a pointer): their
    /// callers are unknown.
    roots: Vec<bool>,
    errors: Vec<String>,
}

impl Graph {
    fn build(
        file: &object::File,
        overlays: &[Overlay],
        funcs: &[Func],
        marks: &[(object::SectionIndex, u32, bool)],
    ) -> Result<Graph, String> {
        let (lo, hi) = (
            overlays.iter().map(|o| o.start).min().unwrap_or(0),
            overlays.iter().map(|o| o.end).max().unwrap_or(0),
        );
        let in_overlays = |t: u32| (lo..hi).contains(&t);
        let meant = relocation_sections(file);
        // Functions by start address: outside the overlays, unique; in
        // them, one per overlay that starts a function there.
        let mut by_start: Vec<(u32, usize)> = funcs
            .iter()
            .enumerate()
            .map(|(k, f)| (f.start, k))
            .collect();
        by_start.sort_unstable();
        let starting = |t: u32| {
            let from = by_start.partition_point(|e| e.0 < t);
            by_start[from..]
                .iter()
                .take_while(move |e| e.0 == t)
                .map(|e| e.1)
        };
        // The functions a target names: in the overlays' range, each
        // overlay's function starting there (two overlays can start one
        // at the same address; which runs depends on the overlay loaded);
        // elsewhere, the one starting there.
        let resolve = |t: u32| -> Result<Vec<usize>, String> {
            if in_overlays(t) {
                let owners: Vec<usize> = starting(t)
                    .filter(|&k| home(overlays, &funcs[k]).is_some())
                    .collect();
                if owners.is_empty() {
                    return Err(format!(
                        "{t:#010x}, not the start of an ITCM overlay's function"
                    ));
                }
                return Ok(owners);
            }
            Ok(starting(t)
                .find(|&k| home(overlays, &funcs[k]).is_none())
                .into_iter()
                .collect())
        };
        let mut g = Graph {
            edges: Vec::new(),
            callers: vec![Vec::new(); funcs.len()],
            roots: vec![false; funcs.len()],
            errors: Vec::new(),
        };
        for section in file.sections() {
            let code = section.kind() == SectionKind::Text;
            let data = matches!(
                section.kind(),
                SectionKind::ReadOnlyData | SectionKind::Data
            );
            if !(code || data) || section.size() == 0 {
                continue;
            }
            let bytes = section
                .data()
                .map_err(|e| format!("unreadable section ({e})"))?;
            let base = section.address() as u32;
            let word = |k: usize| {
                u32::from_le_bytes([
                    bytes[4 * k],
                    bytes[4 * k + 1],
                    bytes[4 * k + 2],
                    bytes[4 * k + 3],
                ])
            };
            let n = bytes.len() / 4;
            if data {
                // A function pointer in data: an unknown caller.
                for k in 0..n {
                    for f in resolve(word(k) & !1).unwrap_or_default() {
                        g.address_taken(overlays, funcs, f, base + 4 * k as u32);
                    }
                }
                continue;
            }
            let here: Vec<(u32, bool)> = marks
                .iter()
                .filter(|m| m.0 == section.index())
                .map(|m| (m.1, m.2))
                .collect();
            for (fi, f) in funcs
                .iter()
                .enumerate()
                .filter(|(_, f)| f.section == section.index())
            {
                let first = (f.start.saturating_sub(base) / 4) as usize;
                let last = ((f.end.saturating_sub(base) / 4) as usize).min(n);
                for k in first..last {
                    let addr = base + 4 * k as u32;
                    let at = here.partition_point(|m| m.0 <= addr);
                    let is_code = at == 0 || here[at - 1].1;
                    let w = word(k);
                    if !is_code {
                        // A literal: an address loaded to call through
                        // (a loader's are its overlay's bounds).
                        if f.name.starts_with("itcm_overlay_") {
                            continue;
                        }
                        // An overlay function's address counts as a call
                        // (it means nothing while another overlay is in).
                        let targets = resolve(w & !1).unwrap_or_default();
                        for t in as_meant(&meant, section.index(), addr, funcs, targets) {
                            if home(overlays, &funcs[t]).is_some() {
                                g.edge(fi, t);
                            } else {
                                g.address_taken(overlays, funcs, t, addr);
                            }
                        }
                        continue;
                    }
                    let Some(target) = branch_target(addr, w) else {
                        continue;
                    };
                    if (f.start..f.end).contains(&target) {
                        continue;
                    }
                    let targets = match resolve(target) {
                        Err(e) => {
                            g.errors.push(format!("{} branches to {e}", f.name));
                            continue;
                        }
                        Ok(t) => t,
                    };
                    let from = home(overlays, f);
                    // From inside an overlay, a branch to an address where
                    // several overlays start a function means its own
                    // overlay's (that one is loaded while it runs); from
                    // main RAM, any of them, so each must be guarded.
                    let own: Vec<usize> = targets
                        .iter()
                        .copied()
                        .filter(|&t| from.is_some() && home(overlays, &funcs[t]) == from)
                        .collect();
                    let targets = if own.is_empty() {
                        as_meant(&meant, section.index(), addr, funcs, targets)
                    } else {
                        own
                    };
                    for t in targets {
                        if let (Some(a), Some(b)) = (from, home(overlays, &funcs[t])) {
                            if a != b {
                                g.errors.push(format!(
                                    "{} in ITCM overlay `{}` branches into overlay `{}`",
                                    f.name, overlays[a].name, overlays[b].name
                                ));
                            }
                        }
                        g.edge(fi, t);
                    }
                }
            }
        }
        Ok(g)
    }

    /// Records that `from` calls `to` (a callee's callers are few: its
    /// list, not every edge, says whether the pair is known).
    fn edge(&mut self, from: usize, to: usize) {
        if !self.callers[to].contains(&from) {
            self.edges.push((from, to));
            self.callers[to].push(from);
        }
    }

    /// Function `f`'s address is held at `at`: refused for an overlay's
    /// function, a root otherwise.
    fn address_taken(&mut self, overlays: &[Overlay], funcs: &[Func], f: usize, at: u32) {
        match home(overlays, &funcs[f]) {
            Some(o) => self.errors.push(format!(
                "{at:#010x} holds the address of {} in ITCM overlay `{}`: call it directly, \
                 after its loader",
                funcs[f].name, overlays[o].name
            )),
            None => self.roots[f] = true,
        }
    }
}

/// For every relocated word of a section (section, address): the section
/// its symbol is in, which is the one the linker meant where overlays
/// share addresses. Empty for an ELF linked without `--emit-relocs`.
fn relocation_sections(
    file: &object::File,
) -> HashMap<(object::SectionIndex, u32), object::SectionIndex> {
    let mut meant = HashMap::new();
    for section in file.sections() {
        for (offset, reloc) in section.relocations() {
            let RelocationTarget::Symbol(sym) = reloc.target() else {
                continue;
            };
            let Some(home) = file
                .symbol_by_index(sym)
                .ok()
                .and_then(|s| s.section_index())
            else {
                continue;
            };
            // An executable's relocation offsets are run addresses.
            meant.insert((section.index(), offset as u32), home);
        }
    }
    meant
}

/// `targets` (functions starting at one address) narrowed to the section
/// that the relocation at `addr` of `section` names, if there is one.
fn as_meant(
    meant: &HashMap<(object::SectionIndex, u32), object::SectionIndex>,
    section: object::SectionIndex,
    addr: u32,
    funcs: &[Func],
    targets: Vec<usize>,
) -> Vec<usize> {
    if targets.len() < 2 {
        return targets;
    }
    match meant.get(&(section, addr)) {
        Some(&home) if targets.iter().any(|&t| funcs[t].section == home) => targets
            .into_iter()
            .filter(|&t| funcs[t].section == home)
            .collect(),
        _ => targets,
    }
}

/// For overlay `k`: whether each function runs only with it in ITCM
/// as far as direct calls tell: it calls the loader, or it is called, not
/// through a pointer, and only by such functions or by the overlay's own.
/// (A greatest fixpoint, so that recursion among guarded callers holds.)
fn guarded(
    funcs: &[Func],
    overlays: &[Overlay],
    callers: &[Vec<usize>],
    roots: &[bool],
    k: usize,
    loader: Option<usize>,
) -> Vec<bool> {
    let calls_loader = |f: usize| loader.is_some_and(|l| callers[l].contains(&f));
    let mut ok: Vec<bool> = (0..funcs.len())
        .map(|f| match home(overlays, &funcs[f]) {
            Some(h) => h == k,
            None => calls_loader(f) || (!roots[f] && !callers[f].is_empty()),
        })
        .collect();
    loop {
        let mut changed = false;
        for f in 0..funcs.len() {
            if !ok[f] || home(overlays, &funcs[f]).is_some() || calls_loader(f) {
                continue;
            }
            if callers[f].iter().any(|&c| c != f && !ok[c]) {
                ok[f] = false;
                changed = true;
            }
        }
        if !changed {
            return ok;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{as_meant, branch_target, entries, guarded, Func, Overlay};
    use object::SectionIndex;
    use std::collections::HashMap;

    fn func(name: &str, section: usize) -> Func {
        Func {
            name: name.into(),
            start: 0,
            end: 4,
            section: SectionIndex(section),
        }
    }

    /// Main RAM is section 1, the overlays 2 (`a`) and 3 (`b`).
    fn overlays() -> Vec<Overlay> {
        ["a", "b"]
            .iter()
            .enumerate()
            .map(|(k, n)| Overlay {
                name: (*n).into(),
                start: 0,
                end: 0,
                section: SectionIndex(k + 2),
            })
            .collect()
    }

    #[test]
    fn a_path_is_guarded_only_when_every_way_in_calls_the_loader() {
        // 0 loader a; 1 scene (calls 0, then 2); 2 engine step (calls 5);
        // 3 a test case called through a pointer (calls 2); 4 a step
        // inside overlay b (calls 6); 5 a function of overlay a;
        // 6 a main-RAM helper called from overlay b (calls 5).
        let funcs = vec![
            func("itcm_overlay_a", 1),
            func("scene", 1),
            func("step", 1),
            func("case", 1),
            func("b_step", 3),
            func("a_fn", 2),
            func("helper", 1),
        ];
        let mut callers = vec![Vec::new(); funcs.len()];
        callers[0] = vec![1];
        callers[2] = vec![1];
        callers[5] = vec![2, 6];
        callers[6] = vec![4];
        let mut roots = vec![false; funcs.len()];
        let ov = overlays();
        let ok = guarded(&funcs, &ov, &callers, &roots, 0, Some(0));
        assert!(
            ok[1] && ok[2],
            "the scene calls the loader, the step only from it"
        );
        assert!(!ok[6], "a helper that overlay b calls runs with b in");
        assert_eq!(entries(&callers, &roots, &ok, 6), vec![4]);
        // The test case calls the step too, through a pointer, and never
        // loads the overlay: now the step is unguarded.
        callers[2].push(3);
        roots[3] = true;
        let ok = guarded(&funcs, &ov, &callers, &roots, 0, Some(0));
        assert!(ok[1] && !ok[2] && !ok[3]);
        assert_eq!(entries(&callers, &roots, &ok, 2), vec![3]);
        // Calling the loader itself mends it.
        callers[0].push(3);
        let ok = guarded(&funcs, &ov, &callers, &roots, 0, Some(0));
        assert!(ok[2] && ok[3]);
    }

    #[test]
    fn a_relocation_names_which_overlay_a_shared_address_means() {
        // Overlays a (section 2) and b (section 3) both start a function
        // at the branch's target; main RAM is section 1.
        let funcs = vec![func("a_fn", 2), func("b_fn", 3)];
        let (text, at) = (SectionIndex(1), 0x0200_0010);
        let mut meant = HashMap::new();
        assert_eq!(
            as_meant(&meant, text, at, &funcs, vec![0, 1]),
            vec![0, 1],
            "without a relocation, both count"
        );
        meant.insert((text, at), SectionIndex(3));
        assert_eq!(as_meant(&meant, text, at, &funcs, vec![0, 1]), vec![1]);
        // Another word's relocation says nothing of this one.
        assert_eq!(
            as_meant(&meant, text, at + 4, &funcs, vec![0, 1]),
            vec![0, 1]
        );
        // A relocation naming neither overlay leaves both.
        meant.insert((text, at), SectionIndex(1));
        assert_eq!(as_meant(&meant, text, at, &funcs, vec![0, 1]), vec![0, 1]);
    }

    #[test]
    fn branches_decode_with_their_offsets() {
        // BL +0 (to addr + 8), B -8 (to itself), BLcc forward.
        assert_eq!(branch_target(0x0200_0000, 0xeb00_0000), Some(0x0200_0008));
        assert_eq!(branch_target(0x0200_0010, 0xeaff_fffe), Some(0x0200_0010));
        assert_eq!(branch_target(0x0200_0000, 0x0b00_0010), Some(0x0200_0048));
        // From main RAM down to ITCM: a negative offset.
        let (from, to) = (0x0200_1000u32, 0x01ff_8000u32);
        let imm = (to.wrapping_sub(from + 8) >> 2) & 0x00ff_ffff;
        assert_eq!(branch_target(from, 0xeb00_0000 | imm), Some(to));
        // BLX with H set lands on a halfword.
        assert_eq!(branch_target(0x0200_0000, 0xfb00_0000), Some(0x0200_000a));
        // Not branches: a load, a data-processing instruction, BX.
        assert_eq!(branch_target(0, 0xe59f_0004), None);
        assert_eq!(branch_target(0, 0xe081_0002), None);
        assert_eq!(branch_target(0, 0xe12f_ff1e), None);
    }
}
