#!/usr/bin/env bash
# Build the three kernels, their guest modules and the initramfs; the
# guest tests that follow need all of it. Without the whole-tree sparse
# pass (LAB_SPARSE=0): tests/host/40-lint.sh runs sparse on every file the
# series touches, stock against series, and that is what gates.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
cd "$LAB_ROOT"

for v in stock series debug; do
	t0=$SECONDS
	if LAB_SPARSE=0 scripts/kernel-build.sh "$v" && scripts/modules-build.sh "$v"; then
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
