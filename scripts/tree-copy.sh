#!/usr/bin/env bash
# Copy the pristine tree to DEST (which must not exist), writable, with
# timestamps kept so that kbuild sees unchanged files as unchanged.
# Usage: tree-copy.sh DEST
set -euo pipefail
. "$(dirname "$0")/lib.sh"

[[ $# -eq 1 ]] || die "usage: ${0##*/} DEST"
dest=$1
[[ ! -e "$dest" ]] || die "$dest exists already"
pristine=$("$LAB_ROOT/scripts/tree-pristine.sh")
note "copying the pristine tree to $dest"
mkdir -p "$(dirname "$dest")"
cp -a "$pristine" "$dest"
chmod -R u+w "$dest"
rm -f "$dest/.lab-extracted"
