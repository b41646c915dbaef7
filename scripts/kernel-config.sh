#!/usr/bin/env bash
# Configure a tree: tinyconfig, merged with the fragments, then checked.
# Reconfigures only when a fragment changed.
# Usage: kernel-config.sh TREE FRAGMENT...
set -euo pipefail
. "$(dirname "$0")/lib.sh"

[[ $# -ge 2 ]] || die "usage: ${0##*/} TREE FRAGMENT..."
tree=$1
shift
frags=()
for f in "$@"; do
	[[ -f "$f" ]] || die "no such config fragment: $f"
	frags+=("$(realpath "$f")")
done

stamp=$tree/.lab-config-hash
hash=$(cat "${frags[@]}" | sha256sum | cut -d' ' -f1)
if [[ -f "$tree/.config" && -f "$stamp" && "$(cat "$stamp")" == "$hash" ]]; then
	exit 0
fi

note "configuring $tree from ${frags[*]##*/}"
rm -f "$stamp"
# Keep the old .config's timestamp meaning: kbuild re-syncs only the
# symbols whose value differs.
log=$tree/.lab-config.log
if ! { make -s -C "$tree" tinyconfig &&
	(cd "$tree" && ./scripts/kconfig/merge_config.sh -m .config "${frags[@]}") &&
	make -s -C "$tree" olddefconfig; } >"$log" 2>&1; then
	cat "$log" >&2
	die "configuring $tree failed"
fi

# No silent fallback: every symbol asked for must have the value asked for.
bad=0
while IFS= read -r line; do
	case "$line" in
	CONFIG_*=n)
		sym=${line%%=*}
		if grep -q "^$sym=" "$tree/.config"; then
			echo "  $line asked, got: $(grep "^$sym=" "$tree/.config")" >&2
			bad=1
		fi
		;;
	CONFIG_*=*)
		if ! grep -qxF "$line" "$tree/.config"; then
			sym=${line%%=*}
			got=$(grep -E "^($sym=|# $sym is not set)" "$tree/.config" || echo "absent")
			echo "  $line asked, got: $got" >&2
			bad=1
		fi
		;;
	esac
done < <(cat "${frags[@]}")
((bad == 0)) || die "the fragments ask for values Kconfig did not accept (dependencies missing?)"
echo "$hash" >"$stamp"
