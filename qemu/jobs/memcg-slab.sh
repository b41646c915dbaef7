#!/bin/sh
# Per-memcg slab caches (memcg_slab=, series 0007): the in-kernel module
# tests (lab_memcg_slab.ko, two cgroups a and b), the retirement of the
# module cache's children at rmmod, then test_memcg_slab. Lines starting
# with "# memcg-slab:" and TAP lines carry the results; the test script
# judges them against the policy the kernel booted with.
set -u
lab=/sys/fs/cgroup/lab
mkdir "$lab" && echo +memory >"$lab/cgroup.subtree_control" || exit 1
mkdir "$lab/a" "$lab/b" || exit 1

children() {
	awk '$1 == "live_children" { print $2; found = 1 }
		END { if (!found) print 0 }' /sys/kernel/debug/memcg_slab 2>/dev/null ||
		echo 0
}

insmod /lab/modules/lab_memcg_slab.ko cg_a=/lab/a cg_b=/lab/b || exit 1
dmesg | grep -a 'lab_memcg_slab: .*ok [0-9]' | sed 's/^.*lab_memcg_slab: /module: /'
before=$(children)
rmmod lab_memcg_slab || exit 1
echo "# memcg-slab: live children $before before rmmod, $(children) after"
if dmesg | grep -aq 'children still hold objects'; then
	echo "# memcg-slab: rmmod left children behind"
fi
rmdir "$lab/a" "$lab/b"
test_memcg_slab "$lab" /mnt/scratch/slab
rc=$?
cat /sys/kernel/debug/memcg_slab 2>/dev/null | sed 's/^/# memcg-slab: /'
grep -E '^memcg_(slab|reparent)' /proc/vmstat | sed 's/^/# memcg-slab: /'
# The TAP results are the output; the test script judges them.
[ $rc -le 1 ] || exit "$rc"
exit 0
