#!/usr/bin/env bash
# The VM runner cannot report a false pass: exit codes, panics, hangs and
# kernel splats each decide the verdict, and results come back intact.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
cd "$LAB_ROOT"

kernel=$LAB_BUILD/stock/bzImage
initrd=$LAB_BUILD/initramfs.cpio
splat=$LAB_BUILD/stock/modules/lab_splat.ko
for f in "$kernel" "$initrd" "$splat"; do
	if [[ ! -f "$f" ]]; then
		t_fail "runner: prerequisites" "$f is missing (the build test failed?)"
		exit 0
	fi
done
jobs=$(mktemp -d)
trap 'rm -rf "$jobs"' EXIT

# vm_case NAME EXPECTED_EXIT VERDICT_PATTERN TIMEOUT JOB_BODY [run-vm args]
# The run's output folder is left in CASE_OUT.
vm_case() {
	local name=$1 want=$2 pattern=$3 timeout=$4 body=$5 out rc t0 verdict
	shift 5
	out=$LAB_CHECK_OUT/runner-$(tr -c 'A-Za-z0-9\n' - <<<"$name")
	CASE_OUT=$out
	printf '#!/bin/sh\n%s\n' "$body" >"$jobs/job.sh"
	t0=$SECONDS
	set +e
	vm-runner/run-vm.sh -k "$kernel" -i "$initrd" -j "$jobs/job.sh" -o "$out" \
		-t "$timeout" -m 256 -s 64 "$@" >/dev/null 2>&1
	rc=$?
	set -e
	verdict=$(cat "$out/verdict" 2>/dev/null || echo "no verdict")
	if ((rc == want)) && grep -q -- "$pattern" <<<"$verdict"; then
		t_pass "runner: $name -> $verdict"
	else
		t_fail "runner: $name" "exit $rc (wanted $want), verdict '$verdict', $((SECONDS - t0)) s"
	fi
}

vm_case "job exits 0" 0 "^passed" 120 'exit 0'
vm_case "job exits 7" 1 "the job exited 7" 120 'exit 7'
vm_case "userspace text WARNING: is no splat" 0 "^passed" 120 \
	'echo "WARNING: CPU: 0 PID: 1 at userspace text"; exit 0'
vm_case "guest panics (sysrq c)" 2 "never reported" 120 \
	'echo c >/proc/sysrq-trigger; sleep 100; exit 0'
vm_case "guest hangs past its timeout" 2 "^hung" 40 'sleep 600; exit 0'
# A hung guest's stacks come back: sysrq l and w through QEMU's monitor,
# the vCPUs' registers beside them.
out=$CASE_OUT
if grep -aq 'NMI backtrace for cpu 1' "$out/console.log" &&
	grep -aq 'sysrq: Show Blocked State' "$out/console.log" &&
	grep -q '^CPU#1' "$out/hung-monitor.txt"; then
	t_pass "runner: a hung guest's CPU stacks, blocked tasks and registers are kept"
else
	t_fail "runner: a hung guest's CPU stacks, blocked tasks and registers are kept" \
		"no sysrq l/w output in $out/console.log or no registers in hung-monitor.txt"
fi
# The guest kernel must see the vCPUs it is given (it saw one before the
# base config had ACPI, whatever -smp said).
vm_case "guest sees its 2 vCPUs" 0 "^passed" 120 \
	'n=$(nproc); echo "vCPUs: $n"; [ "$n" = 2 ]' -c 2
# 4-level page tables: with la57 the 6.1 KASAN of the debug kernel can
# report a false wild-memory-access at boot (see vm-runner/run-vm.sh).
vm_case "guest runs 4-level page tables (no la57)" 0 "^passed" 120 \
	'if grep -qw la57 /proc/cpuinfo; then echo "la57 present"; exit 1; fi'
# Debian's NUMA, swap and the guest's switches: two nodes, a swap disk,
# MGLRU switched on by lab.lru_gen=y, full preemption by preempt=full, and
# parameters from -e NAME=VALUE (quotes and dollars kept).
vm_case "guest has 2 NUMA nodes, swap, MGLRU on, preempt=full, -e" 0 "^passed" 120 \
	'n=$(ls -d /sys/devices/system/node/node[0-9]* | wc -l)
	s=$(awk '"'"'$1 == "SwapTotal:" { print $2 }'"'"' /proc/meminfo)
	g=$(cat /sys/kernel/mm/lru_gen/enabled)
	p=$(awk '"'"'$1 == "preempt" { print $2 }'"'"' /results/guest.txt)
	echo "nodes $n swap $s lru_gen $g preempt $p A=$A"
	[ "$n" = 2 ] && [ "$s" -gt 0 ] && [ "$g" != 0x0000 ] && [ "$p" = full ] &&
		[ "$A" = "it'"'"'s \$x" ]' -a "lab.lru_gen=y preempt=full" -e "A=it's \$x"
vm_case "an unknown lab. switch stops the guest" 1 "the job exited 125" 120 'exit 0' \
	-a "lab.bogus=1"
vm_case "kernel WARNING with a passing job" 3 "kernel splat" 120 \
	'insmod /lab/modules/lab_splat.ko && exit 0; exit 9' -M "$splat"

# A panic must be reported promptly, not at the timeout.
v=$(cat "$LAB_CHECK_OUT/runner-guest-panics--sysrq-c-/verdict" 2>/dev/null || echo "(0 s)")
secs=$(sed -n 's/.*(\([0-9]*\) s)$/\1/p' <<<"$v")
if [[ -n "$secs" ]] && ((secs < 100)); then
	t_pass "runner: the panic was reported in $secs s, before the 120 s timeout"
else
	t_fail "runner: the panic was reported promptly" "verdict '$v'"
fi

# Results leave through their own channel, byte for byte.
out=$LAB_CHECK_OUT/runner-results
printf '#!/bin/sh\nseq 1 20000 >/results/numbers\necho token-$((6 * 7)) >/results/token\n' >"$jobs/job.sh"
if vm-runner/run-vm.sh -k "$kernel" -i "$initrd" -j "$jobs/job.sh" -o "$out" -t 120 -m 256 -s 64 \
	>/dev/null 2>&1 && cmp -s "$out/results/numbers" <(seq 1 20000) &&
	[[ "$(cat "$out/results/token")" == token-42 ]]; then
	t_pass "runner: results come back intact through the results port"
else
	t_fail "runner: results come back intact" "see $out"
fi
