#!/usr/bin/env bash
# Judge one stress guest's console (scripts/stress-guest.sh): print its
# figures, then one line per check, "ok  CHECK (detail)" or "FAIL CHECK
# (detail)". Exit 1 if any check failed.
# Usage: stress-judge.sh OUTDIR POLICY
set -euo pipefail
. "$(dirname "$0")/lib.sh"

[[ $# -eq 2 ]] || die "usage: ${0##*/} OUTDIR POLICY"
out=$1 policy=$2
con=$out/console.txt
[[ -f "$con" ]] || die "no console in $out (run scripts/stress-guest.sh first)"

# fig NAME: the figure the guest printed, or -1 if it did not
fig() {
	local v
	v=$(sed -nE "s/^# stress: $1 (-?[0-9]+)\$/\\1/p" "$con" | tail -n 1)
	echo "${v:--1}"
}

failed=0
check() {
	local name=$1 cond=$2 detail=$3
	if ((cond)); then
		echo "ok   $name ($detail)"
	else
		echo "FAIL $name ($detail)"
		failed=1
	fi
}

grep -a '^# stress: ' "$con" | sed 's/^# stress: /  /' || true
verdict=$(cat "$out/verdict" 2>/dev/null || echo "no verdict")
splats=$("$LAB_ROOT/qemu/scan-splats.sh" "$con" | wc -l || true)
echo "  splats $splats"

check "the guest ran the job to its end" "$([[ "$verdict" == passed* || "$verdict" == "kernel splat"* ]] && echo 1 || echo 0)" "$verdict"
check "no kernel splat (KASAN, lockdep, BUG, WARNING, lockups, hung tasks)" "$((splats == 0))" "$splats"
"$LAB_ROOT/qemu/scan-splats.sh" "$con" | head -n 5 | sed 's/^/       /' || true
cycles=$(fig cycles)
if ((cycles < 0)); then
	check "the stress driver reported its figures" 0 "none in $con"
	exit 1
fi
check "the driver did everything it tried" "$(($(fig errors) == 0))" "errors $(fig errors)"
check "every kind of job ran" \
	"$(($(fig cycles_plain) > 0 && $(fig cycles_tight) > 0 && $(fig cycles_oom) > 0 && $(fig cycles_faulty) > 0 && $(fig cycles_race) > 0))" \
	"$cycles cycles"
check "every cgroup created was removed" "$(($(fig cgroups_created) == $(fig cgroups_removed)))" \
	"created $(fig cgroups_created), removed $(fig cgroups_removed)"
check "jobs hit memory.max and were OOM-killed" "$(($(fig events_max) > 0 && $(fig jobs_killed) > 0))" \
	"max events $(fig events_max), oom_kill events $(fig events_oom_kill), jobs killed $(fig jobs_killed)"
check "charges at memory.max failed in unkillable jobs (ENOMEM)" "$(($(fig jobs_enomem) > 0))" \
	"jobs with ENOMEM $(fig jobs_enomem), oom events $(fig events_oom), jobs timed out $(fig jobs_timed_out)"
if [[ "$policy" != shared ]]; then
	check "charges of child slab pages (new or adopted) failed" \
		"$(($(fig slab_charge_failed) + $(fig slab_adopt_charge_failed) > 0))" \
		"new $(fig slab_charge_failed), adopted $(fig slab_adopt_charge_failed)"
fi
check "the switches were toggled" "$(($(fig toggles) > 0))" "$(fig toggles) writes"
if (($(fig kmemleak_baseline_seconds) >= 0)); then
	check "failslab and fail_page_alloc injected failures" \
		"$(($(fig faults_failslab) > 0 && $(fig faults_fail_page_alloc) > 0))" \
		"failslab $(fig faults_failslab), fail_page_alloc $(fig faults_fail_page_alloc), kworker windows $(fig kworker_windows)"
	if [[ "$policy" != shared ]]; then
		check "child cache creation failed under injection (and was retried)" \
			"$(($(fig slab_create_failed) > 0))" \
			"$(fig slab_create_failed) failed, $(fig vm_memcg_slab_child_created) created"
	fi
	check "kmemleak reports nothing" "$(($(fig kmemleak_reports) == 0))" "$(fig kmemleak_reports) reports"
	grep -a '^# kmemleak: ' "$con" | head -n 20 || true
fi
if [[ "$policy" == donate ]]; then
	check "slabs were donated and adopted" \
		"$(($(fig vm_memcg_slab_donated) > 0 && $(fig vm_memcg_slab_adopted) > 0))" \
		"donated $(fig vm_memcg_slab_donated), adopted $(fig vm_memcg_slab_adopted)"
fi
dying=$(fig dying_left)
if [[ "$policy" == pin ]]; then
	echo "     dying memcgs left: $dying (pin keeps a memcg until its children empty; not judged)"
else
	check "no memcg left dying after the cleanup" "$((dying == 0))" "$dying left, zero after $(fig dying_zero_ms) ms"
fi
allow=$(fig allowed_error)
for c in current slab; do
	s=$(fig ${c}_start) e=$(fig ${c}_end)
	d=$((e - s))
	check "the parent's $c is back to its start" "$((d <= allow && -d <= allow))" \
		"$s -> $e, allowed $allow"
done
exit "$failed"
