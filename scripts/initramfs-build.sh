#!/usr/bin/env bash
# Build the guests' base initramfs, build/initramfs.cpio: the mm-tests
# programs (against the tree's kselftest.h), the cgroup kselftests,
# busybox and the guest side of the lab (guest/). make initramfs,
# make run and make stress call it; it rebuilds only what changed.
# Usage: initramfs-build.sh
set -euo pipefail
. "$(dirname "$0")/lib.sh"

[[ $# -eq 0 ]] || die "usage: ${0##*/} (no arguments)"
ksft=$("$LAB_ROOT/scripts/tree-pristine.sh")/tools/testing/selftests
make -s -C "$LAB_ROOT/mm-tests" OUT="$LAB_BUILD/mm-tests" KSFT_DIR="$ksft"
"$LAB_ROOT/scripts/kselftests-build.sh" "$LAB_BUILD/kselftests"
"$LAB_ROOT/vm-runner/mkinitramfs.sh" "$LAB_BUILD/initramfs.cpio" "$LAB_BUILD/mm-tests" "$LAB_BUILD/kselftests"
