#!/bin/sh
# Live text patching under the lab's emulator: flip a static key FLIPS
# times through its sysctl (vm.KEY; default numa_stat, whose key sits in
# the page allocator's fast path) while a shell in a memory cgroup keeps
# forking and writing tmpfs pages on the other vCPU, through the patched
# sites. A stale int3 in an emulated vCPU shows as an "int3:" oops or as
# a hang (the runner judges both); the job itself only reports progress.
set -eu
: "${FLIPS:=4000}" "${KEY:=numa_stat}"
knob=/proc/sys/vm/$KEY
[ -w "$knob" ] || { echo "static-key-flips: no $knob in this kernel"; exit 1; }
lab=/sys/fs/cgroup/lab
mkdir "$lab" "$lab/w"
echo +memory >"$lab/cgroup.subtree_control"
hammer() {
	# 0: the writer itself (busybox's $$ in a subshell is the parent).
	echo 0 >"$lab/w/cgroup.procs"
	while [ ! -e /tmp/flips-done ]; do
		dd if=/dev/zero of=/tmp/f bs=4k count=64 2>/dev/null
		rm -f /tmp/f
	done
}
hammer &
i=0
while [ "$i" -lt "$FLIPS" ]; do
	echo 1 >"$knob"
	echo 0 >"$knob"
	i=$((i + 1))
	[ $((i % 1000)) -ne 0 ] || echo "static-key-flips: $i of $FLIPS"
done
touch /tmp/flips-done
wait
echo "static-key-flips: $FLIPS flips of vm.$KEY done"
