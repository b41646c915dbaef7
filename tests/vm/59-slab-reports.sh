#!/usr/bin/env bash
# Destroying an accounted cache whose per-memcg child still holds an
# object (guest/jobs/slab-leak.sh with lab_slab_leak.ko) keeps the root,
# as kmem_cache_destroy() keeps any cache with objects left: the one
# kernel report is that function's warning, and on the debug kernel KASAN
# reports nothing about the later free. On the debug kernel a deliberate
# use-after-free of a kmalloc-cg object of a child (lab_kasan_uaf.ko) is
# reported with the object's allocation stack. Any other report fails.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
cd "$LAB_ROOT"

# The reports the job causes on purpose, as scan-splats.sh prints them.
expected='WARNING: .* kmem_cache_destroy\+|BUG: KASAN: use-after-free in lab_kasan_read'

# kasan_multi_shot: an earlier report must not hide the deliberate one.
for run in "series:memcg_slab=reparent:0" "debug:memcg_slab=donate preempt=full kasan_multi_shot:1"; do
	IFS=: read -r kernel append kasan <<<"$run"
	tag="slab reports ($kernel, $append)"
	mods=(-M "$LAB_BUILD/$kernel/modules/lab_slab_leak.ko")
	((kasan)) && mods+=(-M "$LAB_BUILD/$kernel/modules/lab_kasan_uaf.ko")
	vm_run "slab-reports-$kernel" "$kernel" guest/jobs/slab-leak.sh "${mods[@]}" \
		-e "KASAN_UAF=$kasan" -t 600 -m 512 -s 64 -a "$append slub_debug=FZPU"
	grep -a '^#' "$VM_OUT/results/slab-leak.tap" 2>/dev/null | sed 's/^/    /' || true
	splats=$(vm-runner/scan-splats.sh "$VM_OUT/console.log" || true)
	unexpected=$(grep -avE "$expected" <<<"$splats" | grep -a . || true)
	if ((VM_RC == 3)) && [[ -z "$unexpected" ]] &&
		grep -aqE 'kmem_cache_destroy\+' <<<"$splats"; then
		t_pass "$tag: only the expected reports ($(grep -ac . <<<"$splats") lines)"
	else
		t_fail "$tag: only the expected reports" \
			"$VM_VERDICT; unexpected: $(head -n 1 <<<"${unexpected:-none}")"
	fi
	while read -r name r; do
		case "$r" in
		pass) t_pass "$tag: $name" ;;
		skip) t_skip "$tag: $name" "the kernel has no KASAN" ;;
		*) t_fail "$tag: $name" "$r" ;;
		esac
	done < <(tap_results "$VM_OUT/results/slab-leak.tap")
	n=$(tap_results "$VM_OUT/results/slab-leak.tap" | wc -l)
	((n == 2)) || t_fail "$tag: results" "expected 2 test results, found $n"
done
