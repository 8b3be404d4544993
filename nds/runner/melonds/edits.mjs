// The edits made to the unpacked melonDS core (melonds_libretro.js from
// @emulatorjs/core-melonds 4.2.3, melonds-wasm.data), shared by setup.sh
// (which applies them) and harness.mjs (which checks them at start-up).
//
//   node edits.mjs apply FILE   apply every edit, then check; idempotent
//   node edits.mjs check FILE   exit 1 naming each missing edit
//
// Keep this list short: everything else is done from outside the core
// (fake browser globals, Module hooks, the wasm table), see harness.mjs.
import fs from "node:fs";
import { fileURLToPath } from "node:url";

export const EDITS = [
  {
    name: "export-MainLoop",
    why: "emscripten's MainLoop object is private to the module closure; the harness " +
      "pauses its scheduler and calls MainLoop.runIter(MainLoop.func) to run exactly " +
      "one RetroArch iteration (= one core frame) per step",
    find: 'Module["resumeMainLoop"]=MainLoop.resume;',
    replace: 'Module["resumeMainLoop"]=MainLoop.resume;Module["MainLoop"]=MainLoop;/*ragdoll-edit:export-MainLoop*/',
    marker: 'Module["MainLoop"]=MainLoop;/*ragdoll-edit:export-MainLoop*/',
  },
];

/** Names of the edits missing from the source text. */
export function missingEdits(src) {
  return EDITS.filter(e => !src.includes(e.marker)).map(e => e.name);
}

/** Apply every edit not yet present; throws if the anchor text is not found exactly once. */
export function applyEdits(src) {
  for (const e of EDITS) {
    if (src.includes(e.marker)) continue;
    const first = src.indexOf(e.find);
    if (first < 0 || src.indexOf(e.find, first + 1) >= 0) {
      throw new Error(`edit ${e.name}: anchor text found ${first < 0 ? "0" : "more than 1"} times (expected exactly once): ${e.find}`);
    }
    src = src.replace(e.find, e.replace);
  }
  return src;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === fs.realpathSync(process.argv[1])) {
  const [cmd, file] = process.argv.slice(2);
  if (!["apply", "check"].includes(cmd) || !file) {
    console.error("usage: node edits.mjs apply|check FILE");
    process.exit(2);
  }
  try {
    let src = fs.readFileSync(file, "utf8");
    if (cmd === "apply") {
      const out = applyEdits(src);
      if (out !== src) fs.writeFileSync(file, out);
      src = out;
    }
    const missing = missingEdits(src);
    if (missing.length) {
      console.error(`error: ${file} lacks core edit(s): ${missing.join(", ")}`);
      process.exit(1);
    }
    console.error(`edits: ${EDITS.map(e => e.name).join(", ")} present in ${file}`);
  } catch (e) {
    console.error(`error: ${e.message}`);
    process.exit(1);
  }
}
