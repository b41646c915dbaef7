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
(p < 0.05). Writes RUN_DIR/ratios.txt and prints it.
"""
import csv
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from compare import cell, emit, ratio_cell  # noqa: E402


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
    emit(os.path.join(run, "ratios.txt"), "\n".join(out) + "\n")


if __name__ == "__main__":
    main()
