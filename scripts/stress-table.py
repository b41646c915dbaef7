#!/usr/bin/env python3
"""One markdown table of a make stress run: a column per policy, a row per
figure, from the summary.txt that scripts/stress.sh writes (the judge's
"  name value" lines under each "== memcg_slab=POLICY (N s wall)" header,
and its "ok"/"FAIL" check lines).

Usage: stress-table.py SUMMARY
Prints the table; exits 1 with a message if SUMMARY holds no policy.
"""
import re
import sys

HEADER = re.compile(r"== memcg_slab=(\w+) \((\d+) s wall\)")
FIGURE = re.compile(r"  (\w+) (\S+)$")


def load(path):
    runs, cur = {}, None
    with open(path) as f:
        for line in f:
            m = HEADER.match(line)
            if m:
                cur = runs.setdefault(m.group(1), {"wall": m.group(2),
                                                   "checks": []})
                continue
            if cur is None:
                continue
            m = FIGURE.match(line)
            if m:
                cur[m.group(1)] = m.group(2)
            elif line.startswith("ok ") or line.startswith("FAIL"):
                cur["checks"].append(line.split()[0])
    return runs


def row(run, fmt, *keys):
    return fmt.format(*(run.get(k, "-") for k in keys))


ROWS = [
    ("guest wall time, s (stress phase, s)", "{} ({})", "wall", "seconds"),
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
    if len(sys.argv) != 2:
        sys.exit("usage: stress-table.py SUMMARY")
    try:
        runs = load(sys.argv[1])
    except OSError as e:
        sys.exit(f"stress-table.py: {e}")
    if not runs:
        sys.exit(f"stress-table.py: no '== memcg_slab=' section in {sys.argv[1]}")
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
