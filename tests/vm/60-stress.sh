#!/usr/bin/env bash
# The short pass of make stress on the debug kernel (KASAN, lockdep,
# DEBUG_VM, DEBUG_LIST, kmemleak, failslab, fail_page_alloc, hung-task and
# soft-lockup detectors; slub_debug=FZPU): scripts/stress-guest.sh for
# LAB_STRESS_SECONDS (default 60) under each policy of LAB_STRESS_POLICIES
# (default donate, which runs reparenting and donation both; make stress
# runs every policy, and test 55 runs pin on the debug kernel), judged by
# scripts/stress-judge.sh: no splat, no kmemleak report, faults injected,
# OOM kills, every cgroup removed, none left dying, the parent's charge
# back to its start. Each check is one result.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
cd "$LAB_ROOT"

seconds=${LAB_STRESS_SECONDS:-60}
check_uint LAB_STRESS_SECONDS "$seconds"
for policy in ${LAB_STRESS_POLICIES:-donate}; do
	out=$LAB_CHECK_OUT/stress-debug-$policy
	tag="stress debug memcg_slab=$policy ${seconds}s"
	scripts/stress-guest.sh debug "$policy" "$seconds" 1 "$out" || true
	rm -f "$out/checks.txt"
	scripts/stress-judge.sh "$out" "$policy" 2>&1 | grep -v '^ok \|^FAIL' | sed 's/^/    /' || true
	n=0
	while IFS= read -r line; do
		case "$line" in
		"ok   "*) t_pass "$tag: ${line#ok   }" ;;
		*) t_fail "$tag: ${line#FAIL }" ;;
		esac
		n=$((n + 1))
	done < <(cat "$out/checks.txt" 2>/dev/null)
	((n > 0)) || t_fail "$tag: judged" "the judge gave no verdict (see $out)"
done
