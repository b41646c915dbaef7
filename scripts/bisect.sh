#!/usr/bin/env bash
# make bisect: every prefix of the series must build on its own.
# Uses one tree, build/bisect, brought forward a patch at a time.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

mapfile -t all < <(series_patches)
((${#all[@]} > 0)) || { echo "bisect: the series is empty"; exit 0; }
for ((n = 1; n <= ${#all[@]}; n++)); do
	echo "bisect: building the first $n of ${#all[@]} patches (${all[n - 1]##*/})"
	if ! "$LAB_ROOT/scripts/kernel-build.sh" series "$n" "$LAB_BUILD/bisect" >/dev/null; then
		echo "bisect: FAILED at ${all[n - 1]##*/}"
		exit 1
	fi
done
echo "bisect: all ${#all[@]} prefixes build"
