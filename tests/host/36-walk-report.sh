#!/usr/bin/env bash
# scripts/walk-report.py: the pairs and their ratios to the floor and to
# stock follow from the counts of a made-up walk (floor 100+50 = 150,
# stock 300+150 = 450, pin 180+90 = 270: 1.80x the floor, 0.60x stock),
# and a walk without its counts, or with a call missing, is refused by
# name; plot-findings.sh draws the README's summary figure from a walk
# and a donate run, and refuses a run without its figure. A batch walk
# (walk-fastpath.sh -b) reports means per call and per function, and a
# batch out of range is refused before anything boots. walk-tbcache.py
# counts the jump-cache misses of a traced path.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
cd "$LAB_ROOT"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
{
	echo "variant,cgroup,call,instructions"
	for v in "nokmem 100 50 90 40" "stock 300 150 280 140" "pin 180 90 170 80"; do
		read -r l a f ca cf <<<"$v"
		for cg in root user; do
			echo "$l,$cg,kmalloc_trace,$a"
			echo "$l,$cg,kfree,$f"
			echo "$l,$cg,kmem_cache_alloc,$ca"
			echo "$l,$cg,kmem_cache_free,$cf"
		done
	done
} >"$tmp/walk.csv"
for l in nokmem stock pin; do
	for load in 1 2; do
		for c in kmalloc_trace kfree kmem_cache_alloc kmem_cache_free; do
			echo "$load $c 1 fn:1"
		done
	done >"$tmp/$l.steps"
done
name="walk-report: pairs and their ratios to the floor and to stock"
if out=$(scripts/walk-report.py "$tmp" 2>&1) &&
	grep -qE '^pin +user +180 +90 +270 +1\.80 +0\.60 +170 +80 +250 +1\.92 +0\.60$' <<<"$out" &&
	grep -qE '^stock +user +300 +150 +450 +3\.00 +1\.00 ' <<<"$out"; then
	t_pass "$name (pin 1.80x the floor, 0.60x stock)"
else
	t_fail "$name" "$(grep -E '^(pin|stock) +user' <<<"$out" || tail -n 2 <<<"$out")"
fi
# A batch walk: two user-cgroup kfree calls of 80 and 100 instructions,
# 70 of each in __kmem_cache_free, 0 and 20 in __slab_free
mkdir "$tmp/batch"
{
	echo "variant,cgroup,call,instructions"
	for cg in root user; do
		for c in kmalloc_trace,100 kfree,90 kmem_cache_alloc,100 kmem_cache_free,90; do
			echo "pin,$cg,$c"
		done
	done
} >"$tmp/batch/walk.csv"
{
	echo "2 kmalloc_trace 100 fn:100"
	echo "2 kfree 80 __kmem_cache_free:70,kfree:10"
	echo "2 kfree 100 __kmem_cache_free:70,__slab_free:20,kfree:10"
} >"$tmp/batch/pin.steps"
name="walk-report: a batch walk's means per call and per function"
out=$(scripts/walk-report.py "$tmp/batch" 2>&1) || true
if grep -qE '^  pin +kfree +90  __kmem_cache_free:70 kfree:10 __slab_free:10$' <<<"$out"; then
	t_pass "$name (90 a call, 10 of them in __slab_free)"
else
	t_fail "$name" "$(tail -n 3 <<<"$out")"
fi
# walk-tbcache.py: two blocks whose pcs share a jump-cache entry
# (0xffffffff81000000 and 0xffffffff81041000) evict each other on every
# run of the call, two misses; moved 64 bytes apart, none.
printf '%s\n' "2 kfree 0xffffffff81000000 kfree+0 jmp    0xffffffff81041000" \
	"2 kfree 0xffffffff81041000 x+0 ret" >"$tmp/clash.trace"
printf '%s\n' "2 kfree 0xffffffff81000000 kfree+0 jmp    0xffffffff81000040" \
	"2 kfree 0xffffffff81000040 x+0 ret" >"$tmp/apart.trace"
name="walk-tbcache: blocks that share a jump-cache entry miss, others do not"
if out=$(scripts/walk-tbcache.py "$tmp/clash.trace" "$tmp/apart.trace" 2>&1) &&
	grep -qE '^clash.trace +2 +kfree +2 +2$' <<<"$out" &&
	grep -qE '^apart.trace +2 +kfree +2 +0$' <<<"$out"; then
	t_pass "$name (2 and 0 misses)"
else
	t_fail "$name" "$out"
fi
t_expect_error "walk-tbcache: a file that is not a trace" "not a trace line" \
	scripts/walk-tbcache.py "$tmp/walk.csv"
t_expect_error "walk-fastpath: a batch out of range" "-b 1025: the batch must be" \
	scripts/walk-fastpath.sh -b 1025 nokmem
sed -i '/^pin,user,kfree,/d' "$tmp/walk.csv"
t_expect_error "walk-report: a walk with a call missing" "no 'kfree' for pin" \
	scripts/walk-report.py "$tmp"
t_expect_error "walk-report: a directory without a walk" "walk.csv" \
	scripts/walk-report.py "$tmp/none"
# The README's summary figure draws from the same counts and a donate
# run's raw data, and names what is missing.
printf 'variant,rep,metric,value\nstock,1,n0.slabfam_inode_pages,3671\npin,1,n0.slabfam_inode_pages,5165\npin,2,n0.slabfam_inode_pages,5120\n' >"$tmp/raw.csv"
echo "pin,user,kfree,90" >>"$tmp/walk.csv"
if scripts/plot-findings.sh "$tmp/walk.csv" "$tmp/raw.csv" "$tmp/findings.png" >/dev/null 2>&1 &&
	[[ -s "$tmp/findings.png" ]]; then
	t_pass "plot-findings: the summary figure from a walk and a donate run"
else
	t_fail "plot-findings: the summary figure from a walk and a donate run" "no $tmp/findings.png"
fi
t_expect_error "plot-findings: a donate run without the inode pages" "no n0.slabfam_inode_pages" \
	scripts/plot-findings.sh "$tmp/walk.csv" "$tmp/walk.csv" "$tmp/x.png"
