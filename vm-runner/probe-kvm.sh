#!/usr/bin/env bash
# Does KVM really work here? Boot the stock kernel with no root file system
# under -accel kvm: it must reach its "cannot mount root" panic and exit
# within 30 s. On hosts whose CPU lacks vmx/svm, /dev/kvm can exist while
# guests hang, so the device alone proves nothing.
# Usage: probe-kvm.sh [KERNEL]   exit 0 if KVM works
set -euo pipefail
. "$(dirname "$0")/../scripts/lib.sh"

kernel=${1:-$LAB_BUILD/stock/bzImage}
[[ -f "$kernel" ]] || die "no kernel to probe with: $kernel (make kernel VARIANT=stock)"
if [[ ! -w /dev/kvm ]]; then
	note "no usable /dev/kvm"
	exit 1
fi
log=$(mktemp)
trap 'rm -f "$log"' EXIT
if timeout -k 5 30 qemu-system-x86_64 -nodefaults -no-reboot -display none \
	-accel kvm -cpu host -m 256 -kernel "$kernel" \
	-append "console=ttyS0 panic=-1" -serial "file:$log" </dev/null &&
	grep -q 'Kernel panic' "$log"; then
	note "KVM works"
	exit 0
fi
note "KVM probe failed: the guest did not boot to its expected panic in 30 s"
exit 1
