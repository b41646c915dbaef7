#!/usr/bin/env bash
# Bring a build tree to pristine + the first N patches of series/series.
# Only files whose content changes are rewritten, so kbuild rebuilds only
# what the edit touched.
# Usage: tree-apply.sh TREE N
set -euo pipefail
. "$(dirname "$0")/lib.sh"

[[ $# -eq 2 ]] || die "usage: ${0##*/} TREE N"
tree=$1
count=$2
check_uint N "$count"

pristine=$("$LAB_ROOT/scripts/tree-pristine.sh")
tmp=$(mktemp -d "${TMPDIR:-/tmp}/lab-staging.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
staging=$tmp/tree
"$LAB_ROOT/scripts/series-stage.sh" "$staging" "$count"
mapfile -t all < <(series_patches)
patches=("${all[@]:0:count}")
touched=()
if ((count > 0)); then
	mapfile -t touched < <("$LAB_ROOT/scripts/patch-files.sh" "${patches[@]}")
fi

if [[ ! -f "$tree/.lab-tree" ]]; then
	rm -rf "$tree"
	"$LAB_ROOT/scripts/tree-copy.sh" "$tree"
	: >"$tree/.lab-touched"
	echo "tree" >"$tree/.lab-tree"
fi

# Sync the tree: every file touched now or by the previous application.
mapfile -t before <"$tree/.lab-touched"
changed=0
while IFS= read -r f; do
	[[ -n "$f" ]] || continue
	if [[ -e "$staging/$f" ]]; then
		want=$staging/$f
	elif [[ -e "$pristine/$f" ]]; then
		want=$pristine/$f
	else
		want=
	fi
	if [[ -z "$want" ]]; then
		if [[ -e "$tree/$f" ]]; then
			rm -f "$tree/$f"
			changed=$((changed + 1))
		fi
	elif ! cmp -s "$want" "$tree/$f"; then
		mkdir -p "$tree/$(dirname "$f")"
		rm -f "$tree/$f"
		cp "$want" "$tree/$f"
		chmod u+w "$tree/$f"
		changed=$((changed + 1))
	fi
done < <(printf '%s\n' "${touched[@]}" "${before[@]}" | sort -u)
printf '%s\n' "${touched[@]}" | sed '/^$/d' >"$tree/.lab-touched"
printf '%s\n' "${patches[@]##*/}" | sed '/^$/d' >"$tree/.lab-patches"
note "$tree: ${#patches[@]} patches applied, $changed files changed since the last build"
