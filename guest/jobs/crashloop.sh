#!/bin/sh
# Crash-loop scenario job (make run SCENARIO=crashloop): a service that
# fails and is restarted in a new cgroup, under "lab/units", CRASH_CYCLES
# times (mm-tests/crashloop.c says what one instance does). Figures, every
# CRASH_SAMPLE cycles, as phase cN (N: cycles done): dying memcgs, percpu
# and unreclaimable slab memory and their growth per dying memcg, the time
# to read the root's memory.stat and cgroup.stat (what kubelet reads), and
# the restart rate. Then the removed cgroups are given DYING_WAIT_SECS to
# go with no pressure (wait.*), as in the churn scenario.
# Output: /results/figures.txt (guest/lab-results.sh).
set -eu
set -o pipefail
. lab-results.sh
: "${CRASH_CYCLES:=1000}" "${CRASH_SAMPLE:=100}" "${CRASH_INTERVAL_MS:=50}"
: "${CRASH_SHARED:=8}" "${CRASH_LOG_KIB:=8}" "${CRASH_TEMP:=4}"
: "${CRASH_ANON_KIB:=1024}" "${CRASH_READS:=5}" "${DYING_WAIT_SECS:=15}"

lab=/sys/fs/cgroup/lab
mkdir "$lab" "$lab/units"
echo "+memory" >"$lab/cgroup.subtree_control"
echo "+memory" >"$lab/units/cgroup.subtree_control"
mkdir /mnt/scratch/crash

echo "crashloop-job: $CRASH_CYCLES restarts, figures every $CRASH_SAMPLE"
crashloop -c "$lab/units" -d /mnt/scratch/crash -n "$CRASH_CYCLES" \
	-s "$CRASH_SAMPLE" -i "$CRASH_INTERVAL_MS" -S "$CRASH_SHARED" \
	-l "$CRASH_LOG_KIB" -t "$CRASH_TEMP" -a "$CRASH_ANON_KIB" \
	-R "$CRASH_READS" >/tmp/crash.txt
dyingwait -c "$lab/units" -t "$DYING_WAIT_SECS" | sed 's/^/wait./' >>/tmp/crash.txt
lab_figures_from "" /tmp/crash.txt
