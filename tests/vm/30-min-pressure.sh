#!/usr/bin/env bash
# vm.shrink_slab_min_pressure: modes 1 and 2 clear what removed cgroups
# left; stock and mode 0 do not; mode 0 behaves like stock. Counts only.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
cd "$LAB_ROOT"

run=$LAB_CHECK_OUT/min-pressure
rm -rf "$run"
if ! LAB_RUN_DIR=$run scripts/run-scenario.sh check-min-pressure 0 >"$LAB_CHECK_OUT/min-pressure.log" 2>&1; then
	tail -n 20 "$LAB_CHECK_OUT/min-pressure.log"
	t_fail "min-pressure: churn scenario ran on all variants" "see $LAB_CHECK_OUT/min-pressure.log"
	exit 0
fi
cat "$run/table.txt"

# fig VARIANT METRIC: the figure of the single repetition.
fig() {
	awk -F, -v v="$1" -v m="$2" '$1 == v && $3 == m { print $4; found = 1 }
		END { if (!found) print "missing" }' "$run/raw.csv"
}

last=r3
for obj in dentries inodes; do
	for v in stock series-0 series-1 series-2; do
		before=$(fig "$v" "r0.leftover_$obj")
		after=$(fig "$v" "$last.leftover_$obj")
		name="min-pressure: $v: $obj left by removed cgroups"
		if [[ "$before" == missing || "$after" == missing ]]; then
			t_fail "$name" "figures missing from $run/raw.csv"
			continue
		fi
		if ((before < 1000)); then
			t_fail "$name" "the churn left only $before $obj: the scenario is too small to tell"
			continue
		fi
		# Dropped by at least 99%: after * 100 <= before.
		dropped=$((after * 100 <= before))
		case "$v" in
		series-1 | series-2)
			if ((dropped)); then
				t_pass "$name fall by >= 99% in 3 rounds ($before -> $after)"
			else
				t_fail "$name fall by >= 99% in 3 rounds" "$before -> $after"
			fi
			;;
		*)
			if ((dropped)); then
				t_fail "$name stay (control)" "$before -> $after: light pressure cleared them without the patch?"
			else
				t_pass "$name stay without minimal pressure ($before -> $after)"
			fi
			;;
		esac
	done
done

# Mode 0 is stock: the same counts within 5% or 50 objects.
for m in "$last.leftover_dentries" "$last.leftover_inodes" "$last.nr_dying_descendants" \
	"r0.leftover_dentries" "r0.leftover_inodes"; do
	s=$(fig stock "$m")
	z=$(fig series-0 "$m")
	name="min-pressure: series-0 matches stock on $m"
	if [[ "$s" == missing || "$z" == missing ]]; then
		t_fail "$name" "figures missing"
		continue
	fi
	diff=$((s > z ? s - z : z - s))
	if ((diff <= 50 || diff * 20 <= s)); then
		t_pass "$name ($s vs $z)"
	else
		t_fail "$name" "stock $s, series-0 $z"
	fi
done
