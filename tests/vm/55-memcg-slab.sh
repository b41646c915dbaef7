#!/usr/bin/env bash
# Per-memcg slab caches (memcg_slab=, series 0007) under each policy, with
# slub_debug=FZPU: qemu/jobs/memcg-slab.sh runs the module tests and
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
	vm_run "memcg-slab-$kernel-$policy" "$kernel" qemu/jobs/memcg-slab.sh \
		-M "$LAB_BUILD/$kernel/modules/lab_memcg_slab.ko" \
		-t 600 -m 1024 -s 512 -a "memcg_slab=$policy slub_debug=FZPU $more"
	out=$VM_OUT
	if ((VM_RC != 0)); then
		t_fail "$tag: guest run" "$VM_VERDICT"
		continue
	fi
	tr -d '\r' <"$out/console.log" >"$out/console.txt"
	grep -a '^# ' "$out/console.txt" | sed 's/^/    /' || true
	mapfile -t names < <(grep -aoE '(not )?ok [0-9]+ test_[a-z_]+$' "$out/console.txt" |
		awk '{ print $NF }' | sort -u)
	if ((${#names[@]} != 10)); then
		t_fail "$tag: results" "expected 10 test results, found ${#names[@]}"
	fi
	for name in "${names[@]}"; do
		if grep -aqE "^(module: )?ok [0-9]+ $name\$" "$out/console.txt"; then
			res=pass
		else
			res=fail
		fi
		t_promise "$tag: $name" "$res" "$(expect "$policy" "$name")"
	done
	if [[ "$policy" != donate ]]; then
		moved=$(grep -aE '^# memcg-slab: memcg_slab_(donated|adopted|pool_freed) ' "$out/console.txt" |
			awk '{ s += $NF; n++ } END { print n + 0, s + 0 }')
		if [[ "$moved" == "3 0" ]]; then
			t_pass "$tag: nothing donated, adopted or freed from a pool"
		else
			t_fail "$tag: nothing donated, adopted or freed from a pool" "counters, sum: $moved"
		fi
	fi
	line=$(grep -a '^# memcg-slab: live children' "$out/console.txt" || true)
	read -r before after < <(sed -E 's/.* ([0-9]+) before rmmod, ([0-9]+) after/\1 \2/' <<<"$line")
	want=$((before - 2))
	[[ "$policy" == shared ]] && want=$before
	if [[ -n "$line" && "$after" == "$want" ]] &&
		! grep -aq 'rmmod left children behind' "$out/console.txt"; then
		t_pass "$tag: rmmod retires the module cache's children ($before -> $after)"
	else
		t_fail "$tag: rmmod retires the module cache's children" "${line:-no figure}"
	fi
done
