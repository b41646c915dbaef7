#!/usr/bin/env bash
# The README's summary figure: what each slab model costs per accounted
# allocation and what it holds after a churn. Left: instructions per
# allocation+free pair on the hit path, user cgroup (a make walk's
# walk.csv). Right: inode slab pages after the donate scenario's new
# jobs, mean and sd over its boots (its raw.csv, n0.slabfam_inode_pages).
# Usage: plot-findings.sh WALK_CSV DONATE_RAW_CSV OUT_PNG
set -euo pipefail
. "$(dirname "$0")/lib.sh"

[[ $# -eq 3 ]] || die "usage: ${0##*/} WALK_CSV DONATE_RAW_CSV OUT_PNG"
walk=$1 raw=$2 png=$3
[[ -f "$walk" ]] || die "no walk counts: $walk (make walk)"
[[ -f "$raw" ]] || die "no donate raw data: $raw (make run SCENARIO=donate)"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# variant kmalloc-pair cache-pair, in the walk's order
awk -F, 'NR > 1 && $2 == "user" {
		if (!($1 in seen)) { seen[$1] = 1; order[++n] = $1 }
		if ($3 == "kmalloc_trace" || $3 == "kfree") k[$1] += $4
		else c[$1] += $4
	}
	END { for (i = 1; i <= n; i++) print order[i], k[order[i]], c[order[i]] }' \
	"$walk" >"$tmp/walk.dat"
# variant mean sd of the inode family's pages after the new jobs
awk -F, '$3 == "n0.slabfam_inode_pages" {
		if (!($1 in n)) order[++m] = $1
		n[$1]++; s[$1] += $4; q[$1] += $4 * $4
	}
	END {
		for (i = 1; i <= m; i++) {
			v = order[i]; mean = s[v] / n[v]
			sd = n[v] > 1 ? sqrt((q[v] - n[v] * mean * mean) / (n[v] - 1)) : 0
			print v, mean, (sd == sd ? sd : 0)
		}
	}' "$raw" >"$tmp/pages.dat"
[[ -s "$tmp/walk.dat" ]] || die "$walk has no user-cgroup counts"
[[ -s "$tmp/pages.dat" ]] || die "$raw has no n0.slabfam_inode_pages"
gnuplot <<GP
set terminal pngcairo size 1100,420 font ",10" noenhanced
set output '$png'
set multiplot layout 1,2 title "The slab models: cost per accounted allocation against memory held"
set style data histograms
set style fill solid 0.8 border -1
set grid ytics
set yrange [0:*]
set key below horizontal
set title "instructions per allocation+free pair, hit path, user cgroup\n(make walk: exact counts)"
set style histogram clustered gap 1
plot '$tmp/walk.dat' using 2:xtic(1) title 'kmalloc(64) + kfree', '' using 3 title 'kmem_cache pair'
set title "inode slab pages after a cleaner and new jobs\n(SCENARIO=donate, mean and sd of the boots)"
set style histogram errorbars gap 1 lw 1
unset key
plot '$tmp/pages.dat' using 2:3:xtic(1) title 'pages'
unset multiplot
GP
note "plot: $png"
