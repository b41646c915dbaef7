#!/usr/bin/env python3
"""One markdown table of a make stress run: a column per policy, a row per
figure, from each policy's guest folder as scripts/stress-guest.sh and
scripts/stress-judge.sh leave it: results/figures.txt (the guest's
"name=value" figures, policy among them), host.txt (wall_seconds, splats)
and checks.txt (the judge's "ok"/"FAIL" lines).

Usage: stress-table.py OUTDIR...
Prints the table, "-" for a figure a guest did not report (a guest that
died reports none); exits 1 with a message if an OUTDIR holds no run.
"""
import os
import sys


def figures(path):
    """The key=value lines of PATH; none if a dead guest left no file."""
    figs = {}
    if not os.path.exists(path):
        return figs
    with open(path) as f:
        for line in f:
            key, sep, value = line.rstrip("\n").partition("=")
            if sep:
                figs[key] = value
    return figs


def load(outdir):
    run = figures(os.path.join(outdir, "results", "figures.txt"))
    run.update(figures(os.path.join(outdir, "host.txt")))
    if not run:
        raise OSError("no results/figures.txt or host.txt")
    with open(os.path.join(outdir, "checks.txt")) as f:
        run["checks"] = [line.split()[0] for line in f if line.strip()]
    return run


def row(run, fmt, *keys):
    return fmt.format(*(run.get(k, "-") for k in keys))


ROWS = [
    ("guest wall time, s (stress phase, s)", "{} ({})", "wall_seconds",
     "seconds"),
    ("job cycles (plain/tight/oom/faulty/race)", "{} ({}/{}/{}/{}/{})",
     "cycles", "cycles_plain", "cycles_tight", "cycles_oom",
     "cycles_faulty", "cycles_race"),
    ("cgroups created / removed", "{} / {}",
     "cgroups_created", "cgroups_removed"),
    ("jobs ok / ENOMEM / killed / timed out", "{} / {} / {} / {}",
     "jobs_ok", "jobs_enomem", "jobs_killed", "jobs_timed_out"),
    ("memory.events max / oom_kill", "{} / {}",
     "events_max", "events_oom_kill"),
    ("switch writes / memory.reclaim calls", "{} / {}",
     "toggles", "reclaims"),
    ("faults injected: failslab / fail_page_alloc (kworker windows)",
     "{} / {} ({})", "faults_failslab", "faults_fail_page_alloc",
     "kworker_windows"),
    ("child caches created / creations failed", "{} / {}",
     "vm_memcg_slab_child_created", "slab_create_failed"),
    ("failed charges: new child slab / adopted slab", "{} / {}",
     "slab_charge_failed", "slab_adopt_charge_failed"),
    ("slabs donated / adopted", "{} / {}",
     "vm_memcg_slab_donated", "vm_memcg_slab_adopted"),
    ("dying memcgs after cleanup", "{}", "dying_left"),
    ("parent's memory.current, bytes: start -> end", "{} -> {}",
     "current_start", "current_end"),
    ("parent's slab, bytes: start -> end", "{} -> {}",
     "slab_start", "slab_end"),
    ("kmemleak reports / splats", "{} / {}", "kmemleak_reports", "splats"),
]


def main():
    if len(sys.argv) < 2:
        sys.exit("usage: stress-table.py OUTDIR...")
    runs = {}
    for outdir in sys.argv[1:]:
        try:
            run = load(outdir)
        except OSError as e:
            sys.exit(f"stress-table.py: {outdir}: no stress run ({e})")
        runs[run.get("policy", os.path.basename(outdir.rstrip("/")))] = run
    names = list(runs)
    print("| figure | " + " | ".join(names) + " |")
    print("|---|" + "---|" * len(names))
    for label, fmt, *keys in ROWS:
        cells = [row(runs[n], fmt, *keys) for n in names]
        print(f"| {label} | " + " | ".join(cells) + " |")
    cells = [f"{runs[n]['checks'].count('ok')} of {len(runs[n]['checks'])}"
             for n in names]
    print("| checks passed | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
