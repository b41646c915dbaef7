#!/usr/bin/env bash
# Plot a crash-loop run over its cycles, from raw.csv: dying memcgs, the
# memory they hold (percpu + unreclaimable slab growth) and the time to
# read the root's memory.stat, one line per variant, mean over the
# repetitions with +-1 sd error bars.
# Usage: plot-cycles.sh RUN_DIR   (writes RUN_DIR/cycles.png)
set -euo pipefail
. "$(dirname "$0")/lib.sh"

plot_inputs c0.nr_dying per-cycle "$@"
metrics=(nr_dying held_kb memstat_read_us)
# One data file per variant: cycle, then mean and sd of each metric.
for l in "${labels[@]}"; do
	awk -F, -v l="$l" -v list="${metrics[*]}" '
		BEGIN { nm = split(list, m, " ") }
		$1 == l && $3 ~ /^c[0-9]+\./ {
			split($3, k, "."); c = substr(k[1], 2) + 0
			s[c, k[2]] += $4; q[c, k[2]] += $4 * $4; n[c, k[2]]++
			seen[c] = 1
		}
		END {
			for (c in seen) {
				line = c
				for (i = 1; i <= nm; i++) {
					cnt = n[c, m[i]]
					if (!cnt) { line = line " NaN NaN"; continue }
					mean = s[c, m[i]] / cnt
					var = cnt > 1 ? (q[c, m[i]] - cnt * mean * mean) / (cnt - 1) : 0
					line = line " " mean " " (var > 0 ? sqrt(var) : 0)
				}
				print line
			}
		}' "$run/raw.csv" | sort -n >"$run/cycles-$l.dat"
done
plot() {
	local col=$1 p='' l
	for l in "${labels[@]}"; do
		p+="'$run/cycles-$l.dat' using 1:$col:$((col + 1)) with yerrorlines title '$l', "
	done
	echo "${p%, }"
}
conditions=$("$LAB_ROOT/scripts/run-conditions.sh" "$run")
gnuplot <<GP
set terminal pngcairo size 1400,460 font ",10"
set output '$run/cycles.png'
set multiplot layout 1,3 title "Crash loop: a unit restarted in a new cgroup each cycle (mean of $reps runs, error bars +-1 sd)\\n$conditions"
set xlabel 'restarts (cycles)'
set grid
set key outside bottom center horizontal
set yrange [0:*]
set title 'dying memory cgroups'
set ylabel 'nr\_dying\_descendants'
plot $(plot 2)
set title 'memory held since cycle 0'
set ylabel 'Percpu + SUnreclaim growth (kB)'
plot $(plot 4)
set title "time to read the root's memory.stat"
set ylabel 'median of reads (us)'
plot $(plot 6)
unset multiplot
GP
note "plot: $run/cycles.png"
