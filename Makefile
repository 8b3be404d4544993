# Two commands matter: `make run` and `make test`. Each target installs
# what it needs on a fresh machine (rust-src, apt packages, the venv).
SHELL := bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := rom

TOOLCHAIN := $(shell sed -n 's/^channel = "\(.*\)"/\1/p' rust-toolchain.toml)
PY        := .venv/bin/python
TARGET    := $(or $(CARGO_TARGET_DIR),target)
ROM_DIR   := $(TARGET)/nds
ARM9_ELF  := $(TARGET)/armv5te-nds/release/arm9-rom
ARM7_ELF  := $(TARGET)/armv4t-none-eabi/release/arm7-rom
TITLE     := RAGDOLL DS
# No --game-code: ndspack's default, ndstool's homebrew code "####" with
# maker "00", which flashcart kernels' per-game tables never key on (a
# made-up code such as "RGDL" could match a commercial game's entry).
# build-std is a nightly feature: enabled here, for the ROM builds only.
ROM_CARGO := RUSTC_BOOTSTRAP=1 cargo
# The ARM9's target is rustc's armv5te-none-eabi with the frame pointer
# left to the optimiser (nds/arm9/armv5te-nds.json): the built-in target
# keeps r11 for it in every function, and the physics loops spill
# registers (make pcprofile: 3 % of a ragdoll step). A JSON target needs
# compiler_builtins' mem functions asked for by name.
ARM9_ARGS := -p arm9-rom --target nds/arm9/armv5te-nds.json -Zjson-target-spec \
             -Zbuild-std=core -Zbuild-std-features=compiler-builtins-mem --release
ARM7_ARGS := -p arm7-rom --target armv4t-none-eabi -Zbuild-std=core --release
PACKER    := $(TARGET)/release/ndspack
RUNNER    := $(PY) nds/runner/run.py
EMULATORS ?= both

.PHONY: rom roms arm7 run test bench bench-roms pcprofile profile check-asset insn-mix insn-count setup-rust venv apt melonds fmt-check clippy doc-check host-test \
        rom-check emu-test runner-test stress-test clean

## Setup ---------------------------------------------------------------
setup-rust:
	@command -v rustup >/dev/null || { echo "error: rustup not found; install it from rustup.rs" >&2; exit 1; }
	@rustup component list --toolchain $(TOOLCHAIN) --installed 2>/dev/null | grep -q '^rust-src' \
	  || rustup component add rust-src rustfmt clippy --toolchain $(TOOLCHAIN)

apt:
	@bash nds/runner/setup.sh apt

venv: apt
	@bash nds/runner/setup.sh venv

# melonDS: the npm package's WebAssembly core, unpacked and checked (7zip, npm).
melonds:
	@bash nds/runner/melonds/setup.sh

## ROMs ----------------------------------------------------------------
$(PACKER): FORCE
	@cargo build -q --release -p ndspack

# $(call build_rom,NAME,FEATURES): build the ARM9 with FEATURES and pack it.
define build_rom
	$(ROM_CARGO) build -q $(ARM9_ARGS) $(if $(2),--features $(2))
	cp $(ARM9_ELF) $(ROM_DIR)/$(1).arm9.elf
	$(PACKER) --arm9 $(ROM_DIR)/$(1).arm9.elf --arm7 $(ARM7_ELF) \
	  --title "$(TITLE)" --banner assets/banner/banner.txt \
	  -o $(ROM_DIR)/$(1).nds >/dev/null
endef

arm7: setup-rust
	@$(ROM_CARGO) build -q $(ARM7_ARGS)

rom: setup-rust arm7 $(PACKER)
	@mkdir -p $(ROM_DIR)
	@$(call build_rom,ragdoll,)
	@echo "built $(ROM_DIR)/ragdoll.nds"

roms: rom
	@$(call build_rom,ragdoll-test,test-rom)
	@$(call build_rom,ragdoll-panic,panic-test)
	@echo "built $(ROM_DIR)/ragdoll-test.nds $(ROM_DIR)/ragdoll-panic.nds"

## make run -------------------------------------------------------------
# A window where there is a display; headless otherwise: a few seconds of
# the demo, the profile table, screenshots of both screens, then every
# scene in turn (one screenshot each), a GIF of the single-ragdoll drop,
# and each scene under stress in both emulators (figures only, no verdict).
run: rom venv melonds
	@if [ -n "$${DISPLAY:-}" ]; then \
	  $(RUNNER) --rom $(ROM_DIR)/ragdoll.nds --mode window; \
	else \
	  $(RUNNER) --rom $(ROM_DIR)/ragdoll.nds --mode profile --frames 300 \
	    --screenshots $(TARGET)/screenshots; \
	  $(PY) nds/runner/scenes.py --rom $(ROM_DIR)/ragdoll.nds --out $(TARGET)/screenshots \
	    --gif $(TARGET)/screenshots/drop.gif; \
	  $(PY) nds/runner/stress.py --rom $(ROM_DIR)/ragdoll.nds --emulator both; \
	fi

## make bench ------------------------------------------------------------
# Hardware-timer figures from inside the emulators, to target/bench/report.json.
# The emulators run in parallel (one per core), each on its own JSON; the
# figures come from timers inside each emulated DS, so running them side
# by side changes no figure. Soak frames per emulator (host_command 0):
# melonDS emulates about a third as fast as DeSmuME.
SOAK_FRAMES_desmume ?= 100000
SOAK_FRAMES_melonds ?= 20000
BENCH_EMULATORS = $(if $(filter both,$(EMULATORS)),desmume melonds,$(EMULATORS))
bench-roms: rom
	@$(call build_rom,ragdoll-bench,bench-rom)
	@$(call build_rom,ragdoll-bench-main-ram,hot-code-in-main-ram)

bench: bench-roms venv melonds
	@mkdir -p $(TARGET)/bench
	@pids=; for emu in $(BENCH_EMULATORS); do \
	  frames=$$(case $$emu in desmume) echo $(SOAK_FRAMES_desmume);; *) echo $(SOAK_FRAMES_melonds);; esac); \
	  ( $(RUNNER) --rom $(ROM_DIR)/ragdoll-bench.nds --emulator $$emu --mode bench \
	      --frames 60000 --host-command 0=$$frames --json $(TARGET)/bench/raw-$$emu.json \
	    && $(RUNNER) --rom $(ROM_DIR)/ragdoll-bench-main-ram.nds --emulator $$emu --mode bench \
	      --frames 3600 --json $(TARGET)/bench/raw-main-ram-$$emu.json ) \
	    > $(TARGET)/bench/$$emu.log 2>&1 & pids="$$pids $$!"; \
	done; status=0; for p in $$pids; do wait $$p || status=1; done; \
	cat $(foreach e,$(BENCH_EMULATORS),$(TARGET)/bench/$(e).log); exit $$status
	$(PY) nds/runner/bench_report.py $(foreach e,$(BENCH_EMULATORS),$(TARGET)/bench/raw-$(e).json) \
	  $(foreach e,$(BENCH_EMULATORS),$(TARGET)/bench/raw-main-ram-$(e).json) $(TARGET)/bench/report.json
	$(PY) nds/runner/plots.py $(TARGET)/bench/report.json
	$(PY) nds/runner/bench_table.py $(TARGET)/bench/report.json > $(TARGET)/bench/table.md
	@echo "wrote $(TARGET)/bench/table.md (docs/performance.md's table)"

## make pcprofile ---------------------------------------------------------
# Where one ragdoll's frame spends its cycles, function by function: the PC
# of the ARM9 sampled once per emulated frame in DeSmuME (nds/runner/pcprofile.py).
# PCPROFILE picks the workload: ragdoll (default), motor, motorfull (every step a full one), pyramid, boxes, anim or animframe
# (the bench's anim_us.total alone).
# A frame timeline of one scene from the ROM's own timers: trace.json
# (Perfetto, speedscope) and timeline.png in target/profile (one
# subdirectory per emulator with EMULATOR=both); STRESS=1 first gives
# the scene make stress-test's disturbance.
SCENE ?= b
FRAMES ?= 600
EMULATOR ?= desmume
profile: rom venv melonds
	$(PY) nds/runner/profile_timeline.py --rom $(ROM_DIR)/ragdoll.nds --emulator $(EMULATOR) \
	  --scene $(SCENE) --frames $(FRAMES) --out $(TARGET)/profile $(if $(STRESS),--stress)

# Validates assets as the ROM's build does and tries them in the engine on
# the host (nds/assetc/src/bin/assetc.rs): make check-asset ASSET=my.obj
ASSET ?= $(wildcard assets/worlds/*.obj assets/ragdolls/*.ragdoll assets/characters/*.gltf)
check-asset: setup-rust
	cargo run -q --release -p assetc --bin assetc -- check $(ASSET)

PCPROFILE ?= ragdoll
PCPROFILE_FEATURE = $(if $(filter ragdoll,$(PCPROFILE)),pc-profile,pc-profile-$(PCPROFILE))
pcprofile: rom venv
	@CARGO_PROFILE_RELEASE_DEBUG=line-tables-only $(call build_rom,pcprofile-$(PCPROFILE),$(PCPROFILE_FEATURE))
	$(PY) nds/runner/pcprofile.py --rom $(ROM_DIR)/pcprofile-$(PCPROFILE).nds \
	  --elf $(ROM_DIR)/pcprofile-$(PCPROFILE).arm9.elf --frames 3000 --lines $(PCPROFILE_ARGS)

# The instruction mix of one function of the shipped ROM (default: the
# rigid solver's sweep kernel), decoded from its disassembly.
INSN_FN ?= 6kernel5sweep
insn-mix: rom venv
	$(PY) nds/runner/insn_mix.py --elf $(ROM_DIR)/ragdoll.arm9.elf --function $(INSN_FN)

# The exact instructions a PC-profile workload executes per step, and
# DeSmuME's cycles for them by its JIT's rules, function by function
# (nds/runner/insn_count.py, on the Unicorn CPU emulator; `animframe` is
# the bench's anim_us.total). INSN_COUNT_ARGS="--annotate NAME" lists one
# function's disassembly with both per instruction, "--lines NAME" totals
# them by source line.
INSN_COUNT_ARGS ?=
insn-count: rom venv
	@CARGO_PROFILE_RELEASE_DEBUG=line-tables-only $(call build_rom,pcprofile-$(PCPROFILE),$(PCPROFILE_FEATURE))
	$(PY) nds/runner/insn_count.py --elf $(ROM_DIR)/pcprofile-$(PCPROFILE).arm9.elf $(INSN_COUNT_ARGS)

## make test ------------------------------------------------------------
# The stress gate: each scene's worst frame of work after a scripted
# disturbance (nds/runner/stress.py) within STRESS_BUDGET_US, in
# $(EMULATORS). `make test` gates every scene in both emulators; the
# closest is (c) in DeSmuME, about 0.7 ms inside while the shot pile
# creeps (docs/rigid-solver.md, "Why a shot pile stays awake"). (g)'s
# rain stops at its first overrun and takes out the ragdoll that
# caused it (and the newest again at each overrun while the pile
# settles); the gate measures the settled crowd.
# STRESS_SCENES sets both lists (one list per emulator otherwise).
STRESS_SCENES_DESMUME ?= abcdefg
STRESS_SCENES_MELONDS ?= abcdefg
ifdef STRESS_SCENES
STRESS_SCENES_DESMUME := $(STRESS_SCENES)
STRESS_SCENES_MELONDS := $(STRESS_SCENES)
endif
STRESS_BUDGET_US ?= 16715

test: fmt-check clippy doc-check host-test rom-check runner-test emu-test stress-test

fmt-check: setup-rust
	cargo fmt --all --check

# The engine's docs link to what they name: a broken or private link fails.
doc-check: setup-rust
	RUSTDOCFLAGS="-D warnings" cargo doc -q --no-deps -p dsphys

clippy: setup-rust
	cargo clippy -q --all-targets -- -D warnings
	$(ROM_CARGO) clippy -q $(ARM9_ARGS) -- -D warnings
	$(ROM_CARGO) clippy -q $(ARM9_ARGS) --features test-rom -- -D warnings
	$(ROM_CARGO) clippy -q $(ARM9_ARGS) --features panic-test -- -D warnings
	$(ROM_CARGO) clippy -q $(ARM9_ARGS) --features bench-rom -- -D warnings
	$(ROM_CARGO) clippy -q $(ARM9_ARGS) --features hot-code-in-main-ram -- -D warnings
	$(ROM_CARGO) clippy -q $(ARM9_ARGS) --features pc-profile -- -D warnings
	$(ROM_CARGO) clippy -q $(ARM9_ARGS) --features pc-profile-animframe -- -D warnings
	$(ROM_CARGO) clippy -q $(ARM9_ARGS) --features pc-profile-crowd -- -D warnings
	$(ROM_CARGO) clippy -q $(ARM9_ARGS) --features pc-profile-motor -- -D warnings
	$(ROM_CARGO) clippy -q $(ARM9_ARGS) --features pc-profile-motorfull -- -D warnings
	$(ROM_CARGO) clippy -q $(ARM9_ARGS) --features pc-profile-pyramid -- -D warnings
	$(ROM_CARGO) clippy -q $(ARM9_ARGS) --features pc-profile-boxes -- -D warnings
	$(ROM_CARGO) clippy -q $(ARM9_ARGS) --features pc-profile-anim -- -D warnings
	$(ROM_CARGO) clippy -q $(ARM7_ARGS) -- -D warnings

# The debug build, on purpose: the overflow tests of tests/fx_power.rs
# need debug assertions, and a test there fails if they are compiled out.
# The venv first: nds/packer/tests/ndspy.rs runs ndspy from it (and fails
# without it).
host-test: setup-rust venv
	cargo test -q

# The header, checked twice: by our own parser and independently by ndspy.
rom-check: roms venv
	@for rom in ragdoll ragdoll-test ragdoll-panic; do \
	  $(PACKER) check $(ROM_DIR)/$$rom.nds >/dev/null; \
	  $(PY) nds/packer/check_with_ndspy.py $(ROM_DIR)/$$rom.nds \
	    --arm9-elf $(ROM_DIR)/$$rom.arm9.elf --arm7-elf $(ARM7_ELF); \
	done

# Needs py-desmume (venv), melonDS and the team ROMs: a test that misses
# one fails, naming the make target that provides it.
runner-test: venv melonds roms
	$(PY) -m unittest discover -q -s nds/runner/tests -t nds/runner

emu-test: roms venv melonds
	$(RUNNER) --rom $(ROM_DIR)/ragdoll-test.nds --emulator $(EMULATORS) --frames 2400
	$(RUNNER) --rom $(ROM_DIR)/ragdoll-panic.nds --emulator $(EMULATORS) --expect-panic --frames 120 \
	  --expect-message "stack overflow" \
	  --screenshots $(TARGET)/screenshots/panic
	$(RUNNER) --rom $(ROM_DIR)/ragdoll.nds --emulator $(EMULATORS) --mode profile --frames 120
	$(PY) nds/runner/scenes.py --rom $(ROM_DIR)/ragdoll.nds --emulator $(EMULATORS) \
	  --check nds/runner/reference
	$(PY) nds/runner/profile_timeline.py --rom $(ROM_DIR)/ragdoll.nds --emulator $(EMULATORS) \
	  --scene b --frames 150 --out $(TARGET)/profile-check --check
	$(PY) nds/runner/window_check.py --rom $(ROM_DIR)/ragdoll.nds

stress-test: rom venv melonds
	@status=0; for emu in $(BENCH_EMULATORS); do \
	  scenes=$$(case $$emu in desmume) echo $(STRESS_SCENES_DESMUME);; *) echo $(STRESS_SCENES_MELONDS);; esac); \
	  $(PY) nds/runner/stress.py --rom $(ROM_DIR)/ragdoll.nds --emulator $$emu \
	    --budget-us $(STRESS_BUDGET_US) --scenes $$scenes || status=1; \
	done; exit $$status

clean:
	cargo clean

FORCE:
