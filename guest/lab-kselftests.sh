#!/bin/sh
# Run the cgroup kselftests in the guest; each binary's output, KTAP, goes
# to /results/BINARY.tap (the host reads the results from there).
#
# They run chrooted into the ext4 scratch disk: test_kmem_basic counts the
# negative dentries of lookups in "/", and the initramfs's ramfs root drops
# negative dentries at once, so on it the test can never pass.
# The tests fork with stdio buffers unflushed, so lines repeat: the host
# reads the first result of each test number (tests/lib.sh: tap_results).
# Usage: lab-kselftests.sh [TEST_BINARY...]   (default: core kmem memcontrol)

tests=${*:-"test_core test_kmem test_memcontrol"}
root=/mnt/scratch/ksroot
mkdir -p "$root" /results || exit 1
for d in bin sbin usr lab etc; do
	cp -a "/$d" "$root/" || exit 1
done
for d in proc sys dev tmp; do
	mkdir -p "$root/$d"
done
mount --rbind /proc "$root/proc" && mount --rbind /sys "$root/sys" &&
	mount --rbind /dev "$root/dev" || exit 1
cd "$root" || exit 1

for t in $tests; do
	if [ ! -x "$root/lab/kselftests/$t" ]; then
		echo "lab-kselftests: no such test binary: $t"
		exit 1
	fi
	echo "lab-kselftests: running $t"
	chroot "$root" "/lab/kselftests/$t" >"/results/$t.tap" 2>&1
	echo "lab-kselftests: $t exited $?"
	grep -E '^(not )?ok [0-9]+ ' "/results/$t.tap"
done
exit 0
