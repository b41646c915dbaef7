#!/usr/bin/env bash
# The memcg_slab= boot parameter (series 0007, donate from 0008) rejects
# what it does not know: each bad value (unknown, empty, wrong case, a
# list, a near miss, 300 characters) is reported on the console and the
# policy stays what it was, without a splat: shared when nothing valid
# came before, pin or donate when "memcg_slab=pin" or "memcg_slab=donate"
# came first.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
cd "$LAB_ROOT"

long=$(printf 'x%.0s' $(seq 1 300))
bad=(bogus "" PIN pin,reparent donated "$long")
args=""
for b in "${bad[@]}"; do
	args+=" memcg_slab=$b"
done
# donate boots the debug kernel: a bad value must not splat there either
for run in "series:shared:$args" "series:pin:memcg_slab=pin$args" "debug:donate:memcg_slab=donate$args"; do
	IFS=: read -r kernel want cmdline <<<"$run"
	vm_run "memcg-slab-param-$want" "$kernel" guest/jobs/memcg-slab-param.sh \
		-t 120 -m 256 -s 64 -a "$cmdline"
	if ((VM_RC != 0)); then
		t_fail "memcg_slab=: bad values ($want run): guest run" "$VM_VERDICT"
		continue
	fi
	msgs=$VM_OUT/results/boot-messages.txt
	for b in "${bad[@]}"; do
		if grep -aqF "memcg_slab: unknown value \"$b\" (shared, pin, reparent or donate), keeping $want" \
			"$msgs" 2>/dev/null; then
			t_pass "memcg_slab=${b:0:20}$( ((${#b} > 20)) && echo ...) is reported, $want kept"
		else
			t_fail "memcg_slab=${b:0:20}: reported, $want kept" "no such message in $msgs"
		fi
	done
	policy=$(vm_figure policy) created=$(vm_figure children_created)
	# shared creates no child cache; every other policy creates some
	made=none
	is_uint "$created" && made=$( ((created > 0)) && echo yes || echo no)
	if [[ "$policy" == "$want" && "$made" == "$( [[ "$want" == shared ]] && echo no || echo yes)" ]]; then
		t_pass "memcg_slab=: after the bad values the kernel runs $want (children created: $created)"
	else
		t_fail "memcg_slab=: after the bad values the kernel runs $want" "policy $policy, children created $created"
	fi
done
