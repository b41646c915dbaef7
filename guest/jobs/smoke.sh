#!/bin/sh
# Smoke job: memory figures after boot and after a small cgroup churn
# (20 cgroups in turn, each creating 100 files in its own directory on the
# ext4 scratch disk, then removed). Output: /results/figures.txt, lines
# "phase.metric=value".
set -e -o pipefail
out=/results/figures.txt
parent=/sys/fs/cgroup/smoke
mkdir "$parent"
echo +memory >"$parent/cgroup.subtree_control"
memfigures -c "$parent" | sed 's/^/boot./; s/ /=/' >"$out"

i=0
while [ $i -lt 20 ]; do
	cg=$parent/job$i
	mkdir "$cg"
	sh -c "echo \$\$ >$cg/cgroup.procs; mkdir /mnt/scratch/job$i;
		for f in \$(seq 1 100); do echo data >/mnt/scratch/job$i/f\$f; done"
	rmdir "$cg"
	i=$((i + 1))
done
sync
memfigures -c "$parent" | sed 's/^/churn./; s/ /=/' >>"$out"
cat "$out"
