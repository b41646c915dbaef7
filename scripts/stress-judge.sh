#!/usr/bin/env bash
# Judge one stress guest (scripts/stress-guest.sh) from its figures
# (OUTDIR/results/figures.txt, and the host's in OUTDIR/host.txt): print
# them, then one line per check, "ok  CHECK (detail)" or "FAIL CHECK
# (detail)"; the checks also go to OUTDIR/checks.txt. Exit 1 if any check
# failed.
# Usage: stress-judge.sh OUTDIR POLICY
set -euo pipefail
. "$(dirname "$0")/lib.sh"

[[ $# -eq 2 ]] || die "usage: ${0##*/} OUTDIR POLICY"
out=$1 policy=$2
figs=$out/results/figures.txt
[[ -f "$out/host.txt" ]] || die "no $out/host.txt (run scripts/stress-guest.sh first)"

# fig NAME: the figure the guest (or the host) recorded, or -1
fig() {
	local v
	v=$(figure_of "$1" "$figs" "$out/host.txt")
	[[ "$v" =~ ^-?[0-9]+(\.[0-9]+)?$ ]] || v=-1
	echo "$v"
}

failed=0
: >"$out/checks.txt"
check() {
	local name=$1 cond=$2 detail=$3 line
	if ((cond)); then
		line="ok   $name ($detail)"
	else
		line="FAIL $name ($detail)"
		failed=1
	fi
	echo "$line" | tee -a "$out/checks.txt"
}

cat "$figs" "$out/host.txt" 2>/dev/null | sed 's/=/ /; s/^/  /' || true
verdict=$(cat "$out/verdict" 2>/dev/null || echo "no verdict")
splats=$(fig splats)

check "the guest ran the job to its end" "$([[ "$verdict" == passed* || "$verdict" == "kernel splat"* ]] && echo 1 || echo 0)" "$verdict"
check "no kernel splat (KASAN, lockdep, BUG, WARNING, lockups, hung tasks)" "$((splats == 0))" "$splats"
"$LAB_ROOT/vm-runner/scan-splats.sh" "$out/console.log" | head -n 5 | sed 's/^/       /' || true
cycles=$(fig cycles)
if ((cycles < 0)); then
	check "the stress driver reported its figures" 0 "none in $figs"
	exit 1
fi
check "the driver did everything it tried" "$(($(fig errors) == 0))" "errors $(fig errors)"
check "every kind of job ran" \
	"$(($(fig cycles_plain) > 0 && $(fig cycles_tight) > 0 && $(fig cycles_oom) > 0 && $(fig cycles_faulty) > 0 && $(fig cycles_race) > 0))" \
	"$cycles cycles"
check "every cgroup created was removed" "$(($(fig cgroups_created) > 0 && $(fig cgroups_created) == $(fig cgroups_removed)))" \
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
	sed 's/^/# kmemleak: /' "$out/results/kmemleak.txt" 2>/dev/null | head -n 20 || true
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
