#!/usr/bin/env bash
# Build the cgroup kselftests of the pristine tree, statically linked.
# Usage: kselftests-build.sh OUTDIR
set -euo pipefail
. "$(dirname "$0")/lib.sh"

[[ $# -eq 1 ]] || die "usage: ${0##*/} OUTDIR"
out=$(realpath -m "$1")
pristine=$("$LAB_ROOT/scripts/tree-pristine.sh")
mkdir -p "$out"
log=$out/build.log
# The series does not touch the selftests, so one build serves all variants.
if ! make -C "$pristine/tools/testing/selftests/cgroup" OUTPUT="$out" \
	LDFLAGS=-static >"$log" 2>&1; then
	cat "$log" >&2
	die "building the cgroup kselftests failed"
fi
for t in test_core test_kmem test_memcontrol; do
	[[ -x "$out/$t" ]] || die "kselftest $t was not built"
done
