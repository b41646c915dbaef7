#!/usr/bin/env python3
"""Jump-cache misses of a traced walk, as QEMU's TCG would take them.

Usage: walk-tbcache.py TRACE...   (LABEL.trace of walk-fastpath.sh -x)

Without jump chaining (LAB_TCG_NOCHAIN=1) every translated block that
ends hands the next guest pc to a lookup in the vCPU's jump cache:
QEMU 7.2's tb_jmp_cache, 4096 entries, direct mapped, indexed by
tb_jmp_cache_hash_func() (the pc's page picks a window of 64 entries,
the pc's low bits an entry in it). Two blocks of one path that land on
one entry evict each other, and each such lookup falls back to QEMU's
global hash table, far slower. So two kernels that run the same number
of instructions can differ in time by where their code lies.

For each load and call of each trace this replays the call's blocks
(its entry, then every instruction after a control transfer) through
such a cache, twice, and prints the blocks run per call and the misses
of the second pass: what each call costs in lookups when it runs over
and over, as the benchmark's loops run it. A model, not a measure:
QEMU also ends blocks at page ends and on some instructions, and the
benchmark's own loop and the slow paths add blocks of their own.
"""
import collections
import re
import sys

CACHE_BITS = 12
PAGE_BITS = 12
JMP_PAGE_BITS = CACHE_BITS // 2
ADDR_MASK = (1 << JMP_PAGE_BITS) - 1
PAGE_MASK = (1 << CACHE_BITS) - (1 << JMP_PAGE_BITS)
TRANSFER = re.compile(r"^(j[a-z]*|call[a-z]*|ret[a-z]*|iret[a-z]*|sysret[a-z]*|"
                      r"syscall|int3?|ud2|hlt|lret[a-z]*|loop[a-z]*)$")


def die(msg):
    sys.exit("walk-tbcache: error: %s" % msg)


def slot(pc):
    """tb_jmp_cache_hash_func() of QEMU 7.2's softmmu, 4 KiB pages"""
    tmp = pc ^ (pc >> (PAGE_BITS - JMP_PAGE_BITS))
    return ((tmp >> (PAGE_BITS - JMP_PAGE_BITS)) & PAGE_MASK) | (tmp & ADDR_MASK)


def blocks(path):
    """{(load, call): [pc of each block, in order]} of one trace"""
    seqs, ends_block = collections.OrderedDict(), {}
    try:
        with open(path) as f:
            for n, line in enumerate(f, 1):
                p = line.split(None, 4)
                if len(p) < 5:
                    die("%s:%d: not a trace line (load call pc where insn)" % (path, n))
                key = (p[0], p[1])
                try:
                    pc = int(p[2], 16)
                except ValueError:
                    die("%s:%d: bad address %r" % (path, n, p[2]))
                if ends_block.get(key, True):
                    seqs.setdefault(key, []).append(pc)
                ends_block[key] = bool(TRANSFER.match(p[4].split()[0]))
    except OSError as e:
        die(str(e))
    if not seqs:
        die("%s: no instructions" % path)
    return seqs


def misses(seq):
    cache = {}
    for pc in seq:
        cache[slot(pc)] = pc
    n = 0
    for pc in seq:
        if cache.get(slot(pc)) != pc:
            n += 1
        cache[slot(pc)] = pc
    return n


def main():
    if len(sys.argv) < 2:
        die("usage: walk-tbcache.py TRACE...")
    print("%-24s %-5s %-17s %7s %7s" % ("trace", "load", "call", "blocks", "misses"))
    for path in sys.argv[1:]:
        for (load, call), seq in blocks(path).items():
            print("%-24s %-5s %-17s %7d %7d" % (path.rsplit("/", 1)[-1], load, call,
                                               len(seq), misses(seq)))


if __name__ == "__main__":
    main()
