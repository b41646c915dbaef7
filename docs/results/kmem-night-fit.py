#!/usr/bin/env python3
"""Least-squares fit of the night's kmem timings to the hit path's
instructions and its jump-cache misses, all on series 32b995470e35, and
the fit's prediction for the evening's run on 7b9aef387d56.

Run from the repository: python3 docs/results/kmem-night-fit.py
Times: median over the boots of each boot's best (bench.user_*_best_ns)
in kmem-night-raw.csv and kmem-evening-raw.csv. Instructions and misses
per pair (user cgroup, load 2) from the traces walk-night-VARIANT.trace
and walk-evening-VARIANT.trace, replayed by scripts/walk-tbcache.py. The
evening has traces of nokmem, pin and donate; stock is the same binary
at night, and reparent runs pin's code."""
import csv
import importlib.util
import os
import statistics

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location(
    "tbcache", os.path.join(HERE, "..", "..", "scripts", "walk-tbcache.py"))
tbcache = importlib.util.module_from_spec(spec)
spec.loader.exec_module(tbcache)

PAIRS = (("kmalloc", ("kmalloc_trace", "kfree")),
         ("cache", ("kmem_cache_alloc", "kmem_cache_free")))


def counts(trace):
    """{pair: (instructions, misses)} of the user cgroup's pairs"""
    insns = {}
    with open(os.path.join(HERE, trace)) as f:
        for line in f:
            p = line.split()
            if p[0] == "2":
                insns[p[1]] = insns.get(p[1], 0) + 1
    seqs = tbcache.blocks(os.path.join(HERE, trace))
    return {name: (sum(insns[c] for c in calls),
                   sum(tbcache.misses(seqs[("2", c)]) for c in calls))
            for name, calls in PAIRS}


def times(raw):
    vals = {}
    with open(os.path.join(HERE, raw)) as f:
        for r in csv.DictReader(f):
            vals.setdefault((r["variant"], r["metric"]), []).append(float(r["value"]))
    return lambda v, name: statistics.median(vals[(v, "bench.user_%s_best_ns" % name)])


def rows(raw, traces):
    t = times(raw)
    return [(v, name, i, m, t(v, name)) for v, trace in traces
            for name, (i, m) in counts(trace).items()]


def fit(data):
    """a + b * instructions + c * misses, by the normal equations"""
    xs = [(1.0, i, m) for _, _, i, m, _ in data]
    ys = [t for *_, t in data]
    a = [[sum(x[r] * x[c] for x in xs) for c in range(3)] for r in range(3)]
    b = [sum(x[r] * y for x, y in zip(xs, ys)) for r in range(3)]
    for i in range(3):
        for j in range(i + 1, 3):
            f = a[j][i] / a[i][i]
            a[j] = [p - f * q for p, q in zip(a[j], a[i])]
            b[j] -= f * b[i]
    coef = [0.0] * 3
    for i in reversed(range(3)):
        coef[i] = (b[i] - sum(a[i][k] * coef[k] for k in range(i + 1, 3))) / a[i][i]
    return coef


def show(title, data, coef):
    print(title)
    for v, name, i, m, t in data:
        f = coef[0] + coef[1] * i + coef[2] * m
        print("  %-14s %-8s %4d insns %3d misses %6.1f ns  fit %5.0f  %+5.1f%%"
              % (v, name, i, m, t, f, 100 * (f - t) / t))


night = rows("kmem-night-raw.csv", [(v, "walk-night-%s.trace" % v) for v in
                                    ("nokmem", "series-nokmem", "stock", "shared", "pin")])
evening = rows("kmem-evening-raw.csv", [("nokmem", "walk-evening-nokmem.trace"),
                                        ("stock", "walk-night-stock.trace"),
                                        ("pin", "walk-evening-pin.trace"),
                                        ("reparent", "walk-evening-pin.trace"),
                                        ("donate", "walk-evening-donate.trace")])
coef = fit(night)
print("ns per pair = %.0f + %.2f x instructions + %.1f x jump-cache misses" % tuple(coef))
show("fitted, series 32b995470e35 (night):", night, coef)
show("predicted, series 7b9aef387d56 (evening, not fitted):", evening, coef)
