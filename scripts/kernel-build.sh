#!/usr/bin/env bash
# Build one kernel variant: tree, config, compile through ccache, image at
# build/<variant>/bzImage.
# Usage: kernel-build.sh VARIANT [PATCHES] [OUTDIR]
#   VARIANT  stock (no patches), series (series/series applied) or debug
#            (the series with kconfig/debug.config: lockdep, DEBUG_VM)
#   PATCHES  for series and debug: apply only the first N patches
#            (default: all)
#   OUTDIR   default build/<variant>
# LAB_SPARSE=1 in the environment adds sparse on every file (C=1). The
# default is without: make lint and make check run sparse on every file
# the series touches, against stock (scripts/lint-sparse.sh), which is
# the check that gates; a whole-tree pass only doubles the build time of
# a kernel that is built to be run.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

[[ $# -ge 1 && $# -le 3 ]] || die "usage: ${0##*/} VARIANT [PATCHES] [OUTDIR]"
variant=$1
sparse=${LAB_SPARSE:-0}
[[ "$sparse" == 0 || "$sparse" == 1 ]] || die "LAB_SPARSE must be 0 or 1, not '$sparse'"
patches=${2:-}
out=${3:-$LAB_BUILD/$variant}
check_variant "$variant"

mapfile -t all < <(series_patches)
case "$variant" in
stock)
	[[ -z "$patches" || "$patches" == 0 ]] ||
		die "PATCHES=$patches makes no sense for VARIANT=stock"
	count=0
	;;
series | debug)
	count=${patches:-${#all[@]}}
	check_uint PATCHES "$count"
	tested=$(cat "$LAB_SERIES/tested-on")
	have=$(installed_srcpkg_version)
	if [[ "$have" != "$tested" ]]; then
		note "warning: the series was tested on $LAB_SRCPKG $tested; this machine has '${have:-none}'"
	fi
	;;
esac

tree=$out/src
"$LAB_ROOT/scripts/tree-apply.sh" "$tree" "$count"
frags=("$LAB_ROOT/kconfig/base.config")
# The series' own options exist once the patch that adds them is applied
# (a bisect builds shorter prefixes).
if grep -qx 'config MEMCG_SLAB_CHILDREN' "$tree/init/Kconfig"; then
	frags+=("$LAB_ROOT/kconfig/series.config")
fi
[[ "$variant" == debug ]] && frags+=("$LAB_ROOT/kconfig/debug.config")
"$LAB_ROOT/scripts/kernel-config.sh" "$tree" "${frags[@]}"

export CCACHE_BASEDIR=$LAB_BUILD
export CCACHE_NOHASHDIR=1
export CCACHE_SLOPPINESS=time_macros
jobs=$(nproc)
log=$out/build.log
how="with ccache, without a whole-tree sparse pass (LAB_SPARSE=1 adds it)"
((sparse)) && how="with C=1 (sparse on every file, LAB_SPARSE=1) and ccache"
note "building $variant ($count patches) $how, $jobs jobs; log: $log"
start=$SECONDS
set +e
make -C "$tree" -j"$jobs" C="$sparse" CC="ccache gcc" bzImage modules 2>&1 |
	tee "$log" |
	awk '/^  (CC|AS|LD|AR)[ ]/ { n++; if (n % 250 == 0) { printf "  ... %d objects\n", n; fflush() } }'
rc=${PIPESTATUS[0]}
set -e
if ((rc != 0)); then
	tail -n 30 "$log" >&2
	die "kernel build of $variant failed (see $log)"
fi

# Sparse prints "file:line:col: warning|error: ..." lines into the log.
grep -E '^[^ ]+:[0-9]+:[0-9]+: (warning|error):' "$log" >"$out/sparse-new.log" || true
cp "$tree/arch/x86/boot/bzImage" "$out/bzImage"
note "$variant: $out/bzImage ready in $((SECONDS - start)) s ($(wc -l <"$out/sparse-new.log") compiler/sparse diagnostics in files rebuilt this time)"
