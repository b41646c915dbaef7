#!/usr/bin/env bash
# checkpatch.pl --strict on every patch of the series: 0 errors, 0 warnings,
# 0 checks, except the types series/checkpatch-exceptions accepts per patch.
# Usage: lint-checkpatch.sh [PATCH...]   (default: the series; exit 1 if any
# patch is not clean)
set -euo pipefail
. "$(dirname "$0")/lib.sh"

pristine=$("$LAB_ROOT/scripts/tree-pristine.sh")
exceptions=$LAB_ROOT/series/checkpatch-exceptions
bad=0
while IFS= read -r p; do
	name=${p##*/}
	ignore=()
	if [[ -f "$exceptions" ]]; then
		while read -r file type reason; do
			[[ -z "$file" || "$file" == \#* ]] && continue
			[[ -n "$reason" ]] || die "$exceptions: '$file $type' has no reason"
			[[ "$file" == "$name" ]] && ignore+=(--ignore "$type")
		done <"$exceptions"
	fi
	# The upstream commit ids we cite are in no tree here: without GIT_DIR
	# checkpatch would look them up in the lab's own repository.
	out=$(cd "$pristine" && GIT_DIR=/nonexistent perl scripts/checkpatch.pl \
		--strict --show-types "${ignore[@]}" "$p" 2>&1) || true
	total=$(sed -n 's/^total: //p' <<<"$out")
	if [[ "$total" == "0 errors, 0 warnings, 0 checks"* ]]; then
		echo "checkpatch: $name: clean"
	else
		echo "checkpatch: $name: ${total:-checkpatch did not report}"
		echo "$out" | sed 's/^/  /'
		bad=1
	fi
done < <(if [[ $# -gt 0 ]]; then printf '%s\n' "$@"; else series_patches; fi)
exit "$bad"
