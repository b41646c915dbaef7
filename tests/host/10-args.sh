#!/usr/bin/env bash
# Bad arguments get a clear error and change nothing.
# lab-check: beside-guests (make and scripts refusing arguments: light host work)
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
t_expect_error "args: kernel-build.sh with LAB_SPARSE=2" "LAB_SPARSE must be 0 or 1" \
	env LAB_SPARSE=2 scripts/kernel-build.sh stock
t_expect_error "args: make run SCENARIO=bogus" "unknown scenario 'bogus'" \
	make -s run SCENARIO=bogus
t_expect_error "args: make run QUICK=maybe" "QUICK must be 0 or 1" \
	make -s run QUICK=maybe
t_expect_error "args: make run PARAMS with a name the scenario lacks" "has no parameter BOGUS" \
	make -s run SCENARIO=crashloop PARAMS='BOGUS=1'
t_expect_error "args: make run PARAMS without NAME=VALUE" "is not NAME=VALUE" \
	make -s run SCENARIO=crashloop PARAMS='CRASH_CYCLES=1;reboot'
t_expect_error "args: make run VARIANTS with a label the scenario lacks" "has no variant 'bogus'" \
	make -s run SCENARIO=crashloop VARIANTS='stock bogus'
t_expect_error "args: make run REPS=abc" "REPS must be a non-negative integer" \
	make -s run SCENARIO=crashloop REPS=abc
t_expect_error "args: make run REPS=0" "REPS must be at least 1" \
	make -s run SCENARIO=crashloop REPS=0
t_expect_error "args: make boot VARIANT=bogus" "unknown VARIANT 'bogus'" \
	make -s boot VARIANT=bogus
t_expect_error "args: run-vm.sh -t abc" "timeout must be a non-negative integer" \
	vm-runner/run-vm.sh -k Makefile -i Makefile -t abc
t_expect_error "args: run-vm.sh without a kernel" "kernel image missing" \
	vm-runner/run-vm.sh -i /dev/null
t_expect_error "args: run-vm.sh -n 3" "NUMA nodes (-n) must be 1 or 2" \
	vm-runner/run-vm.sh -k Makefile -i Makefile -n 3
t_expect_error "args: run-vm.sh -c 3 on two nodes" "must be 1 or a multiple of the NUMA nodes" \
	vm-runner/run-vm.sh -k Makefile -i Makefile -c 3
t_expect_error "args: run-vm.sh -S 8" "swap (-S) must be 0 (none) or at least 16 MiB" \
	vm-runner/run-vm.sh -k Makefile -i Makefile -S 8
t_expect_error "args: run-vm.sh -e without NAME=" "-e wants NAME=VALUE" \
	vm-runner/run-vm.sh -k Makefile -i Makefile -j Makefile -e 1x=2
t_expect_error "args: run-vm.sh -e without a job" "-e needs a job" \
	vm-runner/run-vm.sh -k Makefile -i Makefile -e A=1
t_expect_error "args: ACCEL=bogus" "unknown ACCEL 'bogus'" \
	env ACCEL=bogus vm-runner/run-vm.sh -k Makefile -i Makefile
t_expect_error "args: LAB_TCG_NOCHAIN=2" "LAB_TCG_NOCHAIN must be 0 or 1" \
	env LAB_TCG_NOCHAIN=2 vm-runner/run-vm.sh -k Makefile -i Makefile
t_expect_error "args: make stress STRESS_SECONDS=abc" "STRESS_SECONDS must be a non-negative integer" \
	make -s stress STRESS_SECONDS=abc
t_expect_error "args: make stress STRESS_SECONDS=5" "STRESS_SECONDS must be at least 10" \
	make -s stress STRESS_SECONDS=5
t_expect_error "args: make stress STRESS_SIZE=0" "STRESS_SIZE must be 1..8" \
	make -s stress STRESS_SIZE=0
t_expect_error "args: make stress POLICIES=bogus" "unknown policy 'bogus'" \
	make -s stress POLICIES="donate bogus"
t_expect_error "args: make stress POLICIES=" "POLICIES is empty" \
	make -s stress POLICIES=" "
t_expect_error "args: make stress VARIANT=stock POLICIES=pin" "stock kernel has no memcg_slab=" \
	make -s stress VARIANT=stock POLICIES=pin
t_expect_error "args: stress-guest.sh SIZE=x" "SIZE must be a non-negative integer" \
	scripts/stress-guest.sh debug donate 60 x /tmp/lab-never
t_expect_error "args: stress-judge.sh on a folder with no stress run" "no /nonexistent/host.txt" \
	scripts/stress-judge.sh /nonexistent donate
# The guest workload checks its arguments before it touches anything
make -s mm-tests >/dev/null
t_expect_error "args: guest stress -t abc" "-t needs a non-negative integer" \
	"$LAB_BUILD/mm-tests/stress" -c /nonexistent -d /nonexistent -t abc
t_expect_error "args: guest stress -w 0" "need -t >= 1, 1 <= -w <= 60" \
	"$LAB_BUILD/mm-tests/stress" -c /nonexistent -d /nonexistent -w 0
t_expect_error "args: guest stress without -d" "usage: stress" \
	"$LAB_BUILD/mm-tests/stress" -c /nonexistent

patched_after=$(cat "$LAB_BUILD/series/src/.lab-patches" 2>/dev/null || echo none)
if [[ "$patched_before" == "$patched_after" ]]; then
	t_pass "args: rejected arguments left the series tree as it was"
else
	t_fail "args: rejected arguments left the series tree as it was" \
		"applied patches changed from '$patched_before' to '$patched_after'"
fi
