#!/usr/bin/env bash
# Write the commits base..HEAD of build/patchwork back into series/, in
# git format-patch form. The Nth commit keeps the file name the Nth line
# of series/series gives it; commits beyond the list get format-patch's
# name and are appended to series/series.
# Usage: series-export.sh
set -euo pipefail
. "$(dirname "$0")/lib.sh"

ws=$LAB_BUILD/patchwork
[[ -d "$ws/.git" ]] || die "no workspace at $ws (scripts/series-workspace.sh)"
[[ -z "$(git -C "$ws" status --porcelain)" ]] || die "$ws has uncommitted changes"
mapfile -t names < <(series_patches | sed 's|.*/||')
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
git -C "$ws" format-patch -q --zero-commit --no-signature -o "$tmp" base
i=0
for p in "$tmp"/*.patch; do
	if ((i < ${#names[@]})); then
		name=${names[i]}
	else
		name=${p##*/}
		echo "$name" >>"$LAB_SERIES/series"
	fi
	cp "$p" "$LAB_SERIES/$name"
	i=$((i + 1))
done
((i >= ${#names[@]})) || note "warning: series/series lists ${#names[@]} patches, the workspace has $i"
note "exported $i patches into $LAB_SERIES"
