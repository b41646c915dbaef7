#!/usr/bin/env bash
# vm.shrink_slab_min_pressure: modes 1 and 2 clear what removed cgroups
# left, mode 2 also with page reparenting (and MGLRU, preempt=full); stock
# and mode 0 do not; mode 0 behaves like stock. Counts only. Then mode 2,
# switched off and on again after the leftovers were dropped, leaves the
# root's live dentries alone (guest/jobs/min-pressure-toggle.sh).
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
cd "$LAB_ROOT"

run=$LAB_CHECK_OUT/min-pressure
rm -rf "$run"
if ! LAB_RUN_DIR=$run scripts/run-scenario.sh check-min-pressure 0 >"$LAB_CHECK_OUT/min-pressure.log" 2>&1; then
	scenario_failure "$LAB_CHECK_OUT/min-pressure.log"
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
resolution=40
for obj in dentries inodes; do
	for v in stock series-0 series-1 series-2 series-2rp; do
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
		# Dropped by at least 99% (after * 100 <= before), or to the
		# resolution of the count: a leftover is the difference of two
		# global counts, and the live cgroups' own unused objects, which
		# mode 2 leaves alone, move it by a few dozen (series-2 and
		# series-2rp rest at 33 to 35 dentries and 16 to 24 inodes;
		# mode 1, which presses live objects too, at 0): more than 1%
		# of the small size's 2026 inodes.
		dropped=$((after * 100 <= before || after <= resolution))
		case "$v" in
		series-1 | series-2 | series-2rp)
			if ((dropped)); then
				t_pass "$name fall by >= 99% or to at most $resolution in 3 rounds ($before -> $after)"
			elif [[ "$v" == series-2rp && "$obj" == inodes ]] && ((after * 10 <= before)); then
				# The known MGLRU gap (docs/results.md): in some boots
				# (3 of 12), folios that compaction or migration put back
				# a generation younger escape the floor and hold 2 to 5%
				# of the inodes. Known, so a skip that says so; above
				# 10% the floor or mode 2 is broken: a failure.
				t_skip "$name fall by >= 99% or to at most $resolution in 3 rounds ($before -> $after)" \
					"known gap with MGLRU: moved folios that compaction or migration puts back a generation younger escape the reparented-page floor, in 3 boots of 12 (docs/results.md); fails above 10%"
			else
				t_fail "$name fall by >= 99% or to at most $resolution in 3 rounds" "$before -> $after"
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

# Mode 2 presses what offline memcgs left and nothing else: switched off
# and on again after the leftovers were dropped, it leaves the root's live
# unused dentries to light pressure as mode 0 does (at least 90% stay).
vm_run min-pressure-toggle series guest/jobs/min-pressure-toggle.sh -t 900 -m 512 -s 2048
name="min-pressure: mode 2 switched off and on leaves live dentries alone"
before=$(vm_figure unused_before) after=$(vm_figure unused_after)
if ((VM_RC != 0)) || ! is_uint "$before$after"; then
	t_fail "$name" "$VM_VERDICT; figures: ${before:-?} -> ${after:-?}"
elif ((before < 3000)); then
	t_fail "$name" "only $before unused dentries before the pressure: the job is too small to tell"
elif ((after * 10 >= before * 9)); then
	t_pass "$name ($before -> $after unused dentries)"
else
	t_fail "$name" "$before -> $after unused dentries"
fi

# Mode 2 with page reparenting at the default size: inodes come back to
# the lists when their moved pages are reclaimed, long after the removal,
# and must be pressed then (the first version's count had decayed by then
# and 3065 of 10056 stayed, flat from round 1 to 3). Passes when at most
# 1% are left after round 3, or when they keep falling from round 1 to 3
# and at most 10% are left: the rest still hold pages, which reparenting
# leaves to the parent's share of reclaim.
run=$LAB_CHECK_OUT/min-pressure-2rp
rm -rf "$run"
name="min-pressure: series-2rp at the default size: leftover inodes are pressed as they come back"
if ! LAB_RUN_DIR=$run scripts/run-scenario.sh check-min-pressure-2rp 0 >"$LAB_CHECK_OUT/min-pressure-2rp.log" 2>&1; then
	scenario_failure "$LAB_CHECK_OUT/min-pressure-2rp.log"
	t_fail "$name" "the scenario did not run; see $LAB_CHECK_OUT/min-pressure-2rp.log"
	exit 0
fi
i0=$(fig series-2rp r0.leftover_inodes) i1=$(fig series-2rp r1.leftover_inodes)
i3=$(fig series-2rp r3.leftover_inodes) d3=$(fig series-2rp r3.leftover_dentries)
d0=$(fig series-2rp r0.leftover_dentries)
if [[ "$i0$i1$i3$d0$d3" == *missing* ]] || ((i0 < 1000)); then
	t_fail "$name" "figures missing or too small: inodes $i0 -> $i1 -> $i3"
elif ((d3 * 100 <= d0)) && ((i3 * 100 <= i0 || (i3 < i1 && i3 * 10 <= i0))); then
	t_pass "$name (inodes $i0 -> $i1 -> $i3, dentries $d0 -> $d3)"
else
	t_fail "$name" "inodes $i0 -> $i1 -> $i3, dentries $d0 -> $d3"
fi
