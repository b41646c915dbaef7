#!/bin/sh
# The stress run (make stress; a short pass in make check): mm-tests/stress
# for STRESS_SECONDS with STRESS_WORKERS workers of STRESS_FILES files per
# job below /sys/fs/cgroup/stress, then everything is deleted and reclaimed
# and the kernel is asked what is left: dying memcgs, the parent's charge,
# kmemleak's reports. The figures go to /results/figures.txt;
# scripts/stress-judge.sh judges them on the host.
set -u
. lab-results.sh
: "${STRESS_SECONDS:=60}" "${STRESS_WORKERS:=4}" "${STRESS_FILES:=200}"
cg=/sys/fs/cgroup/stress
dir=/mnt/scratch/stress
leak=/sys/kernel/debug/kmemleak

fig() {
	lab_figure "$@"
}

vmstat() {
	awk -v k="$1" '$1 == k { print $2; found = 1 } END { if (!found) print 0 }' /proc/vmstat
}

slabdebug() {
	awk -v k="$1" '$1 == k { print $2; found = 1 } END { if (!found) print 0 }' \
		/sys/kernel/debug/memcg_slab 2>/dev/null || echo 0
}

slab_of() {
	awk '$1 == "slab" { print $2 }' "$cg/memory.stat"
}

# Free every cache that can be freed: clean page cache, dentries, inodes,
# then each slab cache's empty slabs (this also empties KASAN's
# quarantine, which keeps freed objects' pages for a while).
reclaim_all() {
	sync
	echo 3 >/proc/sys/vm/drop_caches
	for s in /sys/kernel/slab/*/shrink; do
		echo 1 >"$s" 2>/dev/null
	done
}

# Swap entries of removed cgroups hold their memcgs (an id reference,
# stock 6.1; page reparenting leaves swap alone): read all swap back in,
# which charges it to the reader and drops the entries. Nothing to do
# where the guest has no swap.
swap_in_all() {
	grep -q '^/dev/vdb ' /proc/swaps || return 0
	swapoff /dev/vdb && swapon /dev/vdb
}

# Two scans: kmemleak reports an object only once it has been seen
# unreferenced, and unchanged, by consecutive scans.
leak_scan() {
	echo scan >"$leak" && sleep 6 && echo scan >"$leak"
}

policy=$(awk '$1 == "policy" { print $2 }' /sys/kernel/debug/memcg_slab 2>/dev/null)
fig policy "${policy:-shared}"
fig nproc "$(nproc)"
if [ -w "$leak" ]; then
	# What boot left is not the run's: scanned, then set aside
	t0=$(date +%s)
	leak_scan && echo clear >"$leak" || exit 1
	fig kmemleak_baseline_seconds $(($(date +%s) - t0))
fi

mkdir "$cg" "$dir" && echo +memory >"$cg/cgroup.subtree_control" || exit 1
cur0=$(cat "$cg/memory.current") slab0=$(slab_of)
for k in memcg_slab_child_created memcg_slab_donated memcg_slab_adopted oom_kill; do
	eval "v0_$k=$(vmstat $k)"
done
for k in create_failed charge_failed adopt_charge_failed; do
	eval "d0_$k=$(slabdebug $k)"
done

stress -c "$cg" -d "$dir" -t "$STRESS_SECONDS" -w "$STRESS_WORKERS" \
	-f "$STRESS_FILES" >/tmp/stress.out
rc=$?
cat /tmp/stress.out >>/results/figures.txt
cat /tmp/stress.out
[ "$rc" = 0 ] || exit "$rc"

for k in memcg_slab_child_created memcg_slab_donated memcg_slab_adopted oom_kill; do
	eval "fig vm_$k \$((\$(vmstat $k) - v0_$k))"
done
for k in create_failed charge_failed adopt_charge_failed; do
	eval "fig slab_$k \$((\$(slabdebug $k) - d0_$k))"
done

# Cleanup: every file is gone; page reparenting on, so that page cache a
# job read (directory and inode-table blocks) cannot keep its memcg.
rmdir "$dir" || exit 1
echo 1 >/proc/sys/vm/memcg_reparent_pages 2>/dev/null
echo 2 >/proc/sys/vm/shrink_slab_min_pressure 2>/dev/null
reclaim_all
dying_ms=$(dyingwait -c "$cg" -t 60 | awk '$1 == "dying_zero_ms" { print $2 }')
reclaim_all
fig dying_before_swapin "$(awk '$1 == "nr_dying_descendants" { print $2 }' "$cg/cgroup.stat")"
fig swap_used_kb "$(awk '$1 == "SwapTotal:" { t = $2 } $1 == "SwapFree:" { f = $2 } END { print t - f }' /proc/meminfo)"
swap_in_all || exit 1
reclaim_all
# Reclaim what the parent still holds (page cache that came back to it
# after the drop) and flush the per-CPU charge caches: a high limit of 0
# drains them before it reclaims. What stays is charge nothing can free.
echo 0 >"$cg/memory.high" && echo max >"$cg/memory.high" || exit 1
fig dying_left "$(awk '$1 == "nr_dying_descendants" { print $2 }' "$cg/cgroup.stat")"
fig dying_zero_ms "$dying_ms"
fig current_start "$cur0"
fig current_end "$(cat "$cg/memory.current")"
fig slab_start "$slab0"
fig slab_end "$(slab_of)"
fig allowed_error $((4096 * 64 * $(nproc)))
# What the parent still has charged, for a reader of a failed check
awk '$2 != 0 { print "# stress-memstat: " $0 }' "$cg/memory.stat"

if [ -w "$leak" ]; then
	t0=$(date +%s)
	leak_scan || exit 1
	fig kmemleak_scan_seconds $(($(date +%s) - t0))
	fig kmemleak_reports "$(grep -c '^unreferenced object' "$leak")"
	head -n 40 "$leak" | tee /results/kmemleak.txt | sed 's/^/# kmemleak: /'
else
	fig kmemleak_reports none
fi
rmdir "$cg" || exit 1
exit 0
