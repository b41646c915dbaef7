#!/usr/bin/env bash
# make run SCENARIO=smoke QUICK=1 works end to end: both kernels boot, the
# job's figures come back and the table compares them.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
cd "$LAB_ROOT"

run=$LAB_CHECK_OUT/smoke
rm -rf "$run"
if LAB_RUN_DIR=$run scripts/run-scenario.sh smoke 1 >"$LAB_CHECK_OUT/smoke.log" 2>&1 &&
	grep -q '^churn\.nr_dying_descendants .* 20 ±0' "$run/table.txt"; then
	t_pass "smoke: make run SCENARIO=smoke QUICK=1 compares stock and series"
else
	scenario_failure "$LAB_CHECK_OUT/smoke.log"
	t_fail "smoke: make run SCENARIO=smoke QUICK=1" "see $LAB_CHECK_OUT/smoke.log"
fi
