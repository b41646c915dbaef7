#!/bin/sh
# lab_walk_pair.ko, loaded twice (scripts/walk-fastpath.sh steps through
# both loads from the host): first in the root cgroup, then from a task
# in the user cgroup /walk. The host walks the loads in that order. The
# job only checks that both loads worked: /results/walk-pair.tap.
# WALK_BATCH=N (from the host's -b N) loads it with batch=N.
set -u
. lab-results.sh
mkdir /sys/fs/cgroup/walk || exit 1
echo "1..2" >/results/walk-pair.tap
n=0
for cg in "" /walk; do
	n=$((n + 1))
	if sh -c "echo \$\$ >/sys/fs/cgroup$cg/cgroup.procs &&
		insmod /lab/modules/lab_walk_pair.ko ${WALK_BATCH:+batch=$WALK_BATCH}" && rmmod lab_walk_pair; then
		lab_tap_line walk-pair $n 0 "loaded_in_${cg:-/}"
	else
		lab_tap_line walk-pair $n 1 "loaded_in_${cg:-/}"
	fi
done
exit 0
