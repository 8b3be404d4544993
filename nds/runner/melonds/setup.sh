#!/usr/bin/env bash
# Idempotent setup of the headless melonDS used by nds/runner/melonds_backend.py.
#
#   nds/runner/melonds/setup.sh          (the Makefile's `make melonds`)
#
# 1. Debian's `7zip` (for `7zz`) if 7zz is missing.
# 2. `npm ci` of the pinned @emulatorjs/core-melonds 4.2.3 (package.json +
#    package-lock.json next to this script) into .tools/melonds.
# 3. Unpacks melonds-wasm.data (a 7-zip archive) to .tools/melonds/core,
#    checks the sha256 of the shipped melonds_libretro.js/.wasm, applies the
#    edits listed in edits.mjs to the .js and verifies them.
# A stamp file (hash of this script, the lock file and edits.mjs) makes a
# second run free. Any failure exits non-zero with a message on stderr.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
tools="$root/.tools/melonds"
core="$tools/core"
stamp="$tools/.setup-stamp"

# sha256 of the files as shipped inside melonds-wasm.data (before our edits)
JS_SHA256=07fb6dc287a24b05006980a4f6427fb07b60ac658e3d51935c3ec2f9062c5190
WASM_SHA256=944049ac4beb60dd304c1596dfa56ba0fd8fb7aa817031ec291e47fc5c3a0856

fail() { echo "melonds setup: error: $*" >&2; exit 1; }
say() { echo "melonds setup: $*" >&2; }

command -v sha256sum >/dev/null || fail "sha256sum not found (coreutils)"
want_stamp="$(cat "$0" "$here/package.json" "$here/package-lock.json" "$here/edits.mjs" | sha256sum | cut -d' ' -f1)"
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want_stamp" ] \
   && [ -f "$core/melonds_libretro.wasm" ] && [ -f "$core/melonds_libretro.js" ] \
   && command -v node >/dev/null && command -v 7zz >/dev/null \
   && node "$here/edits.mjs" check "$core/melonds_libretro.js" 2>/dev/null; then
    exit 0
fi

# --- tools -------------------------------------------------------------
command -v node >/dev/null || fail "node not found: install Node.js 20 (Debian: apt-get install nodejs npm)"
command -v npm >/dev/null || fail "npm not found: install npm (Debian: apt-get install npm)"
node_major="$(node -p 'process.versions.node.split(".")[0]')"
[ "$node_major" -ge 18 ] || fail "Node.js $(node --version) is too old; the harness needs Node 18+ (tested on 20)"

if ! command -v 7zz >/dev/null; then
    sudo=""
    if [ "$(id -u)" -ne 0 ]; then
        command -v sudo >/dev/null || fail "7zz missing and not root: install Debian's 7zip package (apt-get install 7zip)"
        sudo=sudo
    fi
    say "installing Debian package 7zip (for 7zz)"
    $sudo apt-get update -qq >&2 || say "apt-get update failed; trying the install anyway"
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq 7zip >&2 || fail "apt-get install 7zip failed"
    command -v 7zz >/dev/null || fail "7zip installed but 7zz is still not on PATH"
fi

mkdir -p "$tools"
exec 9>"$tools/.lock"
if command -v flock >/dev/null; then flock 9; fi

# --- npm package -------------------------------------------------------
cp "$here/package.json" "$here/package-lock.json" "$tools/"
say "npm ci @emulatorjs/core-melonds (pinned by package-lock.json)"
npm ci --prefix "$tools" --omit=optional --ignore-scripts --no-audit --no-fund --loglevel=error >&2 \
    || fail "npm ci failed in $tools (is the npm registry reachable?)"
pkg="$tools/node_modules/@emulatorjs/core-melonds"
ver="$(node -p "require('$pkg/package.json').version")"
[ "$ver" = "4.2.3" ] || fail "expected @emulatorjs/core-melonds 4.2.3, npm installed $ver"
[ -f "$pkg/melonds-wasm.data" ] || fail "$pkg/melonds-wasm.data missing from the npm package"

# --- unpack, check, edit -------------------------------------------------
tmp="$tools/core.tmp"
rm -rf "$tmp"
mkdir -p "$tmp"
7zz x -y -bd -o"$tmp" "$pkg/melonds-wasm.data" >/dev/null || fail "7zz could not unpack $pkg/melonds-wasm.data"
for f in melonds_libretro.js melonds_libretro.wasm; do
    [ -f "$tmp/$f" ] || fail "$f not found in melonds-wasm.data"
done
got="$(sha256sum "$tmp/melonds_libretro.js" | cut -d' ' -f1)"
[ "$got" = "$JS_SHA256" ] || fail "melonds_libretro.js sha256 $got, expected $JS_SHA256 (package changed?)"
got="$(sha256sum "$tmp/melonds_libretro.wasm" | cut -d' ' -f1)"
[ "$got" = "$WASM_SHA256" ] || fail "melonds_libretro.wasm sha256 $got, expected $WASM_SHA256 (package changed?)"
node "$here/edits.mjs" apply "$tmp/melonds_libretro.js" || fail "could not apply the core edits (edits.mjs)"
node "$here/edits.mjs" check "$tmp/melonds_libretro.js" || fail "core edits missing after applying them"
rm -rf "$core"
mv "$tmp" "$core"
echo "$want_stamp" > "$stamp"
say "ready: $core"
