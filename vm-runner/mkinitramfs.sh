#!/usr/bin/env bash
# Build the base initramfs: static busybox, the guest init, the static
# mm-tests binaries and the cgroup kselftests.
# Usage: mkinitramfs.sh OUT.cpio MMTESTS_DIR KSELFTESTS_DIR
# Uncompressed, so that run-vm.sh can append a job archive to it.
set -euo pipefail
. "$(dirname "$0")/../scripts/lib.sh"

[[ $# -eq 3 ]] || die "usage: ${0##*/} OUT.cpio MMTESTS_DIR KSELFTESTS_DIR"
out=$1
mmtests=$2
kselftests=$3
busybox=/bin/busybox
[[ -x "$busybox" ]] || die "$busybox missing (run 'make deps')"
file -L "$busybox" | grep -q 'statically linked' ||
	die "$busybox is not statically linked (install busybox-static)"
[[ -d "$mmtests" ]] || die "no mm-tests binaries in $mmtests"
[[ -d "$kselftests" ]] || die "no kselftests in $kselftests"

root=$(mktemp -d "${TMPDIR:-/tmp}/lab-initramfs.XXXXXX")
trap 'rm -rf "$root"' EXIT

mkdir -p "$root"/{bin,sbin,usr/bin,usr/sbin,proc,sys,dev,tmp,root,etc,mnt,lab/bin,lab/kselftests,lab/modules}
cp "$busybox" "$root/bin/busybox"
for applet in $("$busybox" --list-full); do
	[[ -e "$root/$applet" ]] || ln -s /bin/busybox "$root/$applet"
done
install -m 0755 "$LAB_ROOT/guest/init" "$root/init"
install -m 0755 "$LAB_ROOT"/guest/lab-*.sh "$root/lab/bin/"
find "$mmtests" -maxdepth 1 -type f -perm -u+x -exec cp {} "$root/lab/bin/" \;
find "$kselftests" -maxdepth 1 -type f -name "test_*" -perm -u+x -exec cp {} "$root/lab/kselftests/" \;
# The peer workloads, fs_mark and hackbench (rt-tests), are dynamically
# linked: bring their libraries.
for bin in /usr/bin/fs_mark /usr/bin/hackbench; do
	[[ -x "$bin" ]] || die "$bin missing (run 'make deps')"
	for f in "$bin" $(ldd "$bin" | grep -o '/[^ ]*'); do
		mkdir -p "$root$(dirname "$f")"
		cp -L "$f" "$root$f"
	done
done
printf 'root:x:0:0:root:/root:/bin/sh\n' >"$root/etc/passwd"
printf 'root:x:0:\n' >"$root/etc/group"
printf '127.0.0.1 localhost\n::1 localhost\n' >"$root/etc/hosts"
printf 'hosts: files\n' >"$root/etc/nsswitch.conf"

mkdir -p "$(dirname "$out")"
(cd "$root" && find . -print0 | cpio --null -o -H newc --quiet --owner=0:0) \
	>"$out.tmp"
mv "$out.tmp" "$out"
note "$out: $(du -h "$out" | cut -f1)"
