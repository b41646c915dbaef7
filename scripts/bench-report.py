#!/usr/bin/env python3
"""Ratios of the accounting benchmark (lab_kmem_bench, churn job with
BENCH=1) and of the workloads' throughput, against the floor and against
stock, from one scenario run.

Usage: bench-report.py RUN_DIR
RUN_DIR/raw.csv (written by compare.py) must hold bench.* figures; the
variant labelled "nokmem" is the floor (stock booted with
cgroup.memory=nokmem), the one labelled "stock" the reference. Each value
is a mean over the run's repetitions (each repetition is the best or the
median of the module's own repetitions); sd is over the run's
repetitions; '*' marks a ratio whose difference Welch's t-test finds
significant (p < 0.05). Writes RUN_DIR/bench.txt (and prints it) and
RUN_DIR/bench.png (gnuplot), the user-cgroup costs per variant.
"""
import csv
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from compare import mean_sd, welch_p  # noqa: E402

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


def throughput(d):
    """Per repetition: churn ops/s, and fs_mark files/s averaged over rounds."""
    fsm = [v for k, v in sorted(d.items()) if k.endswith(".fsmark_files_per_s")]
    per_rep = [sum(x) / len(x) for x in zip(*fsm)] if fsm else []
    return {"churn.churn_ops_per_s": d.get("churn.churn_ops_per_s", []),
            "fsmark_files_per_s (rounds mean)": per_rep}


def ratio_cell(vals, ref):
    if not vals or not ref:
        return "-"
    m, _ = mean_sd(vals)
    r, _ = mean_sd(ref)
    if r == 0:
        return "-"
    p = welch_p(ref, vals)
    mark = "*" if p is not None and p < 0.05 and vals is not ref else " "
    return "%.2f%s" % (m / r, mark)


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
    out = ["ns per allocation+free pair (64 bytes); mean +- sd over repetitions;",
           "under each: fl = ratio to the floor (%s: stock with cgroup.memory=nokmem)," % FLOOR,
           "st = ratio to %s; * Welch's t-test p < 0.05" % REF, ""]
    head = "%-34s" % "metric" + "".join("%26s" % l for l in labels)
    out.append(head)
    for metric in rows:
        line = "%-34s" % metric[len("bench."):]
        ratios = ["%-34s" % ""]
        for l in labels:
            vals = data.get(l, {}).get(metric, [])
            if not vals:
                line += "%26s" % "-"
                ratios.append("%26s" % "")
                continue
            m, sd = mean_sd(vals)
            line += "%26s" % ("%.0f +-%.0f" % (m, sd))
            ratios.append("%26s" % ("fl %s st %s" % (
                ratio_cell(vals, data[FLOOR].get(metric, [])),
                ratio_cell(vals, data[REF].get(metric, [])))))
        out.append(line)
        out.append("".join(ratios))
    out.append("")
    out.append("throughput (higher is better); st = ratio to stock")
    out.append(head)
    tps = {l: throughput(data.get(l, {})) for l in labels}
    for metric in tps[REF]:
        line = "%-34s" % metric
        ratios = "%-34s" % ""
        for l in labels:
            vals = tps[l][metric]
            if not vals:
                line += "%26s" % "-"
                ratios += "%26s" % ""
                continue
            m, sd = mean_sd(vals)
            line += "%26s" % ("%.0f +-%.0f" % (m, sd))
            ratios += "%26s" % ("st " + ratio_cell(vals, tps[REF][metric]))
        out.append(line)
        out.append(ratios)
    text = "\n".join(out) + "\n"
    with open(os.path.join(run, "bench.txt"), "w") as f:
        f.write(text)
    sys.stdout.write(text)

    plotted = [b for b in BENCHES
               if any("bench.user_%s_best_ns" % b in data.get(l, {}) for l in labels)]
    dat = os.path.join(run, "bench.dat")
    with open(dat, "w") as f:
        f.write("variant " + " ".join(plotted) + "\n")
        for l in labels:
            d = data.get(l, {})
            cells = []
            for b in plotted:
                vals = d.get("bench.user_%s_best_ns" % b, [])
                cells.append("%.1f" % mean_sd(vals)[0] if vals else "NaN")
            f.write(l + " " + " ".join(cells) + "\n")
    script = """
set terminal pngcairo size 900,500 noenhanced
set output '%s'
set title 'Accounted allocation+free in a user cgroup (best, mean over repetitions)'
set ylabel 'ns per pair'
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set key top left
set yrange [0:*]
plot for [i=2:%d] '%s' using i:xtic(1) title columnheader(i)
""" % (os.path.join(run, "bench.png"), len(plotted) + 1, dat)
    try:
        subprocess.run(["gnuplot"], input=script, text=True, check=True)
        print("bench-report: plot: %s" % os.path.join(run, "bench.png"))
    except (OSError, subprocess.CalledProcessError) as e:
        sys.exit("bench-report: gnuplot failed: %s" % e)


if __name__ == "__main__":
    main()
