// Headless melonDS for the test runner: RetroArch 1.21.0 + the melonDS 0.9.3
// libretro core, compiled to WebAssembly by EmulatorJS
// (@emulatorjs/core-melonds 4.2.3, melonds-wasm.data), run in plain Node 20.
//
//   node harness.mjs ROM.nds        (after nds/runner/melonds/setup.sh)
//
// It boots the ROM (direct boot, melonDS's FreeBIOS, no BIOS/firmware
// files), prints one ready line, then answers one JSON line per JSON line
// read on stdin. Replies are {"ok":true,...} or {"ok":false,"error":"..."};
// stdout carries nothing else (all emulator logging goes to stderr).
//
//   {"cmd":"step","frames":n}              -> {"frame":count}   n RetroArch iterations = n core frames
//   {"cmd":"read","addr":A,"len":L[,"enc":"hex"|"base64"]} -> {"hex":...} or {"base64":...}
//   {"cmd":"write32","addr":A,"value":V}
//   {"cmd":"keys","keys":["A","START"]}    hold exactly these from the next frame on
//   {"cmd":"touch","x":X,"y":Y} / {"cmd":"touch","x":null}
//   {"cmd":"screenshot"}                   -> {"width":256,"height":384,"rgb":base64} (top screen above)
//   {"cmd":"pc"}                           -> {"pc":A,"thumb":b,"cpsr":C,"arm7_pc":A7} (or {"pc":null,"why":...})
//   {"cmd":"version"} / {"cmd":"quit"}
//
// EDITS TO THE UNPACKED CORE (applied by setup.sh via edits.mjs; checked
// here at start-up, exit 3 naming any that is missing):
//   1. export-MainLoop: melonds_libretro.js gets `Module["MainLoop"]=MainLoop;`
//      after `Module["resumeMainLoop"]=MainLoop.resume;`. That is the only
//      edit. The .wasm is untouched (setup.sh pins its sha256).
//
// EVERYTHING ELSE IS DONE FROM OUTSIDE THE CORE:
//   - Browser globals faked: window (=globalThis), document, navigator,
//     ResizeObserver, requestAnimationFrame (never fires), screen, and a
//     canvas element that records event listeners.
//   - Module.instantiateWasm instantiates the .wasm ourselves, which hands
//     us the instance: its memory and its function table (export "Gh").
//   - RetroArch config: video_driver/audio_driver "null"; run-ahead, rewind,
//     vsync, frame throttling off. Core options (melonDS.opt, written through
//     EmulatorJS's Module.callbacks.setupCoreSettingFile hook): DS mode,
//     direct boot, Top/Bottom layout without gap, touch mode "Mouse".
//   - Stepping: after callMain the emscripten main loop is paused and each
//     frame is MainLoop.runIter(MainLoop.func); RetroArch's frame counter
//     (EmulatorJS export get_current_frame_count) must rise by exactly 1
//     per iteration, else the step fails.
//   - Memory: there is no memory API. Direct boot copies the cartridge
//     header to 0x027FFE00 and the ARM9 binary to its RAM address, so the
//     base of melonDS's MainRAM array in the wasm heap is found by searching
//     the heap for the ROM's first 0x160 bytes at base+0x3FFE00 with the
//     ARM9 binary at base+(ram_address-0x02000000); exactly one candidate
//     must match. Re-verified after the first frame (warning on stderr if
//     the ROM has overwritten those bytes by then). Reads and writes cover
//     main RAM only (0x02000000-0x02FFFFFF, 4 MiB mirrored).
//   - Keys: EmulatorJS's input driver ("emulatorjs") exports
//     simulate_input(port, id, value); ids are libretro's
//     RETRO_DEVICE_ID_JOYPAD_* (B=0 Y=1 SELECT=2 START=3 UP=4 DOWN=5 LEFT=6
//     RIGHT=7 A=8 X=9 L=10 R=11). Read by the core at its next input poll.
//   - Touch: the core's touch mode "Mouse" moves a cursor over the bottom
//     screen by RETRO_DEVICE_MOUSE deltas (clamped to 0..255, 0..191; it
//     starts at 0,0) and touches while the left button is down. The harness
//     dispatches fake mousemove (movementX/Y = target - cursor) and
//     mousedown/mouseup events to the listeners the input driver put on the
//     canvas. Checked end to end: the ARM7 reads pen-down and TSC x<<4, y<<4.
//     (Touch mode "Touch" needs a video viewport, which the null video
//     driver does not have, so it never touches.)
//   - Screenshot: the null video driver draws nothing, so the harness hooks
//     the core's video-refresh callback instead. It parses the .wasm to list
//     the function-table slots whose type is (i32,i32,i32,i32)->(); during
//     the first frame each such slot is replaced by a JS wrapper (through a
//     generated wasm module that re-exports JS functions), the slot that is
//     called with (data, 256, 384, pitch) is RetroArch's video_driver_frame,
//     and only that wrapper stays. It records the frame pointer and pitch of
//     every frame; screenshot converts that XRGB8888 buffer to RGB. The core
//     draws its Mouse-mode touch cursor into that buffer (a 4x4 block of
//     inverted pixels around the cursor, always, even with the pen up); the
//     harness knows where the cursor is and inverts that block back.
//   - Boot: the first RetroArch iteration after loading does not run the DS
//     (both CPUs stay at their entry points), so the harness runs it before
//     the ready line; from then on each step is exactly one DS frame.
//   - PC: no register API either. The static pointers NDS::ARM9/NDS::ARM7
//     sit at fixed addresses of this pinned wasm (0xAA7950/0xAA7954, found
//     with the test ROM's known register values); R[16] is 0x20 into the
//     object, CPSR at 0x60. "pc" answers the next instruction to execute,
//     R[15]-4 (ARM) / R[15]-2 (Thumb). Validated at boot (pc == entry for
//     both CPUs), else "pc" answers null with the reason.
import fs from "node:fs";
import path from "node:path";
import readline from "node:readline";
import vm from "node:vm";
import { fileURLToPath } from "node:url";
import { missingEdits } from "./edits.mjs";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, "../../..");
const CORE_DIR = process.env.MELONDS_CORE_DIR || path.join(ROOT, ".tools/melonds/core");
const VERSION = "melonDS 0.9.3 (libretro core, RetroArch 1.21.0 wasm, @emulatorjs/core-melonds 4.2.3)";
const MAIN_RAM = 0x02000000, RAM_MASK = 0x3FFFFF, HEADER_COPY = 0x027FFE00;
const SCREEN_W = 256, SCREEN_H = 384;
const KEY_IDS = { B: 0, Y: 1, SELECT: 2, START: 3, UP: 4, DOWN: 5, LEFT: 6, RIGHT: 7, A: 8, X: 9, L: 10, R: 11 };

// stdout is the protocol channel: route every console method to stderr.
const reply = obj => process.stdout.write(JSON.stringify(obj) + "\n");
const log = (...a) => process.stderr.write("[harness] " + a.join(" ") + "\n");
console.log = console.info = console.warn = console.debug = (...a) => process.stderr.write(a.join(" ") + "\n");
function die(code, msg) {
  process.stderr.write(`[harness] error: ${msg}\n`);
  reply({ ok: false, fatal: true, error: msg });
  process.exit(code);
}

// ---------------------------------------------------------------- start-up
const romPath = process.argv[2];
if (!romPath) die(2, "usage: node harness.mjs ROM.nds");
let rom;
try { rom = fs.readFileSync(romPath); } catch (e) { die(2, `cannot read ROM ${romPath}: ${e.message}`); }
if (rom.length < 0x200) die(2, `${romPath} is too small for a .nds file`);
{
  // CRC-16/MODBUS of header bytes 0x000-0x15D, stored at 0x15E
  let crc = 0xFFFF;
  for (let i = 0; i < 0x15E; i++) { crc ^= rom[i]; for (let k = 0; k < 8; k++) crc = crc & 1 ? (crc >>> 1) ^ 0xA001 : crc >>> 1; }
  if (crc !== rom.readUInt16LE(0x15E)) die(2, `${romPath}: bad header CRC (0x${rom.readUInt16LE(0x15E).toString(16)}, computed 0x${crc.toString(16)}): not a valid .nds file`);
  if (rom.readUInt32LE(0x2C) === 0) die(2, `${romPath}: ARM9 binary size is 0`);
}
const jsPath = path.join(CORE_DIR, "melonds_libretro.js"), wasmPath = path.join(CORE_DIR, "melonds_libretro.wasm");
for (const f of [jsPath, wasmPath]) {
  if (!fs.existsSync(f)) die(4, `${f} not found: run \`make melonds\` (nds/runner/melonds/setup.sh)`);
}
const coreSrc = fs.readFileSync(jsPath, "utf8");
const missing = missingEdits(coreSrc);
if (missing.length) die(3, `core edit(s) missing from ${jsPath}: ${missing.join(", ")}; run \`make melonds\` (nds/runner/melonds/setup.sh)`);
const wasmBytes = fs.readFileSync(wasmPath);

// -------------------------------------------------- fake browser globals
class FakeElement {
  constructor(tag) {
    this.tagName = tag; this.id = ""; this.listeners = {}; this.children = [];
    this.style = { setProperty() {}, removeProperty() {} };
    this.classList = { add() {}, remove() {}, contains: () => false };
    this.width = SCREEN_W; this.height = SCREEN_H; this.clientWidth = SCREEN_W; this.clientHeight = SCREEN_H;
  }
  addEventListener(t, f) { (this.listeners[t] ??= []).push(f); }
  removeEventListener(t, f) { this.listeners[t] = (this.listeners[t] || []).filter(x => x !== f); }
  dispatch(type, fields) {
    const ev = Object.assign({
      type, target: this, timeStamp: performance.now(), screenX: 0, screenY: 0, clientX: 0, clientY: 0,
      ctrlKey: false, shiftKey: false, altKey: false, metaKey: false, button: 0, buttons: 0,
      movementX: 0, movementY: 0, preventDefault() {}, stopPropagation() {},
    }, fields);
    for (const f of this.listeners[type] || []) f(ev);
    return (this.listeners[type] || []).length;
  }
  getBoundingClientRect() { return { left: 0, top: 0, x: 0, y: 0, width: this.width, height: this.height, right: this.width, bottom: this.height }; }
  getContext() { return null; }
  setAttribute() {} getAttribute() { return null; } removeAttribute() {}
  appendChild(c) { this.children.push(c); return c; } removeChild() {}
  focus() {} blur() {} requestPointerLock() {} exitPointerLock() {}
}
const canvas = new FakeElement("canvas");
const doc = new FakeElement("document");
Object.assign(doc, {
  body: new FakeElement("body"), documentElement: new FakeElement("html"),
  visibilityState: "visible", hidden: false, fullscreenElement: null, pointerLockElement: null,
  createElement: t => new FakeElement(t), querySelector: () => canvas, querySelectorAll: () => [],
  getElementById: () => canvas, hasFocus: () => true,
});
globalThis.window = globalThis;
globalThis.document = doc;
Object.defineProperty(globalThis, "navigator", {
  value: { userAgent: "Mozilla/5.0 (X11; Linux x86_64) node-harness", language: "en-US", languages: ["en-US"], getGamepads: () => [], hardwareConcurrency: 1 },
  configurable: true, writable: true,
});
globalThis.devicePixelRatio = 1;
globalThis.innerWidth = SCREEN_W; globalThis.innerHeight = SCREEN_H;
globalThis.screen = { width: SCREEN_W, height: SCREEN_H };
globalThis.addEventListener = () => {}; globalThis.removeEventListener = () => {};
globalThis.resizeTo = () => {};
globalThis.ResizeObserver = class { observe() {} unobserve() {} disconnect() {} };
globalThis.requestAnimationFrame = () => 0;  // never fires: we drive the main loop
globalThis.cancelAnimationFrame = () => {};

// ------------------------------------------ wasm parsing, for the table hook
function parseWasm(bytes) {
  let i = 8;
  const u8 = () => bytes[i++];
  const leb = () => { let r = 0, s = 0, b; do { b = bytes[i++]; r += (b & 0x7f) * 2 ** s; s += 7; } while (b & 0x80); return r; };
  const name = () => { const n = leb(); const s = bytes.toString("utf8", i, i + n); i += n; return s; };
  const types = [], funcTypes = [], elems = [];
  const skipLimits = () => { const f = u8(); leb(); if (f & 1) leb(); };
  const constExpr = () => { const op = u8(); let v = null; if (op === 0x41) { v = leb(); } else if (op === 0x23) { leb(); } else throw new Error(`const expr op ${op}`); if (u8() !== 0x0b) throw new Error("const expr end"); return v; };
  while (i < bytes.length) {
    const id = u8(), size = leb(), end = i + size;
    if (id === 1) {
      for (let n = leb(); n--;) { if (u8() !== 0x60) throw new Error("type form"); const p = []; for (let k = leb(); k--;) p.push(u8()); const r = []; for (let k = leb(); k--;) r.push(u8()); types.push({ p, r }); }
    } else if (id === 2) {
      for (let n = leb(); n--;) {
        name(); name(); const kind = u8();
        if (kind === 0) funcTypes.push(leb()); else if (kind === 1) { u8(); skipLimits(); } else if (kind === 2) skipLimits(); else if (kind === 3) { u8(); u8(); } else throw new Error(`import kind ${kind}`);
      }
    } else if (id === 3) {
      for (let n = leb(); n--;) funcTypes.push(leb());
    } else if (id === 9) {
      for (let n = leb(); n--;) {
        const flags = leb();
        if (flags !== 0) throw new Error(`element segment flags ${flags} not handled`);
        const offset = constExpr(); const idx = []; for (let k = leb(); k--;) idx.push(leb());
        elems.push({ offset, idx });
      }
    }
    i = end;
  }
  return { types, funcTypes, elems };
}

/** Table slots holding a function of type (i32,i32,i32,i32)->(). */
function viiiiSlots(bytes) {
  const { types, funcTypes, elems } = parseWasm(bytes);
  const isViiii = t => t.p.length === 4 && t.p.every(x => x === 0x7f) && t.r.length === 0;
  const slots = [];
  for (const e of elems) e.idx.forEach((f, k) => { if (e.offset !== null && isViiii(types[funcTypes[f]])) slots.push(e.offset + k); });
  return slots;
}

/** wasm functions (usable in a funcref table) of type viiii that call the given JS functions. */
function jsToWasmViiii(fns) {
  const out = [];
  const leb = n => { const b = []; do { let x = n & 0x7f; n >>>= 7; if (n) x |= 0x80; b.push(x); } while (n); return b; };
  const str = s => [...leb(s.length), ...Buffer.from(s)];
  const section = (id, body) => [id, ...leb(body.length), ...body];
  const imports = [...leb(fns.length)], exports = [...leb(fns.length)];
  fns.forEach((_, k) => { imports.push(...str("m"), ...str("f" + k), 0, 0); exports.push(...str("f" + k), 0, ...leb(k)); });
  out.push(0, 0x61, 0x73, 0x6d, 1, 0, 0, 0);
  out.push(...section(1, [1, 0x60, 4, 0x7f, 0x7f, 0x7f, 0x7f, 0]));
  out.push(...section(2, imports));
  out.push(...section(7, exports));
  const m = {}; fns.forEach((f, k) => { m["f" + k] = f; });
  const inst = new WebAssembly.Instance(new WebAssembly.Module(Uint8Array.from(out)), { m });
  return fns.map((_, k) => inst.exports["f" + k]);
}

// ------------------------------------------------------------------ boot
const coreOpts = {
  melonds_console_mode: "DS", melonds_boot_directly: "enabled", melonds_use_fw_settings: "disabled",
  melonds_language: "English", melonds_randomize_mac_address: "disabled", melonds_dsi_sdcard: "disabled",
  melonds_screen_layout: "Top/Bottom", melonds_screen_gap: "0", melonds_touch_mode: "Mouse",
  melonds_swapscreen_mode: "Toggle",
};
const raCfg = {
  video_driver: "null", audio_driver: "null", audio_enable: "false", video_vsync: "false",
  audio_sync: "false", video_frame_throttle: "false", run_ahead_enabled: "false", rewind_enable: "false",
  video_threaded: "false", pause_nonactive: "false", savestate_auto_load: "false",
  savestate_auto_save: "false", autosave_interval: "0", config_save_on_exit: "false",
  savefile_directory: "/data/saves", screenshot_directory: "/", video_gpu_screenshot: "false",
  fps_show: "false", menu_enable_widgets: "false", notification_show_autoconfig: "false",
};
let instance = null;
let FS = null;
function writeFile(p, data) {
  let cur = "";
  for (const d of p.split("/").slice(1, -1)) { cur += "/" + d; try { FS.mkdir(cur); } catch {} }
  FS.writeFile(p, data);
}
const cfgText = obj => Object.entries(obj).map(([k, v]) => `${k} = "${v}"`).join("\n") + "\n";

const EJS_Runtime = vm.runInThisContext(coreSrc + "\n;EJS_Runtime", { filename: jsPath });
const verbose = !!process.env.MELONDS_VERBOSE;
const Module = await EJS_Runtime({
  noInitialRun: true, arguments: [], preRun: [], postRun: [], canvas, parent: doc.body,
  callbacks: { setupCoreSettingFile: p => writeFile(p, cfgText(coreOpts)) },
  print: m => { if (verbose) process.stderr.write("[core] " + m + "\n"); },
  printErr: m => { if (verbose || /error|fail|abort/i.test(m)) process.stderr.write("[core] " + m + "\n"); },
  locateFile: f => f, getSavExt: () => ".sav",
  instantiateWasm(imports, receive) {
    WebAssembly.instantiate(wasmBytes, imports).then(r => { instance = r.instance; receive(r.instance, r.module); })
      .catch(e => die(5, `wasm instantiation failed: ${e.message}`));
    return {};
  },
  onAbort: what => die(5, `core aborted: ${what}`),
});
FS = Module.FS;
const ML = Module.MainLoop;
if (!ML || typeof ML.runIter !== "function") die(3, "Module.MainLoop missing after load (edit export-MainLoop)");
const table = Object.values(instance.exports).find(x => x instanceof WebAssembly.Table);
const memory = Object.values(instance.exports).find(x => x instanceof WebAssembly.Memory);
if (!table || !memory) die(5, "wasm instance exports no table or memory");
const heap = () => Buffer.from(memory.buffer);
const frameCount = Module.cwrap("get_current_frame_count", "number", []);
const simulateInput = Module.cwrap("simulate_input", "null", ["number", "number", "number"]);

for (const d of ["/data", "/data/saves"]) { try { FS.mkdir(d); } catch {} }
writeFile("/home/web_user/.config/retroarch/retroarch.cfg", cfgText(raCfg));
const romName = "/" + (path.basename(romPath).replace(/[^A-Za-z0-9._-]/g, "_") || "rom.nds");
writeFile(romName, rom);
const tBoot = Date.now();
try {
  Module.callMain(verbose ? ["-v", romName] : [romName]);
} catch (e) {
  die(5, `callMain failed: ${e && e.message || e}`);
}
if (!ML.func) die(5, "RetroArch did not start its main loop (content failed to load? set MELONDS_VERBOSE=1)");
ML.pause();  // from now on only our runIter calls run frames

// ------------------------------------------------ find DS main RAM in heap
const arm9RomOff = rom.readUInt32LE(0x20), arm9Ram = rom.readUInt32LE(0x28), arm9Size = rom.readUInt32LE(0x2C);
const arm9Probe = rom.subarray(arm9RomOff, arm9RomOff + Math.min(arm9Size, 0x1000));
const arm9InRam = arm9Ram >= MAIN_RAM && arm9Ram + arm9Probe.length <= MAIN_RAM + RAM_MASK + 1 && arm9Probe.length >= 16;
const headerProbe = rom.subarray(0, 0x160);
function ramCandidates() {
  const h = heap(), out = [];
  for (let i = h.indexOf(headerProbe); i >= 0; i = h.indexOf(headerProbe, i + 1)) {
    const b = i - (HEADER_COPY & RAM_MASK);
    if (b < 0) continue;
    if (arm9InRam) {
      const at = b + (arm9Ram - MAIN_RAM);
      if (!h.subarray(at, at + arm9Probe.length).equals(arm9Probe)) continue;
    }
    out.push(b);
    if (out.length > 8) break;
  }
  return out;
}
const cands = ramCandidates();
if (cands.length !== 1) {
  die(6, `found ${cands.length} candidates for DS main RAM in the wasm heap (cartridge header at 0x027FFE00` +
    (arm9InRam ? ` + ARM9 binary at 0x${arm9Ram.toString(16)}` : "") + `); expected exactly 1`);
}
const ramBase = cands[0];
let ramReverified = false;
log(`booted ${path.basename(romPath)} in ${Date.now() - tBoot} ms; DS main RAM at wasm heap 0x${ramBase.toString(16)}`);

function reverifyRam() {
  ramReverified = true;
  const h = heap();
  const hdrOk = h.subarray(ramBase + (HEADER_COPY & RAM_MASK), ramBase + (HEADER_COPY & RAM_MASK) + headerProbe.length).equals(headerProbe);
  const at = ramBase + (arm9Ram - MAIN_RAM);
  const armOk = !arm9InRam || h.subarray(at, at + 16).equals(arm9Probe.subarray(0, 16));
  if (!hdrOk || !armOk) {
    log(`warning: after the first frame the ${!hdrOk ? "header copy at 0x027FFE00" : ""}${!hdrOk && !armOk ? " and the " : ""}${!armOk ? "ARM9 entry" : ""} no longer match the ROM (the ROM may have overwritten them)`);
  }
  return hdrOk && armOk;
}

// ------------------------------------------------------ ARM registers
// melonDS keeps `ARMv5* NDS::ARM9` and `ARMv4* NDS::ARM7` in static data, at
// fixed addresses of this pinned wasm build (setup.sh checks its sha256).
// Found with the test ROM, whose register values are known: the R[16]
// array sits 0x20 into the ARM object and CPSR right after it. R[15] runs
// ahead of execution: the next instruction to execute is R[15]-4 (ARM) or
// R[15]-2 (Thumb). Checked at boot: R[15]-4 must equal both entry points.
const ARM_GLOBALS = { arm9: 0xAA7950, arm7: 0xAA7954 }, ARM_R = 0x20, ARM_CPSR = 0x60;
const VALID_MODES = new Set([0x10, 0x11, 0x12, 0x13, 0x17, 0x1B, 0x1F]);
function cpuRegs(which) {
  const h = heap(), obj = h.readUInt32LE(ARM_GLOBALS[which]);
  if (!obj || obj + ARM_CPSR + 4 > h.length) throw new Error(`${which} object pointer 0x${obj.toString(16)} is not in the heap`);
  const r15 = h.readUInt32LE(obj + ARM_R + 15 * 4), cpsr = h.readUInt32LE(obj + ARM_CPSR);
  const thumb = !!(cpsr & 0x20);
  return { r15, cpsr, thumb, pc: (r15 - (thumb ? 2 : 4)) >>> 0 };
}
const cpuState = (() => {
  try {
    const e9 = rom.readUInt32LE(0x24), e7 = rom.readUInt32LE(0x34);
    const a9 = cpuRegs("arm9"), a7 = cpuRegs("arm7");
    const bad = [];
    if (a9.pc !== e9) bad.push(`ARM9 pc 0x${a9.pc.toString(16)} != entry 0x${e9.toString(16)}`);
    if (a7.pc !== e7) bad.push(`ARM7 pc 0x${a7.pc.toString(16)} != entry 0x${e7.toString(16)}`);
    if (!VALID_MODES.has(a9.cpsr & 0x1F) || !VALID_MODES.has(a7.cpsr & 0x1F)) bad.push("invalid CPSR mode");
    if (bad.length) return { ok: false, why: `register file not found at the known addresses (${bad.join("; ")})` };
    return { ok: true };
  } catch (e) {
    return { ok: false, why: `register file not found: ${e.message}` };
  }
})();
if (!cpuState.ok) log("warning: pc unavailable: " + cpuState.why);

// ----------------------------------------------------- video refresh hook
let videoHook = { state: "pending", slot: -1, data: 0, width: 0, height: 0, pitch: 0, frames: 0, why: "" };
let hookRestore = [];
function armVideoHookProbe() {
  let slots;
  try { slots = viiiiSlots(wasmBytes); } catch (e) { videoHook.state = "failed"; videoHook.why = `could not parse the wasm: ${e.message}`; return; }
  const originals = slots.map(s => table.get(s));
  const seen = new Map();
  const wrappers = jsToWasmViiii(slots.map((slot, k) => {
    const orig = originals[k];
    return (a, b, c, d) => {
      if (b === SCREEN_W && c === SCREEN_H && a !== 0) seen.set(slot, (seen.get(slot) || 0) + 1);
      return orig(a, b, c, d);
    };
  }));
  slots.forEach((s, k) => table.set(s, wrappers[k]));
  hookRestore = [slots, originals, seen];
}
function settleVideoHook() {
  const [slots, originals, seen] = hookRestore;
  hookRestore = [];
  slots.forEach((s, k) => table.set(s, originals[k]));
  const hits = [...seen.keys()];
  // Expect exactly one slot (video_driver_frame) called with 256x384 once.
  const once = hits.filter(s => seen.get(s) === 1);
  if (once.length !== 1) {
    videoHook.state = "failed";
    videoHook.why = `could not identify the video refresh callback (slots called with 256x384: ${hits.map(s => `${s}x${seen.get(s)}`).join(", ") || "none"})`;
    log("warning: screenshot unavailable: " + videoHook.why);
    return;
  }
  const slot = once[0], orig = table.get(slot);
  const [w] = jsToWasmViiii([(a, b, c, d) => {
    if (a !== 0) Object.assign(videoHook, { data: a >>> 0, width: b, height: c, pitch: d >>> 0 });
    videoHook.frames++;
    return orig(a, b, c, d);
  }]);
  table.set(slot, w);
  Object.assign(videoHook, { state: "ok", slot });
}

// ----------------------------------------------------------- the commands
let framesRun = 0;
function runIteration() {
  const before = frameCount();
  const probing = videoHook.state === "pending";
  if (probing) armVideoHookProbe();
  try {
    ML.runIter(ML.func);
  } finally {
    if (probing && hookRestore.length) settleVideoHook();
  }
  const after = frameCount();
  if (after !== before + 1) throw new Error(`RetroArch frame counter went ${before} -> ${after} in one iteration (expected +1)`);
  drawnCursor = { ...touchCursor };  // the poll in that frame applied every pending mouse delta
}
function runFrame() {
  runIteration();
  framesRun++;
  if (!ramReverified) reverifyRam();
}

function ramOffset(addr, len) {
  if (!Number.isInteger(addr) || !Number.isInteger(len) || len < 0) throw new Error("addr and len must be non-negative integers");
  if (addr < MAIN_RAM || addr + len > 0x03000000) {
    throw new Error(`0x${addr.toString(16)}+${len} is outside main RAM (0x02000000-0x02FFFFFF): the melonDS backend can only reach main RAM`);
  }
  if (len > RAM_MASK + 1) throw new Error("len larger than main RAM (4 MiB)");
}
function readRam(addr, len) {
  ramOffset(addr, len);
  const h = heap(), out = Buffer.alloc(len);
  let done = 0;
  while (done < len) {  // split at the 4 MiB mirror boundary
    const off = (addr + done) & RAM_MASK, n = Math.min(len - done, RAM_MASK + 1 - off);
    h.copy(out, done, ramBase + off, ramBase + off + n);
    done += n;
  }
  return out;
}

let touchCursor = { x: 0, y: 0 };  // the core's Mouse-mode cursor starts at (0,0)
let drawnCursor = { x: 0, y: 0 };  // where it was during the last frame run
let penDown = false;
const commands = {
  step(req) {
    const n = req.frames === undefined ? 1 : req.frames;
    if (!Number.isInteger(n) || n < 0 || n > 100000) throw new Error("frames must be an integer 0..100000");
    for (let k = 0; k < n; k++) runFrame();
    return { frame: framesRun };
  },
  read(req) {
    const data = readRam(req.addr, req.len);
    return req.enc === "base64" ? { base64: data.toString("base64") } : { hex: data.toString("hex") };
  },
  write32(req) {
    const { addr, value } = req;
    ramOffset(addr, 4);
    if (addr & 3) throw new Error("write32 address must be 4-byte aligned");
    if (!Number.isInteger(value) || value < -0x80000000 || value > 0xFFFFFFFF) throw new Error("value must be a 32-bit integer");
    heap().writeUInt32LE(value >>> 0, ramBase + (addr & RAM_MASK));
    return {};
  },
  keys(req) {
    const keys = req.keys || [];
    if (!Array.isArray(keys)) throw new Error("keys must be a list of names");
    const unknown = keys.filter(k => !(String(k).toUpperCase() in KEY_IDS));
    if (unknown.length) throw new Error(`unknown key(s) ${unknown.join(", ")}; known: ${Object.keys(KEY_IDS).join(" ")}`);
    const held = new Set(keys.map(k => String(k).toUpperCase()));
    for (const [name, id] of Object.entries(KEY_IDS)) simulateInput(0, id, held.has(name) ? 1 : 0);
    return { held: [...held] };
  },
  touch(req) {
    const { x, y } = req;
    if (x === null || x === undefined || y === null || y === undefined) {
      if (penDown) canvas.dispatch("mouseup", { button: 0, buttons: 0 });
      penDown = false;
      return { down: false };
    }
    if (!Number.isInteger(x) || !Number.isInteger(y) || x < 0 || x > 255 || y < 0 || y > 191) {
      throw new Error("touch x must be 0..255 and y 0..191 (bottom-screen pixels)");
    }
    const dx = x - touchCursor.x, dy = y - touchCursor.y;
    const n = canvas.dispatch("mousemove", { movementX: dx, movementY: dy, buttons: penDown ? 1 : 0 });
    if (!n) throw new Error("touch unavailable: the input driver registered no mousemove listener on the canvas");
    touchCursor = { x, y };
    if (!penDown) canvas.dispatch("mousedown", { button: 0, buttons: 1 });
    penDown = true;
    return { down: true, x, y };
  },
  screenshot() {
    if (videoHook.state !== "ok") throw new Error("screenshot unavailable: " + videoHook.why);
    const { data, width, height, pitch } = videoHook;
    if (width !== SCREEN_W || height !== SCREEN_H) throw new Error(`unexpected video size ${width}x${height}`);
    const h = heap(), rgb = Buffer.alloc(width * height * 3);
    for (let yy = 0; yy < height; yy++) {
      let s = data + yy * pitch, d = yy * width * 3;
      for (let xx = 0; xx < width; xx++, s += 4, d += 3) {  // XRGB8888, little-endian: B G R X
        rgb[d] = h[s + 2]; rgb[d + 1] = h[s + 1]; rgb[d + 2] = h[s];
      }
    }
    // In Mouse touch mode the core always draws its cursor into the frame by
    // inverting the pixels of [x-2,x+2) x [y-2,y+2) (clamped) on the bottom
    // screen: invert them back so the image is what the DS displays.
    const cx = drawnCursor.x, cy = drawnCursor.y, clamp = (v, hi) => Math.max(0, Math.min(v, hi));
    for (let yy = clamp(cy - 2, 192); yy < clamp(cy + 2, 192); yy++) {
      for (let xx = clamp(cx - 2, 256); xx < clamp(cx + 2, 256); xx++) {
        const d = ((192 + yy) * width + xx) * 3;
        rgb[d] ^= 0xFF; rgb[d + 1] ^= 0xFF; rgb[d + 2] ^= 0xFF;
      }
    }
    return { width, height, format: "rgb24", rgb: rgb.toString("base64") };
  },
  pc() {
    if (!cpuState.ok) return { pc: null, why: cpuState.why };
    const a9 = cpuRegs("arm9"), a7 = cpuRegs("arm7");
    return { pc: a9.pc, thumb: a9.thumb, cpsr: a9.cpsr, arm7_pc: a7.pc };
  },
  // Debugging aids on the raw wasm heap (not used by the backend).
  heap_read(req) {
    const h = heap();
    if (!(req.addr >= 0 && req.len >= 0 && req.addr + req.len <= h.length)) throw new Error("outside the wasm heap");
    return { hex: h.subarray(req.addr, req.addr + req.len).toString("hex") };
  },
  heap_find(req) {  // every heap offset where the given bytes (hex) occur, at most 64
    const h = heap(), pat = Buffer.from(req.hex, "hex"), hits = [];
    if (!pat.length) throw new Error("empty pattern");
    for (let i = h.indexOf(pat); i >= 0 && hits.length < 64; i = h.indexOf(pat, i + 1)) hits.push(i);
    return { hits };
  },
  version() {
    return { version: VERSION, ram_base: ramBase, frames: framesRun, video_hook: videoHook.state };
  },
  quit() {
    reply({ ok: true });
    process.exit(0);
  },
};

// The first RetroArch iteration after loading does not run the DS (its CPUs
// stay at their entry points: checked with the test ROM). Run it here, as
// part of boot, so that every step() afterwards is exactly one DS frame.
try {
  const pc0 = cpuState.ok ? cpuRegs("arm9").r15 : null;
  runIteration();
  if (cpuState.ok && cpuRegs("arm9").r15 !== pc0) log("warning: the boot iteration ran ARM9 code");
} catch (e) {
  die(5, `boot iteration failed: ${e.message}`);
}
reply({ ok: true, ready: true, version: VERSION, ram_base: ramBase, pc: cpuState.ok });
const rl = readline.createInterface({ input: process.stdin, terminal: false });
rl.on("line", line => {
  if (!line.trim()) return;
  let req;
  try { req = JSON.parse(line); } catch (e) { reply({ ok: false, error: `bad JSON: ${e.message}` }); return; }
  const fn = commands[req && req.cmd];
  if (!fn) { reply({ ok: false, error: `unknown cmd ${JSON.stringify(req && req.cmd)}; known: ${Object.keys(commands).join(" ")}` }); return; }
  try {
    reply({ ok: true, ...fn(req) });
  } catch (e) {
    reply({ ok: false, error: String(e && e.message || e) });
  }
});
rl.on("close", () => process.exit(0));
