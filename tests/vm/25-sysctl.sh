#!/usr/bin/env bash
# vm.shrink_slab_min_pressure takes 0..2 and vm.memcg_reparent_pages 0..1;
# both reject everything else with EINVAL, at run time and on the command
# line, on the series and on the debug kernel (where a splat fails the
# run); on stock the same test fails (the sysctls do not exist), which
# shows that it can.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
cd "$LAB_ROOT"

job=$(mktemp)
trap 'rm -f "$job"' EXIT
cat >"$job" <<'JOB'
#!/bin/sh
# Booted with invalid values: the defaults must have stayed.
rc=0
for s in shrink_slab_min_pressure:2 memcg_reparent_pages:1; do
	name=${s%:*}
	v=$(cat /proc/sys/vm/$name 2>/dev/null || echo none)
	echo "boot value of $name: $v"
	test_sysctl vm/$name ${s#*:} || rc=1
	if [ "$rc" = 0 ] && [ "$v" != 0 ]; then rc=3; fi
done
exit $rc
JOB

for v in series debug stock; do
	out=$LAB_CHECK_OUT/sysctl-$v
	set +e
	qemu/run-vm.sh -k "$LAB_BUILD/$v/bzImage" -i "$LAB_BUILD/initramfs.cpio" -j "$job" \
		-o "$out" -t 120 -m 256 -s 64 -a "sysctl.vm.shrink_slab_min_pressure=7 sysctl.vm.memcg_reparent_pages=2" >/dev/null 2>&1
	rc=$?
	set -e
	verdict=$(cat "$out/verdict" 2>/dev/null || echo "no verdict")
	if [[ "$v" != stock ]]; then
		if ((rc == 0)); then
			t_pass "sysctl: $v accepts the valid values of both and rejects bad ones with EINVAL, no splat"
		else
			t_fail "sysctl: $v accepts the valid values of both and rejects bad ones with EINVAL, no splat" "$verdict"
			grep -a '^not ok\|^#' "$out/console.log" | head -n 5
		fi
		for p in shrink_slab_min_pressure=7 memcg_reparent_pages=2; do
			if grep -q "Failed to set sysctl parameter 'vm.$p'" "$out/console.log"; then
				t_pass "sysctl: an invalid boot value ($p) is reported and the default kept ($v)"
			else
				t_fail "sysctl: an invalid boot value ($p) is reported ($v)" "no message in $out/console.log"
			fi
		done
	elif ((rc == 1)) && [[ "$verdict" == "failed: the job exited 1"* ]]; then
		t_pass "sysctl: the same test fails on stock (control: $verdict)"
	else
		t_fail "sysctl: the same test fails on stock (control)" "$verdict"
	fi
done
