#!/bin/sh
# vm.shrink_slab_min_pressure=2 presses what offline memcgs left, and only
# that: after top-level cgroups are removed (their leftovers go to the
# root's lists), the mode is switched off, the leftovers are dropped and
# the mode is switched on again, light pressure leaves the root's own
# unused dentries alone, as mode 0 does. The figures go to
# /results/figures.txt; tests/vm/30-min-pressure.sh judges them.
set -u
. lab-results.sh
cg=/sys/fs/cgroup
dir=/mnt/scratch/toggle
sysctl=/proc/sys/vm/shrink_slab_min_pressure
mkdir -p "$dir/live" || exit 1
mkdir "$cg/lab" && echo +memory >"$cg/lab/cgroup.subtree_control" || exit 1
mkdir "$cg/lab/pressure" || exit 1

unused() {
	awk '{ print $2 }' /proc/sys/fs/dentry-state
}

echo 2 >"$sysctl" || exit 1
# Ten top-level jobs, removed as they end: their leftovers go to the root.
churn -c "$cg" -d "$dir" -j 10 -p 1 -f 100 -m 500 >/dev/null || exit 1
echo 0 >"$sysctl"
echo 2 >/proc/sys/vm/drop_caches
lab_figure dying_after_drop "$(awk '$1 == "nr_dying_descendants" { print $2 }' "$cg/cgroup.stat")"
echo 2 >"$sysctl"
# Live, unused dentries of the root cgroup: lookups of missing names.
i=0
while [ "$i" -lt 3000 ]; do
	[ -e "$dir/live/n$i" ]
	i=$((i + 1))
done
lab_figure unused_before "$(unused)"
pressure -c "$cg/lab/pressure" -f /mnt/scratch/stream -s 1024 >/dev/null || exit 1
lab_figure unused_after "$(unused)"
exit 0
