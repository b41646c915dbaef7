#!/usr/bin/env python3
"""Compare the variants of one scenario run, in the style of mmtests'
compare-kernels: a row per metric, the mean and standard deviation of each
variant over its repetitions, the delta against the first variant, and a
'*' where Welch's t-test finds the difference significant (p < 0.05).
Against a negative base (such as -1, "never") the delta is the difference
itself, marked 'abs', not a percentage.

Usage: compare.py RUN_DIR
RUN_DIR holds 'variants' (one label per line, in column order), optionally
'report' (regular expressions, one per line: the rows to print) and one
directory per guest run, LABEL-REP/results/figures.txt, with lines
"metric=value" (guest/lab-results.sh). Writes RUN_DIR/raw.csv and RUN_DIR/table.txt and prints
the table.
"""
import math
import os
import random
import re
import sys


def betacf(a, b, x):
    """Continued fraction of the regularised incomplete beta function."""
    tiny = 1e-300
    qab, qap, qam = a + b, a + 1.0, a - 1.0
    c, d = 1.0, 1.0 - qab * x / qap
    d = 1.0 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 300):
        m2 = 2 * m
        aa = m * (b - m) * x / ((qam + m2) * (a + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + aa / c
        c = c if abs(c) > tiny else tiny
        h *= d * c
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + aa / c
        c = c if abs(c) > tiny else tiny
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < 1e-12:
            break
    return h


def betai(a, b, x):
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    lbeta = math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b)
    front = math.exp(lbeta + a * math.log(x) + b * math.log(1.0 - x))
    if x < (a + 1.0) / (a + b + 2.0):
        return front * betacf(a, b, x) / a
    return 1.0 - front * betacf(b, a, 1.0 - x) / b


def mean_sd(xs):
    m = sum(xs) / len(xs)
    if len(xs) < 2:
        return m, 0.0
    return m, math.sqrt(sum((x - m) ** 2 for x in xs) / (len(xs) - 1))


def welch_p(xs, ys):
    """Two-sided p-value of Welch's t-test, or None if it cannot be run."""
    if len(xs) < 2 or len(ys) < 2:
        return None
    mx, sx = mean_sd(xs)
    my, sy = mean_sd(ys)
    vx, vy = sx * sx / len(xs), sy * sy / len(ys)
    if vx + vy == 0.0:
        # No spread on either side: there is nothing to test with.
        return None
    t = (mx - my) / math.sqrt(vx + vy)
    df = (vx + vy) ** 2 / (vx * vx / (len(xs) - 1) + vy * vy / (len(ys) - 1))
    return betai(df / 2.0, 0.5, df / (df + t * t))


def median(xs):
    s = sorted(xs)
    n = len(s)
    return s[n // 2] if n % 2 else (s[n // 2 - 1] + s[n // 2]) / 2.0


def _midranks(pooled):
    """Doubled midranks (integers) of the sorted values, and the tie term."""
    ranks = [0] * len(pooled)
    ties = 0
    i = 0
    while i < len(pooled):
        j = i
        while j + 1 < len(pooled) and pooled[j + 1][0] == pooled[i][0]:
            j += 1
        for k in range(i, j + 1):
            ranks[k] = i + j + 2
        t = j - i + 1
        ties += t ** 3 - t
        i = j + 1
    return ranks, ties


def _exact_rank_sum_p(ranks, n1, observed):
    """Two-sided permutation p of the first sample's doubled rank sum:
    the share of all ways to pick n1 of the ranks whose sum is at least as
    far from its mean as observed."""
    n = len(ranks)
    # ways[k][s]: subsets of k of the ranks seen so far with sum s
    ways = [dict() for _ in range(n1 + 1)]
    ways[0][0] = 1
    for r in ranks:
        for k in range(n1, 0, -1):
            for s, c in ways[k - 1].items():
                ways[k][s + r] = ways[k].get(s + r, 0) + c
    total = sum(ways[n1].values())
    mean = n1 * sum(ranks) / n
    far = abs(observed - mean)
    hit = sum(c for s, c in ways[n1].items() if abs(s - mean) >= far - 1e-9)
    return min(1.0, hit / total)


def mannwhitney_p(xs, ys):
    """Two-sided p-value of the Mann-Whitney U test, or None if it cannot
    be run: fewer than 3 values on a side, or every value the same. Exact
    (all permutations, ties kept as midranks) up to 40 values in all,
    beyond that the normal approximation with tie and continuity
    corrections. It compares ranks, not means, so a few slow boots on one
    side do not decide it. With 3 values a side no p is below 0.1."""
    n1, n2 = len(xs), len(ys)
    if n1 < 3 or n2 < 3:
        return None
    pooled = sorted([(v, 0) for v in xs] + [(v, 1) for v in ys])
    ranks, ties = _midranks(pooled)
    n = n1 + n2
    if ties == n ** 3 - n:
        return None
    r1 = sum(r for r, (_, side) in zip(ranks, pooled) if side == 0)
    if n <= 40:
        return _exact_rank_sum_p(ranks, n1, r1)
    u = r1 / 2.0 - n1 * (n1 + 1) / 2.0
    var = n1 * n2 / 12.0 * ((n + 1) - ties / (n * (n - 1)))
    z = (abs(u - n1 * n2 / 2.0) - 0.5) / math.sqrt(var)
    return math.erfc(max(z, 0.0) / math.sqrt(2.0))


def ratio_ci(vals, ref, draws=2000):
    """95% bootstrap interval of median(vals) / median(ref), or None
    below 5 values a side, where a percentile interval of a median covers
    too little to be worth printing."""
    if len(vals) < 5 or len(ref) < 5:
        return None
    rng = random.Random(1)
    rs = []
    for _ in range(draws):
        a = median([rng.choice(vals) for _ in vals])
        b = median([rng.choice(ref) for _ in ref])
        rs.append(a / b if b else math.inf)
    rs.sort()
    return rs[int(0.025 * len(rs))], rs[int(0.975 * len(rs)) - 1]


def ratio_cell(vals, ref):
    """median(vals) / median(ref), '*' when the Mann-Whitney U test tells
    the two apart (p < 0.05), and the bootstrap interval when each side
    has at least 5 values."""
    if not vals or not ref or median(ref) == 0:
        return "-"
    r = median(vals) / median(ref)
    if vals is ref:
        return "1.00"
    p = mannwhitney_p(ref, vals)
    mark = "*" if p is not None and p < 0.05 else ""
    ci = ratio_ci(vals, ref)
    if ci is None:
        return "%.2f%s" % (r, mark)
    return "%.2f%s[%.2f-%.2f]" % (r, mark, ci[0], ci[1])


def cell(vals, fmt="%.0f"):
    """median [lowest-highest] of vals, each printed with fmt."""
    return (fmt + " [" + fmt + "-" + fmt + "]") % (median(vals), min(vals), max(vals))


def emit(path, text):
    """Write a report to path and print it."""
    with open(path, "w") as f:
        f.write(text)
    sys.stdout.write(text)


def exact(value):
    """The figure as the guest wrote it: integers whole, others round-trip."""
    return "%d" % value if value.is_integer() else repr(value)


def load(run_dir):
    with open(os.path.join(run_dir, "variants")) as f:
        labels = [line.strip() for line in f if line.strip()]
    data = {label: {} for label in labels}
    order = []
    for entry in sorted(os.listdir(run_dir)):
        label, _, rep = entry.rpartition("-")
        path = os.path.join(run_dir, entry, "results", "figures.txt")
        if label not in data or not rep.isdigit() or not os.path.exists(path):
            continue
        with open(path) as f:
            for line in f:
                parts = line.strip().split("=")
                if len(parts) != 2:
                    continue
                try:
                    value = float(parts[1])
                except ValueError:
                    continue
                if parts[0] not in order:
                    order.append(parts[0])
                data[label].setdefault(parts[0], []).append((int(rep), value))
    return labels, order, data


def main():
    if len(sys.argv) != 2 or not os.path.isdir(sys.argv[1]):
        sys.exit("usage: compare.py RUN_DIR")
    run_dir = sys.argv[1]
    labels, metrics, data = load(run_dir)
    if not metrics:
        sys.exit("compare.py: no figures found under %s" % run_dir)
    report = os.path.join(run_dir, "report")
    patterns = []
    if os.path.exists(report):
        with open(report) as f:
            patterns = [re.compile(line.strip()) for line in f if line.strip()]

    with open(os.path.join(run_dir, "raw.csv"), "w") as f:
        f.write("variant,rep,metric,value\n")
        for label in labels:
            for metric in metrics:
                for rep, value in sorted(data[label].get(metric, [])):
                    f.write("%s,%d,%s,%s\n" % (label, rep, metric, exact(value)))

    shown = metrics
    if patterns:
        # Group the rows by pattern, in the order the scenario lists them.
        shown = []
        for p in patterns:
            shown += [m for m in metrics if p.search(m) and m not in shown]
    if not shown:
        sys.exit("compare.py: no figure matches the scenario's report lines")
    width = max(len(m) for m in shown)
    head = "%-*s" % (width, "metric")
    for i, label in enumerate(labels):
        head += "  %24s" % ("%s (n=%d)" % (label, max(
            [len(v) for v in data[label].values()] or [0])))
    lines = [head]
    for metric in shown:
        base = [v for _, v in data[labels[0]].get(metric, [])]
        row = "%-*s" % (width, metric)
        for i, label in enumerate(labels):
            vals = [v for _, v in data[label].get(metric, [])]
            if not vals:
                row += "  %24s" % "-"
                continue
            m, sd = mean_sd(vals)
            cell = "%.0f ±%.0f" % (m, sd)
            if i > 0 and base:
                bm, _ = mean_sd(base)
                p = welch_p(base, vals)
                mark = "*" if p is not None and p < 0.05 else " "
                if p is None and len(base) > 1 and len(vals) > 1:
                    # Repeated, yet no test: no spread on either side.
                    mark = "="
                if bm >= 1.0:
                    cell += " %s%+6.1f%%%s" % (mark, (m - bm) / bm * 100.0, mark)
                elif bm <= -1.0:
                    # No ratio to a negative base (-1 is "never" in
                    # dying_zero_ms): the difference itself.
                    cell += " %s%+6.0f abs%s" % (mark, m - bm, mark)
                elif abs(m - bm) >= 1.0:
                    cell += " %s base~0%s" % (mark, mark)
                else:
                    cell += " %s  +0.0%%%s" % (mark, mark)
            row += "  %24s" % cell
        lines.append(row)
    lines.append("")
    lines.append("mean ±sd over repetitions; delta against %s; *...* Welch's t-test p < 0.05;"
                 % labels[0])
    lines.append("=...= both sides identical in all their runs (no test); "
                 "'abs': difference to a negative base, not a ratio")
    emit(os.path.join(run_dir, "table.txt"), "\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
