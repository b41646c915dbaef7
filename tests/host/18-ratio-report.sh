#!/usr/bin/env bash
# ratio-report.py: rows come in the order of the scenario's report
# patterns, each cell is median [lowest-highest] over boots, the ratio is
# of medians to the first variant, a clear difference gets a star and an
# interval and the same values do not (a run of known values, six boots a
# variant), pairs behind a _gmean figure are pooled over boots (whole
# boots resampled: one boot of two different pairs has no spread), a pair
# ratio that is not positive is refused, and a run with no figure
# matching the patterns is refused.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
cd "$LAB_ROOT"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf 'series-0\nseries-1\nseries-2rp\none-boot\n' >"$tmp/variants"
printf '%s\n' '^r1\.live_ab_ratio_gmean$' '^r1\.vm_slabs_scanned$' >"$tmp/report"
{
	echo "variant,rep,metric,value"
	for r in 1 2 3 4 5 6; do
		echo "series-0,$r,r1.vm_slabs_scanned,$((1000 + r))"
		echo "series-1,$r,r1.vm_slabs_scanned,$((100000 + r))"
		echo "series-2rp,$r,r1.vm_slabs_scanned,$((1000 + r))"
		echo "series-0,$r,r1.live_ab_ratio_gmean,1.0$r"
		# 20% lower than the null in every boot
		echo "series-1,$r,r1.live_ab_ratio_gmean,0.8$r"
		echo "series-2rp,$r,r1.live_ab_ratio_gmean,1.0$r"
		echo "series-0,$r,r1.unreported_figure,1"
		# two pairs a boot: the null at 1, series-1 at 0.8, 2rp at 1.25
		for k in 1 2; do
			echo "series-0,$r,r1.live_ab_ratio_$k,1"
			echo "series-1,$r,r1.live_ab_ratio_$k,0.8"
			echo "series-2rp,$r,r1.live_ab_ratio_$k,1.25"
		done
	done
	# one boot whose two pairs differ: resampling whole boots, not
	# pairs, leaves its interval at zero width
	echo "one-boot,1,r1.live_ab_ratio_1,0.9"
	echo "one-boot,1,r1.live_ab_ratio_2,1.1"
} >"$tmp/raw.csv"
if ! out=$(scripts/ratio-report.py "$tmp" 2>&1); then
	t_fail "ratio-report: a run of known values" "$(tail -n 3 <<<"$out")"
	exit 0
fi
rows=$(grep -E '^(r1|base)\.' <<<"$out" | awk '{ print $1 }' | tr '\n' ' ')
if [[ "$rows" == "r1.live_ab_ratio_gmean r1.vm_slabs_scanned " ]]; then
	t_pass "ratio-report: the reported rows, in the order of the patterns"
else
	t_fail "ratio-report: rows in pattern order" "got: $rows"
fi
g=$(grep -A1 '^r1\.live_ab_ratio_gmean' <<<"$out")
# medians 1.035 and 0.835: 0.81 of the null, told apart; 2rp the same.
if grep -q '1.035 \[1.010-1.060\]' <<<"$g" && grep -q '0.81\*\[' <<<"$g" &&
	grep -q '1.00\[' <<<"$g" && ! grep -q '1.00\*' <<<"$g"; then
	t_pass "ratio-report: medians, and ratios to the first variant with a star only where they differ"
else
	t_fail "ratio-report: medians and ratios" "$g"
fi
p=$(grep -A1 '^pooled' <<<"$out" | tr -s ' ' || true)
if [[ "$p" == *"1.000 [1.000-1.000] (12, 6) 0.800 [0.800-0.800] (12, 6) 1.250 [1.250-1.250] (12, 6) 0.995 [0.995-0.995] (2, 1)"* &&
	"$p" == *"1.000 0.800 [0.800-0.800] 1.250 [1.250-1.250]"* ]]; then
	t_pass "ratio-report: every pair pooled, geometric mean and ratio to the first variant"
else
	t_fail "ratio-report: pooled pairs" "$p"
fi
[[ -s "$tmp/ratios.txt" ]] && t_pass "ratio-report: ratios.txt written" ||
	t_fail "ratio-report: ratios.txt" "missing or empty"
sed -i 's/^series-1,3,r1.live_ab_ratio_1,0.8$/series-1,3,r1.live_ab_ratio_1,0/' "$tmp/raw.csv"
t_expect_error "ratio-report: a pair ratio of 0 is refused" "not a ratio" \
	scripts/ratio-report.py "$tmp"
printf '%s\n' '^nothing$' >"$tmp/report"
t_expect_error "ratio-report: a run with no reported figure" "matches the report patterns" \
	scripts/ratio-report.py "$tmp"
