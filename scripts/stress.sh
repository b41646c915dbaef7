#!/usr/bin/env bash
# make stress: the long reliability run. For each memcg_slab policy, one
# guest of VARIANT runs guest/jobs/stress.sh for SECONDS; its figures and
# verdicts go to results/<date>-stress/<policy>/ and summary.txt.
# Usage: stress.sh VARIANT "POLICY..." SECONDS SIZE
set -euo pipefail
. "$(dirname "$0")/lib.sh"

[[ $# -eq 4 ]] || die "usage: ${0##*/} VARIANT \"POLICY...\" SECONDS SIZE"
variant=$1 policies=$2 seconds=$3 size=$4
check_variant "$variant"
check_uint STRESS_SECONDS "$seconds"
check_uint STRESS_SIZE "$size"
((seconds >= 10)) || die "STRESS_SECONDS must be at least 10, got $seconds"
((size >= 1 && size <= 8)) || die "STRESS_SIZE must be 1..8, got $size"
[[ -n "${policies// /}" ]] || die "POLICIES is empty (shared pin reparent donate)"
for p in $policies; do
	case "$p" in
	shared | pin | reparent | donate) ;;
	*) die "unknown policy '$p' in POLICIES (shared, pin, reparent or donate)" ;;
	esac
done
[[ "$variant" != stock || "$policies" == shared ]] ||
	die "the stock kernel has no memcg_slab=; use POLICIES=shared with VARIANT=stock"

note "building what is missing (kernel $variant, initramfs)"
"$LAB_ROOT/scripts/kernel-build.sh" "$variant" >/dev/null
"$LAB_ROOT/scripts/initramfs-build.sh" >/dev/null

res=$LAB_ROOT/results/$(date +%Y%m%d-%H%M%S)-stress
mkdir -p "$res"
summary=$res/summary.txt
{
	echo "make stress: VARIANT=$variant POLICIES=\"$policies\" STRESS_SECONDS=$seconds STRESS_SIZE=$size"
	echo "kernel: $variant, $(wc -l <"$LAB_BUILD/$variant/src/.lab-patches") patches, lab $(git -C "$LAB_ROOT" describe --always --dirty)"
} >"$summary"
bad=0
for p in $policies; do
	note "memcg_slab=$p: ${seconds} s of stress on $variant (size $size), then cleanup and kmemleak scans; console: $res/$p/console.log"
	t0=$SECONDS
	"$LAB_ROOT/scripts/stress-guest.sh" "$variant" "$p" "$seconds" "$size" "$res/$p" || true
	{
		echo
		echo "== memcg_slab=$p ($((SECONDS - t0)) s wall)"
		"$LAB_ROOT/scripts/stress-judge.sh" "$res/$p" "$p" || true
	} | tee -a "$summary"
	grep -q '^ok' "$res/$p/checks.txt" 2>/dev/null && ! grep -q '^FAIL' "$res/$p/checks.txt" || bad=1
done
echo
dirs=()
for p in $policies; do
	dirs+=("$res/$p")
done
"$LAB_ROOT/scripts/stress-table.py" "${dirs[@]}" | tee "$res/table.md"
echo
echo "summary: $summary (table: $res/table.md)"
((bad == 0)) || die "a stress check failed (see above)"
