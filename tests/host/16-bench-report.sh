#!/usr/bin/env bash
# bench-report.py: the ratios of medians to the floor (nokmem) and to
# stock follow from the figures (a run made of known values, five boots a
# variant), one slow boot neither makes a difference (the same medians
# as the floor: no star) nor hides one (10% above the floor: a star, as
# Welch's test on means did not give), and a run without the floor is
# refused by name; run-conditions.sh gives the plots' titles the run's
# conditions from info.txt.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
cd "$LAB_ROOT"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf 'nokmem\nstock\npin\n' >"$tmp/variants"
{
	echo "variant,rep,metric,value"
	for r in 1 2 3 4 5; do
		echo "nokmem,$r,bench.user_kmalloc_best_ns,$((97 + r))"
		echo "stock,$r,bench.user_kmalloc_best_ns,$((197 + r))"
		echo "pin,$r,bench.user_kmalloc_best_ns,$((107 + r))"
		# The same medians as the floor, one boot three times slower
		echo "nokmem,$r,bench.user_cache_best_ns,$((97 + r))"
		echo "stock,$r,bench.user_cache_best_ns,$((97 + r + (r == 5) * 200))"
		# 10% above the floor, one boot three times slower: still 1.10
		echo "pin,$r,bench.user_cache_best_ns,$((107 + r + (r == 5) * 200))"
		echo "nokmem,$r,churn.churn_ops_per_s,1000"
		echo "stock,$r,churn.churn_ops_per_s,1000"
		echo "pin,$r,churn.churn_ops_per_s,$((897 + r))"
	done
} >"$tmp/raw.csv"
cat >"$tmp/info.txt" <<'EOF'
scenario: kmem (QUICK=0, 5 repetitions)
series sha256 (patch files in series order): 0123456789ab
lab commit: abc1234
guests: 512 MiB; vCPUs and NUMA nodes: -smp and -numa in each run's qemu.cmdline
guests reported vcpus: 2 (every run's results/guest.txt)
guests reported numa_nodes: 1 (every run's results/guest.txt)
EOF
# The plots' titles carry the run's conditions, read from info.txt.
want="scenario kmem, lab abc1234, series 0123456789ab, guests: 2 vCPUs, 1 NUMA nodes, 512 MiB"
got=$(scripts/run-conditions.sh "$tmp" 2>&1 || true)
if [[ "$got" == "$want" ]]; then
	t_pass "run-conditions: the plot title's conditions from info.txt"
else
	t_fail "run-conditions: the plot title's conditions from info.txt" "got '$got'"
fi
t_expect_error "run-conditions: a directory that is no run" "not a make run result" \
	scripts/run-conditions.sh "$tmp/none"
if ! out=$(scripts/bench-report.py "$tmp" 2>&1); then
	t_fail "bench-report: a run of known values" "$(tail -n 3 <<<"$out")"
	exit 0
fi
# pin: 110/100 = 1.10 of the floor, 110/200 = 0.55 of stock; stock 2.00.
k=$(grep -A2 '^user_kmalloc_best_ns' <<<"$out")
if grep -q 'fl 1.10\*\[1.07-1.13\]' <<<"$k" && grep -q 'st 0.55\*\[' <<<"$k" &&
	grep -q 'fl 2.00\*\[' <<<"$k"; then
	t_pass "bench-report: ratios of medians to the floor and to stock (pin 1.10x / 0.55x, stock 2.00x)"
else
	t_fail "bench-report: ratios to the floor and to stock" "$k"
fi
c=$(grep -A1 '^user_cache_best_ns' <<<"$out")
if grep -q 'fl 1.00\[' <<<"$c" && ! grep -q 'fl 1.00\*' <<<"$c" &&
	grep -q 'fl 1.10\*\[' <<<"$c"; then
	t_pass "bench-report: one slow boot neither makes nor hides a difference"
else
	t_fail "bench-report: one slow boot" "$c"
fi
if grep -q 'st 0.90\*' <<<"$out" && [[ -s "$tmp/bench.png" ]]; then
	t_pass "bench-report: throughput ratio (pin 0.90x of stock) and the plot"
else
	t_fail "bench-report: throughput ratio and the plot" "$(tail -n 4 <<<"$out")"
fi
printf 'stock\npin\n' >"$tmp/variants"
t_expect_error "bench-report: a run without the floor" "no variant 'nokmem'" \
	scripts/bench-report.py "$tmp"
