#!/usr/bin/env bash
# Bad arguments get a clear error and change nothing.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
cd "$LAB_ROOT"

patched_before=$(cat "$LAB_BUILD/series/src/.lab-patches" 2>/dev/null || echo none)

t_expect_error "args: make kernel VARIANT=bogus" "unknown VARIANT 'bogus'" \
	make -s kernel VARIANT=bogus
t_expect_error "args: make kernel PATCHES=abc" "PATCHES must be a non-negative integer" \
	make -s kernel VARIANT=series PATCHES=abc
t_expect_error "args: make kernel PATCHES beyond the series" "lists only" \
	make -s kernel VARIANT=series PATCHES=999
t_expect_error "args: make kernel VARIANT=stock PATCHES=1" "makes no sense" \
	make -s kernel VARIANT=stock PATCHES=1
t_expect_error "args: make run SCENARIO=bogus" "unknown scenario 'bogus'" \
	make -s run SCENARIO=bogus
t_expect_error "args: make run QUICK=maybe" "QUICK must be 0 or 1" \
	make -s run QUICK=maybe
t_expect_error "args: make boot VARIANT=bogus" "unknown VARIANT 'bogus'" \
	make -s boot VARIANT=bogus
t_expect_error "args: run-vm.sh -t abc" "timeout must be a non-negative integer" \
	qemu/run-vm.sh -k Makefile -i Makefile -t abc
t_expect_error "args: run-vm.sh without a kernel" "kernel image missing" \
	qemu/run-vm.sh -i /dev/null
t_expect_error "args: ACCEL=bogus" "unknown ACCEL 'bogus'" \
	env ACCEL=bogus qemu/run-vm.sh -k Makefile -i Makefile

patched_after=$(cat "$LAB_BUILD/series/src/.lab-patches" 2>/dev/null || echo none)
if [[ "$patched_before" == "$patched_after" ]]; then
	t_pass "args: rejected arguments left the series tree as it was"
else
	t_fail "args: rejected arguments left the series tree as it was" \
		"applied patches changed from '$patched_before' to '$patched_after'"
fi
