#!/usr/bin/env bash
# compare.py: Welch's t-test against reference values, and the table marks
# a significant difference and no insignificant one.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
cd "$LAB_ROOT"

# Reference values that follow from the definitions: I_x(1,1) = x and
# I_0.5(a,a) = 0.5; with one degree of freedom t is Cauchy, so P(|T| > 1)
# is exactly 0.5; and [1..5] against [6..10] gives t = -5 with 8 degrees
# of freedom, two-sided p = 0.001052.
if python3 - <<'PY'
import importlib.util, sys
spec = importlib.util.spec_from_file_location("compare", "scripts/compare.py")
c = importlib.util.module_from_spec(spec)
spec.loader.exec_module(c)
checks = [
    abs(c.betai(1, 1, 0.3) - 0.3) < 1e-9,
    abs(c.betai(3, 3, 0.5) - 0.5) < 1e-9,
    abs(c.betai(0.5, 0.5, 0.5) - 0.5) < 1e-9,
    abs(c.welch_p([1, 2, 3, 4, 5], [6, 7, 8, 9, 10]) - 0.001052) < 2e-6,
    c.welch_p([1, 2, 3], [1, 2, 3]) == 1.0,
    c.welch_p([1], [2]) is None,
    c.welch_p([5, 5, 5], [7, 7, 7]) is None,
]
sys.exit(0 if all(checks) else 1)
PY
then
	t_pass "compare: Welch's t-test matches reference p-values"
else
	t_fail "compare: Welch's t-test matches reference p-values"
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf 'a\nb\n' >"$tmp/variants"
for r in 1 2 3; do
	for v in a b; do
		mkdir -p "$tmp/$v-$r/results"
	done
	echo "same=$((100 + r))" >"$tmp/a-$r/results/figures.txt"
	echo "shift=$((100 + r))" >>"$tmp/a-$r/results/figures.txt"
	echo "same=$((101 + r % 3))" >"$tmp/b-$r/results/figures.txt"
	echo "shift=$((200 + r))" >>"$tmp/b-$r/results/figures.txt"
	echo "flat=5" >>"$tmp/a-$r/results/figures.txt"
	echo "flat=7" >>"$tmp/b-$r/results/figures.txt"
	echo "fine=1234567.123456789" >>"$tmp/a-$r/results/figures.txt"
	echo "big=123456789" >>"$tmp/a-$r/results/figures.txt"
	echo "never=-1" >>"$tmp/a-$r/results/figures.txt"
	echo "never=$((100 + r))" >>"$tmp/b-$r/results/figures.txt"
done
scripts/compare.py "$tmp" >/dev/null
if grep -q '^shift .*\* +98\.0%\*' "$tmp/table.txt" && grep '^same ' "$tmp/table.txt" | grep -qv '\*'; then
	t_pass "compare: the table marks a real shift and not an equal pair"
else
	t_fail "compare: the table marks a real shift and not an equal pair" "$(cat "$tmp/table.txt")"
fi
# -1 is "never" (dyingwait): 102 against it is +103, not -10300%.
if grep -q '^never .*\* *+103 abs\*' "$tmp/table.txt"; then
	t_pass "compare: a negative base gets the difference, not a ratio"
else
	t_fail "compare: a negative base gets the difference, not a ratio" "$(grep '^never ' "$tmp/table.txt")"
fi
if grep -q '^flat .*= +40\.0%=' "$tmp/table.txt" && ! grep '^flat ' "$tmp/table.txt" | grep -q '\*'; then
	t_pass "compare: a row with no spread on either side says so and has no star"
else
	t_fail "compare: a row with no spread on either side says so and has no star" "$(grep '^flat ' "$tmp/table.txt")"
fi
if grep -q '^a,1,fine,1234567.123456789$' "$tmp/raw.csv" && grep -q '^a,1,big,123456789$' "$tmp/raw.csv"; then
	t_pass "compare: raw.csv keeps every digit the guest wrote"
else
	t_fail "compare: raw.csv keeps every digit the guest wrote" "$(grep -E ',(fine|big),' "$tmp/raw.csv" | head -2)"
fi
