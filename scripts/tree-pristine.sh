#!/usr/bin/env bash
# Extract Debian's linux-source-6.1 tarball once into build/pristine/.
# Usage: tree-pristine.sh   (prints the pristine tree's path)
set -euo pipefail
. "$(dirname "$0")/lib.sh"

[[ -f "$LAB_TARBALL" ]] || die "$LAB_TARBALL is missing (run 'make deps')"

pristine=$LAB_BUILD/pristine
stamp=$pristine/.lab-extracted
want="$(stat -c '%s %Y' "$LAB_TARBALL") $(installed_srcpkg_version)"

if [[ ! -f "$stamp" || "$(cat "$stamp")" != "$want" ]]; then
	note "extracting $LAB_TARBALL into $pristine"
	rm -rf "$pristine"
	mkdir -p "$pristine"
	tar -xf "$LAB_TARBALL" -C "$pristine" --strip-components=1
	# Read-only, so that nothing ever edits the reference copy by mistake.
	chmod -R a-w "$pristine"
	chmod u+w "$pristine"
	echo "$want" >"$stamp"
fi
echo "$pristine"
