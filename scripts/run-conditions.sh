#!/usr/bin/env bash
# Print one line with the conditions of a make run result, for plot titles:
# scenario, lab commit, series hash, the guests' vCPUs, NUMA nodes and
# memory, all read from RUN_DIR/info.txt.
# Usage: run-conditions.sh RUN_DIR
set -euo pipefail
. "$(dirname "$0")/lib.sh"

[[ $# -eq 1 ]] || die "usage: ${0##*/} RUN_DIR"
info=$1/info.txt
[[ -f "$info" ]] || die "no $info: not a make run result"

# field PREFIX: what follows "PREFIX: " on its line of info.txt, or "?"
field() {
	awk -v p="$1: " 'index($0, p) == 1 { print substr($0, length(p) + 1); f = 1; exit }
		END { if (!f) print "?" }' "$info"
}
scenario=$(field scenario | awk '{ print $1 }')
vcpus=$(field "guests reported vcpus" | awk '{ print $1 }')
nodes=$(field "guests reported numa_nodes" | awk '{ print $1 }')
mem=$(field guests | awk '{ print $1 }')
echo "scenario $scenario, lab $(field 'lab commit'), series $(field 'series sha256 (patch files in series order)'), guests: $vcpus vCPUs, $nodes NUMA nodes, $mem MiB"
