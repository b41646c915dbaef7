#!/usr/bin/env python3
"""Medians and ratios to the run's first variant, for the figures the
scenario reports.

Usage: ratio-report.py RUN_DIR
RUN_DIR/raw.csv (written by compare.py), RUN_DIR/variants (the first
label is the reference) and RUN_DIR/report (the scenario's report
patterns: the rows). Each cell is the median over the repetitions (one
boot each) with the lowest and highest boot; under it, the ratio of its
median to the reference's, with a 95% bootstrap interval from 5 boots a
side and '*' where the exact Mann-Whitney U test tells the two apart
(p < 0.05). A reported figure STEM_gmean whose run also has figures
STEM_1, STEM_2, ... (the boot's pairs, whose geometric mean it is) gets
a second table: every pair of a variant pooled, their geometric mean
with a 95% interval from resampling whole boots, and its ratio to the
reference's. Writes RUN_DIR/ratios.txt and prints it.
"""
import csv
import math
import os
import random
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from compare import cell, emit, ratio_cell  # noqa: E402


def pooled_gmean(boots, ref=None, draws=4000):
    """Geometric mean of every value in boots (one list per boot), with a
    95% interval from resampling whole boots; with ref (boots of the
    reference), the ratio of the two geometric means and its interval."""
    def gm(sample):
        logs = [math.log(v) for b in sample for v in b]
        return math.exp(sum(logs) / len(logs))
    est = gm(boots) / (gm(ref) if ref else 1.0)
    rng = random.Random(1)
    rs = []
    for _ in range(draws):
        r = gm([rng.choice(boots) for _ in boots])
        if ref:
            r /= gm([rng.choice(ref) for _ in ref])
        rs.append(r)
    rs.sort()
    return est, rs[int(0.025 * draws)], rs[int(0.975 * draws) - 1]


def pooled_pairs(run, metrics, labels):
    """The pooled table's lines for every reported STEM_gmean figure whose
    pairs STEM_K are in raw.csv; [] if there is none."""
    stems = [m[:-len("_gmean")] for m in metrics if m.endswith("_gmean")]
    pairs = {}
    with open(os.path.join(run, "raw.csv")) as f:
        for row in csv.DictReader(f):
            for stem in stems:
                k = row["metric"][len(stem) + 1:]
                if row["metric"].startswith(stem + "_") and k.isdigit():
                    value = float(row["value"])
                    if value <= 0:
                        sys.exit("ratio-report: %s %s rep %s is %s, not a ratio" %
                                 (row["variant"], row["metric"], row["rep"], row["value"]))
                    pairs.setdefault(stem, {}).setdefault(row["variant"], {}).setdefault(
                        row["rep"], []).append(value)
    out = []
    for stem in stems:
        if stem not in pairs:
            continue
        by = {l: list(pairs[stem].get(l, {}).values()) for l in labels}
        out += ["", "Every pair (%s_K) of a variant pooled: geometric mean" % stem,
                "[95% interval, 4000 resamplings of whole boots] (pairs, boots);",
                "under it, its ratio to %s's, resampled the same way" % labels[0], ""]
        line, ratios = "%-34s" % "pooled", "%-34s" % ""
        for l in labels:
            if not by[l]:
                line += "%30s" % "-"
                ratios += "%30s" % ""
                continue
            est, lo, hi = pooled_gmean(by[l])
            n = sum(len(b) for b in by[l])
            line += "%30s" % ("%.3f [%.3f-%.3f] (%d, %d)" % (est, lo, hi, n, len(by[l])))
            if l == labels[0] or not by[labels[0]]:
                ratios += "%30s" % ("1.000" if l == labels[0] else "")
            else:
                est, lo, hi = pooled_gmean(by[l], by[labels[0]])
                ratios += "%30s" % ("%.3f [%.3f-%.3f]" % (est, lo, hi))
        out += [line, ratios]
    return out


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: ratio-report.py RUN_DIR")
    run = sys.argv[1]
    for f in ("raw.csv", "variants", "report"):
        if not os.path.isfile(os.path.join(run, f)):
            sys.exit("ratio-report: %s has no %s" % (run, f))
    with open(os.path.join(run, "variants")) as f:
        labels = [line.strip() for line in f if line.strip()]
    with open(os.path.join(run, "report")) as f:
        pats = [re.compile(line.strip()) for line in f if line.strip()]
    data, metrics = {}, []
    with open(os.path.join(run, "raw.csv")) as f:
        for row in csv.DictReader(f):
            m = row["metric"]
            if not any(p.search(m) for p in pats):
                continue
            if m not in metrics:
                metrics.append(m)
            data.setdefault(row["variant"], {}).setdefault(m, []).append(
                float(row["value"]))
    metrics.sort(key=lambda m: min(i for i, p in enumerate(pats) if p.search(m)))
    if not metrics:
        sys.exit("ratio-report: no figure in %s matches the report patterns" % run)
    ref = labels[0]
    n = {l: max([len(v) for v in data.get(l, {}).values()] or [0]) for l in labels}
    width = max(len(m) for m in metrics) + 2
    out = ["median [lowest-highest] over boots (n per variant in the header);",
           "under each, the ratio of medians to %s [95%% bootstrap interval," % ref,
           "from 5 boots a side]; * exact Mann-Whitney U test p < 0.05", ""]
    out.append("%-*s" % (width, "metric") +
               "".join("%28s" % ("%s (n=%d)" % (l, n[l])[:27]) for l in labels))
    for m in metrics:
        line, ratios = "%-*s" % (width, m), "%-*s" % (width, "")
        big = max(abs(v) for l in labels for v in data.get(l, {}).get(m, [0]))
        fmt = "%.0f" if big >= 100 else "%.1f" if big >= 10 else "%.3f"
        for l in labels:
            vals = data.get(l, {}).get(m, [])
            refv = data.get(ref, {}).get(m, [])
            line += "%28s" % (cell(vals, fmt) if vals else "-")
            ratios += "%28s" % (ratio_cell(vals, refv) if vals else "")
        out += [line, ratios]
    out += pooled_pairs(run, metrics, labels)
    emit(os.path.join(run, "ratios.txt"), "\n".join(out) + "\n")


if __name__ == "__main__":
    main()
