# The guest-to-host contract, sourced by the jobs (. lab-results.sh).
# A job leaves its results in /results, which the init streams to the host
# when the job ends (vm-runner/run-vm.sh unpacks it into OUTDIR/results):
#   /results/NAME.tap     KTAP, one file per test program;
#   /results/figures.txt  one "key=value" line per figure, keys
#                         [a-z0-9_]; the last line of a key counts.
# The host reads nothing else for results (tests/lib.sh: vm_tap,
# vm_figure); what a job prints on the console is for people.
# shellcheck shell=sh

# lab_figure KEY VALUE: record one figure, and show it on the console.
lab_figure() {
	echo "$1=$2" >>/results/figures.txt
	echo "# $1=$2"
}

# lab_figures_from PREFIX FILE: each "key value" line of FILE (debugfs,
# /proc/vmstat, a sampler's output) whose value is a number, as the
# figure PREFIXkey.
lab_figures_from() {
	awk -v p="$1" 'NF == 2 && $2 ~ /^-?[0-9]+(\.[0-9]+)?$/ { print p $1 "=" $2 }' "$2" \
		2>/dev/null | tee -a /results/figures.txt | sed 's/^/# /'
}

# lab_tap NAME CMD...: run the TAP-printing test CMD, keep what it prints
# in /results/NAME.tap and show it; returns CMD's exit status.
lab_tap() {
	_n=$1
	shift
	"$@" >"/results/$_n.tap"
	_rc=$?
	cat "/results/$_n.tap"
	return "$_rc"
}

# lab_tap_dmesg MODULE NAME: the TAP lines ("ok N ...", "not ok N ...",
# "# ...") that kernel module MODULE printed with its "MODULE: " prefix,
# into /results/NAME.tap (appended, so that a module loaded twice adds its
# second report).
lab_tap_dmesg() {
	dmesg | sed -nE "s/^.*$1: ((not )?ok [0-9]+ .*|# .*)\$/\\1/p" |
		tee -a "/results/$2.tap"
}

# lab_tap_line NAME N RESULT DESCRIPTION: one KTAP result line, for a test
# the job itself judges; RESULT 0 is ok, anything else not ok.
lab_tap_line() {
	if [ "$3" = 0 ]; then
		echo "ok $2 $4"
	else
		echo "not ok $2 $4"
	fi | tee -a "/results/$1.tap"
}
