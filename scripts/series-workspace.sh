#!/usr/bin/env bash
# Make build/patchwork: a git repository of the pristine tree with the
# series applied as commits (git am), for editing patches the usual way.
# Export the result back with scripts/series-export.sh.
# Usage: series-workspace.sh   (refuses to overwrite a workspace with work in it)
set -euo pipefail
. "$(dirname "$0")/lib.sh"

ws=$LAB_BUILD/patchwork
if [[ -d "$ws/.git" ]]; then
	[[ -z "$(git -C "$ws" status --porcelain)" ]] ||
		die "$ws has uncommitted changes; commit or remove them first"
	git -C "$ws" rev-parse -q --verify base >/dev/null || die "$ws has no 'base' tag"
	note "resetting $ws to base and re-applying the series"
	git -C "$ws" reset -q --hard base
else
	note "creating $ws (git add of the whole tree takes about half a minute)"
	"$LAB_ROOT/scripts/tree-copy.sh" "$ws"
	git -C "$ws" init -q
	git -C "$ws" config user.name dying-memcg-lab
	git -C "$ws" config user.email lab@dying-memcg-lab.invalid
	# Debian's tarball ignores everything at the top level; add by force.
	git -C "$ws" add -A -f
	git -C "$ws" commit -q -m "$LAB_SRCPKG $(installed_srcpkg_version) (Debian)"
	git -C "$ws" tag base
fi
mapfile -t patches < <(series_patches)
((${#patches[@]} == 0)) || git -C "$ws" am -q "${patches[@]}"
note "$ws: ${#patches[@]} patches applied as commits on top of tag 'base'"
