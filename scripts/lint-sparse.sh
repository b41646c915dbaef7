#!/usr/bin/env bash
# Sparse on the C files each patch touches, in the stock and the series
# tree: the series must not add warnings to any of them.
# Usage: lint-sparse.sh   (both variants must be built; exit 1 on growth)
set -euo pipefail
. "$(dirname "$0")/lib.sh"

for v in stock series; do
	[[ -f "$LAB_BUILD/$v/bzImage" ]] || die "$v is not built (make kernel VARIANT=$v)"
done

# sparse_warnings TREE FILE.c: sparse's diagnostics for one file, without
# line numbers (a patch moves lines).
sparse_warnings() {
	local tree=$1 obj=${2%.c}.o out
	if ! out=$(make -C "$tree" -s C=2 CC="ccache gcc" "$obj" 2>&1); then
		echo "$out" >&2
		die "sparse run on $2 in $tree failed"
	fi
	grep -E '^[^ ]+:[0-9]+:[0-9]+: (warning|error):' <<<"$out" |
		sed -E 's/:[0-9]+:[0-9]+:/:/' | sort || true
}

bad=0
while IFS= read -r p; do
	name=${p##*/}
	mapfile -t files < <("$LAB_ROOT/scripts/patch-files.sh" "$p" | grep '\.c$' || true)
	for f in "${files[@]}"; do
		[[ -f "$LAB_BUILD/series/src/$f" ]] || continue
		if [[ ! -f "$LAB_BUILD/series/src/${f%.c}.o" ]]; then
			echo "sparse: $name: $f is not compiled in the lab config; not checked"
			continue
		fi
		# A file the series adds has no stock warnings to compare with.
		old=
		if [[ -f "$LAB_BUILD/stock/src/$f" ]]; then
			old=$(sparse_warnings "$LAB_BUILD/stock/src" "$f")
		fi
		new=$(sparse_warnings "$LAB_BUILD/series/src" "$f")
		nold=$(grep -c . <<<"$old" || true)
		nnew=$(grep -c . <<<"$new" || true)
		if ((nnew > nold)); then
			echo "sparse: $name: $f: $nold warnings on stock, $nnew with the series; new:"
			diff <(echo "$old") <(echo "$new") | sed -n 's/^> /  /p'
			bad=1
		else
			echo "sparse: $name: $f: $nnew warnings (stock: $nold)"
		fi
	done
done < <(series_patches)
exit "$bad"
