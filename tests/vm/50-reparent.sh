#!/usr/bin/env bash
# Page reparenting (vm.memcg_reparent_pages): the in-guest tests
# (mm-tests/test_reparent.c) pass on series and fail on stock, which
# shows they can; a parallel churn racing reclaim and the switch on the
# debug kernel (lockdep, DEBUG_VM) ends without a splat and with no
# removed cgroup left dying.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
cd "$LAB_ROOT"

job=$(mktemp)
trap 'rm -f "$job"' EXIT
cat >"$job" <<'JOB'
#!/bin/sh
lab=/sys/fs/cgroup/lab
mkdir "$lab" && echo "+memory +io" >"$lab/cgroup.subtree_control" || exit 1
exec test_reparent "$lab" /mnt/scratch/reparent
JOB

for v in series stock; do
	out=$LAB_CHECK_OUT/reparent-$v
	set +e
	qemu/run-vm.sh -k "$LAB_BUILD/$v/bzImage" -i "$LAB_BUILD/initramfs.cpio" -j "$job" \
		-o "$out" -t 300 -m 1024 -s 256 >/dev/null 2>&1
	rc=$?
	set -e
	verdict=$(cat "$out/verdict" 2>/dev/null || echo "no verdict")
	tr -d '\r' <"$out/console.log" >"$out/console.txt" 2>/dev/null || : >"$out/console.txt"
	grep -a '^#' "$out/console.txt" | sed 's/^/    /' || true
	for name in test_reparent_frees_dying test_reparent_conserves_charge; do
		if grep -aqE "^ok [0-9]+ $name\$" "$out/console.txt"; then
			res=pass
		elif grep -aqE "^not ok [0-9]+ $name\$" "$out/console.txt"; then
			res=fail
		else
			res=missing
		fi
		if [[ "$v" == series ]]; then
			if [[ "$res" == pass ]]; then
				t_pass "reparent: $name"
			else
				t_fail "reparent: $name" "$res ($verdict)"
			fi
		elif [[ "$res" == fail ]]; then
			t_pass "reparent: $name fails on stock (control)"
		else
			t_fail "reparent: $name fails on stock (control)" "$res ($verdict)"
		fi
	done
	if [[ "$v" == series && $rc -ne 0 ]]; then
		t_fail "reparent: series guest run" "$verdict"
	fi
done

out=$LAB_CHECK_OUT/reparent-stress-debug
name="reparent: parallel churn racing reclaim and the switch on the debug kernel"
if qemu/run-vm.sh -k "$LAB_BUILD/debug/bzImage" -i "$LAB_BUILD/initramfs.cpio" \
	-j qemu/jobs/reparent-stress.sh -o "$out" -t 900 -m 384 -s 1024 >/dev/null 2>&1; then
	t_pass "$name: no splat, none left dying ($(grep -a '^reparent-stress:' "$out/console.log" | tail -n 1))"
else
	t_fail "$name" "$(cat "$out/verdict" 2>/dev/null || echo "no verdict")"
	grep -a 'reparent-stress:\|WARNING\|BUG' "$out/console.log" | head -n 5 || true
fi
