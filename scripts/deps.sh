#!/usr/bin/env bash
# Install the Debian packages the lab needs; quiet and idempotent when all are there.
set -euo pipefail

packages=(
	linux-source-6.1 gcc make bc flex bison libelf-dev libssl-dev cpio
	xz-utils kmod qemu-system-x86 seabios sparse busybox-static e2fsprogs
	quilt ccache fsmark gnuplot-nox python3 patch coreutils util-linux
	libc6-dev perl file git rt-tests gdb
)

missing=()
for p in "${packages[@]}"; do
	status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
	[[ "$status" == "install ok installed" ]] || missing+=("$p")
done

[[ ${#missing[@]} -eq 0 ]] && exit 0

if [[ $(id -u) -ne 0 ]]; then
	echo "deps: missing packages: ${missing[*]}" >&2
	echo "deps: run 'make deps' as root (apt-get install is needed)" >&2
	exit 1
fi

echo "deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
# apt-cache knows nothing before the first update on a fresh machine.
if ! apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null 2>&1; then
	echo "deps: apt-get update"
	apt-get update -qq
	apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
echo "deps: done"
