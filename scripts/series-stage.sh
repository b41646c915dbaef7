#!/usr/bin/env bash
# Apply the first N patches of the series, with fuzz 0, to copies of just
# the files they touch, in STAGING (created, must not exist).
# Usage: series-stage.sh STAGING N
set -euo pipefail
. "$(dirname "$0")/lib.sh"

[[ $# -eq 2 ]] || die "usage: ${0##*/} STAGING N"
staging=$1
count=$2
check_uint N "$count"
[[ ! -e "$staging" ]] || die "$staging exists already"

pristine=$("$LAB_ROOT/scripts/tree-pristine.sh")
mapfile -t all < <(series_patches)
((count <= ${#all[@]})) ||
	die "PATCHES=$count but series/series lists only ${#all[@]} patches"
patches=("${all[@]:0:count}")

mkdir -p "$staging"
((count > 0)) || exit 0
while IFS= read -r f; do
	if [[ -e "$pristine/$f" ]]; then
		mkdir -p "$staging/$(dirname "$f")"
		cp -p "$pristine/$f" "$staging/$f"
	fi
done < <("$LAB_ROOT/scripts/patch-files.sh" "${patches[@]}")
for p in "${patches[@]}"; do
	if ! out=$(patch -d "$staging" -p1 --fuzz=0 --forward --batch \
			--no-backup-if-mismatch <"$p" 2>&1); then
		echo "$out" >&2
		die "patch ${p##*/} does not apply with fuzz 0 (after the patches before it in series/series)"
	fi
done
