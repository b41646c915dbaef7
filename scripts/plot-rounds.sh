#!/usr/bin/env bash
# Plot dying memcgs and leftover dentries per pressure round, one line per
# variant (mean over repetitions), from a run's raw.csv.
# Usage: plot-rounds.sh RUN_DIR   (writes RUN_DIR/rounds.png)
set -euo pipefail
. "$(dirname "$0")/lib.sh"

[[ $# -eq 1 && -f "$1/raw.csv" ]] || die "usage: ${0##*/} RUN_DIR (with raw.csv)"
run=$1
if ! grep -q '^[^,]*,[0-9]*,r0\.nr_dying_descendants,' "$run/raw.csv"; then
	note "no per-round figures in $run: nothing to plot"
	exit 0
fi
mapfile -t labels <"$run/variants"
# One data file per variant: round, mean dying memcgs, mean leftover dentries.
for l in "${labels[@]}"; do
	awk -F, -v l="$l" '
		$1 == l && $3 ~ /^r[0-9]+\.(nr_dying_descendants|leftover_dentries)$/ {
			split($3, k, "."); r = substr(k[1], 2)
			sum[r, k[2]] += $4; n[r, k[2]]++; if (r > max) max = r
		}
		END {
			for (r = 0; r <= max; r++)
				printf "%d %g %g\n", r,
					sum[r, "nr_dying_descendants"] / n[r, "nr_dying_descendants"],
					sum[r, "leftover_dentries"] / n[r, "leftover_dentries"]
		}' "$run/raw.csv" >"$run/rounds-$l.dat"
done
plots_dying= plots_dentries=
for l in "${labels[@]}"; do
	plots_dying+="'$run/rounds-$l.dat' using 1:2 with linespoints title '$l', "
	plots_dentries+="'$run/rounds-$l.dat' using 1:3 with linespoints title '$l', "
done
gnuplot <<GP
set terminal pngcairo size 1000,420 font ",10"
set output '$run/rounds.png'
set multiplot layout 1,2 title "$(basename "$run")"
set xlabel 'pressure round (0: right after the churn)'
set xtics 1
set grid
set key top right
set ylabel 'dying memcgs'
set yrange [0:*]
plot ${plots_dying%, }
set ylabel 'dentries left by removed cgroups'
plot ${plots_dentries%, }
unset multiplot
GP
note "plot: $run/rounds.png"
