#!/usr/bin/env bash
# List the tree paths a git-format patch touches (old and new names).
# Usage: patch-files.sh PATCH...
set -euo pipefail
. "$(dirname "$0")/lib.sh"

[[ $# -gt 0 ]] || die "usage: ${0##*/} PATCH..."
for p in "$@"; do
	[[ -f "$p" ]] || die "no such patch: $p"
	sed -n -e 's|^--- a/\(.*\)$|\1|p' -e 's|^+++ b/\(.*\)$|\1|p' "$p"
done | sort -u
