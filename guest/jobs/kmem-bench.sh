#!/bin/sh
# lab_kmem_bench.ko at a tiny size (tests/vm/57-kmem-bench.sh): in the
# root cgroup and in a user cgroup its figures go to /results/figures.txt
# ("root_kmalloc_best_ns=...", as the module names them); then each bad
# parameter must be refused with a message, one KTAP result each in
# /results/kmem-bench.tap.
set -u
. lab-results.sh
mkdir /sys/fs/cgroup/bench || exit 1
for cg in "" /bench; do
	dmesg -c >/dev/null
	insmod /lab/modules/lab_kmem_bench.ko cg="$cg" objs=100 batches=5 reps=3 || exit 1
	rmmod lab_kmem_bench
	dmesg | sed -nE 's/^.*lab_kmem_bench: ([a-z_]+_ns) ([0-9]+)$/\1 \2/p' |
		while read -r k v; do
			lab_figure "$k" "$v"
		done
done
echo "1..3" >/results/kmem-bench.tap
n=0
# BAD:WHAT-THE-MESSAGE-SAYS
for case in "objs=0:must be 1..100000" "reps=100:reps 1..99" "cg=/nonexistent:no cgroup /nonexistent"; do
	bad=${case%%:*} want=${case#*:}
	n=$((n + 1))
	dmesg -c >/dev/null
	if insmod /lab/modules/lab_kmem_bench.ko "$bad" 2>/dev/null; then
		rmmod lab_kmem_bench
		lab_tap_line kmem-bench $n 1 "refuses_${bad%%=*} # $bad was accepted"
	elif msg=$(dmesg | sed -n 's/^.*lab_kmem_bench: //p' | grep -F -- "$want"); then
		lab_tap_line kmem-bench $n 0 "refuses_${bad%%=*} # $msg"
	else
		lab_tap_line kmem-bench $n 1 "refuses_${bad%%=*} # refused without saying '$want'"
	fi
done
exit 0
