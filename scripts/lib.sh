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

installed_srcpkg_version() {
	dpkg-query -W -f='${Version}' "$LAB_SRCPKG" 2>/dev/null || true
}
