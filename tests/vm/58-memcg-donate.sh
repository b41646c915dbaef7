#!/usr/bin/env bash
# Lazy donation (memcg_slab=donate, series 0008): guest/jobs/memcg-donate.sh
# with lab_memcg_donate.ko, slub_debug=FZPU; under donate also the adoption
# race with the adopter held in the window after it published the slab. Under donate on the series
# kernel: a live memcg takes the removed memcg's half-empty pages, the old
# objects keep their owner on the list_lrus, every object frees, the pool
# drains, the charge is conserved, no memcg stays dying. Under reparent
# (the control) nothing is donated: the adoption test must fail and the
# counters stay 0. On the debug kernel (KASAN, lockdep, DEBUG_VM) the race
# rounds free a removed memcg's objects on both CPUs while its slabs are
# donated and adopted; the runner fails the run on any report.
# LAB_DONATE_RUNS="kernel:policy:rounds ..." runs other combinations, e.g.
# a long race: LAB_DONATE_RUNS=debug:donate:500.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
cd "$LAB_ROOT"

# The kselftests' allowance for per-CPU charge batches: 64 pages per CPU
allow=$((4096 * 64 * 2))

within() {
	local d=$(($2 - $1))
	((d < 0)) && d=$((-d))
	((d <= allow))
}

for run in ${LAB_DONATE_RUNS:-series:donate:10 series:reparent:2 debug:donate:40}; do
	IFS=: read -r kernel policy iters <<<"$run"
	check_variant "$kernel"
	check_uint rounds "$iters"
	tag="memcg_slab=$policy ($kernel)"
	# The adoption race with a held-up adopter (test_adoption_race_keeps_child)
	# under donate; MGLRU and full preemption on the debug kernel. On the
	# debug kernel the race finds no bug even where there is one: KASAN's
	# quarantine makes the shrink wait for the held CPU (an IPI), so only
	# the series run can catch it; the debug run checks the path is clean.
	adopt_race=0 append="memcg_slab=$policy slub_debug=FZPU"
	[[ "$policy" == donate ]] && adopt_race=1
	[[ "$kernel" == debug ]] && append+=" preempt=full lab.lru_gen=y"
	vm_run "memcg-donate-$kernel-$policy" "$kernel" guest/jobs/memcg-donate.sh \
		-M "$LAB_BUILD/$kernel/modules/lab_memcg_donate.ko" \
		-e "RACE_ITERS=$iters" -e "RACE_ADOPT=$adopt_race" \
		-t 900 -m 1024 -s 64 -a "$append"
	if ((VM_RC != 0)); then
		t_fail "$tag: guest run ($iters race rounds)" "$VM_VERDICT"
		continue
	fi
	t_pass "$tag: $iters race rounds, no kernel report"
	grep -a '^# ' "$VM_OUT/results/module.tap" 2>/dev/null | sed 's/^/    /' || true
	vm_figures

	names=(test_adoption_reuses_pages test_old_objects_keep_owner test_frees_after_adoption)
	((adopt_race)) && names+=(test_adoption_race_keeps_child)
	results=$(vm_tap module)
	for name in "${names[@]}"; do
		want=pass
		[[ "$policy" != donate && "$name" == test_adoption_reuses_pages ]] && want=fail
		res=$(awk -v n="$name" '$1 == n { print $2 }' <<<"$results")
		if [[ "$res" != pass && "$res" != fail ]]; then
			t_fail "$tag: $name" "no result"
			continue
		fi
		t_promise "$tag: $name" "$res" "$want"
	done

	donated=$(vm_figure donated) adopted=$(vm_figure adopted) pfreed=$(vm_figure pool_freed)
	before=$(vm_figure pooled_after_removal) after=$(vm_figure pooled_after_adoption)
	counts="donated $donated, adopted $adopted, pool_freed $pfreed; pooled $before -> $after"
	if [[ "$policy" == donate ]]; then
		if is_uint "$donated$adopted$before$after" && ((donated > 0 && adopted > 0 && before > 0)) &&
			((after < before)); then
			t_pass "$tag: slabs donated and adopted, the pool shrinks ($counts)"
		else
			t_fail "$tag: slabs donated and adopted, the pool shrinks" "$counts"
		fi
	elif [[ "$donated$adopted$pfreed$before" == 0000 ]]; then
		t_pass "$tag: nothing donated, counters stay 0"
	else
		t_fail "$tag: nothing donated, counters stay 0" "$counts"
	fi

	raced=$(vm_figure race_adopted)
	if [[ "$policy" == donate ]]; then
		if is_uint "$raced" && ((raced > 0)); then
			t_pass "$tag: the race rounds adopt while the old objects are freed ($raced slabs)"
		else
			t_fail "$tag: the race rounds adopt while the old objects are freed" "adopted $raced"
		fi
	fi

	for when in tests race; do
		d=$(vm_figure "dying_after_$when")
		if [[ "$d" == 0 ]]; then
			t_pass "$tag: no memcg dying after the $when"
		else
			t_fail "$tag: no memcg dying after the $when" "$d"
		fi
	done

	# KASAN's quarantine holds freed objects, and their pages, for a while
	[[ "$kernel" == debug ]] && continue
	c0=$(vm_figure parent_current_start) c1=$(vm_figure parent_current_end)
	s0=$(vm_figure parent_slab_start) s1=$(vm_figure parent_slab_end)
	if is_uint "$c0$c1$s0$s1" && within "$c0" "$c1" && within "$s0" "$s1"; then
		t_pass "$tag: charge conserved at the parent ($c0 -> $c1, slab $s0 -> $s1)"
	else
		t_fail "$tag: charge conserved at the parent" "$c0 -> $c1, slab $s0 -> $s1 (allowed $allow)"
	fi
done
