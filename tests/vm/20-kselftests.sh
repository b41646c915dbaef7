#!/usr/bin/env bash
# The cgroup kselftests (test_core, test_kmem, test_memcontrol) in the guest,
# on stock, on series, on series with page reparenting switched on at boot
# (series-rp), and on series under each per-memcg slab policy
# (series-pin: memcg_slab=pin, series-slabrp: memcg_slab=reparent,
# series-donate: memcg_slab=donate). Every guest has two NUMA nodes, swap
# and THP always; MGLRU (lab.lru_gen=) and the preemption model (preempt=)
# vary between the variants so that each setting meets the series, and
# stock runs with MGLRU off and on, as the reference for each. A test that
# fails on stock is a known failure of the base (tests/known-base-failures,
# by name and reason); a test that passes on stock with the same MGLRU
# setting must pass on every series variant. A test listed in
# tests/known-flaky (it fails now and then on stock too) that fails is run
# again, alone, on the same kernel (up to three tries in each of up to
# three boots: rerun()); it counts as passed if a rerun passes, and the
# note says so. A test in both lists is a base failure that passes now
# and then: its pass on stock is not a reason to update the list, its
# failure elsewhere is a skip, and it is not run again.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
cd "$LAB_ROOT"

# variant_args VARIANT: the kernel command line the variant boots with.
variant_args() {
	case "$1" in
	stock) echo "lab.lru_gen=n" ;;
	stock-mglru) echo "lab.lru_gen=y preempt=full" ;;
	series) echo "lab.lru_gen=n preempt=none" ;;
	series-mglru) echo "lab.lru_gen=y preempt=full" ;;
	series-rp) echo "sysctl.vm.memcg_reparent_pages=1 lab.lru_gen=y preempt=full" ;;
	series-pin) echo "memcg_slab=pin lab.lru_gen=n preempt=full" ;;
	series-slabrp) echo "memcg_slab=reparent lab.lru_gen=y preempt=none" ;;
	series-donate) echo "memcg_slab=donate lab.lru_gen=y preempt=full" ;;
	*) die "unknown kselftest variant $1" ;;
	esac
}

# reference VARIANT: the stock variant with the same MGLRU setting.
reference() {
	if [[ "$(variant_args "$1")" == *lab.lru_gen=y* ]]; then
		echo stock-mglru
	else
		echo stock
	fi
}

known=$LAB_ROOT/tests/known-base-failures
flaky=$LAB_ROOT/tests/known-flaky
job=$(mktemp)
trap 'rm -f "$job"' EXIT
printf '#!/bin/sh\nexec lab-kselftests.sh\n' >"$job"

# rerun VARIANT BINARY NAME: boot the variant up to three more times and
# run BINARY alone in each, up to three times in a boot, until NAME
# passes; print "pass B T" for the first pass (boot B, try T), or "fail".
# A flaky test's failures cluster in slow boots (test_memcg_reclaim failed
# 4 of 4 tries in one boot and 0 of 4 in another), so the retries are
# spread over boots; a try costs about a minute, and only on failure.
rerun() {
	local i res rjob=$job.rerun rargs=(-a "$(variant_args "$1")")
	cat >"$rjob" <<-EOF
		#!/bin/sh
		for try in 1 2 3; do
			echo "\$try" >/results/tries.txt
			lab-kselftests.sh $2
			grep -Eq '^ok [0-9]+ $3\$' /results/$2.tap && exit 0
		done
		exit 0
	EOF
	for i in 1 2 3; do
		# A hung rerun's stacks go to the log, not into the answer.
		vm_run "kselftests-$1-rerun$i" "${1%%-*}" "$rjob" -t 900 -m 1024 -s 1024 "${rargs[@]}" >&2
		res=$(vm_tap "$2" | awk -v n="$3" '$1 == n { print $2 }')
		if [[ "$res" == pass ]]; then
			echo "pass $i $(cat "$VM_OUT/results/tries.txt" 2>/dev/null || echo '?')"
			return
		fi
	done
	echo fail
}

declare -A stock_result
for v in stock stock-mglru series series-mglru series-rp series-pin series-slabrp series-donate; do
	vm_run "kselftests-$v" "${v%%-*}" "$job" -t 900 -m 1024 -s 1024 -a "$(variant_args "$v")"
	if ((VM_RC != 0)); then
		t_fail "kselftests: $v guest run" "$VM_VERDICT"
		continue
	fi
	results=$(for bin in test_core test_kmem test_memcontrol; do
		vm_tap "$bin" | sed "s|^|$bin |"
	done)
	if [[ -z "$results" ]]; then
		t_fail "kselftests: $v results" "no results in $VM_OUT/results"
		continue
	fi
	while read -r bin name res; do
		id="kselftest $v $bin/$name"
		reason=$(awk -v n="$name" '$1 == n { $1 = ""; sub(/^ /, ""); print }' "$known")
		flaky_why=$(awk -v n="$name" '$1 == n { $1 = ""; sub(/^ /, ""); print }' "$flaky")
		# A test in both lists is skipped or passed whatever a rerun
		# gives, so only a flaky test that is not a base failure reruns.
		if [[ "$res" == fail && -n "$flaky_why" && -z "$reason" ]]; then
			again=$(rerun "$v" "$bin" "$name")
			if [[ "$again" == pass* ]]; then
				read -r _ rboot rtry <<<"$again"
				res=pass
				id="$id (failed once, passed in rerun boot $rboot, try $rtry; known flaky: $flaky_why)"
			fi
		fi
		if [[ "$v" == stock* ]]; then
			stock_result[$v/$name]=$res
			case "$res" in
			pass)
				if [[ -n "$reason" && -n "$flaky_why" ]]; then
					t_pass "$id (a known base failure that passes now and then: $flaky_why)"
				elif [[ -n "$reason" ]]; then
					t_fail "$id" "passes, but tests/known-base-failures lists it: update the list"
				else
					t_pass "$id"
				fi
				;;
			fail)
				if [[ -n "$reason" ]]; then
					t_skip "$id" "known failure of the base: $reason"
				else
					t_fail "$id" "fails on stock and is not in tests/known-base-failures"
				fi
				;;
			skip) t_skip "$id" "skipped by the test itself" ;;
			esac
		else
			case "$res" in
			pass) t_pass "$id" ;;
			fail)
				if [[ "${stock_result[$(reference "$v")/$name]:-}" == fail ]]; then
					t_skip "$id" "fails on stock too${reason:+ (known failure of the base: $reason)}"
				elif [[ -n "$reason" && -n "$flaky_why" ]]; then
					t_skip "$id" "known failure of the base that passed on stock this time: $flaky_why"
				else
					t_fail "$id" "passes on stock, fails with the series"
				fi
				;;
			skip) t_skip "$id" "skipped by the test itself" ;;
			esac
		fi
	done <<<"$results"
done
