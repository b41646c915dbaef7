#!/usr/bin/env bash
# bench-report.py: the ratios to the floor (nokmem) and to stock follow
# from the figures (a run made of known values), a difference with no
# spread against a spread-out one is marked, and a run without the floor
# is refused by name.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
cd "$LAB_ROOT"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf 'nokmem\nstock\npin\n' >"$tmp/variants"
{
	echo "variant,rep,metric,value"
	for r in 1 2 3; do
		echo "nokmem,$r,bench.user_kmalloc_best_ns,$((98 + r))"
		echo "stock,$r,bench.user_kmalloc_best_ns,$((198 + r))"
		echo "pin,$r,bench.user_kmalloc_best_ns,$((108 + r))"
		echo "nokmem,$r,churn.churn_ops_per_s,1000"
		echo "stock,$r,churn.churn_ops_per_s,1000"
		echo "pin,$r,churn.churn_ops_per_s,$((898 + r))"
	done
} >"$tmp/raw.csv"
if ! out=$(scripts/bench-report.py "$tmp" 2>&1); then
	t_fail "bench-report: a run of known values" "$(tail -n 3 <<<"$out")"
	exit 0
fi
# pin: 110/100 = 1.10 of the floor, 110/200 = 0.55 of stock; stock 2.00.
if grep -q 'fl 1.10\* st 0.55\*' <<<"$out" && grep -q 'fl 2.00\* st 1.00 ' <<<"$out"; then
	t_pass "bench-report: ratios to the floor and to stock (pin 1.10x / 0.55x, stock 2.00x)"
else
	t_fail "bench-report: ratios to the floor and to stock" "$(grep -A1 user_kmalloc_best <<<"$out")"
fi
if grep -q 'st 0.90\*' <<<"$out" && [[ -s "$tmp/bench.png" ]]; then
	t_pass "bench-report: throughput ratio (pin 0.90x of stock) and the plot"
else
	t_fail "bench-report: throughput ratio and the plot" "$(tail -n 4 <<<"$out")"
fi
printf 'stock\npin\n' >"$tmp/variants"
t_expect_error "bench-report: a run without the floor" "no variant 'nokmem'" \
	scripts/bench-report.py "$tmp"
