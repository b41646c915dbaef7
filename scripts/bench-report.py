#!/usr/bin/env python3
"""Ratios of the accounting benchmark (lab_kmem_bench, churn job with
BENCH=1) and of the workloads' throughput, against the floor and against
stock, from one scenario run.

Usage: bench-report.py RUN_DIR
RUN_DIR/raw.csv (written by compare.py) must hold bench.* figures; the
variant labelled "nokmem" is the floor (stock booted with
cgroup.memory=nokmem), the one labelled "stock" the reference. Each cell
is the median over the run's repetitions (one boot each; each boot's
figure is the best or the median of the module's own repetitions) with
the lowest and highest boot. A ratio is of medians, with a 95% bootstrap
interval (resampling the boots of both sides, fixed seed); '*' marks a
ratio whose two sides the Mann-Whitney U test tells apart (p < 0.05;
exact, so three boots a side can never earn one; the interval needs
five).
TCG guests are fast or slow for a whole boot: medians and ranks keep a
few slow boots from deciding a ratio, and the interval says which
differences the run resolves. Writes RUN_DIR/bench.txt (and prints it)
and RUN_DIR/bench.png (gnuplot), the user-cgroup costs per variant.
"""
import csv
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from compare import cell, emit, median, ratio_cell  # noqa: E402

BENCHES = ["kmalloc", "cache", "kmalloc_x", "cache_x"]
FLOOR, REF = "nokmem", "stock"


def load(run):
    data = {}
    with open(os.path.join(run, "raw.csv")) as f:
        for row in csv.DictReader(f):
            data.setdefault(row["variant"], {}).setdefault(
                row["metric"], []).append(float(row["value"]))
    with open(os.path.join(run, "variants")) as f:
        labels = [line.strip() for line in f if line.strip()]
    return labels, data


def workloads(d):
    """Per repetition: the workloads' figures, as (label, values)."""
    fsm = [v for k, v in sorted(d.items()) if k.endswith(".fsmark_files_per_s")]
    per_rep = [sum(x) / len(x) for x in zip(*fsm)] if fsm else []
    return {
        "hackbench_ms (lower: better)": d.get("bench.hackbench_median_ms", []),
        "fileloop_ops_per_s": d.get("bench.fileloop_median_ops_per_s", []),
        "churn_ops_per_s": d.get("churn.churn_ops_per_s", []),
        "fsmark_files_per_s (r mean)": per_rep}


def main():
    if len(sys.argv) != 2 or not os.path.isfile(os.path.join(sys.argv[1], "raw.csv")):
        sys.exit("usage: bench-report.py RUN_DIR (with raw.csv)")
    run = sys.argv[1]
    labels, data = load(run)
    if not any(k.startswith("bench.") for d in data.values() for k in d):
        print("bench-report: no bench.* figures in %s: nothing to report" % run)
        return
    for need in (FLOOR, REF):
        if need not in labels:
            sys.exit("bench-report: the run has no variant '%s'" % need)
    rows = []
    for ctx in ("user", "root"):
        for b in BENCHES:
            for stat in ("best", "median"):
                rows.append("bench.%s_%s_%s_ns" % (ctx, b, stat))
    n = {l: max([len(v) for v in data.get(l, {}).values()] or [0]) for l in labels}
    out = ["ns per allocation+free pair (64 bytes); median [lowest-highest] over",
           "boots (n per variant in the header); under each, ratios of medians:",
           "fl = to the floor (%s: stock with cgroup.memory=nokmem), st = to %s," % (FLOOR, REF),
           "[95% bootstrap interval, from 5 boots a side]; * Mann-Whitney U test",
           "p < 0.05 (exact; with 3 boots a side no p is below 0.1, so no star)", ""]
    head = "%-30s" % "metric" + "".join("%32s" % ("%s (n=%d)" % (l, n[l])) for l in labels)
    out.append(head)
    for metric in rows:
        line = "%-30s" % metric[len("bench."):]
        fl = ["%-30s" % ""]
        st = ["%-30s" % ""]
        for l in labels:
            vals = data.get(l, {}).get(metric, [])
            if not vals:
                line += "%32s" % "-"
                fl.append("%32s" % "")
                st.append("%32s" % "")
                continue
            line += "%32s" % cell(vals)
            fl.append("%32s" % ("fl " + ratio_cell(vals, data[FLOOR].get(metric, []))))
            st.append("%32s" % ("st " + ratio_cell(vals, data[REF].get(metric, []))))
        if all(not data.get(l, {}).get(metric) for l in labels):
            continue
        out.append(line)
        out.append("".join(fl))
        out.append("".join(st))
    out.append("")
    out.append("workloads in the user cgroup, median [lowest-highest] over boots;")
    out.append("fl, st: ratios of medians to the floor and to stock, as above")
    out.append(head)
    tps = {l: workloads(data.get(l, {})) for l in labels}
    for metric in tps[REF]:
        if all(not tps[l][metric] for l in labels):
            continue
        line = "%-30s" % metric
        fl = ["%-30s" % ""]
        st = ["%-30s" % ""]
        for l in labels:
            vals = tps[l][metric]
            if not vals:
                line += "%32s" % "-"
                fl.append("%32s" % "")
                st.append("%32s" % "")
                continue
            line += "%32s" % cell(vals)
            fl.append("%32s" % ("fl " + ratio_cell(vals, tps[FLOOR][metric])))
            st.append("%32s" % ("st " + ratio_cell(vals, tps[REF][metric])))
        out.append(line)
        out.append("".join(fl))
        out.append("".join(st))
    emit(os.path.join(run, "bench.txt"), "\n".join(out) + "\n")

    plotted = [b for b in BENCHES
               if any("bench.user_%s_best_ns" % b in data.get(l, {}) for l in labels)]
    dat = os.path.join(run, "bench.dat")
    with open(dat, "w") as f:
        f.write("variant " + " ".join("%s %s_lo %s_hi" % (b, b, b) for b in plotted) + "\n")
        for l in labels:
            d = data.get(l, {})
            cells = []
            for b in plotted:
                vals = d.get("bench.user_%s_best_ns" % b, [])
                if vals:
                    cells.append("%.1f %.1f %.1f" % (median(vals), min(vals), max(vals)))
                else:
                    cells.append("NaN NaN NaN")
            f.write(l + " " + " ".join(cells) + "\n")
    nboots = max([n[l] for l in labels] or [0])
    try:
        conditions = subprocess.run(
            [os.path.join(os.path.dirname(os.path.abspath(__file__)), "run-conditions.sh"), run],
            capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError) as e:
        sys.exit("bench-report: no run conditions for the plot title: %s" % e)
    script = """
set terminal pngcairo size 1000,540 noenhanced
set output '%s'
set title "Accounted 64-byte allocation+free in a user cgroup (_x: freed on the other CPU)\\nmedian over %d boots of the best of each boot; bars: lowest to highest boot\\n%s"
set ylabel 'ns per allocation+free pair'
set style data histograms
set style histogram errorbars gap 1 lw 1
set style fill solid 0.8 border -1
set key outside right top vertical
set yrange [0:*]
plot for [i=0:%d] '%s' using (column(2+3*i)):(column(3+3*i)):(column(4+3*i)):xtic(1) title columnheader(2+3*i)
""" % (os.path.join(run, "bench.png"), nboots, conditions, len(plotted) - 1, dat)
    try:
        subprocess.run(["gnuplot"], input=script, text=True, check=True)
        print("bench-report: plot: %s" % os.path.join(run, "bench.png"))
    except (OSError, subprocess.CalledProcessError) as e:
        sys.exit("bench-report: gnuplot failed: %s" % e)


if __name__ == "__main__":
    main()
