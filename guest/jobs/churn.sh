#!/bin/sh
# Churn scenario job. Phases:
#   bench  (BENCH=1) the accounting-cost benchmark, lab_kmem_bench.ko,
#          then hackbench (HACKBENCH_LOOPS > 0) and a create/stat/unlink
#          loop (FILELOOP_FILES > 0) in a user cgroup; with BENCH_ONLY=1
#          the job ends after them
#   base   a live cgroup "hot" creates its hot set; figures sampled; with
#          LIVE_FILES > 0, the live cgroup "live" runs the create/stat/
#          unlink loop (fileloop) alone: base.live_fileloop_*
#   churn  CHURN_JOBS jobs, each in its own child of "jobs", then removed
#   wait   how long the removed cgroups stay dying with no pressure at
#          all: dying_zero_ms from the end of the churn until
#          nr_dying_descendants is 0 (-1: not within DYING_WAIT_SECS)
#   r0     figures after the churn and the wait, before any pressure
#   k0     (COMPACT=1) after compacting all memory (vm.compact_memory):
#          folios that migration moves come back on the LRU elsewhere
#          (with MGLRU, not in the oldest generation)
#   c0     (CLEAN_PCT > 0) after a cleaner in the sibling "cleaner" cgroup
#          deleted CLEAN_PCT percent of the files the removed jobs left:
#          their slab pages become partial (memcg_slab=donate pools them)
#   n0     (CHURN2_JOBS > 0, after c0) after CHURN2_JOBS new jobs ran,
#          which need slab pages again (donate: they adopt pooled ones)
#   rN     after pressure round N: a streaming read of a sparse file from
#          the sibling "pressure" cgroup, while "hot" keeps touching its set
#          and fs_mark creates small files in "fsmark" (FSMARK_FILES=0:
#          not run) and, with LIVE_FILES > 0, "live" runs the same loop
#          as in base, all of it while the streaming read lasts:
#          rN.live_fileloop_*, and rN.live_vs_base, the rate under
#          pressure over the rate alone in the same boot (TCG guests are
#          fast or slow for a whole boot; the ratio is not); then, in
#          round 1 with LIVE_AB_PAIRS > 0, pairs of the loop at the
#          booted pressure mode and at mode 0: rN.live_ab_* (live_ab)
#   d2, d3 after drop_caches=2 (slab objects), then =3 (page cache too),
#          to show what keeps the removed cgroups dying (DROP_CACHES=0: no)
# Output: /results/figures.txt, "phase.metric=value" lines (the format of
# guest/lab-results.sh); derived figures (leftover_*, hot_*) are
# added at the end. The job collects "phase.metric value" lines in
# /tmp/figures.txt and writes them out as it exits, however it exits.
# Parameters come as environment variables from the scenario file.
set -eu
# A failing producer in "prog | sed" must fail the job too.
set -o pipefail
: "${CHURN_JOBS:=50}" "${CHURN_PARALLEL:=1}" "${CHURN_FILES:=200}"
: "${CHURN_BYTES:=8}" "${CHURN_MISSING:=200}" "${CHURN_DIRS:=0}"
: "${CHURN_UNLINK_PCT:=0}" "${HOT_FILES:=2000}" "${PRESSURE_MIB:=2048}"
: "${PRESSURE_ROUNDS:=3}" "${FSMARK_FILES:=1000}" "${SETTLE_SECS:=2}"
: "${HOT_INTERVAL_MS:=2000}" "${DYING_WAIT_SECS:=15}"
: "${CLEAN_PCT:=0}" "${CHURN2_JOBS:=0}" "${COMPACT:=0}"
: "${BENCH:=0}" "${BENCH_OBJS:=1000}" "${BENCH_BATCHES:=100}" "${BENCH_REPS:=9}"
: "${BENCH_ONLY:=0}" "${HACKBENCH_LOOPS:=0}" "${HACKBENCH_GROUPS:=4}"
: "${HACKBENCH_REPS:=5}" "${FILELOOP_FILES:=0}" "${FILELOOP_LOOPS:=10}"
: "${FILELOOP_REPS:=5}" "${LIVE_FILES:=0}" "${LIVE_LOOPS:=2}" "${LIVE_REPS:=3}"
: "${LIVE_AB_PAIRS:=0}"

out=/tmp/figures.txt
trap 'sed "s/ /=/" "$out" >/results/figures.txt' EXIT
lab=/sys/fs/cgroup/lab
scratch=/mnt/scratch
mkdir "$lab"
echo "+memory +io" >"$lab/cgroup.subtree_control"
for cg in jobs pressure hot fsmark cleaner live; do
	mkdir "$lab/$cg"
done
echo "+memory" >"$lab/jobs/cgroup.subtree_control"
: >"$out"

sample() {
	memfigures -c "$lab/jobs" -i "$lab/hot" | sed "s/^/$1./" >>"$out"
}

case "$COMPACT" in
0 | 1) ;;
*) echo "churn-job: COMPACT must be 0 or 1, not '$COMPACT'"; exit 1 ;;
esac
for v in FSMARK_FILES LIVE_FILES LIVE_LOOPS LIVE_REPS LIVE_AB_PAIRS \
	HACKBENCH_LOOPS HACKBENCH_GROUPS HACKBENCH_REPS FILELOOP_FILES \
	FILELOOP_LOOPS FILELOOP_REPS; do
	eval "n=\$$v"
	case "$n" in
	'' | *[!0-9]*) echo "churn-job: $v must be a whole number, not '$n'"; exit 1 ;;
	esac
done

# reclaim_scanned: pages reclaim has scanned since boot.
reclaim_scanned() {
	awk '$1 ~ /^pgscan_(kswapd|direct)$/ { n += $2 } END { print n + 0 }' /proc/vmstat
}

# live_slice MODE: one repetition of the live loop with
# vm.shrink_slab_min_pressure at MODE; prints its rate.
live_slice() {
	echo "$1" >/proc/sys/vm/shrink_slab_min_pressure
	fileloop -c "$lab/live" -d "$scratch/live" -n "$LIVE_FILES" \
		-l "$LIVE_LOOPS" -r 1 >/tmp/slice.txt ||
		{ echo "churn-job: the live fileloop failed at mode $1" >&2; return 1; }
	rmdir "$scratch/live"
	sed -n 's/^fileloop_median_ops_per_s //p' /tmp/slice.txt
}

# live_ab PHASE: while the streaming read ($prs) lasts, up to
# LIVE_AB_PAIRS pairs of live loop repetitions, one at the pressure mode
# the guest booted with and one at mode 0, which goes first swapped from
# pair to pair; a pair counts only if the read still ran when it ended.
# Both sides of a pair share the boot, the pressure and the moment, which
# a comparison across boots cannot give under TCG. Figures: PHASE.
# live_ab_ratio_K (pair K: booted mode's rate over mode 0's),
# live_ab_ratio_gmean and live_ab_ratio_median over the pairs (a pair's
# ratio spreads about 0.5x to 2x under pressure here: the geometric mean
# uses every pair), live_ab_mode_ops_per_s and
# live_ab_mode0_ops_per_s (medians of each side), live_ab_pairs.
live_ab() {
	booted=$(cat /proc/sys/vm/shrink_slab_min_pressure)
	: >/tmp/ab.txt
	k=1
	while [ "$k" -le "$LIVE_AB_PAIRS" ]; do
		if [ $((k % 2)) = 1 ]; then
			a=$(live_slice "$booted")
			b=$(live_slice 0)
		else
			b=$(live_slice 0)
			a=$(live_slice "$booted")
		fi
		kill -0 "$prs" 2>/dev/null || break
		echo "$k $a $b" >>/tmp/ab.txt
		k=$((k + 1))
	done
	echo "$booted" >/proc/sys/vm/shrink_slab_min_pressure
	[ -s /tmp/ab.txt ] || {
		echo "churn-job: the streaming read ended before one live pair did: raise PRESSURE_MIB"
		return 1
	}
	# busybox awk has no log() or exp(): series, exact to 1e-9 for the
	# ratios here (0.05 to 20).
	awk -v p="$1" '
		function ln(x,   y, y2, t, s, k) {
			y = (x - 1) / (x + 1); y2 = y * y; t = y; s = 0
			for (k = 1; k < 400; k += 2) { s += t / k; t *= y2 }
			return 2 * s
		}
		function ex(x,   t, s, k) {
			t = 1; s = 1
			for (k = 1; k < 60; k++) { t *= x / k; s += t }
			return s
		}
		function med(x, n,   i, j, t) {
			for (i = 2; i <= n; i++)
				for (j = i; j > 1 && x[j - 1] > x[j]; j--) {
					t = x[j]; x[j] = x[j - 1]; x[j - 1] = t
				}
			return n % 2 ? x[(n + 1) / 2] : (x[n / 2] + x[n / 2 + 1]) / 2
		}
		{ n++; r[n] = $2 / $3; a[n] = $2; b[n] = $3; lsum += ln(r[n])
		  printf "%s.live_ab_ratio_%d %.4f\n", p, $1, r[n] }
		END {
			printf "%s.live_ab_ratio_gmean %.4f\n", p, ex(lsum / n)
			printf "%s.live_ab_ratio_median %.4f\n", p, med(r, n)
			printf "%s.live_ab_mode_ops_per_s %.0f\n", p, med(a, n)
			printf "%s.live_ab_mode0_ops_per_s %.0f\n", p, med(b, n)
			printf "%s.live_ab_pairs %d\n", p, n
		}' /tmp/ab.txt >>"$out"
}

# live_rate PHASE: the live cgroup's create/stat/unlink loop, its rate
# as PHASE.live_fileloop_{best,median}_ops_per_s.
live_rate() {
	fileloop -c "$lab/live" -d "$scratch/live" -n "$LIVE_FILES" \
		-l "$LIVE_LOOPS" -r "$LIVE_REPS" >/tmp/live.txt ||
		{ echo "churn-job: the live fileloop failed in $1"; return 1; }
	rmdir "$scratch/live"
	sed "s/^fileloop_/$1.live_fileloop_/" /tmp/live.txt >>"$out"
}

# Accounting cost (BENCH=1, module lab_kmem_bench packed by the
# scenario): ns per kmalloc/kmem_cache allocation+free pair in the root
# cgroup and charged to a user cgroup, before anything else runs.
if [ "$BENCH" = 1 ]; then
	echo "churn-job: accounting benchmark"
	mkdir "$lab/bench"
	dmesg -c >/dev/null
	for cg in "" /lab/bench; do
		insmod /lab/modules/lab_kmem_bench.ko cg="$cg" objs="$BENCH_OBJS" \
			batches="$BENCH_BATCHES" reps="$BENCH_REPS"
		rmmod lab_kmem_bench
	done
	dmesg | sed -n 's/^.*lab_kmem_bench: \([a-z_]*_ns\) \([0-9]*\)$/bench.\1 \2/p' >>"$out"
	grep -q '^bench\.user_cache_x_median_ns ' "$out" ||
		{ echo "churn-job: the benchmark reported nothing"; exit 1; }
	# Workloads in the same user cgroup: hackbench over pipes, whose
	# forks allocate from accounted caches and whose pipe pages are
	# accounted (HACKBENCH_LOOPS=0: not run), and a create/stat/unlink
	# loop, a dentry and an inode per file (FILELOOP_FILES=0: not run).
	if [ "$HACKBENCH_LOOPS" -gt 0 ]; then
		[ "$HACKBENCH_REPS" -ge 1 ] && [ "$HACKBENCH_GROUPS" -ge 1 ] ||
			{ echo "churn-job: HACKBENCH_REPS and HACKBENCH_GROUPS must be at least 1"; exit 1; }
		echo "churn-job: hackbench -p -g $HACKBENCH_GROUPS -l $HACKBENCH_LOOPS, $HACKBENCH_REPS times"
		i=0
		while [ "$i" -lt "$HACKBENCH_REPS" ]; do
			sh -c 'echo $$ >"$1/cgroup.procs" && exec hackbench -p -g "$2" -l "$3"' \
				sh "$lab/bench" "$HACKBENCH_GROUPS" "$HACKBENCH_LOOPS" |
				sed -n 's/^Time: \([0-9.]*\)$/\1/p' ||
				{ echo "churn-job: hackbench failed" >&2; exit 1; }
			i=$((i + 1))
		done | sort -n >/tmp/hackbench.txt
		n=$(wc -l </tmp/hackbench.txt)
		[ "$n" -eq "$HACKBENCH_REPS" ] ||
			{ echo "churn-job: hackbench gave $n of $HACKBENCH_REPS times"; exit 1; }
		awk '{ t[NR] = $1 * 1000 } END {
			printf "bench.hackbench_best_ms %.0f\n", t[1]
			m = NR % 2 ? t[(NR + 1) / 2] : (t[NR / 2] + t[NR / 2 + 1]) / 2
			printf "bench.hackbench_median_ms %.0f\n", m }' /tmp/hackbench.txt >>"$out"
	fi
	if [ "$FILELOOP_FILES" -gt 0 ]; then
		echo "churn-job: fileloop, $FILELOOP_FILES files x $FILELOOP_LOOPS loops, $FILELOOP_REPS times"
		fileloop -c "$lab/bench" -d "$scratch/fileloop" -n "$FILELOOP_FILES" \
			-l "$FILELOOP_LOOPS" -r "$FILELOOP_REPS" | sed 's/^/bench./' >>"$out" ||
			{ echo "churn-job: fileloop failed"; exit 1; }
		rmdir "$scratch/fileloop"
	fi
	rmdir "$lab/bench"
	# make run SCENARIO=kmem: the benchmark and workloads, many boots
	[ "$BENCH_ONLY" = 1 ] && exit 0
fi

echo "churn-job: hot set of $HOT_FILES files"
hotset -c "$lab/hot" -d "$scratch/hot" -n "$HOT_FILES" create
sync
sample base
if [ "$LIVE_FILES" -gt 0 ]; then
	echo "churn-job: live fileloop alone, $LIVE_FILES files x $LIVE_LOOPS loops, $LIVE_REPS times"
	live_rate base
fi

echo "churn-job: $CHURN_JOBS jobs"
churn -c "$lab/jobs" -d "$scratch" -j "$CHURN_JOBS" -p "$CHURN_PARALLEL" \
	-f "$CHURN_FILES" -b "$CHURN_BYTES" -m "$CHURN_MISSING" \
	-D "$CHURN_DIRS" -u "$CHURN_UNLINK_PCT" | sed 's/^/churn./' >>"$out"
dyingwait -c "$lab/jobs" -t "$DYING_WAIT_SECS" | sed 's/^/wait./' >>"$out"
sync
sleep "$SETTLE_SECS"
sample r0

if [ "$COMPACT" = 1 ]; then
	echo "churn-job: compacting memory"
	echo 1 >/proc/sys/vm/compact_memory
	sleep "$SETTLE_SECS"
	sample k0
fi
if [ "$CLEAN_PCT" -gt 0 ]; then
	echo "churn-job: a cleaner deletes $CLEAN_PCT% of the files the jobs left"
	sh -c 'echo $$ >"$1/cgroup.procs" && exec churn -x -d "$2" -j "$3" -f "$4" -D "$5" -u "$6"' \
		clean "$lab/cleaner" "$scratch" "$CHURN_JOBS" "$CHURN_FILES" "$CHURN_DIRS" \
		"$CLEAN_PCT" | sed 's/^/clean./' >>"$out"
	sync
	sleep "$SETTLE_SECS"
	sample c0
fi
if [ "$CHURN2_JOBS" -gt 0 ]; then
	echo "churn-job: $CHURN2_JOBS more jobs"
	churn -c "$lab/jobs" -d "$scratch" -j "$CHURN2_JOBS" -o "$CHURN_JOBS" \
		-p "$CHURN_PARALLEL" -f "$CHURN_FILES" -b "$CHURN_BYTES" \
		-m "$CHURN_MISSING" -D "$CHURN_DIRS" -u "$CHURN_UNLINK_PCT" |
		sed 's/^/churn2./' >>"$out"
	dyingwait -c "$lab/jobs" -t "$DYING_WAIT_SECS" | sed 's/^/wait2./' >>"$out"
	sync
	sleep "$SETTLE_SECS"
	sample n0
fi

hotset -c "$lab/hot" -d "$scratch/hot" -n "$HOT_FILES" -i "$HOT_INTERVAL_MS" \
	touch >/tmp/hot.txt &
hot=$!
r=1
while [ "$r" -le "$PRESSURE_ROUNDS" ]; do
	echo "churn-job: pressure round $r of $PRESSURE_ROUNDS"
	fsm=
	if [ "$FSMARK_FILES" -gt 0 ]; then
		# A subshell's $$ is its parent's pid: let sh -c move itself.
		sh -c 'echo $$ >"$1/cgroup.procs" && exec fs_mark -d "$2" -n "$3" -s 4096 -S 0 -L 1' \
			fsmark "$lab/fsmark" "$scratch/fsmark" "$FSMARK_FILES" >/tmp/fsmark.txt 2>&1 &
		fsm=$!
	fi
	pressure -c "$lab/pressure" -f "$scratch/sparse" -s "$PRESSURE_MIB" \
		>/tmp/pressure.txt &
	prs=$!
	if [ "$LIVE_FILES" -gt 0 ]; then
		# The read fills free memory first: start once reclaim has.
		scanned=$(reclaim_scanned)
		while [ "$(reclaim_scanned)" -eq "$scanned" ]; do
			kill -0 "$prs" 2>/dev/null || {
				echo "churn-job: round $r's streaming read ended before reclaim began: raise PRESSURE_MIB"
				exit 1
			}
			sleep 0.1
		done
		live_rate "r$r"
		# Measured under pressure only if the read outlasted it.
		kill -0 "$prs" 2>/dev/null || {
			echo "churn-job: round $r's streaming read ended before the live fileloop did: raise PRESSURE_MIB or lower LIVE_FILES/LIVE_LOOPS/LIVE_REPS"
			exit 1
		}
		if [ "$LIVE_AB_PAIRS" -gt 0 ] && [ "$r" = 1 ]; then
			if [ -e /proc/sys/vm/shrink_slab_min_pressure ]; then
				echo "churn-job: $LIVE_AB_PAIRS live pairs, booted pressure mode against mode 0"
				live_ab "r$r"
			else
				echo "churn-job: no vm.shrink_slab_min_pressure on this kernel: no live pairs"
			fi
		fi
	fi
	wait "$prs"
	sed "s/^/r$r./" /tmp/pressure.txt >>"$out"
	if [ -n "$fsm" ]; then
		wait "$fsm"
		# Unlinked files leave negative dentries; removing the directory
		# frees them, so that fs_mark's traces do not count as leftovers.
		rm -rf "$scratch/fsmark"
		awk -v p="r$r." '$1 ~ /^[0-9]+$/ && NF >= 5 { print p "fsmark_files_per_s " $4 }' \
			/tmp/fsmark.txt >>"$out"
	fi
	sleep "$SETTLE_SECS"
	sample "r$r"
	r=$((r + 1))
done
kill -TERM "$hot"
wait "$hot"
sed 's/^/pressure./' /tmp/hot.txt >>"$out"

# What still holds the dying cgroups once the shrinkers are done: drop
# the reclaimable slab objects (d2), then the page cache as well (d3).
if [ "${DROP_CACHES:-1}" = 1 ]; then
	sync
	echo 2 >/proc/sys/vm/drop_caches
	sleep "$SETTLE_SECS"
	sample d2
	echo 3 >/proc/sys/vm/drop_caches
	sleep "$SETTLE_SECS"
	sample d3
fi

# Derived figures: what the removed cgroups left, relative to the base.
awk -v last="r$PRESSURE_ROUNDS" '
	{ split($1, k, "."); v[$1] = $2; ph[k[1]] = 1 }
	END {
		for (p in ph) {
			if (p !~ /^(r[0-9]+|d[23])$/) continue
			d = v[p ".dentries_unused"] - v["base.dentries_unused"]
			i = v[p ".inodes"] - v["base.inodes"]
			print p ".leftover_dentries " (d > 0 ? d : 0)
			print p ".leftover_inodes " (i > 0 ? i : 0)
			b = v["base.live_fileloop_median_ops_per_s"]
			if (b > 0 && (p ".live_fileloop_median_ops_per_s") in v)
				printf "%s.live_vs_base %.4f\n", p, \
					v[p ".live_fileloop_median_ops_per_s"] / b
		}
		# The charge of the parent less its kernel memory: what pages
		# cost it, which reparenting must not change.
		print "r0.cg_user_bytes " v["r0.cg_memory_current"] - v["r0.cg_kernel"]
		print "pressure.hot_io_reads " v[last ".io_rios"] - v["r0.io_rios"]
		print "pressure.hot_refaults " \
			v[last ".io_workingset_refault_file"] - v["r0.io_workingset_refault_file"]
		if (v["pressure.hot_lookups"] > 0)
			printf "pressure.hot_data_miss_pct %.2f\n", \
				100 * v["pressure.hot_data_misses"] / v["pressure.hot_lookups"]
		print "pressure.slabs_scanned " v[last ".vm_slabs_scanned"] - v["r0.vm_slabs_scanned"]
		print "pressure.inode_steals " \
			v[last ".vm_pginodesteal"] + v[last ".vm_kswapd_inodesteal"] - \
			v["r0.vm_pginodesteal"] - v["r0.vm_kswapd_inodesteal"]
	}' "$out" >/tmp/derived.txt
cat /tmp/derived.txt >>"$out"
grep -E 'nr_dying|dying_|leftover|hot_|fsmark|ops_per_s|live_vs_base|cg_active_file|reparent' "$out"
