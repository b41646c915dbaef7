// SPDX-License-Identifier: GPL-2.0
/*
 * lab_slab_leak: a module that leaks, on purpose, one object of its own
 * accounted cache past the cache's destruction, allocated in a memory
 * cgroup (so that, under memcg_slab=pin|reparent|donate, it sits in the
 * cgroup's child of the cache). Load only in a lab guest:
 *
 *   insmod lab_slab_leak.ko cg=/lab/a
 *   rmmod lab_slab_leak
 *
 * At rmmod the module destroys the cache while the object is still
 * allocated, then frees the object with kfree(). A leaked cache is kept by
 * kmem_cache_destroy(), with a warning, so the late free is safe on stock.
 * With per-memcg children the root must be kept too: its child still
 * holds the object and refers to the root.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/delay.h>
#include <linux/memcontrol.h>
#include <linux/module.h>
#include <linux/sched/mm.h>
#include <linux/slab.h>

#include "lab_test_module.h"

#define OBJ_SIZE	96
#define CHILD_WAIT_MS	500

static char *cg;
module_param(cg, charp, 0444);
MODULE_PARM_DESC(cg, "memory cgroup to allocate in, e.g. /lab/a");

static struct kmem_cache *leak_cache;
static void *leaked;

/* A constructor keeps the cache from being merged with another one. */
static void leak_ctor(void *obj)
{
	memset(obj, 0, OBJ_SIZE);
}

static void *alloc_in(struct mem_cgroup *memcg)
{
	struct mem_cgroup *old = set_active_memcg(memcg);
	void *obj = kmem_cache_alloc(leak_cache, GFP_KERNEL);

	set_active_memcg(old);
	return obj;
}

static int __init lab_slab_leak_init(void)
{
	struct mem_cgroup *memcg;
	void *first;

	if (!cg)
		return -EINVAL;
	memcg = memcg_from_path(cg);
	if (!memcg)
		return -ENOENT;
	leak_cache = kmem_cache_create("lab_slab_leak", OBJ_SIZE, 0,
				       SLAB_ACCOUNT, leak_ctor);
	if (!leak_cache)
		goto fail;
	/* The first allocation queues the child's creation: give it time. */
	first = alloc_in(memcg);
	if (!first)
		goto fail;
	msleep(CHILD_WAIT_MS);
	leaked = alloc_in(memcg);
	kmem_cache_free(leak_cache, first);
	if (!leaked)
		goto fail;
	css_put(&memcg->css);
	pr_info("holding an object of lab_slab_leak allocated in %s\n", cg);
	return 0;
fail:
	kmem_cache_destroy(leak_cache);
	css_put(&memcg->css);
	return -ENOMEM;
}

static void __exit lab_slab_leak_exit(void)
{
	/* The deliberate leak: the cache goes first, the object after it. */
	kmem_cache_destroy(leak_cache);
	pr_info("destroyed lab_slab_leak with an object left; freeing it now\n");
	kfree(leaked);
	pr_info("freed the leaked object\n");
}

module_init(lab_slab_leak_init);
module_exit(lab_slab_leak_exit);
MODULE_DESCRIPTION("Destroys an accounted cache whose per-memcg child holds an object");
MODULE_LICENSE("GPL");
