#!/usr/bin/env bash
# Page reparenting (vm.memcg_reparent_pages): the in-guest tests
# (mm-tests/test_reparent.c, with lab_probe.ko) pass on series with MGLRU
# off and on, under preempt=none and preempt=full, and on the debug kernel
# (KASAN, lockdep, DEBUG_VM, DEBUG_LIST); on stock every one of them fails,
# which shows they can. A parallel churn racing reclaim and the switch on
# the debug kernel ends without a splat and with no removed cgroup left
# dying.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
cd "$LAB_ROOT"

tests=(test_reparent_frees_dying test_reparent_conserves_charge
	test_reparent_thp_split_queue test_reparent_top_level
	test_reparent_truncated_dirty test_reparent_late_charge
	test_reparent_busy_page test_reparent_munlocked_page
	test_reparent_dirty_writeback test_reparent_cold_first)

# KERNEL:APPEND runs; stock is the control.
runs=("series:lab.lru_gen=n preempt=none" "series:lab.lru_gen=y preempt=full"
	"debug:lab.lru_gen=n preempt=full" "stock:")
for run in "${runs[@]}"; do
	kernel=${run%%:*} append=${run#*:}
	tag="reparent ($kernel${append:+, $append})"
	vm_run "reparent-$kernel-${append// /-}" "$kernel" guest/jobs/reparent.sh \
		-M "$LAB_BUILD/$kernel/modules/lab_probe.ko" -t 900 -m 1024 -s 512 -a "$append"
	grep -a '^#' "$VM_OUT/results/reparent.tap" 2>/dev/null | sed 's/^/    /' || true
	declare -A res=()
	while read -r name r; do
		res[$name]=$r
	done < <(tap_results "$VM_OUT/results/reparent.tap")
	for name in "${tests[@]}"; do
		r=${res[$name]:-missing}
		if [[ "$kernel" == stock ]]; then
			if [[ "$r" == fail ]]; then
				t_pass "$tag: $name fails on stock (control)"
			else
				t_fail "$tag: $name fails on stock (control)" "$r ($VM_VERDICT)"
			fi
		elif [[ "$r" == pass ]]; then
			t_pass "$tag: $name"
		else
			t_fail "$tag: $name" "$r ($VM_VERDICT)"
		fi
	done
	unset res
	if [[ "$kernel" != stock ]] && ((VM_RC != 0)); then
		t_fail "$tag: guest run" "$VM_VERDICT"
	fi
done

name="reparent: parallel churn racing reclaim and the switch on the debug kernel"
vm_run reparent-stress-debug debug guest/jobs/reparent-stress.sh -t 900 -m 384 -s 1024 \
	-a "lab.lru_gen=y preempt=full"
if ((VM_RC == 0)); then
	t_pass "$name: no splat, none left dying (moved $(vm_figure moved_pages) pages, $(vm_figure dying_left) left dying)"
else
	why=$(vm_figure error)
	[[ "$why" == none ]] && why="moved $(vm_figure moved_pages) pages, $(vm_figure dying_left) left dying"
	t_fail "$name" "$VM_VERDICT; $why"
	vm-runner/scan-splats.sh "$VM_OUT/console.log" 2>&1 | head -n 5 | sed 's/^/    /' || true
fi
