#!/usr/bin/env bash
# vm.shrink_slab_min_pressure takes 0..2 and vm.memcg_reparent_pages 0..1;
# both reject everything else with EINVAL, at run time and on the command
# line, on the series and on the debug kernel (where a splat fails the
# run); on stock the same test fails (the sysctls do not exist), which
# shows that it can.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
cd "$LAB_ROOT"

for v in series debug stock; do
	vm_run "sysctl-$v" "$v" guest/jobs/sysctl.sh -t 120 -m 256 -s 64 \
		-a "sysctl.vm.shrink_slab_min_pressure=7 sysctl.vm.memcg_reparent_pages=2"
	if [[ "$v" == stock ]]; then
		if ((VM_RC == 1)) && [[ "$VM_VERDICT" == "failed: the job exited 1"* ]]; then
			t_pass "sysctl: the same test fails on stock (control: $VM_VERDICT)"
		else
			t_fail "sysctl: the same test fails on stock (control)" "$VM_VERDICT"
		fi
		continue
	fi
	name="sysctl: $v accepts the valid values of both and rejects bad ones with EINVAL, no splat"
	if ((VM_RC == 0)); then
		t_pass "$name"
	else
		t_fail "$name" "$VM_VERDICT"
		for f in "$VM_OUT"/results/*.tap; do
			[[ -f "$f" ]] || continue
			grep -a '^#\|^not ok' "$f" | head -n 5 | sed "s|^|    ${f##*/}: |" || true
		done
	fi
	for p in shrink_slab_min_pressure=7 memcg_reparent_pages=2; do
		kept=$(vm_figure "boot_${p%=*}")
		if grep -q "Failed to set sysctl parameter 'vm.$p'" "$VM_OUT/results/boot-messages.txt" 2>/dev/null &&
			[[ "$kept" == 0 ]]; then
			t_pass "sysctl: an invalid boot value ($p) is reported and the default kept ($v)"
		else
			t_fail "sysctl: an invalid boot value ($p) is reported and the default kept ($v)" \
				"value at boot $kept; messages: $(head -c 200 "$VM_OUT/results/boot-messages.txt" 2>/dev/null)"
		fi
	done
done
