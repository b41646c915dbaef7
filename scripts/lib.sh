# Shared helpers for the lab's host scripts; sourced, never run.
# shellcheck shell=bash

LAB_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
LAB_BUILD=${LAB_BUILD:-$LAB_ROOT/build}
LAB_TARBALL=${LAB_TARBALL:-/usr/src/linux-source-6.1.tar.xz}
LAB_SRCPKG=linux-source-6.1
# The tests point this at a scratch copy to prove that bad patches are caught.
LAB_SERIES=${LAB_SERIES:-$LAB_ROOT/series}
LAB_VARIANTS=(stock series debug)

die() {
	echo "${0##*/}: error: $*" >&2
	exit 1
}

note() {
	echo "${0##*/}: $*" >&2
}

# check_variant NAME: exit with a clear error unless NAME is a known variant.
check_variant() {
	local v
	for v in "${LAB_VARIANTS[@]}"; do
		[[ "$1" == "$v" ]] && return 0
	done
	die "unknown VARIANT '$1' (expected one of: ${LAB_VARIANTS[*]})"
}

# is_uint TEXT: TEXT is a non-negative decimal integer.
is_uint() {
	[[ "$1" =~ ^[0-9]+$ ]]
}

# check_uint NAME VALUE: VALUE must be a non-negative decimal integer.
check_uint() {
	is_uint "$2" || die "$1 must be a non-negative integer, got '$2'"
}

# figure_of KEY FILE...: the value of the last "KEY=value" line in the
# FILEs (guest/lab-results.sh's figures.txt format); nothing if none, or
# if a FILE is missing.
figure_of() {
	local key=$1
	shift
	{ cat "$@" 2>/dev/null || true; } | sed -n "s/^$key=//p" | tail -n 1
}

# series_patches: the patch files named by series/series, in order.
series_patches() {
	local line
	while IFS= read -r line || [[ -n "$line" ]]; do
		line=${line%%#*}
		line=${line//[[:space:]]/}
		[[ -n "$line" ]] || continue
		[[ -f "$LAB_SERIES/$line" ]] ||
			die "$LAB_SERIES/series names '$line', which is not there"
		echo "$LAB_SERIES/$line"
	done <"$LAB_SERIES/series"
}

# build_conditions KERNEL...: the info.txt lines that say what was run:
# the series' hash, the lab commit and each built kernel's config hash
# (scripts/run-conditions.sh reads them back for plot titles).
build_conditions() {
	local k
	echo "series sha256 (patch files in series order): $(series_patches | xargs cat | sha256sum | cut -c1-12)"
	echo "lab commit: $(git -C "$LAB_ROOT" describe --always --dirty 2>/dev/null || echo unknown)"
	for k in "$@"; do
		echo "$k kernel .config sha256: $(sha256sum <"$LAB_BUILD/$k/src/.config" | cut -c1-12)"
	done
}

installed_srcpkg_version() {
	dpkg-query -W -f='${Version}' "$LAB_SRCPKG" 2>/dev/null || true
}

# plot_inputs FIGURE WHAT ARGS...: the shared start of the plot scripts.
# ARGS must be one RUN_DIR with a raw.csv; sets run, labels (the
# variants) and reps (the repetitions); if raw.csv has no FIGURE (say
# "r0.nr_dying_descendants"), says there are no WHAT figures and exits 0.
plot_inputs() {
	local figure=$1 what=$2
	shift 2
	[[ $# -eq 1 && -f "$1/raw.csv" ]] || die "usage: ${0##*/} RUN_DIR (with raw.csv)"
	run=$1
	if ! grep -qF ",$figure," "$run/raw.csv"; then
		note "no $what figures in $run: nothing to plot"
		exit 0
	fi
	mapfile -t labels <"$run/variants"
	reps=$(awk -F, 'NR > 1 { r[$2] = 1 } END { print length(r) }' "$run/raw.csv")
}
