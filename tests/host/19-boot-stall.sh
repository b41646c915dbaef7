#!/usr/bin/env bash
# vm-runner/run-vm.sh's boot watchdog, with a stand-in for QEMU that
# prints nothing for its first N boots: a boot that has not started init
# within LAB_BOOT_STALL_SECS is stopped (the stand-in is gone after it)
# and booted again, its console is kept and the verdict says so; a boot
# that prints the kernel's "Run /init" line, or only guest/init's
# "lab-init: started" (a quiet boot), and then runs past the threshold
# is not a stall; a boot that stalls every time is "hung" (exit 2); a
# threshold below 10 s is refused before anything runs.
# lab-check: beside-guests (a stand-in QEMU that mostly sleeps)
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
cd "$LAB_ROOT"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/bin"
# The stand-in: finds the console and status files in QEMU's arguments,
# counts its boots, records its pid, and on the first FAKE_STALLS boots
# sleeps silently; then prints FAKE_LINE and runs on past the threshold
# before it reports a status.
cat >"$tmp/bin/qemu-system-x86_64" <<'FAKE'
#!/usr/bin/env bash
con= st= prev=
for a in "$@"; do
	[[ "$prev" == -serial && "$a" == file:* ]] && con=${a#file:}
	[[ "$a" == *id=status,path=* ]] && { st=${a#*path=}; st=${st%%,*}; }
	prev=$a
done
n=$(cat "$FAKE_COUNT" 2>/dev/null || echo 0)
echo $((n + 1)) >"$FAKE_COUNT"
echo $$ >>"$FAKE_COUNT.pids"
echo "[    0.100000] Linux version (stand-in)" >"$con"
((n >= FAKE_STALLS)) || exec sleep 600
echo "$FAKE_LINE" >>"$con"
sleep 12
echo "lab-status: 0" >>"$st"
FAKE
chmod +x "$tmp/bin/qemu-system-x86_64"
printf '#!/bin/sh\ntrue\n' >"$tmp/job.sh"
: >"$tmp/kernel"
: >"$tmp/initrd"

# boot STALLS RETRIES OUT LINE: run the stand-in; prints run-vm.sh's exit code.
boot() {
	local rc=0
	PATH=$tmp/bin:$PATH FAKE_COUNT=$tmp/count-$3 FAKE_STALLS=$1 FAKE_LINE=$4 \
		LAB_BOOT_STALL_SECS=10 LAB_BOOT_RETRIES=$2 \
		vm-runner/run-vm.sh -k "$tmp/kernel" -i "$tmp/initrd" -j "$tmp/job.sh" \
		-o "$tmp/$3" -t 60 -S 0 -s 16 >"$tmp/$3.log" 2>&1 || rc=$?
	echo "$rc"
}

# left OUT: how many of the stand-in's boots are still running.
left() {
	local pid n=0
	while read -r pid; do
		! kill -0 "$pid" 2>/dev/null || n=$((n + 1))
	done <"$tmp/count-$1.pids"
	echo "$n"
}

rc=$(boot 1 1 once "[    1.000000] Run /init as init process")
v=$(cat "$tmp/once/verdict" 2>/dev/null || true)
if [[ "$rc" == 0 && "$v" == passed*"after 1 boot(s) that stalled before init"* &&
	-s "$tmp/once/console.boot-stall-1.log" && "$(cat "$tmp/count-once")" == 2 &&
	"$(left once)" == 0 ]]; then
	t_pass "run-vm: a boot that stalls before init is stopped, booted again, kept and named"
else
	t_fail "run-vm: a stalled boot is booted again" \
		"exit $rc, verdict '$v', boots $(cat "$tmp/count-once" 2>/dev/null), still running $(left once)"
fi

rc=$(boot 0 1 quiet "lab-init: started")
v=$(cat "$tmp/quiet/verdict" 2>/dev/null || true)
if [[ "$rc" == 0 && "$v" == passed* && "$v" != *stalled* && "$(cat "$tmp/count-quiet")" == 1 ]]; then
	t_pass "run-vm: a quiet boot that reached guest/init is not a stall"
else
	t_fail "run-vm: a quiet boot is not a stall" "exit $rc, verdict '$v', boots $(cat "$tmp/count-quiet" 2>/dev/null)"
fi

rc=$(boot 5 1 always "[    1.000000] Run /init as init process")
v=$(cat "$tmp/always/verdict" 2>/dev/null || true)
if [[ "$rc" == 2 && "$v" == "hung: the kernel did not start init"* &&
	"$(cat "$tmp/count-always")" == 2 && "$(left always)" == 0 ]]; then
	t_pass "run-vm: a boot that stalls every time is hung after its retries"
else
	t_fail "run-vm: a boot that stalls every time is hung" \
		"exit $rc, verdict '$v', boots $(cat "$tmp/count-always" 2>/dev/null), still running $(left always)"
fi

t_expect_error "run-vm: LAB_BOOT_STALL_SECS below 10 is refused" "at least 10" \
	env LAB_BOOT_STALL_SECS=5 vm-runner/run-vm.sh -k "$tmp/kernel" -i "$tmp/initrd" \
	-j "$tmp/job.sh" -o "$tmp/refused"
if [[ -e "$tmp/refused" ]]; then
	t_fail "run-vm: a refused threshold changes nothing" "$tmp/refused was made"
fi
