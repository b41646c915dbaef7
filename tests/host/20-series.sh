#!/usr/bin/env bash
# The series applies with fuzz 0, and a patch that does not is named.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
cd "$LAB_ROOT"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

mapfile -t all < <(series_patches)
if err=$(scripts/series-stage.sh "$tmp/stage" "${#all[@]}" 2>&1); then
	t_pass "series: all ${#all[@]} patches apply with fuzz 0"
else
	t_fail "series: all ${#all[@]} patches apply with fuzz 0" "$(tail -n 1 <<<"$err")"
fi

tested=$(cat series/tested-on)
have=$(installed_srcpkg_version)
if [[ "$tested" == "$have" ]]; then
	t_pass "series: tested on the installed $LAB_SRCPKG ($have)"
else
	t_skip "series: tested on the installed $LAB_SRCPKG" \
		"series/tested-on says $tested, this machine has ${have:-none}"
fi

# A copy of the series whose first patch needs fuzz: one context line of
# its first hunk is altered, so a fuzz-tolerant apply would still succeed.
if ((${#all[@]} > 0)); then
	mkdir "$tmp/series"
	cp series/* "$tmp/series/"
	first=$tmp/series/${all[0]##*/}
	awk '/^@@/ && !done { hunk = 1; print; next }
	     hunk && /^ / && !done { print " " substr($0, 2) " /* changed */"; done = 1; next }
	     { print }' "${all[0]}" >"$first"
	t_expect_error "series: a patch that needs fuzz stops the build and is named" \
		"${all[0]##*/} does not apply with fuzz 0" \
		env LAB_SERIES="$tmp/series" scripts/series-stage.sh "$tmp/bad" 1
else
	t_skip "series: a patch that needs fuzz is named" "the series is empty"
fi
