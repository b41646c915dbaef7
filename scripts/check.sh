#!/usr/bin/env bash
# make check: the lab's test suite. Runs every test script under tests/
# (host tests first, then guest tests), then prints one closing line:
# "N passed, N failed, N skipped". Exit 1 if anything failed.
# T='vm/55* host/10*' (globs relative to tests/) runs only the matching
# scripts, after host/30-build.sh, which builds what the guest tests boot.
# Host tests run one after the other; then the guest tests run
# LAB_CHECK_JOBS at a time (default 2, one per core of the lab's 2-core
# host, each guest being one single-threaded TCG process: 2015 s from a
# clean clone with a warm ccache on 2026-12-07, against 2800 to 4100 s
# with 1; a guest that stalls in early boot is booted again by
# vm-runner/run-vm.sh and listed at the end, and a flaky kselftest is
# tried again over several boots: docs/reliability.md), each script's
# output printed whole when it ends (with 1, as it comes). A host test whose header
# has the line "# lab-check: beside-guests" (lint on the kernels already
# built, the argument checks, the boot watchdog's stand-in) runs in the
# background beside the guest tests, which keep one core busy each, and
# its output comes at the end.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

all=("$LAB_ROOT"/tests/host/*.sh "$LAB_ROOT"/tests/vm/*.sh)
scripts=()
if [[ -n "${T:-}" ]]; then
	build=$LAB_ROOT/tests/host/30-build.sh
	for t in "${all[@]}"; do
		name=${t#"$LAB_ROOT"/tests/}
		for pat in $T; do
			# shellcheck disable=SC2053 # the pattern is a glob on purpose
			if [[ "$name" == $pat ]]; then
				scripts+=("$t")
				break
			fi
		done
	done
	((${#scripts[@]} > 0)) || die "T='$T' matches no test script under tests/ (host/NN-*.sh, vm/NN-*.sh)"
	[[ " ${scripts[*]} " == *" $build "* ]] || scripts=("$build" "${scripts[@]}")
else
	scripts=("${all[@]}")
fi

results=$(mktemp "${TMPDIR:-/tmp}/lab-check.XXXXXX")
# One "SECONDS<TAB>SCRIPT" line per script that ended, for the summary.
times=$(mktemp "${TMPDIR:-/tmp}/lab-check-times.XXXXXX")
# Never written again: what is newer came from this run.
stamp=$(mktemp "${TMPDIR:-/tmp}/lab-check-start.XXXXXX")
trap 'rm -f "$results" "$times" "$stamp"' EXIT
export LAB_CHECK_RESULTS=$results
export LAB_CHECK_OUT=$LAB_BUILD/check
mkdir -p "$LAB_CHECK_OUT"

lanes=${LAB_CHECK_JOBS:-2}
check_uint LAB_CHECK_JOBS "$lanes"
((lanes >= 1)) || die "LAB_CHECK_JOBS must be at least 1, got $lanes"
logs=$LAB_CHECK_OUT/logs
mkdir -p "$logs"

# run_script SCRIPT: run one test script, its output to stdout, and say
# how long it took; a script that fails by itself is a failed result.
run_script() {
	local t=$1 name=${1#"$LAB_ROOT"/tests/} t0=$SECONDS
	echo "== $name"
	if ! bash "$t"; then
		printf 'fail\t%s\t%s\n' "$name" "the test script itself failed" >>"$results"
		echo "  FAIL  $name: the test script itself failed"
	fi
	echo "   ($((SECONDS - t0)) s)"
	printf '%d\t%s\n' "$((SECONDS - t0))" "$name" >>"$times"
}

start=$SECONDS
guests=() beside=()
for t in "${scripts[@]}"; do
	if [[ "$t" == "$LAB_ROOT"/tests/vm/* ]]; then
		guests+=("$t")
	elif grep -qx '# lab-check: beside-guests.*' "$t"; then
		beside+=("$t")
	else
		run_script "$t"
	fi
done

# The builds are done (host/30-build.sh): scenarios that guest tests run
# must not rebuild a kernel or the initramfs that another lane boots.
export LAB_PREBUILT=1
beside_pid=
if ((${#beside[@]} > 0)); then
	if ((${#guests[@]} == 0)); then
		for t in "${beside[@]}"; do
			run_script "$t"
		done
	else
		beside_log=$logs/host-beside-guests.log
		(for t in "${beside[@]}"; do run_script "$t"; done) >"$beside_log" 2>&1 &
		beside_pid=$!
		echo "   started ${beside[*]#"$LAB_ROOT"/tests/} beside the guest tests (output at the end: $beside_log)"
	fi
fi
# log_of: the lanes' scripts not yet reaped, by pid.
declare -A log_of=()
reap_one() {
	local done_pid=
	wait -n -p done_pid || true
	if [[ -n "$beside_pid" && "$done_pid" == "$beside_pid" ]]; then
		# The host tests beside the guests ended first: not a lane.
		beside_pid=
		wait -n -p done_pid || true
	fi
	[[ -n "$done_pid" && -n "${log_of[$done_pid]:-}" ]] || die "lost track of a guest test lane"
	cat "${log_of[$done_pid]}"
	unset "log_of[$done_pid]"
}
for t in "${guests[@]}"; do
	while ((${#log_of[@]} >= lanes)); do
		reap_one
	done
	log=$logs/$(basename "$t" .sh).log
	if ((lanes == 1)); then
		# One lane: show the output as it comes.
		run_script "$t" 2>&1 | tee "$log"
		continue
	fi
	run_script "$t" >"$log" 2>&1 &
	log_of[$!]=$log
	echo "   started ${t#"$LAB_ROOT"/tests/} (output when it ends: $log)"
done
while ((${#log_of[@]} > 0)); do
	reap_one
done
if [[ -n "$beside_pid" ]]; then
	wait "$beside_pid" || true
fi
[[ -z "${beside_log:-}" ]] || cat "$beside_log"

pass=$(grep -c '^pass' "$results" || true)
fail=$(grep -c '^fail' "$results" || true)
skip=$(grep -c '^skip' "$results" || true)
echo
if ((fail > 0)); then
	echo "Failed:"
	awk -F'\t' '$1 == "fail" { print "  " $2 ": " $3 }' "$results"
fi
if ((skip > 0)); then
	echo "Skipped:"
	awk -F'\t' '$1 == "skip" { print "  " $2 ": " $3 }' "$results"
fi
stalled=$(find "$LAB_CHECK_OUT" -name 'console.boot-stall-*.log' -newer "$stamp" | sort)
if [[ -n "$stalled" ]]; then
	echo "Boots that stalled before init and were booted again (vm-runner/run-vm.sh):"
	sed 's/^/  /' <<<"$stalled"
fi
echo "Seconds per script, longest first:"
sort -rn "$times" | awk -F'\t' '{ printf "%s%s %d", (NR > 1 ? ", " : "  "), $2, $1 } END { print "" }' |
	fold -s -w 76 | sed '2,$s/^/  /'
echo "make check took $((SECONDS - start)) s"
echo "$pass passed, $fail failed, $skip skipped"
((fail == 0))
