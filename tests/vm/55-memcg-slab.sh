#!/usr/bin/env bash
# Per-memcg slab caches (memcg_slab=, series 0007) under each policy, with
# slub_debug=FZPU: guest/jobs/memcg-slab.sh runs the module tests and
# test_memcg_slab. Each result is held against what the policy promises,
# so that a test which must fail under one policy (a control) shows it
# can: the module's child tests fail under shared, test_pin_keeps_dying
# passes only under pin, test_reparent_frees_dying fails only under pin.
# pin and reparent also run on the debug kernel (lockdep, DEBUG_VM,
# KASAN); donate (series 0008) must keep every promise reparent makes, and
# every other policy must never donate (its donation counters stay 0).
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
cd "$LAB_ROOT"

# expect POLICY NAME: pass or fail, what the policy promises for NAME.
expect() {
	case "$2" in
	test_child_serves_memcg_* | test_memcgs_never_share_a_page_*)
		[[ "$1" == shared ]] && echo fail || echo pass ;;
	test_pin_keeps_dying) [[ "$1" == pin ]] && echo pass || echo fail ;;
	test_reparent_frees_dying) [[ "$1" == pin ]] && echo fail || echo pass ;;
	*) echo pass ;;
	esac
}

# KERNEL:POLICY:MORE-BOOT-ARGS; MGLRU and full preemption in some runs.
for run in "series:shared:" "series:pin:lab.lru_gen=y preempt=full" "series:reparent:" \
	"series:donate:lab.lru_gen=y" "debug:pin:" "debug:reparent:lab.lru_gen=y preempt=full"; do
	IFS=: read -r kernel policy more <<<"$run"
	tag="memcg_slab=$policy ($kernel${more:+, $more})"
	vm_run "memcg-slab-$kernel-$policy" "$kernel" guest/jobs/memcg-slab.sh \
		-M "$LAB_BUILD/$kernel/modules/lab_memcg_slab.ko" \
		-t 600 -m 1024 -s 512 -a "memcg_slab=$policy slub_debug=FZPU $more"
	if ((VM_RC != 0)); then
		t_fail "$tag: guest run" "$VM_VERDICT"
		continue
	fi
	grep -ah '^# ' "$VM_OUT"/results/*.tap 2>/dev/null | sed 's/^/    /' || true
	vm_figures
	n=0
	while read -r name res; do
		t_promise "$tag: $name" "$res" "$(expect "$policy" "$name")"
		n=$((n + 1))
	done < <(vm_tap)
	((n == 10)) || t_fail "$tag: results" "expected 10 test results, found $n"
	if [[ "$policy" != donate ]]; then
		moved="$(vm_figure memcg_slab_donated) $(vm_figure memcg_slab_adopted) $(vm_figure memcg_slab_pool_freed)"
		if [[ "$moved" == "0 0 0" ]]; then
			t_pass "$tag: nothing donated, adopted or freed from a pool"
		else
			t_fail "$tag: nothing donated, adopted or freed from a pool" "donated, adopted, pool_freed: $moved"
		fi
	fi
	before=$(vm_figure live_children_before_rmmod) after=$(vm_figure live_children_after_rmmod)
	want=none
	[[ "$before" =~ ^[0-9]+$ ]] && want=$((before - 2))
	[[ "$policy" == shared ]] && want=$before
	if [[ "$after" == "$want" && "$(vm_figure rmmod_left_children)" == 0 ]]; then
		t_pass "$tag: rmmod retires the module cache's children ($before -> $after)"
	else
		t_fail "$tag: rmmod retires the module cache's children" \
			"$before -> $after, want $want; rmmod warnings: $(vm_figure rmmod_left_children)"
	fi
done
