#!/bin/sh
# Parallel churn with page reparenting on, for a debug kernel: jobs run
# REPARENT_PARALLEL at a time while a streaming reader in a sibling cgroup
# keeps reclaim busy and the switch is turned off and on every second, so
# that the worker, reclaim, the offline path and the sysctl race; empty
# cgroups are removed too, whose never-used lruvecs the worker walks. The
# runner fails the run on any splat. The job fails if the kernel has no
# lockdep, if nothing was moved, or if removed cgroups stay dying.
set -eu
. lab-results.sh
: "${REPARENT_JOBS:=40}" "${REPARENT_PARALLEL:=4}" "${REPARENT_PRESSURE_MIB:=512}"

[ -e /proc/lockdep ] || { lab_figure error "no lockdep in this kernel"; exit 1; }
lab=/sys/fs/cgroup/lab
mkdir "$lab"
echo "+memory +io" >"$lab/cgroup.subtree_control"
mkdir "$lab/jobs" "$lab/pressure"
echo "+memory" >"$lab/jobs/cgroup.subtree_control"
echo 1 >/proc/sys/vm/memcg_reparent_pages
echo 2 >/proc/sys/vm/shrink_slab_min_pressure

toggle() {
	while [ ! -e /tmp/churn-done ]; do
		echo 0 >/proc/sys/vm/memcg_reparent_pages
		sleep 1
		echo 1 >/proc/sys/vm/memcg_reparent_pages
		sleep 1
	done
}
# Cgroups that never charged a page: their lruvecs were never used.
i=0
while [ "$i" -lt 20 ]; do
	mkdir "$lab/jobs/empty$i" && rmdir "$lab/jobs/empty$i"
	i=$((i + 1))
done
toggle &
toggler=$!
pressure -c "$lab/pressure" -f /mnt/scratch/sparse -s "$REPARENT_PRESSURE_MIB" >/tmp/pressure.txt &
reader=$!
churn -c "$lab/jobs" -d /mnt/scratch -j "$REPARENT_JOBS" -p "$REPARENT_PARALLEL" \
	-f 100 -m 100
touch /tmp/churn-done
wait "$toggler"
wait "$reader"
echo 1 >/proc/sys/vm/memcg_reparent_pages
# Whatever went offline while the switch was off was queued again when it
# came back on; the cgwb cleanup retries for up to a minute.
dyingwait -c "$lab/jobs" -t 60 | tee /tmp/dying.txt
grep memcg_reparent /proc/vmstat | tee /tmp/vmstat.txt
moved=$(awk '$1 == "memcg_reparent_moved" { print $2 }' /tmp/vmstat.txt)
left=$(awk '$1 == "dying_end" { print $2 }' /tmp/dying.txt)
lab_figure moved_pages "${moved:-none}"
lab_figure dying_left "${left:-none}"
[ "${moved:-0}" -gt 0 ] && [ "$left" = 0 ]
