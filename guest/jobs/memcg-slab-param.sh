#!/bin/sh
# After a boot with bad memcg_slab= values (tests/vm/56-memcg-slab-param.sh):
# the policy in force and the child caches created, as figures, and the
# kernel's memcg_slab messages in /results/boot-messages.txt. debugfs names
# the policy under pin, reparent and donate; under shared the file does
# not exist and no child cache is ever created.
set -u
. lab-results.sh
mkdir /sys/fs/cgroup/lab || exit 1
sh -c 'echo $$ >/sys/fs/cgroup/lab/cgroup.procs; ls / >/dev/null; sleep 1'
if [ -r /sys/kernel/debug/memcg_slab ]; then
	policy=$(awk '$1 == "policy" { print $2 }' /sys/kernel/debug/memcg_slab)
else
	policy=shared
fi
lab_figure policy "$policy"
lab_figure children_created "$(awk '$1 == "memcg_slab_child_created" { print $2 }' /proc/vmstat)"
dmesg | sed -n 's/^\[[^]]*\] //; /memcg_slab: /p' >/results/boot-messages.txt
cat /results/boot-messages.txt
