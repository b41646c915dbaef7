#!/usr/bin/env bash
# make run: build what is missing, run a scenario's variants in guests,
# print the comparison. Results land in results/<date>-<scenario>/.
# Usage: run-scenario.sh SCENARIO QUICK [PARAMS [VARIANTS [REPS]]]
# PARAMS: "NAME=VALUE ..." overriding the scenario's own param lines (a
# size, a count); a NAME the scenario does not declare is refused.
# VARIANTS: "LABEL ..." runs only these of the scenario's variants, in the
# scenario's order (the first one left is the reference of the tables);
# REPS: repetitions per variant instead of the scenario's (or QUICK's).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

[[ $# -ge 2 && $# -le 5 ]] || die "usage: ${0##*/} SCENARIO QUICK [PARAMS [VARIANTS [REPS]]]"
scenario=$1
quick=$2
overrides=${3:-}
only=${4:-}
reps_override=${5:-}
[[ "$quick" == 0 || "$quick" == 1 ]] || die "QUICK must be 0 or 1, got '$quick'"
file=$LAB_ROOT/scenarios/$scenario.scn
if [[ ! "$scenario" =~ ^[a-z0-9_-]+$ || ! -f "$file" ]]; then
	avail=$(cd "$LAB_ROOT/scenarios" && ls ./*.scn | sed 's|^\./||; s|\.scn$||' | tr '\n' ' ')
	die "unknown scenario '$scenario' (available: $avail)"
fi

labels=() kernels=() cmdlines=() job= reps=1 quick_reps=1 mem=512 timeout=600
params=() quick_params=() reports=() modules=() posts=()
lineno=0
while read -r key rest; do
	lineno=$((lineno + 1))
	[[ -z "$key" || "$key" == \#* ]] && continue
	case "$key" in
	variant)
		read -r label kernel cmdline <<<"$rest"
		[[ -n "$kernel" ]] || die "$file:$lineno: variant needs a label and a kernel"
		check_variant "$kernel"
		labels+=("$label") kernels+=("$kernel") cmdlines+=("${cmdline:-}")
		;;
	job) job=$LAB_ROOT/$rest ;;
	reps) reps=$rest ;;
	quick-reps) quick_reps=$rest ;;
	mem) mem=$rest ;;
	timeout) timeout=$rest ;;
	param | quick-param)
		[[ "$rest" =~ ^[A-Z_][A-Z0-9_]*\ [A-Za-z0-9._-]+$ ]] ||
			die "$file:$lineno: $key needs NAME VALUE"
		if [[ "$key" == param ]]; then
			params+=("${rest% *}=${rest#* }")
		else
			quick_params+=("${rest% *}=${rest#* }")
		fi
		;;
	report) reports+=("$rest") ;;
	module)
		[[ -f "$LAB_ROOT/mm-tests/modules/$rest.c" ]] ||
			die "$file:$lineno: no module mm-tests/modules/$rest.c"
		modules+=("$rest")
		;;
	post)
		[[ -x "$LAB_ROOT/$rest" ]] || die "$file:$lineno: post script '$rest' is not executable"
		posts+=("$LAB_ROOT/$rest")
		;;
	*) die "$file:$lineno: unknown key '$key'" ;;
	esac
done <"$file"
((${#labels[@]} > 0)) || die "$file names no variant"
[[ -n "$job" && -f "$job" ]] || die "$file: job '${job#"$LAB_ROOT"/}' does not exist"
for v in reps quick_reps mem timeout; do
	check_uint "$file: $v" "${!v}"
done
# set_param NAME=VALUE: give the job NAME=VALUE, in place of the value it
# had, so that info.txt and params list each parameter once.
set_param() {
	local i
	for i in "${!params[@]}"; do
		if [[ "${params[i]%%=*}" == "${1%%=*}" ]]; then
			params[i]=$1
			return
		fi
	done
	params+=("$1")
}
if [[ -n "$only" ]]; then
	for want in $only; do
		[[ " ${labels[*]} " == *" $want "* ]] ||
			die "VARIANTS: scenario '$scenario' has no variant '$want' (it has: ${labels[*]})"
	done
	kept_labels=() kept_kernels=() kept_cmdlines=()
	for i in "${!labels[@]}"; do
		[[ " $only " == *" ${labels[i]} "* ]] || continue
		kept_labels+=("${labels[i]}") kept_kernels+=("${kernels[i]}")
		kept_cmdlines+=("${cmdlines[i]}")
	done
	labels=("${kept_labels[@]}") kernels=("${kept_kernels[@]}")
	cmdlines=("${kept_cmdlines[@]}")
fi
declared=" ${params[*]%%=*} ${quick_params[*]%%=*} "
if ((quick == 1)); then
	reps=$quick_reps
	for p in "${quick_params[@]}"; do
		set_param "$p"
	done
fi
if [[ -n "$reps_override" ]]; then
	check_uint REPS "$reps_override"
	((reps_override >= 1)) || die "REPS must be at least 1, got $reps_override"
	reps=$reps_override
fi
for o in $overrides; do
	[[ "$o" =~ ^[A-Z_][A-Z0-9_]*=[A-Za-z0-9._-]+$ ]] ||
		die "PARAMS: '$o' is not NAME=VALUE (VALUE: letters, digits, '.', '_', '-')"
	[[ "$declared" == *" ${o%%=*} "* ]] ||
		die "PARAMS: scenario '$scenario' has no parameter ${o%%=*} (it has:$(tr ' ' '\n' <<<"$declared" | sort -u | tr '\n' ' '))"
	set_param "$o"
done

# LAB_PREBUILT=1 (make check, whose guest tests run side by side after
# it built everything): use what is built, rebuild nothing.
if [[ "${LAB_PREBUILT:-0}" == 1 ]]; then
	for k in "${kernels[@]}"; do
		[[ -f "$LAB_BUILD/$k/bzImage" ]] || die "LAB_PREBUILT=1 but $LAB_BUILD/$k/bzImage is missing"
		for m in "${modules[@]}"; do
			[[ -f "$LAB_BUILD/$k/modules/$m.ko" ]] ||
				die "LAB_PREBUILT=1 but $LAB_BUILD/$k/modules/$m.ko is missing"
		done
	done
	[[ -f "$LAB_BUILD/initramfs.cpio" ]] || die "LAB_PREBUILT=1 but $LAB_BUILD/initramfs.cpio is missing"
else
	"$LAB_ROOT/scripts/deps.sh"
	for k in $(printf '%s\n' "${kernels[@]}" | sort -u); do
		"$LAB_ROOT/scripts/kernel-build.sh" "$k" >/dev/null
		if ((${#modules[@]} > 0)); then
			"$LAB_ROOT/scripts/modules-build.sh" "$k"
		fi
	done
	"$LAB_ROOT/scripts/initramfs-build.sh" >/dev/null
fi

# LAB_RUN_DIR: where the tests want a run's results (default results/).
run=${LAB_RUN_DIR:-$LAB_ROOT/results/$(date +%Y%m%d-%H%M%S)-$scenario}
mkdir -p "$run"
printf '%s\n' "${labels[@]}" >"$run/variants"
printf '%s\n' "${reports[@]}" >"$run/report"
# The guest job and its parameters (run-vm.sh -e), kept with the results.
cp "$job" "$run/job.sh"
printf '%s\n' "${params[@]}" >"$run/params"
eargs=()
for p in "${params[@]}"; do
	eargs+=(-e "$p")
done
{
	echo "scenario: $scenario (QUICK=$quick, $reps repetitions)"
	echo "variants: ${labels[*]}${only:+ (VARIANTS chose them)}"
	echo "date: $(date -u +%FT%TZ)"
	echo "kernel package: $LAB_SRCPKG $(installed_srcpkg_version)"
	echo "series: $(series_patches | sed 's|.*/||' | tr '\n' ' ')"
	mapfile -t built < <(printf '%s\n' "${kernels[@]}" | sort -u)
	build_conditions "${built[@]}"
	echo "guests: $mem MiB; vCPUs and NUMA nodes: -smp and -numa in each run's qemu.cmdline"
	echo "parameters: ${params[*]}"
	echo "host: $(nproc) CPUs, $(free -g | awk '/^Mem:/ { print $2 }') GiB, accel ${ACCEL:-tcg} (TCG threads: ${LAB_TCG_THREAD:-single}, nochain: ${LAB_TCG_NOCHAIN:-0})"
} >"$run/info.txt"
cat "$run/info.txt"

total=$((reps * ${#labels[@]}))
n=0
t0=$SECONDS
# Repetitions interleave the variants, so slow drift of the host hits all
# alike, and each repetition starts one variant later, so that none is
# always the first guest after a pause.
nv=${#labels[@]}
for ((r = 1; r <= reps; r++)); do
	for ((k = 0; k < nv; k++)); do
		i=$(((k + r - 1) % nv))
		n=$((n + 1))
		out=$run/${labels[i]}-$r
		echo "run: [$n/$total] ${labels[i]} repetition $r"
		margs=()
		for m in "${modules[@]}"; do
			margs+=(-M "$LAB_BUILD/${kernels[i]}/modules/$m.ko")
		done
		if ! "$LAB_ROOT/vm-runner/run-vm.sh" -k "$LAB_BUILD/${kernels[i]}/bzImage" \
			-i "$LAB_BUILD/initramfs.cpio" -j "$run/job.sh" -o "$out" \
			-t "$timeout" -m "$mem" -a "${cmdlines[i]}" "${margs[@]}" "${eargs[@]}"; then
			die "${labels[i]} repetition $r failed: $(cat "$out/verdict")"
		fi
	done
done
# What the guests themselves reported (guest/init's guest.txt), and the
# run's wall time, beside what was asked for above.
{
	for key in vcpus numa_nodes; do
		seen=$(cat "$run"/*/results/guest.txt 2>/dev/null | awk -v k="$key" '$1 == k { print $2 }' |
			sort -u | paste -sd ' ' - || true)
		echo "guests reported $key: ${seen:-none} (every run's results/guest.txt)"
	done
	echo "wall time of the guest runs: $((SECONDS - t0)) s, ended $(date -u +%FT%TZ)"
} >>"$run/info.txt"
tail -n 3 "$run/info.txt"
echo
"$LAB_ROOT/scripts/compare.py" "$run"
"$LAB_ROOT/scripts/plot-rounds.sh" "$run"
for p in "${posts[@]}"; do
	"$p" "$run"
done
echo "results: $run"
