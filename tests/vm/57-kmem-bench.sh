#!/usr/bin/env bash
# lab_kmem_bench.ko (the accounting benchmark of make run SCENARIO=full)
# works, at a tiny size: in the root cgroup and in a user cgroup it
# reports the best and median ns of all four benchmarks, cross-CPU ones
# included (the guest has two CPUs); bad parameters are refused with a
# message. No time is judged here: costs are compared in the scenario.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
cd "$LAB_ROOT"

job=$(mktemp)
trap 'rm -f "$job"' EXIT
cat >"$job" <<'JOB'
#!/bin/sh
mkdir /sys/fs/cgroup/bench || exit 1
for cg in "" /bench; do
	insmod /lab/modules/lab_kmem_bench.ko cg="$cg" objs=100 batches=5 reps=3 || exit 1
	rmmod lab_kmem_bench
done
for bad in objs=0 reps=100 cg=/nonexistent; do
	if insmod /lab/modules/lab_kmem_bench.ko $bad 2>/dev/null; then
		echo "kmem-bench: $bad was accepted"
		exit 1
	fi
done
dmesg | sed -n 's/^.*lab_kmem_bench: /kmem-bench: /p'
JOB

out=$LAB_CHECK_OUT/kmem-bench
name="kmem bench: 16 figures per context, cross-CPU included, on series memcg_slab=pin"
if ! qemu/run-vm.sh -k "$LAB_BUILD/series/bzImage" -i "$LAB_BUILD/initramfs.cpio" -j "$job" \
	-M "$LAB_BUILD/series/modules/lab_kmem_bench.ko" -o "$out" -t 300 -m 512 -s 64 \
	-a memcg_slab=pin >/dev/null 2>&1; then
	t_fail "$name" "$(cat "$out/verdict" 2>/dev/null)"
	exit 0
fi
tr -d '\r' <"$out/console.log" >"$out/console.txt"
n=$(grep -aE '^kmem-bench: (root|user)_(kmalloc|cache|kmalloc_x|cache_x)_(best|median)_ns [0-9]+$' \
	"$out/console.txt" | sed 's/ [0-9]*$//' | sort -u | grep -c . || true)
if ((n == 16)); then
	t_pass "$name"
else
	t_fail "$name" "$n figures; see $out/console.txt"
fi
# The console carries the job's output twice: count distinct lines.
msgs=$(grep -aE '^kmem-bench: (objs=.*must be|no cgroup /nonexistent)' "$out/console.txt" |
	sort -u | grep -c . || true)
if ((msgs == 3)); then
	t_pass "kmem bench: objs=0, reps=100 and an unknown cgroup are refused with a message"
else
	t_fail "kmem bench: bad parameters refused with a message" "$msgs of 3 messages"
fi
