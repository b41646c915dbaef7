#!/usr/bin/env bash
# scripts/fastpath-account.py reads the built kernels: every default slab
# entry point is found in stock and series, each kernel's kmem_cache_alloc
# has static branches (JUMP_LABEL on: the parser found the jump table),
# a function neither kernel has is refused by name, and the slab hooks
# are inlined in series as in stock.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
cd "$LAB_ROOT"

base=$LAB_BUILD/stock/src/vmlinux new=$LAB_BUILD/series/src/vmlinux
if [[ ! -f "$base" || ! -f "$new" ]]; then
	t_fail "fastpath account: prerequisites" "$base or $new is missing (the build test failed?)"
	exit 0
fi
out=$LAB_CHECK_OUT/fastpath-account.txt
name="fastpath account: the slab entry points of stock and series, with their static branches"
if scripts/fastpath-account.py "$base" "$new" >"$out" 2>&1; then
	rows=$(awk 'NR > 3 && NF == 4 && $2 ~ /^[0-9]+->[0-9]+$/' "$out" | wc -l)
	br=$(awk '$1 == "kmem_cache_alloc" && NF == 4 { print $4 }' "$out")
	if [[ "$rows" == 7 && "$br" =~ ^[1-9][0-9]*-\>[1-9][0-9]*$ ]]; then
		t_pass "$name (kmem_cache_alloc: $(awk '$1 == "kmem_cache_alloc" && NF == 4 { print $2 " insns, " $4 " static branches" }' "$out"))"
		sed 's/^/    /' "$out"
	else
		t_fail "$name" "$rows of 7 rows found, kmem_cache_alloc static branches '$br' (see $out)"
	fi
else
	t_fail "$name" "the script failed: $(tail -n 1 "$out")"
fi
# With memcg_slab=shared the series may add only patched-out branches:
# the slab hooks it added branches to must stay inline (GCC 12 had made
# them calls on every allocation and free), as stock has them.
name="fastpath account: the series' slab hooks are inlined as in stock"
outlined=$(nm "$new" | awk '$2 ~ /^[tT]$/ && $3 ~ /^(slab_pre_alloc_hook|memcg_slab_pre_alloc_hook|memcg_slab_free_hook|cache_from_obj)(\.|$)/ { print $3 }' | tr '\n' ' ')
if [[ -z "$outlined" ]]; then
	t_pass "$name"
else
	t_fail "$name" "out of line in $new: $outlined"
fi
name="fastpath account: an unknown function is refused by name"
if ! scripts/fastpath-account.py "$base" "$new" no_such_function_xyz >"$out.bad" 2>&1 &&
	grep -q 'no such function in either kernel: no_such_function_xyz' "$out.bad"; then
	t_pass "$name"
else
	t_fail "$name" "$(tail -n 1 "$out.bad")"
fi
