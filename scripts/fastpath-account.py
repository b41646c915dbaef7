#!/usr/bin/env python3
"""Instruction-level account of the slab fast paths, from the disassembly
of two built kernels (issue: "Accounting cost").

Usage: fastpath-account.py BASE_VMLINUX NEW_VMLINUX [FUNCTION...]

For each function (default: the SLUB entry points that the allocation and
free fast paths run through) prints, for BASE and NEW: its size in
instructions, its calls and the static branches (jump-label sites) inside
it, then the call targets NEW adds or drops. A static branch is a 2- or
5-byte NOP or jump patched at run time: with JUMP_LABEL it costs nothing
while its key is in its default state; a call is an out-of-line function
the path may run. Whole functions are counted, not one path through them:
a size that grows says code was added somewhere in the function, the
static branches and calls say whether it can be skipped for free. A
call or tail call counted here may sit behind a static branch: read the
disassembly before calling it a cost of the default path.

Needs objdump, nm and readelf (binutils). Exits 1 with a message if a
file or a function is missing.
"""
import re
import struct
import subprocess
import sys

DEFAULT_FUNCTIONS = [
    "kmem_cache_alloc",
    "kmem_cache_alloc_lru",
    "__kmem_cache_alloc_node",
    "kmem_cache_free",
    "__kmem_cache_free",
    "kfree",
    "__kmalloc",
]


def die(msg):
    sys.stderr.write(f"fastpath-account: error: {msg}\n")
    sys.exit(1)


def run(*cmd):
    try:
        return subprocess.run(cmd, check=True, capture_output=True,
                              text=True).stdout
    except (OSError, subprocess.CalledProcessError) as e:
        die(f"{' '.join(cmd)}: {e}")


def symbols(vmlinux):
    """name -> (address, size) of the text symbols with a size."""
    syms = {}
    for line in run("nm", "-S", vmlinux).splitlines():
        f = line.split()
        if len(f) == 4 and f[2] in "tT":
            syms.setdefault(f[3], (int(f[0], 16), int(f[1], 16)))
    return syms


def jump_sites(vmlinux, syms_all):
    """Addresses of the jump-label sites, from __start/__stop___jump_table:
    entries of struct jump_entry { s32 code; s32 target; long key; },
    each offset relative to its own field (x86-64)."""
    addrs = {}
    for line in run("nm", vmlinux).splitlines():
        f = line.split()
        if len(f) == 3 and f[2] in ("__start___jump_table",
                                    "__stop___jump_table"):
            addrs[f[2]] = int(f[0], 16)
    if len(addrs) != 2:
        die(f"{vmlinux}: no __jump_table symbols (JUMP_LABEL off?)")
    start, stop = addrs["__start___jump_table"], addrs["__stop___jump_table"]
    for line in run("readelf", "-SW", vmlinux).splitlines():
        m = re.match(r"\s*\[\s*\d+\]\s+(\S+)\s+\S+\s+([0-9a-f]+)\s+"
                     r"([0-9a-f]+)\s+([0-9a-f]+)", line)
        if not m:
            continue
        addr, off, size = (int(m[i], 16) for i in (2, 3, 4))
        if addr <= start and stop <= addr + size:
            with open(vmlinux, "rb") as fh:
                fh.seek(off + start - addr)
                data = fh.read(stop - start)
            break
    else:
        die(f"{vmlinux}: no section holds the jump table")
    sites = []
    for i in range(0, len(data) - 15, 16):
        code, = struct.unpack_from("<i", data, i)
        sites.append(start + i + code)
    return sites


def account(vmlinux, name, syms, sites):
    if name not in syms:
        return None
    addr, size = syms[name]
    out = run("objdump", "-d", "--no-show-raw-insn",
              f"--start-address={addr:#x}",
              f"--stop-address={addr + size:#x}", vmlinux)
    insns, calls = 0, []
    for line in out.splitlines():
        m = re.match(r"\s*[0-9a-f]+:\s+(\S+)(.*)", line)
        if not m:
            continue
        insns += 1
        t = re.search(r"<([^>+]+)", m[2])
        if m[1].startswith("call"):
            calls.append(t[1] if t else m[2].strip())
        elif m[1].startswith("jmp") and t and t[1] != name:
            # A tail call: a jump to another function.
            calls.append(t[1] + "(tail)")
    branches = sum(1 for s in sites if addr <= s < addr + size)
    return insns, calls, branches


def main(argv):
    if len(argv) < 3:
        sys.stderr.write(__doc__)
        return 2
    base, new = argv[1], argv[2]
    functions = argv[3:] or DEFAULT_FUNCTIONS
    res = {}
    for label, vml in (("base", base), ("new", new)):
        syms = symbols(vml)
        sites = jump_sites(vml, syms)
        res[label] = {f: account(vml, f, syms, sites) for f in functions}
    missing = [f for f in functions
               if res["base"][f] is None and res["new"][f] is None]
    if missing:
        die(f"no such function in either kernel: {' '.join(missing)}")
    print(f"base: {base}\nnew:  {new}")
    print(f"{'function':<26}{'insns':>14}{'calls':>10}{'static br.':>12}")
    for f in functions:
        b, n = res["base"][f], res["new"][f]

        def cell(i):
            bv = "-" if b is None else (len(b[1]) if i == 1 else b[i])
            nv = "-" if n is None else (len(n[1]) if i == 1 else n[i])
            return f"{bv}->{nv}"
        print(f"{f:<26}{cell(0):>14}{cell(1):>10}{cell(2):>12}")
    for f in functions:
        b, n = res["base"][f], res["new"][f]
        bc = sorted(set(b[1])) if b else []
        nc = sorted(set(n[1])) if n else []
        added = [c for c in nc if c not in bc]
        dropped = [c for c in bc if c not in nc]
        if added or dropped:
            print(f"{f}: calls added {' '.join(added) or '-'}; "
                  f"dropped {' '.join(dropped) or '-'}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
