#!/usr/bin/env bash
# make check: the lab's test suite. Runs every test script under tests/
# (host tests first, then guest tests), then prints one closing line:
# "N passed, N failed, N skipped". Exit 1 if anything failed.
# T='vm/55* host/10*' (globs relative to tests/) runs only the matching
# scripts, after host/30-build.sh, which builds what the guest tests boot.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

all=("$LAB_ROOT"/tests/host/*.sh "$LAB_ROOT"/tests/vm/*.sh)
scripts=()
if [[ -n "${T:-}" ]]; then
	build=$LAB_ROOT/tests/host/30-build.sh
	for t in "${all[@]}"; do
		name=${t#"$LAB_ROOT"/tests/}
		for pat in $T; do
			# shellcheck disable=SC2053 # the pattern is a glob on purpose
			if [[ "$name" == $pat ]]; then
				scripts+=("$t")
				break
			fi
		done
	done
	((${#scripts[@]} > 0)) || die "T='$T' matches no test script under tests/ (host/NN-*.sh, vm/NN-*.sh)"
	[[ " ${scripts[*]} " == *" $build "* ]] || scripts=("$build" "${scripts[@]}")
else
	scripts=("${all[@]}")
fi

results=$(mktemp "${TMPDIR:-/tmp}/lab-check.XXXXXX")
trap 'rm -f "$results"' EXIT
export LAB_CHECK_RESULTS=$results
export LAB_CHECK_OUT=$LAB_BUILD/check
mkdir -p "$LAB_CHECK_OUT"

start=$SECONDS
for t in "${scripts[@]}"; do
	name=${t#"$LAB_ROOT"/tests/}
	echo "== $name"
	t0=$SECONDS
	if ! bash "$t"; then
		printf 'fail\t%s\t%s\n' "$name" "the test script itself failed" >>"$results"
		echo "  FAIL  $name: the test script itself failed"
	fi
	echo "   ($((SECONDS - t0)) s)"
done

pass=$(grep -c '^pass' "$results" || true)
fail=$(grep -c '^fail' "$results" || true)
skip=$(grep -c '^skip' "$results" || true)
echo
if ((fail > 0)); then
	echo "Failed:"
	awk -F'\t' '$1 == "fail" { print "  " $2 ": " $3 }' "$results"
fi
if ((skip > 0)); then
	echo "Skipped:"
	awk -F'\t' '$1 == "skip" { print "  " $2 ": " $3 }' "$results"
fi
echo "make check took $((SECONDS - start)) s"
echo "$pass passed, $fail failed, $skip skipped"
((fail == 0))
