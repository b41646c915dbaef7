#!/usr/bin/env bash
# Print the kernel splats in a console log; exit 1 if there is any.
# Only kernel lines count (they carry a printk timestamp), so a test that
# prints the word WARNING itself does not fail the run.
# Usage: scan-splats.sh CONSOLE_LOG
set -euo pipefail
. "$(dirname "$0")/../scripts/lib.sh"

[[ $# -eq 1 ]] || die "usage: ${0##*/} CONSOLE_LOG"
[[ -f "$1" ]] || die "no such console log: $1"

patterns=(
	'BUG: '                          # BUG: KASAN, soft lockup, sleeping in atomic, bad page, ...
	'kernel BUG at'
	'WARNING: '                      # WARN*(), lockdep reports, suspicious RCU usage
	'Oops'
	'general protection fault'
	'Kernel panic'
	'KASAN: '
	'UBSAN: '
	'hard LOCKUP'
	'detected stall'                 # RCU stalls
	'blocked for more than'          # hung tasks
	'unreferenced object 0x'         # kmemleak
	'possible recursive locking'
	'inconsistent lock state'
	'list_(add|del) corruption'
	'cannot create duplicate filename' # sysfs name collision, with a stack dump
)
re=$(IFS='|'; echo "${patterns[*]}")
ts='\[ *[0-9]+\.[0-9]+\]'
if grep -a -n -E "$ts.*($re)" "$1"; then
	exit 1
fi
exit 0
