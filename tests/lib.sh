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

# vm_run NAME KERNEL JOB [run-vm.sh options...]: boot build/KERNEL/bzImage
# with the base initramfs and run the guest job JOB; the run's files go to
# $LAB_CHECK_OUT/NAME. Sets VM_OUT (that directory), VM_RC (run-vm.sh's
# exit: 0 passed, 1 the job failed, 2 died or hung, 3 kernel splat) and
# VM_VERDICT (its one-line verdict). Never fails the calling script.
vm_run() {
	local name=$1 kernel=$2 job=$3
	shift 3
	VM_OUT=$LAB_CHECK_OUT/$name
	set +e
	"$LAB_ROOT/vm-runner/run-vm.sh" -k "$LAB_BUILD/$kernel/bzImage" \
		-i "$LAB_BUILD/initramfs.cpio" -j "$job" -o "$VM_OUT" "$@" \
		</dev/null >"$VM_OUT.run-vm.log" 2>&1
	VM_RC=$?
	set -e
	VM_VERDICT=$(cat "$VM_OUT/verdict" 2>/dev/null || echo "no verdict")
	# A boot retried after it stalled before init (run-vm.sh) is said
	# here and listed again at the end of make check.
	if [[ "$VM_VERDICT" == *"stalled before init"* ]]; then
		echo "# $name: $VM_VERDICT"
	fi
	# A hung guest's stacks (run-vm asked for them) are the only clue.
	if [[ "$VM_VERDICT" == hung:* ]]; then
		echo "# $name: $VM_VERDICT; its stacks (all in $VM_OUT.run-vm.log):"
		if grep -aq '^  ? ' "$VM_OUT.run-vm.log"; then
			grep -a '^  ? ' "$VM_OUT.run-vm.log" | head -n 100 | sed 's/^/#/' || true
		else
			grep -a '^  | ' "$VM_OUT.run-vm.log" | sed 's/^/#/' || true
		fi
	fi
}

# vm_tap [NAME]: "name pass|fail|skip" for each test in the run's
# results/NAME.tap, or in every results/*.tap (guest/lab-results.sh).
vm_tap() {
	local f
	# shellcheck disable=SC2231 # NAME is one word; without it, a glob
	for f in "$VM_OUT"/results/${1:-*}.tap; do
		tap_results "$f"
	done
}

# vm_figure KEY: the figure KEY of the run (results/figures.txt, the last
# "KEY=value" line), or "none" if the guest did not record it.
vm_figure() {
	local v
	v=$(figure_of "$1" "$VM_OUT/results/figures.txt")
	echo "${v:-none}"
}

# vm_figures: every figure of the run, indented, for the reader of the log.
vm_figures() {
	sed 's/^/    /' "$VM_OUT/results/figures.txt" 2>/dev/null || true
}

# scenario_failure LOG: what a failed scripts/run-scenario.sh run said:
# run-vm's verdict, the header line of each splat and the first splat
# whole (its RIP and call trace, where the console's tail of a long stall
# report shows only registers), and the scenario's last line.
scenario_failure() {
	grep -a -A 70 '^run-vm: ' "$1" | grep -a -v '^  | ' | head -n 70 || true
	tail -n 1 "$1"
}

# tap_results FILE: "name pass|fail|skip" for each test in the TAP or KTAP
# file FILE, the first report of each test number only (forked children
# may repeat lines); nothing if FILE is missing.
tap_results() {
	[[ -f "$1" ]] || return 0
	tr -d '\r' <"$1" | awk '
		/^ *(not )?ok [0-9]+ / {
			sub(/^ */, "")
			res = ($1 == "not") ? "fail" : "pass"
			n = (res == "fail") ? $3 : $2
			if (seen[n]++) next
			name = $0
			sub(/^(not )?ok [0-9]+ (- )?/, "", name)
			if (name ~ /^# SKIP /) {
				res = "skip"; sub(/^# SKIP /, "", name)
			} else if (name ~ / # SKIP/) {
				res = "skip"; sub(/ *# SKIP.*/, "", name)
			}
			# A test name is one word; what follows is a reason.
			sub(/ .*/, "", name)
			print name, res
		}'
}
