#!/bin/sh
# The series' sysctls (tests/vm/25-sysctl.sh), booted with invalid values
# on the command line: each value kept at boot is a figure; test_sysctl's
# KTAP goes to /results/NAME.tap; the kernel's messages about the boot
# values to /results/boot-messages.txt. Exits 1 if a sysctl is missing or
# a test fails.
set -u
. lab-results.sh
dmesg | sed -n 's/^\[[^]]*\] //; /sysctl parameter/p' >/results/boot-messages.txt
rc=0
for s in shrink_slab_min_pressure:2 memcg_reparent_pages:1; do
	name=${s%:*}
	lab_figure "boot_$name" "$(cat /proc/sys/vm/$name 2>/dev/null || echo none)"
	lab_tap "$name" test_sysctl "vm/$name" "${s#*:}" || rc=1
done
exit $rc
