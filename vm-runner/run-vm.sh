#!/usr/bin/env bash
# Boot a lab kernel in QEMU, run one guest job, and judge the run.
#
# Usage: run-vm.sh [options]
#   -k FILE    kernel image (bzImage)                          required
#   -i FILE    base initramfs (make initramfs)                 required
#   -j FILE    job script, run in the guest as /lab/job.sh; without -j the
#              guest gives an interactive shell on this terminal
#   -M FILE    kernel module to pack for the job (repeatable)
#   -o DIR     output directory (console.log, status, results/, verdict,
#              qemu.cmdline; hung-monitor.txt after a hang)
#   -a ARGS    extra kernel command line
#   -t SECS    timeout for the whole run (default 600)
#   -m MIB     guest memory (default 1024)
#   -c N       vCPUs (default 2)
#   -n N       NUMA nodes, 1 or 2 (default 2): memory is split evenly and
#              the vCPUs are dealt out in turn
#   -s MIB     size of the fresh ext4 scratch disk (default 4096, sparse)
#   -S MIB     size of the swap disk (default 256, sparse; 0: no swap)
#   -e N=V     environment variable for the job, in /lab/env (repeatable)
#   -A ACCEL   tcg (default) or kvm (only after a probe shows it works)
#   -g PORT    QEMU's gdb stub on 127.0.0.1:PORT; the guest starts paused
#              until a debugger continues it (scripts/walk-fastpath.sh)
#
# The guest's own boot switches, read by guest/init from the kernel
# command line (-a): lab.lru_gen=y|n switches MGLRU on or off before the
# job starts (default: as built, off).
#
# Verdict and exit status: 0 passed; 1 the job exited non-zero; 2 the guest
# died, hung or never reported; 3 the console holds a kernel splat.
# The guest's status comes only from the virtio-serial port "status"; a
# failing status ("none") is written there before the run, so a guest
# that never reports reads as failed. A guest still running at the timeout
# is asked for its CPUs' and blocked tasks' stacks (sysrq l and w through
# QEMU's monitor) before it is stopped, about 70 s later: they land in
# console.log, the vCPUs' registers in hung-monitor.txt. qemu.cmdline
# records the QEMU command that ran.
#
# A boot whose kernel has not started init ("Run /init as init process",
# or guest/init's first line, "lab-init: started", on the console)
# LAB_BOOT_STALL_SECS after QEMU started (default 120;
# lab kernels get there in 2 to 14 s under TCG) is stopped and booted
# again on fresh disks, up to LAB_BOOT_RETRIES times (default 1); each
# stall adds at most LAB_BOOT_STALL_SECS and about a minute to the run's
# time beyond -t. Under TCG on a loaded
# host a guest has stopped in early boot, before any job or test code
# ran (docs/reliability.md). Nothing is hidden: the stalled boot's
# console is kept as console.boot-stall-N.log, its vCPUs' registers as
# boot-stall-N-monitor.txt, the verdict names it, and make check lists
# every such boot at its end. A boot that stalls every time is "hung".
set -euo pipefail
. "$(dirname "$0")/../scripts/lib.sh"

kernel= initrd= job= out= append= timeout=600 mem=1024 cpus=2 scratch=4096
nodes=2 swap=256 gdbport=
accel=${ACCEL:-tcg}
modules=() envs=()
while getopts "k:i:j:M:o:a:t:m:c:n:s:S:e:A:g:" opt; do
	case "$opt" in
	k) kernel=$OPTARG ;;
	i) initrd=$OPTARG ;;
	j) job=$OPTARG ;;
	M) modules+=("$OPTARG") ;;
	o) out=$OPTARG ;;
	a) append=$OPTARG ;;
	t) timeout=$OPTARG ;;
	m) mem=$OPTARG ;;
	c) cpus=$OPTARG ;;
	n) nodes=$OPTARG ;;
	s) scratch=$OPTARG ;;
	S) swap=$OPTARG ;;
	e)
		[[ "$OPTARG" =~ ^[A-Za-z_][A-Za-z0-9_]*=.*$ ]] ||
			die "-e wants NAME=VALUE with a shell variable name, got '$OPTARG'"
		envs+=("$OPTARG")
		;;
	A) accel=$OPTARG ;;
	g) gdbport=$OPTARG ;;
	*) die "unknown option (see the header of $0)" ;;
	esac
done
shift $((OPTIND - 1))
[[ $# -eq 0 ]] || die "unexpected arguments: $*"
[[ -n "$kernel" && -f "$kernel" ]] || die "kernel image missing: '${kernel}' (make kernel)"
[[ -n "$initrd" && -f "$initrd" ]] || die "initramfs missing: '${initrd}' (make initramfs)"
check_uint timeout "$timeout"
check_uint "memory (-m)" "$mem"
check_uint "vCPUs (-c)" "$cpus"
check_uint "scratch size (-s)" "$scratch"
check_uint "NUMA nodes (-n)" "$nodes"
check_uint "swap size (-S)" "$swap"
((timeout > 0 && mem >= 128 && cpus >= 1 && scratch >= 16)) ||
	die "timeout must be > 0, memory >= 128 MiB, vCPUs >= 1, scratch >= 16 MiB"
((nodes == 1 || nodes == 2)) || die "NUMA nodes (-n) must be 1 or 2, not $nodes"
if [[ -n "$gdbport" ]]; then
	check_uint "gdb port (-g)" "$gdbport"
	((gdbport >= 1024 && gdbport <= 65535)) || die "gdb port (-g) must be 1024..65535, not $gdbport"
fi
((swap == 0 || swap >= 16)) || die "swap (-S) must be 0 (none) or at least 16 MiB, not $swap"
stall=${LAB_BOOT_STALL_SECS:-120} retries=${LAB_BOOT_RETRIES:-1}
check_uint LAB_BOOT_STALL_SECS "$stall"
check_uint LAB_BOOT_RETRIES "$retries"
((stall >= 10)) || die "LAB_BOOT_STALL_SECS must be at least 10, got $stall"
[[ ${#envs[@]} -eq 0 || -n "$job" ]] || die "-e needs a job (-j)"
# Under TCG a guest runs tens of times slower than on hardware: the RCU
# stall detector's default 21 s and the soft-lockup detector's 20 s then
# fire on boot-time ACPI work of the debug kernel (kmemleak, KASAN,
# lockdep and slub_debug on every allocation), more so with a second
# guest beside it. 60 s of emulated time still catches a real stall.
# pci=noacpi: the PCI interrupt routing comes from SeaBIOS's $PIR table,
# not from the DSDT's _PRT method. QEMU's PIIX _PRT builds its table in
# an AML loop; the debug kernel's interpreter, beside a kernel build, hit
# ACPICA's 30 s loop timeout (AE_AML_LOOP_TIMEOUT), left the virtio
# devices without an interrupt and hung the guest at its first disk read.
# la57=off: 4-level page tables. With -cpu max the guest ran 5-level ones,
# and 6.1's KASAN takes the paging depth from X86_FEATURE_LA57 in
# boot_cpu_data; identify_cpu() clears those words before probing them
# again, so an interrupt in that window saw its direct-map irq_desc lock
# as outside the shadow: a false "wild-memory-access" at boot (stress run
# of 2026-12-05). Upstream reworked this in 2025 (a separate paging flag,
# lore 20250517091639.3807875-9-ardb+git@google.com); 6.1 has not got it.
# One host thread runs every vCPU (TCG's round robin) unless
# LAB_TCG_THREAD=multi. QEMU 7.2's multi-threaded TCG let a vCPU keep
# executing an int3 of a text patch that had finished and been synced
# (tests/vm/15-static-key-flips.sh: stock, a static key flipped under
# load: an "int3:" oops or a silent hang). Every 6.1 kernel patches its
# text at the first cgroup mkdir and at each sysctl that flips a static
# key; the two hangs seen in make check were most likely this (neither
# was caught with stacks). Round robin was also faster for the lab's
# guests on this 2-core host (a churn guest 68 s against 87 to 106 s);
# what it gives up is fine-grained interleaving of the vCPUs, which race
# tests want: use multi to hunt races, and read any int3 oops or hang
# there with this in mind (docs/reliability.md).
tcg_thread=${LAB_TCG_THREAD:-single}
[[ "$tcg_thread" == single || "$tcg_thread" == multi ]] ||
	die "LAB_TCG_THREAD must be single or multi, not '$tcg_thread'"
# LAB_TCG_NOCHAIN=1 adds QEMU's -d nochain: no translated block jumps
# straight to the next, every one goes back through the lookup. QEMU
# chains a jump only within one guest page, so code layout alone (a hot
# function that grew across a page boundary) can change what a
# microbenchmark costs under TCG; with nochain every jump costs the same
# (and everything runs slower). For telling layout from code, not for
# the lab's usual runs.
tcg_nochain=${LAB_TCG_NOCHAIN:-0}
[[ "$tcg_nochain" == 0 || "$tcg_nochain" == 1 ]] ||
	die "LAB_TCG_NOCHAIN must be 0 or 1, not '$tcg_nochain'"
tcg_boot=
case "$accel" in
tcg)
	accel_args=(-accel "tcg,thread=$tcg_thread" -cpu max,la57=off)
	((tcg_nochain == 0)) || accel_args+=(-d nochain)
	tcg_boot="rcupdate.rcu_cpu_stall_timeout=60 watchdog_thresh=30 pci=noacpi"
	;;
kvm)
	((tcg_nochain == 0)) || die "LAB_TCG_NOCHAIN=1 is a TCG option; ACCEL=kvm has no translated blocks"
	"$LAB_ROOT/vm-runner/probe-kvm.sh" ||
		die "ACCEL=kvm: the KVM probe failed on this machine; use ACCEL=tcg"
	accel_args=(-accel kvm -cpu host,la57=off)
	;;
*) die "unknown ACCEL '$accel' (tcg or kvm)" ;;
esac
if [[ -z "$out" ]]; then
	out=$(mktemp -d "${TMPDIR:-/tmp}/lab-vm.XXXXXX")
fi
# QEMU's option syntax splits file paths at commas.
[[ "$out" != *,* ]] || die "the output directory (-o) must not contain a comma: $out"

mkdir -p "$out"
rm -rf "$out/results" "$out/results.tar" "$out/console.log" "$out/status" "$out/verdict" \
	"$out/hung-monitor.txt" "$out/qemu.cmdline" "$out"/console.boot-stall-*.log \
	"$out"/boot-stall-*-monitor.txt

# Fresh ext4 scratch disk (vda) and swap disk (vdb) for every boot, and
# a failing status ("none") that only the guest can replace.
img=$out/scratch.img
swapimg=$out/swap.img
fresh_disks() {
	echo "lab-status: none (written by the host before the run)" >"$out/status"
	rm -f "$img" "$swapimg"
	truncate -s "${scratch}M" "$img"
	mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "$img"
	if ((swap > 0)); then
		truncate -s "${swap}M" "$swapimg"
		mkswap -q "$swapimg" >/dev/null
	fi
}
fresh_disks
# The monitor's socket: a short path of its own (a Unix socket path is at
# most 107 bytes, and -o may be long).
mondir=$(mktemp -d "/tmp/lab-hmp.XXXXXX")
mon=$mondir/hmp.sock
qpid=
# A run-vm that is stopped takes its QEMU with it.
trap '[[ -z "$qpid" ]] || kill "$qpid" 2>/dev/null
rm -f "$img" "$swapimg" "$out/initrd.cpio"; rm -rf "$mondir"' EXIT
disks=(-drive "file=$img,format=raw,if=virtio,cache=unsafe")
if ((swap > 0)); then
	disks+=(-drive "file=$swapimg,format=raw,if=virtio,cache=unsafe")
fi

# NUMA: one memory backend and one socket per node, so that no two CPUs
# of a node's socket sit on different nodes (the kernel warns about a
# shared LLC across nodes otherwise). A single vCPU goes to node 0.
numa=()
smp=$cpus
if ((nodes > 1)); then
	((cpus == 1 || cpus % nodes == 0)) ||
		die "vCPUs (-c $cpus) must be 1 or a multiple of the NUMA nodes (-n $nodes)"
	sockets=$((cpus == 1 ? 1 : nodes))
	cores=$((cpus / sockets))
	smp="cpus=$cpus,sockets=$sockets,cores=$cores,threads=1"
	for ((i = 0; i < nodes; i++)); do
		size=$((mem / nodes))
		((i < nodes - 1)) || size=$((mem - size * (nodes - 1)))
		numa+=(-object "memory-backend-ram,id=mem$i,size=${size}M")
		numa+=(-numa "node,nodeid=$i,memdev=mem$i")
		((i < sockets)) && numa+=(-numa "cpu,node-id=$i,socket-id=$i")
	done
fi

# The job rides in a cpio appended to the base initramfs.
rd=$initrd
if [[ -n "$job" ]]; then
	envfile=$out/job.env
	: >"$envfile"
	for e in "${envs[@]}"; do
		# Single quotes for the guest's busybox sh; a ' becomes '\''.
		v=${e#*=}
		v=${v//\'/\'\\\'\'}
		printf "export %s='%s'\n" "${e%%=*}" "$v" >>"$envfile"
	done
	"$LAB_ROOT/vm-runner/pack-job.sh" "$out/job.cpio" "$job" "$envfile" "${modules[@]}"
	cat "$initrd" "$out/job.cpio" >"$out/initrd.cpio"
	rm -f "$out/job.cpio"
	rd=$out/initrd.cpio
fi

cmdline="console=ttyS0 panic=-1 oops=panic printk.devkmsg=on $tcg_boot $append"
qemu=(qemu-system-x86_64 -nodefaults -no-reboot -display none
	"${accel_args[@]}" -smp "$smp" -m "$mem"
	"${numa[@]}"
	-kernel "$kernel" -initrd "$rd" -append "$cmdline"
	"${disks[@]}"
	-device virtio-serial-pci
	-chardev "file,id=status,path=$out/status,append=on"
	-device virtserialport,chardev=status,name=status
	-chardev "file,id=results,path=$out/results.tar"
	-device virtserialport,chardev=results,name=results
	-monitor "unix:$mon,server=on,wait=off")
# -g: paused at the first instruction until the debugger says continue
[[ -z "$gdbport" ]] || qemu+=(-gdb "tcp:127.0.0.1:$gdbport" -S)

if [[ -z "$job" ]]; then
	echo "run-vm: interactive guest; the console is logged to $out/console.log; Ctrl-a x quits QEMU"
	"${qemu[@]}" -chardev "stdio,id=con,mux=on,logfile=$out/console.log,signal=off" \
		-serial chardev:con -mon chardev=con,mode=readline
	exit 0
fi

qemu+=(-serial "file:$out/console.log")
# What ran, for the record (tests/vm/15-static-key-flips.sh reads it).
printf '%q ' "${qemu[@]}" >"$out/qemu.cmdline"
echo >>"$out/qemu.cmdline"

# stop_qemu: ask QEMU to end (timeout(1), $qpid, passes SIGTERM on), and
# kill both if they have not ended within 15 s. timeout leads its own
# process group, so the group's SIGKILL reaches QEMU too.
stop_qemu() {
	kill "$qpid" 2>/dev/null || true
	for _ in $(seq 15); do
		kill -0 "$qpid" 2>/dev/null || return 0
		sleep 1
	done
	kill -KILL -- "-$qpid" 2>/dev/null || kill -KILL "$qpid" 2>/dev/null || true
}

# boot_stalled: wait until the kernel starts init, QEMU ends, or $stall
# seconds pass; true only in the last case.
boot_stalled() {
	local t0=$SECONDS
	while ((SECONDS - t0 < stall)); do
		# The kernel's line, or guest/init's first (which a "quiet" boot
		# still prints).
		grep -aqE 'Run /init as init process|lab-init: ' "$out/console.log" 2>/dev/null && return 1
		kill -0 "$qpid" 2>/dev/null || return 1
		sleep 1
	done
	return 0
}

stalls=0
while :; do
	start=$SECONDS
	# The outer timeout is a backstop: the wait below stops QEMU first,
	# after asking a hung guest for its stacks (at most 60 s and the
	# monitor's 40).
	timeout -k 10 $((stall > timeout ? stall + 150 : timeout + 150)) "${qemu[@]}" </dev/null &
	qpid=$!
	boot_stalled || break
	stalls=$((stalls + 1))
	note "$out: boot $stalls stalled: the kernel did not start init within $stall s; console kept as console.boot-stall-$stalls.log, registers in boot-stall-$stalls-monitor.txt"
	"$LAB_ROOT/vm-runner/hmp-send.py" "$mon" "info registers -a" >"$out/boot-stall-$stalls-monitor.txt" ||
		note "warning: the monitor did not answer; no registers from the stalled boot"
	stop_qemu
	wait "$qpid" 2>/dev/null || true
	qpid=
	if [[ -e "$out/console.log" ]]; then
		mv "$out/console.log" "$out/console.boot-stall-$stalls.log"
	else
		: >"$out/console.boot-stall-$stalls.log"
	fi
	((stalls <= retries)) || break
	note "$out: booting again ($stalls of at most $retries retries), on fresh disks"
	fresh_disks
done
hung=0
if ((stalls > retries)); then
	verdict="hung: the kernel did not start init within $stall s in any of $stalls boots (console.boot-stall-*.log)"
	echo "$verdict" >"$out/verdict"
	note "$out: $verdict; the last boot's console:"
	tail -n 25 "$out/console.boot-stall-$stalls.log" | sed 's/^/  | /' >&2
	exit 2
fi
set +e
# The boot's wait above counts against the timeout.
left=$((timeout - (SECONDS - start)))
((left > 0)) || left=1
timeout "$left" tail --pid="$qpid" -f /dev/null
wrc=$?
set -e
((wrc == 0 || wrc == 124)) || die "waiting for QEMU (pid $qpid) failed: timeout exited $wrc"
if ((wrc == 124)); then
	# A hung guest is asked for its stacks before it is stopped: sysrq-l
	# backtraces every CPU (an NMI each), sysrq-w lists the tasks blocked
	# in D state with their stacks; the vCPUs' registers go beside them.
	hung=1
	note "$out: no end within $timeout s; asking the guest for its stacks (sysrq l and w, 60 s), registers in $out/hung-monitor.txt"
	"$LAB_ROOT/vm-runner/hmp-send.py" "$mon" "sendkey alt-sysrq-l" \
		"30:sendkey alt-sysrq-w" "30:info registers -a" >"$out/hung-monitor.txt" ||
		note "warning: the monitor did not answer; no stacks from the hung guest"
	stop_qemu
fi
set +e
wait "$qpid"
qrc=$?
set -e
qpid=
elapsed=$((SECONDS - start))

mkdir -p "$out/results"
if [[ -s "$out/results.tar" ]]; then
	tar -xf "$out/results.tar" -C "$out/results" 2>/dev/null ||
		note "warning: the results stream of $out is truncated"
fi
status=$(sed -n 's/^lab-status: \([0-9][0-9]*\).*/\1/p' "$out/status" | tail -n 1)

splats=$("$LAB_ROOT/vm-runner/scan-splats.sh" "$out/console.log" || true)
first_splat=$(head -n 1 <<<"$splats" | sed -E 's/^[0-9]+:\[ *[0-9.]+\] //')
if ((hung)); then
	verdict="hung: no end within ${timeout} s"
	code=2
elif [[ -z "$status" ]]; then
	verdict="died: the guest never reported a status (qemu exit $qrc)${first_splat:+; $first_splat}"
	code=2
elif [[ -n "$splats" ]]; then
	verdict="kernel splat in the console: $first_splat"
	code=3
elif [[ "$status" == 0 ]]; then
	verdict="passed"
	code=0
else
	verdict="failed: the job exited $status"
	code=1
fi
if ((stalls > 0)); then
	verdict+="; after $stalls boot(s) that stalled before init (console.boot-stall-*.log)"
fi
echo "$verdict ($elapsed s)" >"$out/verdict"
if ((code != 0)); then
	echo "run-vm: $out: $verdict after $elapsed s; console tail:" >&2
	if [[ -n "$splats" ]]; then
		head -n 20 <<<"$splats" >&2
		# The first splat whole: its RIP and call trace name the culprit.
		first_line=${splats%%:*}
		echo "run-vm: the first splat, from console line $first_line:" >&2
		sed -n "${first_line},$((first_line + 39))p" "$out/console.log" | sed 's/^/  ! /' >&2
	fi
	sysrq_line=$(grep -n -m 1 'sysrq: Show' "$out/console.log" | cut -d: -f1 || true)
	if ((hung)) && [[ -n "$sysrq_line" ]]; then
		echo "run-vm: what the hung guest printed for sysrq l and w, from console line $sysrq_line:" >&2
		# Registers and code bytes are in hung-monitor.txt and the log;
		# the stacks are what a reader needs here.
		awk -v from="$sysrq_line" 'NR >= from && n < 150 &&
			!/Code: |(R(AX|BX|CX|DX|SI|DI|BP|SP|0[89]|1[0-5])|FS|CS|CR2|PKRU): / {
			print "  ? " $0; n++ }' "$out/console.log" >&2
	elif [[ -f "$out/console.log" ]]; then
		tail -n 25 "$out/console.log" | sed 's/^/  | /' >&2
	fi
fi
exit "$code"
