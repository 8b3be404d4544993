#!/usr/bin/env bash
# Idempotent setup for the emulator runners, called by the Makefile.
#   setup.sh venv     Python venv at .venv with py-desmume and ndspy (pinned)
#   setup.sh apt      Debian packages py-desmume needs (libgl1, libglib2.0-0), and
#                     Xvfb and xdotool for the window test
# A stamp file records what was installed, so a second call costs nothing.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
venv="$root/.venv"
req="$root/nds/runner/requirements.txt"

need_apt() {
    local missing=()
    for pkg in "$@"; do
        dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    if [ "$(id -u)" -ne 0 ] && ! command -v sudo >/dev/null; then
        echo "error: missing Debian packages: ${missing[*]}; install them with apt-get" >&2
        exit 1
    fi
    local sudo=""; [ "$(id -u)" -ne 0 ] && sudo=sudo
    echo "setup: installing ${missing[*]}" >&2
    $sudo apt-get update -qq >&2 || true
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >&2
}

case "${1:-venv}" in
apt)
    shift
    need_apt libgl1 libglib2.0-0 xvfb xdotool "$@"
    ;;
venv)
    stamp="$venv/.requirements"
    if [ -f "$stamp" ] && cmp -s "$stamp" "$req"; then exit 0; fi
    command -v python3 >/dev/null || { echo "error: python3 not found; install python3 and python3-venv" >&2; exit 1; }
    [ -x "$venv/bin/python" ] || python3 -m venv "$venv" || {
        echo "error: could not create $venv; install python3-venv" >&2; exit 1; }
    "$venv/bin/python" -m pip install -q --disable-pip-version-check -r "$req" >&2
    cp "$req" "$stamp"
    ;;
*)
    echo "usage: setup.sh venv|apt" >&2; exit 2 ;;
esac
