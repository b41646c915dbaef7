# Helpers for the test scripts that scripts/check.sh runs; sourced.
# shellcheck shell=bash
. "$(dirname "${BASH_SOURCE[0]}")/../scripts/lib.sh"

# Each result is one line in $LAB_CHECK_RESULTS: "pass|fail|skip<TAB>name<TAB>detail".
: "${LAB_CHECK_RESULTS:?run the tests through scripts/check.sh}"

t_result() {
	printf '%s\t%s\t%s\n' "$1" "$2" "${3:-}" >>"$LAB_CHECK_RESULTS"
	case "$1" in
	pass) echo "  PASS  $2" ;;
	fail) echo "  FAIL  $2${3:+: $3}" ;;
	skip) echo "  SKIP  $2${3:+: $3}" ;;
	esac
}
t_pass() { t_result pass "$1"; }
t_fail() { t_result fail "$1" "${2:-}"; }
t_skip() { t_result skip "$1" "${2:-}"; }

# t_promise NAME RESULT PROMISE: a test RESULT (pass|fail) held against
# what the kernel's setting PROMISES for it; a promised failure is a
# control that shows the test can fail.
t_promise() {
	if [[ "$2" != "$3" ]]; then
		t_fail "$1" "${2}ed, the policy promises $3"
	elif [[ "$2" == pass ]]; then
		t_pass "$1 passes"
	else
		t_pass "$1 fails (control)"
	fi
}

# t_expect_error NAME PATTERN CMD...: CMD must fail and say PATTERN on stderr.
t_expect_error() {
	local name=$1 pattern=$2 err rc
	shift 2
	set +e
	err=$("$@" 2>&1)
	rc=$?
	set -e
	if ((rc == 0)); then
		t_fail "$name" "succeeded, an error was expected"
	elif ! grep -q -- "$pattern" <<<"$err"; then
		t_fail "$name" "exit $rc but no '$pattern' in: $(tail -n 2 <<<"$err")"
	else
		t_pass "$name"
	fi
}
