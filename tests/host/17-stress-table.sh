#!/usr/bin/env bash
# stress-table.py: a summary of known figures becomes a table with a
# column per policy, a failed check is counted as not passed, and a file
# without a policy section is refused by name.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
cd "$LAB_ROOT"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat >"$tmp/summary.txt" <<'SUMMARY'
make stress: VARIANT=debug POLICIES="pin donate" STRESS_SECONDS=60 STRESS_SIZE=1

== memcg_slab=pin (130 s wall)
  seconds 61.0
  cycles 70
  faults_failslab 700
  faults_fail_page_alloc 24
  kworker_windows 12
  dying_left 3
ok   no kernel splat (0)
ok   every cgroup created was removed (created 71, removed 71)

== memcg_slab=donate (125 s wall)
  seconds 60.5
  cycles 81
  faults_failslab 900
  faults_fail_page_alloc 0
  kworker_windows 12
  dying_left 0
ok   no kernel splat (0)
FAIL failslab and fail_page_alloc injected failures (failslab 900, fail_page_alloc 0)
ok   no memcg left dying after the cleanup (0 left)
SUMMARY
if ! out=$(scripts/stress-table.py "$tmp/summary.txt" 2>&1); then
	t_fail "stress-table: a summary of known figures" "$out"
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
t_expect_error "stress-table: a file without a policy section" "no '== memcg_slab=' section" \
	scripts/stress-table.py Makefile
