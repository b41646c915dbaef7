#!/usr/bin/env python3
"""Table of a fast-path walk (scripts/walk-fastpath.sh).

Usage: walk-report.py WALK_DIR

Reads WALK_DIR/walk.csv (variant,cgroup,call,instructions) and each
variant's WALK_DIR/<variant>.steps (the functions every call ran through)
and prints, per variant and cgroup, the instructions of each call, of the
kmalloc+kfree pair and of the kmem_cache alloc+free pair, with the pairs'
ratios to the floor (nokmem, user cgroup) and to stock (user cgroup) when
those variants were walked; then, for the user cgroup, the functions each
pair runs through. Exits 1 with a message on a missing or malformed file.
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
                counts[(v, row["cgroup"], row["call"])] = int(row["instructions"])
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
    print("Instructions per call on the warm hit path (allocation and free on one CPU)")
    print("x floor / x stock: the user-cgroup pair against nokmem's / stock's user-cgroup pair")
    print()
    print("%-9s %-5s %7s %6s %7s %6s %6s %8s %8s %6s %8s %8s" % (
        "variant", "cg", "kmalloc", "kfree", "pair", "xfloor", "xstock",
        "c_alloc", "c_free", "pair", "xfloor", "xstock"))
    for v in order:
        for cg in ("root", "user"):
            cells = []
            for name, calls in PAIRS:
                p = pair(v, cg, calls)
                cells += [counts[(v, cg, calls[0])], counts[(v, cg, calls[1])], p]
                for ref in ("nokmem", "stock"):
                    cells.append("%.2f" % (p / base[ref][name]) if ref in base and cg == "user" else "-")
            print("%-9s %-5s %7d %6d %7d %6s %6s %8d %8d %6d %8s %8s" % tuple([v, cg] + cells))
    print()
    print("Where the user cgroup's pairs run (instructions per function, largest first)")
    for v in order:
        steps = os.path.join(run, v + ".steps")
        try:
            with open(steps) as f:
                lines = [l.split() for l in f if l.strip()]
        except OSError as e:
            die("%s: %s" % (steps, e))
        for load, call, n, fns in lines:
            if load != "2":
                continue
            print("  %-9s %-17s %4s  %s" % (v, call, n, fns.replace(",", " ")))


if __name__ == "__main__":
    main()
