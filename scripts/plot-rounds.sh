#!/usr/bin/env bash
# Plot dying memcgs and the unused dentries left by removed cgroups at each
# phase of a churn run (after the churn, after the cleaner and the new
# jobs when the scenario has them, after each pressure round, after
# drop_caches), one line per variant: mean over the repetitions, error
# bars +-1 sd, from a run's raw.csv.
# Usage: plot-rounds.sh RUN_DIR   (writes RUN_DIR/rounds.png)
set -euo pipefail
. "$(dirname "$0")/lib.sh"

plot_inputs r0.nr_dying_descendants per-round "$@"
# The phases this run has, in the order the churn job takes them, with
# the label each gets on the x axis.
phases=() names=()
for p in r0 c0 n0 r1 r2 r3 r4 r5 r6 r7 r8 r9 d2 d3; do
	grep -q "^[^,]*,[0-9]*,$p\.nr_dying_descendants," "$run/raw.csv" || continue
	phases+=("$p")
	case "$p" in
	r0) names+=("churn done") ;;
	c0) names+=("cleaner") ;;
	n0) names+=("new jobs") ;;
	r*) names+=("round ${p#r}") ;;
	d*) names+=("drop caches ${p#d}") ;;
	esac
done
# One data file per variant: x, mean and sd of dying memcgs, mean and sd
# of the unused dentries above the base phase's.
for l in "${labels[@]}"; do
	awk -F, -v l="$l" -v list="${phases[*]}" '
		BEGIN { np = split(list, ph, " ") }
		$1 == l { v[$2, $3] = $4; reps[$2] = 1 }
		function stat(p, key,   r, x, n, s, q) {
			n = 0; s = 0; q = 0
			for (r in reps) {
				if (key == "dentries") {
					if (!((r, p ".dentries_unused") in v)) continue
					x = v[r, p ".dentries_unused"] - v[r, "base.dentries_unused"]
					if (x < 0) x = 0
				} else {
					if (!((r, p "." key) in v)) continue
					x = v[r, p "." key]
				}
				n++; s += x; q += x * x
			}
			if (!n) return "NaN NaN"
			m = s / n
			return m " " (n > 1 && q - n * m * m > 0 ? sqrt((q - n * m * m) / (n - 1)) : 0)
		}
		END {
			for (i = 1; i <= np; i++)
				print i - 1, stat(ph[i], "nr_dying_descendants"), stat(ph[i], "dentries")
		}' "$run/raw.csv" >"$run/rounds-$l.dat"
done
xtics=
for i in "${!names[@]}"; do
	xtics+="\"${names[i]}\" $i, "
done
# Each variant is shifted a little along x, so that variants with the
# same figures (often 0) stay visible side by side instead of one line
# hiding the others.
plots_dying='' plots_dentries=''
nl=${#labels[@]}
for k in "${!labels[@]}"; do
	l=${labels[k]}
	off=$(awk -v k="$k" -v n="$nl" 'BEGIN { printf "%.3f", (k - (n - 1) / 2) * 0.06 }')
	plots_dying+="'$run/rounds-$l.dat' using (\$1+$off):2:3 with yerrorlines title '$l', "
	plots_dentries+="'$run/rounds-$l.dat' using (\$1+$off):4:5 with yerrorlines title '$l', "
done
conditions=$("$LAB_ROOT/scripts/run-conditions.sh" "$run")
gnuplot <<GP
set terminal pngcairo size 1200,480 font ",10"
set output '$run/rounds.png'
set multiplot layout 1,2 title "Removed cgroups after each phase of the churn job (mean of $reps runs, error bars +-1 sd; variants shifted apart on x)\\n$conditions"
set xtics (${xtics%, }) rotate by -30
set xrange [-0.3:$((${#phases[@]} - 1)).3]
set grid
set key outside bottom center horizontal
set yrange [0:*]
set title 'dying memory cgroups'
set ylabel 'nr\_dying\_descendants of the jobs cgroup'
plot ${plots_dying%, }
set title 'dentries left by the removed cgroups'
set ylabel 'unused dentries above the base phase'
plot ${plots_dentries%, }
unset multiplot
GP
note "plot: $run/rounds.png"
