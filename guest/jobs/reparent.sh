#!/bin/sh
# Page reparenting tests (mm-tests/test_reparent.c) with lab_probe.ko
# loaded; the TAP results go to /results/reparent.tap and to the console.
lab=/sys/fs/cgroup/lab
insmod /lab/modules/lab_probe.ko || exit 1
mkdir "$lab" && echo "+memory +io" >"$lab/cgroup.subtree_control" || exit 1
# REPARENT_TESTS (from run-vm.sh -e) picks tests by name.
# shellcheck disable=SC2086 # one word per test name
test_reparent "$lab" /mnt/scratch/reparent ${REPARENT_TESTS:-} >/results/reparent.tap
rc=$?
cat /results/reparent.tap
# 0 or 1 (a test failed) is a result; anything else is a broken run.
[ $rc -le 1 ] || exit "$rc"
exit 0
