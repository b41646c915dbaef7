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

job=$(mktemp)
trap 'rm -f "$job"' EXIT
cat >"$job" <<'JOB'
#!/bin/sh
# The policy in force: debugfs says so under pin/reparent; under shared
# the file does not exist and no child cache is ever created.
mkdir /sys/fs/cgroup/lab || exit 1
sh -c 'echo $$ >/sys/fs/cgroup/lab/cgroup.procs; ls / >/dev/null; sleep 1'
if [ -r /sys/kernel/debug/memcg_slab ]; then
	policy=$(awk '$1 == "policy" { print $2 }' /sys/kernel/debug/memcg_slab)
else
	policy=shared
fi
echo "memcg-slab-param: policy $policy, children created $(awk '$1 == "memcg_slab_child_created" { print $2 }' /proc/vmstat)"
JOB

long=$(printf 'x%.0s' $(seq 1 300))
bad=(bogus "" PIN pin,reparent donated "$long")
args=""
for b in "${bad[@]}"; do
	args+=" memcg_slab=$b"
done
# donate boots the debug kernel: a bad value must not splat there either
for run in "series:shared:$args" "series:pin:memcg_slab=pin$args" "debug:donate:memcg_slab=donate$args"; do
	IFS=: read -r kernel want cmdline <<<"$run"
	out=$LAB_CHECK_OUT/memcg-slab-param-$want
	if ! qemu/run-vm.sh -k "$LAB_BUILD/$kernel/bzImage" -i "$LAB_BUILD/initramfs.cpio" \
		-j "$job" -o "$out" -t 120 -m 256 -s 64 -a "$cmdline" >/dev/null 2>&1; then
		t_fail "memcg_slab=: bad values ($want run): guest run" "$(cat "$out/verdict" 2>/dev/null)"
		continue
	fi
	tr -d '\r' <"$out/console.log" >"$out/console.txt"
	for b in "${bad[@]}"; do
		if grep -aqF "memcg_slab: unknown value \"$b\" (shared, pin, reparent or donate), keeping $want" \
			"$out/console.txt"; then
			t_pass "memcg_slab=${b:0:20}$( ((${#b} > 20)) && echo ...) is reported, $want kept"
		else
			t_fail "memcg_slab=${b:0:20}: reported, $want kept" "no such message in $out/console.txt"
		fi
	done
	line=$(grep -a '^memcg-slab-param:' "$out/console.txt" || true)
	if [[ "$want" == shared && "$line" == "memcg-slab-param: policy shared, children created 0" ]] ||
		[[ "$want" != shared && "$line" =~ ^memcg-slab-param:\ policy\ $want,\ children\ created\ [1-9] ]]; then
		t_pass "memcg_slab=: after the bad values the kernel runs $want ($line)"
	else
		t_fail "memcg_slab=: after the bad values the kernel runs $want" "${line:-no figure}"
	fi
done
