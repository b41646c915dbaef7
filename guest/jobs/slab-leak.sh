#!/bin/sh
# Expected kernel reports, for tests/vm/59-slab-reports.sh:
# - lab_slab_leak.ko destroys its accounted cache at rmmod while the
#   cgroup's child of it still holds an object, then frees the object.
#   The root must stay (kmem_cache_destroy() keeps a cache with objects
#   left and warns once); a KASAN kernel must report nothing about it.
# - with KASAN_UAF=1, lab_kasan_uaf.ko reads a freed kmalloc-cg object of
#   the cgroup's child: KASAN's report must name its allocation stack.
# TAP lines go to /results/slab-leak.tap.
set -u
: "${KASAN_UAF:=0}"
lab=/sys/fs/cgroup/lab
out=/results/slab-leak.tap
mkdir "$lab" && echo +memory >"$lab/cgroup.subtree_control" || exit 1
mkdir "$lab/a" || exit 1
echo "1..2" >"$out"

insmod /lab/modules/lab_slab_leak.ko cg=/lab/a || exit 1
rmmod lab_slab_leak || exit 1
# The child goes once its last slab is free and its work has run; KASAN's
# quarantine holds freed objects until a cache is shrunk.
i=0
while :; do
	for f in /sys/kernel/slab/*/shrink; do
		echo 1 >"$f" 2>/dev/null
	done
	children=$(ls -d /sys/kernel/slab/lab_slab_leak\(* 2>/dev/null | wc -l)
	[ "$children" = 0 ] || [ "$i" -ge 20 ] && break
	sleep 1
	i=$((i + 1))
done
echo "# slab-leak: after rmmod: root in sysfs: $([ -d /sys/kernel/slab/lab_slab_leak ] && echo yes || echo no), children left: $children" >>"$out"
if [ -d /sys/kernel/slab/lab_slab_leak ] && [ "$children" = 0 ]; then
	echo "ok 1 test_root_kept_while_children_hold_objects" >>"$out"
else
	echo "not ok 1 test_root_kept_while_children_hold_objects" >>"$out"
fi

if [ "$KASAN_UAF" = 1 ]; then
	insmod /lab/modules/lab_kasan_uaf.ko cg=/lab/a || exit 1
	# The report names the allocation when KASAN finds its own metadata:
	# frames of lab_kasan_alloc() in the allocation stack of this report
	alloc=$(dmesg | awk '
		/BUG: KASAN: use-after-free in lab_kasan_read/ { r = 1 }
		r && /Allocated by task/ { a = 1; next }
		r && a && /Freed by task/ { exit }
		r && a && /lab_kasan_alloc/ { n++ }
		END { print n + 0 }')
	echo "# slab-leak: KASAN report, allocation stack frames in lab_kasan_alloc: $alloc" >>"$out"
	dmesg | grep -a 'lab_kasan_uaf: .*slab ' | sed 's/^.*lab_kasan_uaf: /# slab-leak: /' >>"$out"
	if [ "$alloc" -ge 1 ]; then
		echo "ok 2 test_kasan_names_the_allocation" >>"$out"
	else
		echo "not ok 2 test_kasan_names_the_allocation" >>"$out"
	fi
else
	echo "ok 2 test_kasan_names_the_allocation # SKIP no KASAN" >>"$out"
fi
cat "$out"
exit 0
