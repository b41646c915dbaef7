# dying-memcg lab: the one entry point. 'make help' lists the targets.
SHELL := /bin/bash
.DEFAULT_GOAL := help

VARIANT ?= series
PATCHES ?=
SCENARIO ?= default
QUICK ?= 0
PARAMS ?=
VARIANTS ?=
REPS ?=
ACCEL ?= tcg
export ACCEL
POLICIES ?= shared pin reparent donate
STRESS_SECONDS ?= 600
STRESS_SIZE ?= 1
# make stress runs the debug kernel unless VARIANT is given
STRESS_VARIANT := $(if $(filter-out file default,$(origin VARIANT)),$(VARIANT),debug)

B := build
INITRAMFS := $(B)/initramfs.cpio

.PHONY: help deps kernel kernels modules mm-tests kselftests initramfs boot run walk stress check lint bisect clean

help:
	@echo "dying-memcg lab targets:"
	@echo "  make deps                     install the Debian packages the lab needs"
	@echo "  make kernel VARIANT=stock|series|debug [PATCHES=N]"
	@echo "                                extract, patch, configure and build (ccache)"
	@echo "                                into build/<variant>/bzImage"
	@echo "  make initramfs                busybox, guest init, mm-tests, kselftests"
	@echo "  make boot VARIANT=stock|series|debug [APPEND='memcg_slab=pin ...']"
	@echo "                                interactive guest shell (Ctrl-a x quits)"
	@echo "  make run [SCENARIO=default|mglru|slab|donate|full|kmem|filerate|crashloop|smoke]"
	@echo "           [QUICK=1] [PARAMS='NAME=VALUE ...'] [VARIANTS='LABEL ...'] [REPS=N]"
	@echo "                                build what is missing, boot, compare;"
	@echo "                                results in results/<date>-<scenario>/;"
	@echo "                                PARAMS overrides the scenario's sizes,"
	@echo "                                VARIANTS runs only those, REPS the boots each"
	@echo "  make stress [VARIANT=debug] [POLICIES='shared pin reparent donate']"
	@echo "              [STRESS_SECONDS=600] [STRESS_SIZE=1]"
	@echo "                                per policy, one guest of churn, OOM kills, removal"
	@echo "                                races and injected faults; then splats, kmemleak,"
	@echo "                                dying memcgs and the parent's charge are checked"
	@echo "  make check [T='vm/55* ...']   the test suite, or the scripts under tests/ that"
	@echo "                                match T; ends with 'N passed, N failed, N skipped'"
	@echo "  make walk [VARIANTS='nokmem stock shared pin reparent donate'] [BATCH=N]"
	@echo "                                single-step the slab fast paths in guests (gdb) and"
	@echo "                                count each call's instructions; results/<date>-walk/;"
	@echo "                                BATCH=N: the benchmark's N allocations then N frees,"
	@echo "                                slow paths counted (about 12 min a variant at 256)"
	@echo "  make lint                     checkpatch --strict and sparse for every patch"
	@echo "  make bisect                   build every prefix of the series"
	@echo "  make clean                    remove build/ and results/"
	@echo "Variables: ACCEL=tcg|kvm (kvm only if its probe passes), PATCHES=N (series prefix)"

deps:
	@scripts/deps.sh

kernel: deps
	@scripts/kernel-build.sh "$(VARIANT)" "$(PATCHES)"

kernels: deps
	@scripts/kernel-build.sh stock
	@scripts/kernel-build.sh series

modules: deps
	@scripts/modules-build.sh "$(VARIANT)"

mm-tests: deps
	@ksft=$$(scripts/tree-pristine.sh)/tools/testing/selftests && \
		$(MAKE) -s -C mm-tests OUT=$(CURDIR)/$(B)/mm-tests KSFT_DIR=$$ksft

kselftests: deps
	@scripts/kselftests-build.sh $(B)/kselftests

initramfs: deps
	@scripts/initramfs-build.sh

boot: kernel initramfs
	@vm-runner/run-vm.sh -k $(B)/$(VARIANT)/bzImage -i $(INITRAMFS) -o $(B)/boot-$(VARIANT) -a "$(APPEND)"

run: deps
	@scripts/run-scenario.sh "$(SCENARIO)" "$(QUICK)" "$(PARAMS)" "$(VARIANTS)" "$(REPS)"

walk: deps
	@for k in stock series; do scripts/kernel-build.sh $$k && scripts/modules-build.sh $$k || exit 1; done
	@scripts/initramfs-build.sh >/dev/null
	@scripts/walk-fastpath.sh $(if $(BATCH),-b $(BATCH)) $(VARIANTS)

stress: deps
	@scripts/stress.sh "$(STRESS_VARIANT)" "$(POLICIES)" "$(STRESS_SECONDS)" "$(STRESS_SIZE)"

check: deps
	@T="$(T)" scripts/check.sh

lint: deps
	@scripts/lint.sh

bisect: deps
	@scripts/bisect.sh

clean:
	rm -rf $(B) results
