#!/usr/bin/env bash
# stress-table.py: two policies' guest folders of known figures become a
# table with a column per policy, a failed check is counted as not
# passed, and a folder without figures is refused by name.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
cd "$LAB_ROOT"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/pin/results" "$tmp/donate/results" "$tmp/empty"
printf '%s\n' policy=pin seconds=61.0 cycles=70 faults_failslab=700 \
	faults_fail_page_alloc=24 kworker_windows=12 dying_left=3 >"$tmp/pin/results/figures.txt"
printf '%s\n' wall_seconds=130 splats=0 >"$tmp/pin/host.txt"
printf '%s\n' "ok   no kernel splat (0)" \
	"ok   every cgroup created was removed (created 71, removed 71)" >"$tmp/pin/checks.txt"
printf '%s\n' policy=donate seconds=60.5 cycles=81 faults_failslab=900 \
	faults_fail_page_alloc=0 kworker_windows=12 dying_left=0 >"$tmp/donate/results/figures.txt"
printf '%s\n' wall_seconds=125 splats=0 >"$tmp/donate/host.txt"
printf '%s\n' "ok   no kernel splat (0)" \
	"FAIL failslab and fail_page_alloc injected failures (failslab 900, fail_page_alloc 0)" \
	"ok   no memcg left dying after the cleanup (0 left)" >"$tmp/donate/checks.txt"
if ! out=$(scripts/stress-table.py "$tmp/pin" "$tmp/donate" 2>&1); then
	t_fail "stress-table: two folders of known figures" "$out"
	exit 0
fi
if grep -qF '| figure | pin | donate |' <<<"$out" &&
	grep -qF '| guest wall time, s (stress phase, s) | 130 (61.0) | 125 (60.5) |' <<<"$out" &&
	grep -qF '| 700 / 24 (12) | 900 / 0 (12) |' <<<"$out" &&
	grep -qF '| dying memcgs after cleanup | 3 | 0 |' <<<"$out"; then
	t_pass "stress-table: a column per policy with its figures"
else
	t_fail "stress-table: a column per policy with its figures" "$out"
fi
if grep -qF '| checks passed | 2 of 2 | 2 of 3 |' <<<"$out"; then
	t_pass "stress-table: a failed check is not counted as passed"
else
	t_fail "stress-table: a failed check is not counted as passed" "$(tail -n 1 <<<"$out")"
fi
t_expect_error "stress-table: a folder without figures" "$tmp/empty: no stress run" \
	scripts/stress-table.py "$tmp/pin" "$tmp/empty"
