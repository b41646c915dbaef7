#!/usr/bin/env bash
# make lint: checkpatch --strict and sparse for every patch of the series.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

# Under make check (LAB_PREBUILT=1) lint runs beside guests that boot
# these kernels: it must not rebuild them or copy their bzImage again.
if [[ "${LAB_PREBUILT:-0}" != 1 ]]; then
	"$LAB_ROOT/scripts/kernel-build.sh" stock >/dev/null
	"$LAB_ROOT/scripts/kernel-build.sh" series >/dev/null
fi
rc=0
"$LAB_ROOT/scripts/lint-checkpatch.sh" || rc=1
"$LAB_ROOT/scripts/lint-sparse.sh" || rc=1
if ((rc == 0)); then
	echo "lint: clean"
else
	echo "lint: FAILED"
fi
exit "$rc"
