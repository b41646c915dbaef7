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
mkdir -p "$dest"
# "$pristine/." copies the tree's contents even when build/pristine is a
# symbolic link, where copying the link itself would hand DEST the
# reference tree to patch, and the stamp below to delete.
cp -a "$pristine/." "$dest"
chmod -R u+w "$dest"
rm -f "$dest/.lab-extracted"
