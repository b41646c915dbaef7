#!/usr/bin/env bash
# lab_kmem_bench.ko (the accounting benchmark of make run SCENARIO=full)
# works, at a tiny size (guest/jobs/kmem-bench.sh): in the root cgroup and
# in a user cgroup it reports the best and median ns of all four
# benchmarks, cross-CPU ones included (the guest has two CPUs); bad
# parameters are refused with a message. No time is judged here: costs
# are compared in the scenario.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
cd "$LAB_ROOT"

name="kmem bench: 8 figures per context, cross-CPU included, on series memcg_slab=pin"
vm_run kmem-bench series guest/jobs/kmem-bench.sh \
	-M "$LAB_BUILD/series/modules/lab_kmem_bench.ko" -t 300 -m 512 -s 64 -a memcg_slab=pin
if ((VM_RC != 0)); then
	t_fail "$name" "$VM_VERDICT"
	exit 0
fi
missing=()
for ctx in root user; do
	for b in kmalloc cache kmalloc_x cache_x; do
		for s in best median; do
			is_uint "$(vm_figure "${ctx}_${b}_${s}_ns")" || missing+=("${ctx}_${b}_${s}_ns")
		done
	done
done
if ((${#missing[@]} == 0)); then
	t_pass "$name"
else
	t_fail "$name" "${#missing[@]} missing (${missing[*]:0:3}...); see $VM_OUT/results/figures.txt"
fi
n=0
while read -r test res; do
	n=$((n + 1))
	if [[ "$res" == pass ]]; then
		t_pass "kmem bench: $test: refused with a message"
	else
		t_fail "kmem bench: $test: refused with a message" \
			"$(grep -a "$test" "$VM_OUT/results/kmem-bench.tap")"
	fi
done < <(vm_tap kmem-bench)
((n == 3)) || t_fail "kmem bench: bad parameters refused" "$n of 3 results"
