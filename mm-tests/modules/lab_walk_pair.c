// SPDX-License-Identifier: GPL-2.0
/*
 * lab_walk_pair: one allocation+free pair on each warm slab fast path, for
 * scripts/walk-fastpath.sh to single-step from the host through QEMU's gdb
 * stub and count the instructions each call runs.
 *
 *   insmod lab_walk_pair.ko
 *
 * At load time, charged to the loading task's memory cgroup (no
 * set_active_memcg(): the task's own memcg is the path most allocations
 * take), lab_walk_pair_init():
 *
 *   1. creates an accounted 64-byte cache (SLAB_ACCOUNT);
 *   2. warms both paths in lab_walk_warm(), a call of its own that the
 *      walker steps over: twice, WARM_PAIRS allocations of each kind,
 *      then their frees, with a pause between, so that under memcg_slab=
 *      the child caches exist and every per-cpu slab holds free objects;
 *   3. makes, directly from the init function, exactly four calls in this
 *      order: kmalloc(64, GFP_KERNEL_ACCOUNT), kfree(), kmem_cache_alloc()
 *      and kmem_cache_free(). These are the calls the walker counts: the
 *      hit path of each, allocation and free on the same CPU.
 *
 *   insmod lab_walk_pair.ko batch=N
 *
 * With batch=N (1..1024) step 3 is lab_kmem_bench.ko's pattern instead:
 * N kmallocs, then their N kfrees, then N cache allocations and their N
 * frees, 4 x N calls from the init function. Past a slab's worth of
 * objects these leave the hit path: the allocations take new or partial
 * slabs, most frees land on a slab that is not the CPU's. The walker
 * then counts the slow paths as well (walk-fastpath.sh -b).
 *
 * Without a debugger attached it just runs. It keeps nothing; rmmod it.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/delay.h>
#include <linux/module.h>
#include <linux/slab.h>

#define OBJ_SIZE	64
#define WARM_PAIRS	256
#define WARM_PAUSE_MS	500

#define MAX_BATCH	1024

static uint batch;
module_param(batch, uint, 0444);
MODULE_PARM_DESC(batch, "0: one pair per path; 1..1024: that many allocations, then their frees");

static struct kmem_cache *walk_cache;
static void *warm[WARM_PAIRS];
static void *objs[MAX_BATCH];

/* Fill and empty both paths' per-cpu slabs once */
static int lab_walk_warm_round(void)
{
	int i, err = 0;

	for (i = 0; i < WARM_PAIRS; i++) {
		warm[i] = kmalloc(OBJ_SIZE, GFP_KERNEL_ACCOUNT);
		if (!warm[i])
			err = -ENOMEM;
	}
	for (i = 0; i < WARM_PAIRS; i++)
		kfree(warm[i]);
	for (i = 0; i < WARM_PAIRS; i++) {
		warm[i] = kmem_cache_alloc(walk_cache, GFP_KERNEL);
		if (!warm[i])
			err = -ENOMEM;
	}
	for (i = 0; i < WARM_PAIRS; i++)
		if (warm[i])
			kmem_cache_free(walk_cache, warm[i]);
	return err;
}

/*
 * Warm both paths; the walker steps over this call. Under memcg_slab= a
 * memcg's first allocation from a root cache queues the creation of its
 * child and is charged per object meanwhile: the pause lets the worker
 * create the children, and the second round gives them their slabs.
 */
static noinline int lab_walk_warm(void)
{
	int err = lab_walk_warm_round();

	if (err)
		return err;
	msleep(WARM_PAUSE_MS);
	return lab_walk_warm_round();
}

/*
 * The benchmark's pattern, batch objects at a time, inline so that the
 * walker sees each call made from the init function. A failed allocation
 * fails the load, and the walk, which then counts fewer calls than 4 x N.
 */
static __always_inline int lab_walk_batch(void)
{
	int i, err = 0;

	for (i = 0; i < batch; i++)
		objs[i] = kmalloc(OBJ_SIZE, GFP_KERNEL_ACCOUNT);
	for (i = 0; i < batch; i++) {
		if (!objs[i])
			err = -ENOMEM;
		else
			kfree(objs[i]);
	}
	for (i = 0; i < batch; i++)
		objs[i] = kmem_cache_alloc(walk_cache, GFP_KERNEL);
	for (i = 0; i < batch; i++) {
		if (!objs[i])
			err = -ENOMEM;
		else
			kmem_cache_free(walk_cache, objs[i]);
	}
	return err;
}

static int __init lab_walk_pair_init(void)
{
	void *p;
	int err;

	if (batch > MAX_BATCH) {
		pr_err("batch=%u: must be 0..%d\n", batch, MAX_BATCH);
		return -EINVAL;
	}
	walk_cache = kmem_cache_create("lab_walk_pair", OBJ_SIZE, 0,
				       SLAB_ACCOUNT, NULL);
	if (!walk_cache)
		return -ENOMEM;
	err = lab_walk_warm();
	if (err)
		goto out;
	if (batch) {
		err = lab_walk_batch();
		goto out;
	}

	/* The four calls the walker counts, in this order */
	p = kmalloc(OBJ_SIZE, GFP_KERNEL_ACCOUNT);
	if (!p) {
		err = -ENOMEM;
		goto out;
	}
	kfree(p);
	p = kmem_cache_alloc(walk_cache, GFP_KERNEL);
	if (!p) {
		err = -ENOMEM;
		goto out;
	}
	kmem_cache_free(walk_cache, p);
out:
	kmem_cache_destroy(walk_cache);
	if (err)
		pr_err("no memory for the pairs\n");
	return err;
}

static void __exit lab_walk_pair_exit(void)
{
}

module_init(lab_walk_pair_init);
module_exit(lab_walk_pair_exit);
MODULE_DESCRIPTION("One warm slab allocation+free pair per path, for a single-stepping host");
MODULE_LICENSE("GPL");
