#!/usr/bin/env python3
"""Table of a fast-path walk (scripts/walk-fastpath.sh).

Usage: walk-report.py WALK_DIR

Reads WALK_DIR/walk.csv (variant,cgroup,call,instructions) and each
variant's WALK_DIR/<variant>.steps (the functions every call ran through)
and prints, per variant and cgroup, the instructions of each call, of the
kmalloc+kfree pair and of the kmem_cache alloc+free pair, with the pairs'
ratios to the floor (nokmem, user cgroup) and to stock (user cgroup) when
those variants were walked; then, for the user cgroup, the functions each
pair runs through. A batch walk (walk-fastpath.sh -b) made many calls of
each kind: the figures are then means per call. Exits 1 with a message on
a missing or malformed file.
"""
import csv
import os
import sys

PAIRS = (("kmalloc", ("kmalloc_trace", "kfree")),
         ("cache", ("kmem_cache_alloc", "kmem_cache_free")))


def die(msg):
    sys.exit("walk-report: error: %s" % msg)


def main():
    if len(sys.argv) != 2:
        die("usage: walk-report.py WALK_DIR")
    run = sys.argv[1]
    path = os.path.join(run, "walk.csv")
    counts, order = {}, []
    try:
        with open(path) as f:
            for row in csv.DictReader(f):
                v = row["variant"]
                if v not in order:
                    order.append(v)
                counts[(v, row["cgroup"], row["call"])] = float(row["instructions"])
    except (OSError, KeyError, ValueError) as e:
        die("%s: %s" % (path, e))
    if not order:
        die("%s has no walks" % path)

    def pair(v, cg, calls):
        for c in calls:
            if (v, cg, c) not in counts:
                die("%s: no '%s' for %s in the %s cgroup" % (path, c, v, cg))
        return sum(counts[(v, cg, c)] for c in calls)

    base = {}
    for ref in ("nokmem", "stock"):
        if ref in order:
            base[ref] = {name: pair(ref, "user", calls) for name, calls in PAIRS}
    pattern = "one warm pair per path (the hit path)"
    try:
        with open(os.path.join(run, "info.txt")) as f:
            for line in f:
                if line.startswith("pattern: "):
                    pattern = line[len("pattern: "):].strip()
    except OSError:
        pass
    print("Instructions per call, allocation and free on one CPU; mean per call")
    print("pattern: %s" % pattern)
    print("x floor / x stock: the user-cgroup pair against nokmem's / stock's user-cgroup pair")
    print()
    def num(x):
        return "%d" % x if x == int(x) else "%.1f" % x

    print("%-13s %-5s %7s %6s %7s %6s %6s %8s %8s %6s %8s %8s" % (
        "variant", "cg", "kmalloc", "kfree", "pair", "xfloor", "xstock",
        "c_alloc", "c_free", "pair", "xfloor", "xstock"))
    for v in order:
        for cg in ("root", "user"):
            cells = []
            for name, calls in PAIRS:
                p = pair(v, cg, calls)
                cells += [num(counts[(v, cg, calls[0])]), num(counts[(v, cg, calls[1])]), num(p)]
                for ref in ("nokmem", "stock"):
                    cells.append("%.2f" % (p / base[ref][name]) if ref in base and cg == "user" else "-")
            print("%-13s %-5s %7s %6s %7s %6s %6s %8s %8s %6s %8s %8s" % tuple([v, cg] + cells))
    print()
    print("Where the user cgroup's pairs run (instructions per function, largest first)")
    for v in order:
        steps = os.path.join(run, v + ".steps")
        try:
            with open(steps) as f:
                lines = [l.split() for l in f if l.strip()]
        except OSError as e:
            die("%s: %s" % (steps, e))
        # Sum each user-cgroup call's instructions per function over its calls
        calls, order_c = {}, []
        for p in lines:
            if len(p) != 4:
                die("%s: malformed line %r" % (steps, " ".join(p)))
            load, call, n, fns = p
            if load != "2":
                continue
            if call not in calls:
                order_c.append(call)
                calls[call] = [0, 0, {}]
            c = calls[call]
            c[0] += 1
            c[1] += int(n)
            for fn_n in fns.split(","):
                fn, k = fn_n.rsplit(":", 1)
                c[2][fn] = c[2].get(fn, 0) + int(k)
        for call in order_c:
            k, n, per_fn = calls[call]
            fns = " ".join("%s:%s" % (fn, num(x / k)) for fn, x in
                           sorted(per_fn.items(), key=lambda kv: -kv[1]))
            print("  %-13s %-17s %4s  %s" % (v, call, num(n / k), fns))


if __name__ == "__main__":
    main()
