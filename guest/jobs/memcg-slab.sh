#!/bin/sh
# Per-memcg slab caches (memcg_slab=, series 0007): the in-kernel module
# tests (lab_memcg_slab.ko, two cgroups a and b) in /results/module.tap,
# the retirement of the module cache's children at rmmod, then
# test_memcg_slab in /results/test_memcg_slab.tap; figures in
# /results/figures.txt. tests/vm/55-memcg-slab.sh judges them against the
# policy the kernel booted with.
set -u
. lab-results.sh
lab=/sys/fs/cgroup/lab
mkdir "$lab" && echo +memory >"$lab/cgroup.subtree_control" || exit 1
mkdir "$lab/a" "$lab/b" || exit 1

children() {
	awk '$1 == "live_children" { print $2; found = 1 }
		END { if (!found) print 0 }' /sys/kernel/debug/memcg_slab 2>/dev/null ||
		echo 0
}

insmod /lab/modules/lab_memcg_slab.ko cg_a=/lab/a cg_b=/lab/b || exit 1
lab_tap_dmesg lab_memcg_slab module
lab_figure live_children_before_rmmod "$(children)"
rmmod lab_memcg_slab || exit 1
lab_figure live_children_after_rmmod "$(children)"
lab_figure rmmod_left_children "$(dmesg | grep -ac 'children still hold objects')"
rmdir "$lab/a" "$lab/b"
lab_tap test_memcg_slab test_memcg_slab "$lab" /mnt/scratch/slab
rc=$?
lab_figures_from debugfs_ /sys/kernel/debug/memcg_slab
grep -E '^memcg_reparent' /proc/vmstat >/tmp/reparent.txt
lab_figures_from vmstat_ /tmp/reparent.txt
for k in memcg_slab_donated memcg_slab_adopted memcg_slab_pool_freed; do
	lab_figure "$k" "$(awk -v k="$k" '$1 == k { print $2; f = 1 } END { if (!f) print "none" }' /proc/vmstat)"
done
# 1: a test failed, which the host judges against the policy
[ $rc -le 1 ] || exit "$rc"
exit 0
