# Run inside gdb (gdb -batch -nx -x walk-fastpath-gdb.py) by
# scripts/walk-fastpath.sh: single-step a guest's slab fast paths through
# QEMU's gdb stub and count the instructions each measured call runs.
#
# The guest loads mm-tests/modules/lab_walk_pair.ko LAB_WALK_LOADS times
# (guest/jobs/walk-pair.sh). For each load: stop in do_init_module(), then
# in do_one_initcall() to learn the module's init function, then at that
# function's entry; walk the init function one instruction at a time,
# stepping over every call except the measured ones (the slab entry
# points), and step through each measured call to its return, counting
# every instruction it runs and the function each lies in. QEMU's stub
# single-steps with interrupts and timers masked, so nothing else runs
# inside a count. Writes LAB_WALK_OUT, one line per measured call:
#   load call instructions fn1:n1,fn2:n2,...
# Environment: LAB_WALK_PORT, LAB_WALK_SYMS (nm -n of the guest's vmlinux),
# LAB_WALK_LOADS, LAB_WALK_OUT; LAB_WALK_CALLS, the measured calls each
# load makes (default 4); LAB_WALK_SLOW=1 counts calls that leave the hit
# path instead of failing them (the module's batch mode).
import bisect
import os
import re
import socket
import time

import gdb

MEASURED = {"kmalloc_trace", "__kmalloc", "kfree", "kmem_cache_alloc",
            "kmem_cache_alloc_lru", "kmem_cache_free"}
MAX_STEPS = 50000
CALLS = int(os.environ.get("LAB_WALK_CALLS", "4"))
SLOW_OK = os.environ.get("LAB_WALK_SLOW") == "1"
# A measured call that runs one of these has left the hit path: a new or
# partial slab, a remote free, a child cache still being looked up or
# created. The walk is then not what it claims to be, unless it counts
# slow paths on purpose (LAB_WALK_SLOW=1).
SLOW = {"___slab_alloc", "__slab_free", "new_slab", "allocate_slab",
        "memcg_slab_child_get", "xa_load"}
# A call that reschedules would count another task's work: never counted.
RESCHED = {"__schedule", "schedule"}
FORBIDDEN = RESCHED if SLOW_OK else RESCHED | SLOW


def fail(msg):
    gdb.write("walk-fastpath: error: %s\n" % msg, gdb.STDERR)
    try:
        gdb.execute("kill")     # the guest, if gdb got as far as attaching
    except gdb.error:
        pass
    gdb.execute("quit 1")


def load_symbols(path):
    addrs, names, by_name = [], [], {}
    with open(path) as f:
        for line in f:
            p = line.split()
            if len(p) != 3 or p[1] not in "tTwW":
                continue
            a = int(p[0], 16)
            addrs.append(a)
            names.append(p[2])
            by_name.setdefault(p[2], a)
    return addrs, names, by_name


ADDRS, NAMES, BY_NAME = load_symbols(os.environ["LAB_WALK_SYMS"])


def where(addr):
    """(function, offset) of a kernel text address"""
    i = bisect.bisect_right(ADDRS, addr) - 1
    return (NAMES[i], addr - ADDRS[i]) if i >= 0 else ("?", 0)


def sym(addr):
    return where(addr)[0]


def reg(name):
    return int(gdb.parse_and_eval("$" + name)) & 0xffffffffffffffff


INSN = re.compile(r"=>\s*(0x[0-9a-f]+)[^:]*:\s+(\S+)\s*(.*)")


def insn_at_pc():
    """(mnemonic, operands, address of the next instruction)"""
    text = gdb.execute("x/2i $pc", to_string=True).splitlines()
    m = INSN.match(text[0].strip())
    if not m:
        fail("cannot read the instruction at the pc: %r" % text[0])
    nxt = re.match(r"\s*(0x[0-9a-f]+)", text[1])
    return m.group(2), m.group(3), int(nxt.group(1), 16)


def stop_at(addr):
    gdb.execute("tbreak *0x%x" % addr, to_string=True)
    gdb.execute("continue", to_string=True)
    if reg("pc") != addr:
        fail("expected to stop at 0x%x, stopped at 0x%x" % (addr, reg("pc")))


def step_through(call_rsp, ret_addr, trace=None):
    """Step from a callee's entry to its return; count and attribute.

    A string instruction with a rep prefix (memset_erms's rep stosb for
    init_on_alloc) single-steps once per iteration without moving the
    pc: it counts as the one instruction it is.
    """
    count, steps, per_fn, prev = 0, 0, {}, None
    while True:
        pc = reg("pc")
        gdb.execute("stepi", to_string=True)
        steps += 1
        if pc != prev:
            fn = sym(pc)
            count += 1
            per_fn[fn] = per_fn.get(fn, 0) + 1
            if trace is not None:
                trace.append(pc)
        prev = pc
        if reg("pc") == ret_addr and reg("rsp") == call_rsp:
            return count, per_fn
        if steps > MAX_STEPS:
            fail("no return after %d steps" % MAX_STEPS)


TRACE = None


def write_trace(load, name, pcs):
    """One line per counted instruction: load, call, address, where, what"""
    for pc in pcs:
        fn, off = where(pc)
        text = gdb.execute("x/i 0x%x" % pc, to_string=True).strip()
        m = re.match(r"(?:=>\s*)?0x[0-9a-f]+[^:]*:\s+(.*)", text)
        TRACE.write("%d %s 0x%x %s+%d %s\n"
                    % (load, name, pc, fn, off, m.group(1) if m else text))
    TRACE.flush()


def walk_init(load, out):
    entry_rsp = reg("rsp")
    ret_addr = int(gdb.parse_and_eval("*(unsigned long *)$rsp")) & 0xffffffffffffffff
    measured = 0
    for _ in range(MAX_STEPS * CALLS):
        if reg("pc") == ret_addr and reg("rsp") == entry_rsp + 8:
            return measured
        mnem, ops, nxt = insn_at_pc()
        if mnem.startswith("call"):
            target = re.match(r"(0x[0-9a-f]+)", ops)
            name = sym(int(target.group(1), 16)) if target else None
            if target and name in MEASURED and int(target.group(1), 16) == BY_NAME[name]:
                call_rsp = reg("rsp")
                gdb.execute("stepi", to_string=True)
                pcs = [] if TRACE else None
                n, per_fn = step_through(call_rsp, nxt, pcs)
                if TRACE:
                    write_trace(load, name, pcs)
                slow = sorted(FORBIDDEN & set(per_fn))
                if slow:
                    fail("load %d: %s left the path it counts (ran %s in %d instructions)"
                         % (load, name, ", ".join(slow), n))
                fns = ",".join("%s:%d" % kv for kv in
                               sorted(per_fn.items(), key=lambda kv: -kv[1]))
                out.write("%d %s %d %s\n" % (load, name, n, fns))
                out.flush()
                measured += 1
            else:
                stop_at(nxt)
        else:
            gdb.execute("stepi", to_string=True)
    fail("the init function did not return")


def connect(port):
    for _ in range(120):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            break
        except OSError:
            time.sleep(0.5)
    try:
        gdb.execute("target remote 127.0.0.1:%d" % port, to_string=True)
    except gdb.error as e:
        fail("no guest on port %d: %s" % (port, e))


def main():
    port = int(os.environ["LAB_WALK_PORT"])
    loads = int(os.environ["LAB_WALK_LOADS"])
    for name in ("do_init_module", "do_one_initcall"):
        if name not in BY_NAME:
            fail("no %s in the kernel's symbols" % name)
    gdb.execute("set pagination off")
    gdb.execute("set confirm off")
    gdb.execute("set architecture i386:x86-64", to_string=True)
    connect(port)
    global TRACE
    if os.environ.get("LAB_WALK_TRACE"):
        TRACE = open(os.environ["LAB_WALK_TRACE"], "w")
    with open(os.environ["LAB_WALK_OUT"], "w") as out:
        for load in range(1, loads + 1):
            stop_at(BY_NAME["do_init_module"])
            stop_at(BY_NAME["do_one_initcall"])
            init = reg("rdi")
            stop_at(init)
            n = walk_init(load, out)
            if n != CALLS:
                fail("load %d: expected %d measured calls, counted %d"
                     % (load, CALLS, n))
    gdb.execute("detach", to_string=True)


main()
