#!/usr/bin/env bash
# Build the in-guest modules of mm-tests/modules against a built variant.
# Usage: modules-build.sh VARIANT   (modules land in build/<variant>/modules/)
set -euo pipefail
. "$(dirname "$0")/lib.sh"

[[ $# -eq 1 ]] || die "usage: ${0##*/} VARIANT"
check_variant "$1"
tree=$LAB_BUILD/$1/src
[[ -f "$tree/Module.symvers" ]] || die "$1 is not built yet (make kernel VARIANT=$1)"
dir=$LAB_BUILD/$1/modules
mkdir -p "$dir"
# Copy only what changed, so that make rebuilds only what changed.
for f in "$LAB_ROOT"/mm-tests/modules/*.[ch] "$LAB_ROOT"/mm-tests/modules/Kbuild; do
	cmp -s "$f" "$dir/${f##*/}" || cp "$f" "$dir/"
done
export CCACHE_BASEDIR=$LAB_BUILD CCACHE_NOHASHDIR=1
log=$dir/build.log
# Modules that need the series' slab internals (see mm-tests/modules/Kbuild)
series_mods=
grep -qx 'CONFIG_MEMCG_SLAB_CHILDREN=y' "$tree/.config" && series_mods=m
if ! make -C "$tree" M="$dir" CC="ccache gcc" C=1 LAB_SERIES_MODS="$series_mods" \
	modules >"$log" 2>&1; then
	cat "$log" >&2
	die "building the guest modules against $1 failed"
fi
if grep -E ': (warning|error):' "$log" >&2; then
	die "the guest modules have compiler or sparse warnings (see $log)"
fi
