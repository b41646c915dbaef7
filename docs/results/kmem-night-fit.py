#!/usr/bin/env python3
"""Least-squares fit of the night's kmem timings (kmem-night-bench.txt,
user cgroup, one CPU, medians of each boot's best, ns per pair) to the
hit path's instructions (walk-night-info.txt) and its jump-cache misses
(walk-night-tbcache.txt), all on series 32b995470e35; then the fit's
prediction for the evening's run on 7b9aef387d56 (kmem-evening-bench.txt)
from that binary's traces (walk-evening-*.trace, misses by
scripts/walk-tbcache.py). Prints the coefficients and every error."""
# variant: (instructions, misses, ns) for the kmalloc pair, then the cache pair
NIGHT = {"nokmem": ((191, 2, 1962), (185, 2, 2015)),
         "series-nokmem": ((189, 6, 2132), (184, 0, 1968)),
         "stock": ((598, 22, 4009), (595, 25, 4096)),
         "shared": ((598, 29, 4234), (597, 26, 4148)),
         "pin": ((236, 17, 2624), (237, 9, 2405))}
EVENING = {"nokmem": ((191, 2, 1992), (185, 2, 2017)),
           "stock": ((598, 22, 3939), (595, 25, 4017)),
           "pin": ((236, 11, 2428), (237, 11, 2460)),
           "reparent": ((236, 11, 2408), (237, 11, 2480)),
           "donate": ((244, 13, 2534), (256, 13, 2606))}


def fit(rows):
    """a + b * instructions + c * misses, by the normal equations"""
    xs = [(1.0, i, m) for i, m, _ in rows]
    ys = [t for _, _, t in rows]
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


def show(title, runs, coef):
    print(title)
    for v, pairs in runs.items():
        for name, (i, m, t) in zip(("kmalloc", "cache"), pairs):
            f = coef[0] + coef[1] * i + coef[2] * m
            print("  %-14s %-8s %4d insns %3d misses %5d ns  fit %5.0f  %+5.1f%%"
                  % (v, name, i, m, t, f, 100 * (f - t) / t))


coef = fit([p for pairs in NIGHT.values() for p in pairs])
print("ns per pair = %.0f + %.2f x instructions + %.1f x jump-cache misses" % tuple(coef))
show("fitted, series 32b995470e35 (night):", NIGHT, coef)
show("predicted, series 7b9aef387d56 (evening, not fitted):", EVENING, coef)
