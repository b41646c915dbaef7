#!/usr/bin/env bash
# Pack a guest job (a shell script run as /lab/job.sh) and optional kernel
# modules into a small cpio archive, to be appended to the base initramfs.
# ENV_FILE holds "export NAME=VALUE" lines; the guest init reads it as
# /lab/env before the job starts.
# Usage: pack-job.sh OUT.cpio JOB_SCRIPT ENV_FILE [MODULE.ko...]
set -euo pipefail
. "$(dirname "$0")/../scripts/lib.sh"

[[ $# -ge 3 ]] || die "usage: ${0##*/} OUT.cpio JOB_SCRIPT ENV_FILE [MODULE.ko...]"
out=$1
job=$2
env=$3
shift 3
[[ -f "$job" ]] || die "no such job script: $job"
[[ -f "$env" ]] || die "no such environment file: $env"

root=$(mktemp -d "${TMPDIR:-/tmp}/lab-job.XXXXXX")
trap 'rm -rf "$root"' EXIT
mkdir -p "$root/lab/modules"
install -m 0755 "$job" "$root/lab/job.sh"
install -m 0644 "$env" "$root/lab/env"
for m in "$@"; do
	[[ -f "$m" ]] || die "no such module: $m"
	cp "$m" "$root/lab/modules/"
done
(cd "$root" && find . -print0 | cpio --null -o -H newc --quiet --owner=0:0) >"$out"
