#!/usr/bin/env bash
# Count, by single-stepping booted guests, the instructions of each slab
# fast-path call: kmalloc(64, GFP_KERNEL_ACCOUNT), kfree(), and an
# accounted kmem_cache's alloc and free, each on a warm per-cpu slab (the
# hit path), in the root cgroup and in a user cgroup, for the floor
# (stock with cgroup.memory=nokmem), stock and each memcg_slab= policy of
# the series. The counts are the instructions the CPU ran, static
# branches in their booted state included.
#
# Usage: walk-fastpath.sh [-o DIR] [-x] [-b N] [LABEL...]
#   LABEL: nokmem stock shared pin reparent donate (default: all), or
#          series-nokmem (the series' kernel booted as the floor is)
#   -o DIR: where to write walk.txt, walk.csv and each guest's run
#           (default: results/<date>-walk)
#   -x: also write LABEL.trace, every counted instruction (call, address,
#       function+offset, disassembly); slower
#   -b N: instead of one warm pair per path, walk lab_kmem_bench.ko's
#       pattern: N allocations then their N frees, per path (1..1024).
#       Past a slab's worth of objects these take the slow paths (new and
#       partial slabs, frees to a slab that is not the CPU's), which are
#       then counted too; walk.csv holds the mean per call. About a
#       minute per variant at N=128.
# Each guest boots with nokaslr (the walker reads addresses from the
# built vmlinux) and one vCPU; mm-tests/modules/lab_walk_pair.ko makes
# the calls, scripts/walk-fastpath-gdb.py steps through them, and fails
# the walk if any counted call left the hit path (a new slab, a slow
# free, a child cache not yet there, a reschedule). The counts depend
# only on the kernels and on the CPU features QEMU's -cpu max offers
# (they choose the kernel's alternatives), not on host load.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

declare -A kernel_of=([nokmem]=stock [stock]=stock [shared]=series [pin]=series
	[reparent]=series [donate]=series [series-nokmem]=series)
declare -A append_of=([nokmem]=cgroup.memory=nokmem [stock]= [shared]=
	[pin]=memcg_slab=pin [reparent]=memcg_slab=reparent [donate]=memcg_slab=donate
	[series-nokmem]=cgroup.memory=nokmem)
all=(nokmem stock shared pin reparent donate)

out= trace=0 batch=0
usage="usage: ${0##*/} [-o DIR] [-x] [-b N] [LABEL...]"
while getopts "o:xb:" opt; do
	case "$opt" in
	o) out=$OPTARG ;;
	x) trace=1 ;;
	b) batch=$OPTARG ;;
	*) die "$usage" ;;
	esac
done
[[ "$batch" =~ ^(0|[1-9][0-9]{0,3})$ ]] && ((batch <= 1024)) ||
	die "-b $batch: the batch must be 1..1024 objects, or 0 for one pair ($usage)"
calls=4 env_batch=() slow=0
if ((batch)); then
	calls=$((4 * batch)) env_batch=(-e "WALK_BATCH=$batch") slow=1
fi
# The guest's and gdb's time limits: gdb steps about a thousand
# instructions a second, and a call of a batch runs a few hundred.
limit=$((600 + 2 * calls))
shift $((OPTIND - 1))
labels=("$@")
((${#labels[@]})) || labels=("${all[@]}")
for l in "${labels[@]}"; do
	[[ -n "${kernel_of[$l]+x}" ]] || die "unknown variant '$l' (known: ${all[*]} series-nokmem)"
done
command -v gdb >/dev/null || die "gdb is missing (make deps)"
out=${out:-$LAB_ROOT/results/$(date +%Y%m%d-%H%M%S)-walk}
mkdir -p "$out"

mapfile -t kernels < <(for l in "${labels[@]}"; do echo "${kernel_of[$l]}"; done | sort -u)
for k in "${kernels[@]}"; do
	for f in bzImage src/vmlinux modules/lab_walk_pair.ko; do
		[[ -f "$LAB_BUILD/$k/$f" ]] || die "$LAB_BUILD/$k/$f missing (make kernel VARIANT=$k)"
	done
	nm -n "$LAB_BUILD/$k/src/vmlinux" >"$out/$k.syms"
done
[[ -f "$LAB_BUILD/initramfs.cpio" ]] || die "no initramfs (make initramfs)"

{
	echo "fast-path walk: instructions per call, from single-stepping the guests"
	echo "date: $(date -u +%FT%TZ)"
	build_conditions "${kernels[@]}"
	echo "guests: 1 vCPU, 1 NUMA node, 512 MiB, nokaslr, TCG -cpu max ($(qemu-system-x86_64 --version | head -n 1))"
	if ((batch)); then
		echo "pattern: batches of $batch (lab_walk_pair.ko batch=$batch): $batch allocations, then their frees, per path; slow paths counted"
	else
		echo "pattern: one warm pair per path (the hit path)"
	fi
} >"$out/info.txt"

echo "variant,cgroup,call,instructions" >"$out/walk.csv"
# free_port N: the first port from N on that nothing listens on
free_port() {
	local p=$1
	while (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; do
		p=$((p + 1))
	done
	echo "$p"
}
port=$((20000 + $$ % 20000))
n=0
for l in "${labels[@]}"; do
	n=$((n + 1))
	k=${kernel_of[$l]}
	port=$(free_port "$port")
	note "[$n/${#labels[@]}] $l: booting $k paused, gdb stepping on port $port"
	run=$out/$l
	rm -rf "$run"
	"$LAB_ROOT/vm-runner/run-vm.sh" -k "$LAB_BUILD/$k/bzImage" -i "$LAB_BUILD/initramfs.cpio" \
		-j "$LAB_ROOT/guest/jobs/walk-pair.sh" "${env_batch[@]}" -M "$LAB_BUILD/$k/modules/lab_walk_pair.ko" \
		-o "$run" -t "$limit" -m 512 -c 1 -n 1 -s 64 -S 0 -A tcg -g "$port" \
		-a "nokaslr ${append_of[$l]}" >"$out/$l.run-vm.log" 2>&1 &
	vm=$!
	gdbrc=0
	tracefile=
	((trace)) && tracefile=$out/$l.trace
	LAB_WALK_PORT=$port LAB_WALK_SYMS=$out/$k.syms LAB_WALK_LOADS=2 \
		LAB_WALK_CALLS=$calls LAB_WALK_SLOW=$slow \
		LAB_WALK_OUT=$out/$l.steps LAB_WALK_TRACE=$tracefile timeout "$((limit + 300))" gdb -batch -nx \
		-x "$LAB_ROOT/scripts/walk-fastpath-gdb.py" >"$out/$l.gdb.log" 2>&1 || gdbrc=$?
	# A gdb that ended without killing the guest leaves it paused until
	# run-vm's timeout: end it now.
	((gdbrc == 0)) || pkill -f "tcp:127.0.0.1:$port" || true
	vmrc=0
	wait "$vm" || vmrc=$?
	if ((gdbrc || vmrc)) || [[ $(wc -l <"$out/$l.steps" 2>/dev/null || echo 0) -ne $((2 * calls)) ]]; then
		tail -n 5 "$out/$l.gdb.log" >&2 || true
		die "$l: the walk failed (gdb $gdbrc, guest: $(cat "$run/verdict" 2>/dev/null || echo none)); see $out/$l.gdb.log and $run/console.log"
	fi
	# One row per load and call: the mean over its calls (1 without -b)
	awk -v l="$l" '{ k = ($1 == 1 ? "root" : "user") "," $2; if (!(k in n)) o[++m] = k
		n[k]++; s[k] += $3 }
		END { for (i = 1; i <= m; i++) { k = o[i]; v = s[k] / n[k]
			print l "," k "," (v == int(v) ? v : sprintf("%.2f", v)) } }' \
		"$out/$l.steps" >>"$out/walk.csv"
	port=$((port + 1))
done
"$LAB_ROOT/scripts/walk-report.py" "$out" | tee "$out/walk.txt"
note "results: $out"
