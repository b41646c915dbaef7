#!/usr/bin/env bash
# Build the three kernels (sparse-checked), their guest modules and the
# initramfs.
# The guest tests that follow need all of it.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
cd "$LAB_ROOT"

for v in stock series debug; do
	t0=$SECONDS
	if scripts/kernel-build.sh "$v" && scripts/modules-build.sh "$v"; then
		t_pass "build: $v kernel and guest modules ($((SECONDS - t0)) s)"
	else
		t_fail "build: $v kernel and guest modules" "see build/$v/build.log"
	fi
done
if make -s initramfs; then
	t_pass "build: initramfs"
else
	t_fail "build: initramfs"
fi
