#!/bin/sh
# Run the cgroup kselftests in the guest and record one result per test in
# /results/kselftests.csv (binary,test,pass|fail|skip).
#
# They run chrooted into the ext4 scratch disk: test_kmem_basic counts the
# negative dentries of lookups in "/", and the initramfs's ramfs root drops
# negative dentries at once, so on it the test can never pass.
# Output goes to a file and the TAP lines are read once per test number:
# the tests fork with stdio buffers unflushed, so lines repeat.
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

: >/results/kselftests.csv
for t in $tests; do
	if [ ! -x "$root/lab/kselftests/$t" ]; then
		echo "lab-kselftests: no such test binary: $t"
		exit 1
	fi
	echo "lab-kselftests: running $t"
	chroot "$root" "/lab/kselftests/$t" >"/results/$t.out" 2>&1
	echo "lab-kselftests: $t exited $?"
	awk -v bin="$t" '
		/^(not )?ok [0-9]+ / {
			res = ($1 == "not") ? "fail" : "pass"
			n = (res == "fail") ? $3 : $2
			if (seen[n]++) next
			name = $0
			sub(/^(not )?ok [0-9]+ /, "", name)
			if (name ~ /^# SKIP /) { res = "skip"; sub(/^# SKIP /, "", name) }
			print bin "," name "," res
		}' "/results/$t.out" >>/results/kselftests.csv
done
cat /results/kselftests.csv
