#!/bin/sh
# Lazy donation (memcg_slab=donate, series 0008), driven through
# lab_memcg_donate.ko: a memcg "old" leaves half-empty slab pages behind and
# is removed; a live memcg "new" must take them (the module's TAP tests),
# with the charge following each page. Then RACE_ITERS rounds in which a
# filled memcg is removed while its objects are freed on every CPU and
# "new" allocates. With RACE_ADOPT=1, one more round in which a fresh
# memcg's first slab is adopted while the adopter is held up and the old
# objects are freed and its cache shrunk (needs kprobes, preempt=full).
# The module's TAP lines go to /results/module.tap, the figures to
# /results/figures.txt; tests/vm/58-memcg-donate.sh judges them against
# the policy.
set -u
. lab-results.sh
: "${RACE_ITERS:=10}" "${RACE_ADOPT:=0}"
lab=/sys/fs/cgroup/lab
param=/sys/module/lab_memcg_donate/parameters
mkdir "$lab" && echo +memory >"$lab/cgroup.subtree_control" || exit 1

vmstat() {
	awk -v k="$1" '$1 == k { print $2; found = 1 } END { if (!found) print 0 }' /proc/vmstat
}

pooled() {
	awk '$1 == "lab_memcg_donate" { n = $3 } END { print n + 0 }' \
		/sys/kernel/debug/memcg_slab_pool 2>/dev/null || echo 0
}

slab_of() {
	awk '$1 == "slab" { print $2 }' "$1/memory.stat"
}

# dying memcgs below /lab after up to $1 tenths of a second
dying_after() {
	i=0
	while [ "$i" -lt "$1" ]; do
		d=$(awk '$1 == "nr_dying_descendants" { print $2 }' "$lab/cgroup.stat")
		[ "$d" = 0 ] && break
		sleep 0.1
		i=$((i + 1))
	done
	echo "$d"
}

insmod /lab/modules/lab_memcg_donate.ko parent=/lab || exit 1
mkdir "$lab/old" "$lab/new" || exit 1
cur0=$(cat "$lab/memory.current") slab0=$(slab_of "$lab")
d0=$(vmstat memcg_slab_donated) a0=$(vmstat memcg_slab_adopted)
f0=$(vmstat memcg_slab_pool_freed)
echo /lab/old >"$param/fill" || exit 1
lab_figure filled_parent_current "$(cat "$lab/memory.current")"
lab_figure filled_old_slab "$(slab_of "$lab/old")"
rmdir "$lab/old"
# The removed memcg's slabs reach the pool once its children are dying
i=0
# (the pool's debugfs file exists only under donate)
while [ -r /sys/kernel/debug/memcg_slab_pool ] && [ "$i" -lt 100 ] &&
	[ "$(pooled)" = 0 ]; do
	sleep 0.1
	i=$((i + 1))
done
lab_figure pooled_after_removal "$(pooled)"
lab_figure pool_wait_ms $((i * 100))
lab_figure before_adoption_parent_slab "$(slab_of "$lab")"
lab_figure before_adoption_new_slab "$(slab_of "$lab/new")"
echo /lab/new >"$param/adopt" || exit 1
lab_tap_dmesg lab_memcg_donate module
lab_figure donated $(($(vmstat memcg_slab_donated) - d0))
lab_figure adopted $(($(vmstat memcg_slab_adopted) - a0))
lab_figure pool_freed $(($(vmstat memcg_slab_pool_freed) - f0))
lab_figure pooled_after_adoption "$(pooled)"

# Charge conservation: all objects are freed; once "new" is gone too the
# parent is back where it started.
rmdir "$lab/new"
lab_figure dying_after_tests "$(dying_after 100)"
lab_figure parent_current_start "$cur0"
lab_figure parent_current_end "$(cat "$lab/memory.current")"
lab_figure parent_slab_start "$slab0"
lab_figure parent_slab_end "$(slab_of "$lab")"

# The race: removal, donation and adoption while the old objects are
# freed from every CPU.
mkdir "$lab/new" || exit 1
a1=$(vmstat memcg_slab_adopted)
n=1
while [ "$n" -le "$RACE_ITERS" ]; do
	mkdir "$lab/r$n" || exit 1
	echo "/lab/r$n" >"$param/fill" || exit 1
	echo /lab/new >"$param/race" &
	race=$!
	rmdir "$lab/r$n"
	wait "$race" || exit 1
	n=$((n + 1))
done
rmdir "$lab/new"
lab_figure race_rounds "$RACE_ITERS"
lab_figure race_adopted $(($(vmstat memcg_slab_adopted) - a1))
lab_figure dying_after_race "$(dying_after 150)"

if [ "$RACE_ADOPT" = 1 ]; then
	mkdir "$lab/old2" "$lab/fresh" || exit 1
	echo /lab/old2 >"$param/fill" || exit 1
	rmdir "$lab/old2"
	i=0
	while [ "$i" -lt 100 ] && [ "$(pooled)" = 0 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	dmesg -c >/dev/null
	echo /lab/fresh >"$param/race_adopt" || exit 1
	lab_tap_dmesg lab_memcg_donate module
	rmdir "$lab/fresh"
fi
rmmod lab_memcg_donate || exit 1
lab_figures_from debugfs_ /sys/kernel/debug/memcg_slab
exit 0
