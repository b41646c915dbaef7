// SPDX-License-Identifier: GPL-2.0
/*
 * lab_memcg_slab: in-kernel tests of per-memcg child caches (memcg_slab=pin
 * or reparent, series 0007). Load only in a lab guest:
 *
 *   insmod lab_memcg_slab.ko cg_a=/lab/a cg_b=/lab/b
 *
 * cg_a and cg_b are two online memory cgroups, as paths below the cgroup2
 * root. The tests run at load time and print TAP lines to the kernel log
 * ("lab_memcg_slab: ok 1 name"); one object of each child is dumped with
 * kmem_dump_obj() so that the log shows which cache holds it. Unloading
 * destroys the module's accounted cache while both cgroups still have
 * children of it, which exercises the retirement of a root's children.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cgroup.h>
#include <linux/delay.h>
#include <linux/memcontrol.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/sched/mm.h>
#include <linux/slab.h>

#include "lab_test_module.h"

#define NR_OBJS		64
#define OBJ_SIZE	96
#define CHILD_WAIT_MS	2000

static char *cg_a;
module_param(cg_a, charp, 0444);
MODULE_PARM_DESC(cg_a, "first memory cgroup, e.g. /lab/a");
static char *cg_b;
module_param(cg_b, charp, 0444);
MODULE_PARM_DESC(cg_b, "second memory cgroup, e.g. /lab/b");

static struct kmem_cache *lab_cache;

/* A constructor keeps the cache from being merged with another one. */
static void lab_obj_ctor(void *obj)
{
	memset(obj, 0, OBJ_SIZE);
}

/* Allocate from @s (kmalloc when NULL) as if running in @memcg. */
static void *alloc_in(struct mem_cgroup *memcg, struct kmem_cache *s)
{
	struct mem_cgroup *old = set_active_memcg(memcg);
	void *obj;

	if (s)
		obj = kmem_cache_alloc(s, GFP_KERNEL);
	else
		obj = kmalloc(64, GFP_KERNEL_ACCOUNT);
	set_active_memcg(old);
	return obj;
}

static void free_obj(struct kmem_cache *s, void *obj)
{
	if (s)
		kmem_cache_free(s, obj);
	else
		kfree(obj);
}

/* Free the objects of @objs (NR_OBJS slots) that are still allocated. */
static void free_objs(struct kmem_cache *s, void **objs)
{
	int i;

	for (i = 0; i < NR_OBJS; i++)
		if (objs[i])
			free_obj(s, objs[i]);
}

/*
 * A slab page of a per-memcg child carries no per-object charge vector:
 * the whole page is charged. A shared accounted page carries one.
 */
static bool on_child_page(void *obj)
{
	return !virt_to_head_page(obj)->memcg_data;
}

/*
 * Wait until allocations of @memcg from @s come from its child: the first
 * one only queues the child's creation. Returns an object from the child
 * or NULL after CHILD_WAIT_MS.
 */
static void *alloc_from_child(struct mem_cgroup *memcg, struct kmem_cache *s)
{
	int waited;
	void *obj;

	for (waited = 0; waited <= CHILD_WAIT_MS; waited += 10) {
		obj = alloc_in(memcg, s);
		if (!obj)
			return NULL;
		if (on_child_page(obj))
			return obj;
		free_obj(s, obj);
		msleep(20);
	}
	return NULL;
}

/*
 * Objects a memcg allocates from an accounted cache (a module cache with
 * SLAB_ACCOUNT, and kmalloc-cg-64) come from slab pages charged whole,
 * i.e. from the memcg's child; every one of NR_OBJS does. Fails under
 * memcg_slab=shared, where each object is charged on a shared page.
 */
static int test_child_serves_memcg(struct mem_cgroup *a, struct kmem_cache *s)
{
	void *objs[NR_OBJS] = { };
	int ret = -1, i;

	objs[0] = alloc_from_child(a, s);
	if (!objs[0]) {
		pr_info("# %s: no allocation came from a child\n",
			s ? "module cache" : "kmalloc-cg-64");
		goto cleanup;
	}
	kmem_dump_obj(objs[0]);
	for (i = 1; i < NR_OBJS; i++) {
		objs[i] = alloc_in(a, s);
		if (!objs[i] || !on_child_page(objs[i]))
			goto cleanup;
	}
	ret = 0;
cleanup:
	free_objs(s, objs);
	return ret;
}

/*
 * Objects of two memcgs, allocated alternately, never share a slab page.
 * Fails under memcg_slab=shared, where both fill the same CPU slab.
 */
static int test_memcgs_never_share_a_page(struct mem_cgroup *a,
					  struct mem_cgroup *b,
					  struct kmem_cache *s)
{
	void **oa = kcalloc(NR_OBJS, sizeof(*oa), GFP_KERNEL);
	void **ob = kcalloc(NR_OBJS, sizeof(*ob), GFP_KERNEL);
	int ret = -1, i, j;

	if (!oa || !ob)
		goto cleanup;
	oa[0] = alloc_from_child(a, s);
	ob[0] = alloc_from_child(b, s);
	if (!oa[0] || !ob[0])
		goto cleanup;
	for (i = 1; i < NR_OBJS; i++) {
		oa[i] = alloc_in(a, s);
		ob[i] = alloc_in(b, s);
		if (!oa[i] || !ob[i])
			goto cleanup;
	}
	for (i = 0; i < NR_OBJS; i++)
		for (j = 0; j < NR_OBJS; j++)
			if (virt_to_head_page(oa[i]) ==
			    virt_to_head_page(ob[j])) {
				pr_info("# objects %d of a and %d of b share a page\n",
					i, j);
				goto cleanup;
			}
	ret = 0;
cleanup:
	if (oa)
		free_objs(s, oa);
	if (ob)
		free_objs(s, ob);
	kfree(oa);
	kfree(ob);
	return ret;
}

/*
 * Objects of a child freed through the root cache (kmem_cache_free) and
 * through kfree, in a different order than allocated, go back to their
 * child: with slub_debug=FZPU a free into the wrong cache or a corrupted
 * freelist is reported on the console, which fails the run. Afterwards
 * the memcg can allocate NR_OBJS more from its child.
 */
static int test_free_paths(struct mem_cgroup *a, struct kmem_cache *s)
{
	void *objs[NR_OBJS] = { };
	int ret = -1, i;

	for (i = 0; i < NR_OBJS; i++) {
		objs[i] = alloc_in(a, s);
		if (!objs[i])
			goto cleanup;
	}
	for (i = 0; i < NR_OBJS; i += 2) {
		free_obj(s, objs[i]);
		objs[i] = NULL;
	}
	for (i = NR_OBJS - 1; i >= 0; i -= 2) {
		free_obj(s, objs[i]);
		objs[i] = NULL;
	}
	for (i = 0; i < NR_OBJS; i++) {
		objs[i] = alloc_in(a, s);
		if (!objs[i])
			goto cleanup;
	}
	ret = 0;
cleanup:
	free_objs(s, objs);
	return ret;
}

static int __init lab_memcg_slab_init(void)
{
	struct mem_cgroup *a, *b;

	if (!cg_a || !cg_b) {
		pr_err("usage: insmod lab_memcg_slab.ko cg_a=PATH cg_b=PATH\n");
		return -EINVAL;
	}
	a = memcg_from_path(cg_a);
	b = memcg_from_path(cg_b);
	if (!a || !b || a == b) {
		pr_err("cg_a=%s and cg_b=%s must be two memory cgroups\n",
		       cg_a, cg_b);
		goto fail;
	}
	lab_cache = kmem_cache_create("lab_memcg_slab", OBJ_SIZE, 0,
				      SLAB_ACCOUNT, lab_obj_ctor);
	if (!lab_cache)
		goto fail;

	report(test_child_serves_memcg(a, lab_cache),
	       "test_child_serves_memcg_cache");
	report(test_child_serves_memcg(a, NULL),
	       "test_child_serves_memcg_kmalloc");
	report(test_memcgs_never_share_a_page(a, b, lab_cache),
	       "test_memcgs_never_share_a_page_cache");
	report(test_memcgs_never_share_a_page(a, b, NULL),
	       "test_memcgs_never_share_a_page_kmalloc");
	report(test_free_paths(a, lab_cache), "test_free_paths_cache");
	report(test_free_paths(a, NULL), "test_free_paths_kmalloc");
	pr_info("done\n");

	css_put(&a->css);
	css_put(&b->css);
	return 0;
fail:
	if (a)
		css_put(&a->css);
	if (b)
		css_put(&b->css);
	return -EINVAL;
}

static void __exit lab_memcg_slab_exit(void)
{
	kmem_cache_destroy(lab_cache);
}

module_init(lab_memcg_slab_init);
module_exit(lab_memcg_slab_exit);
MODULE_DESCRIPTION("In-guest tests of per-memcg slab child caches");
MODULE_LICENSE("GPL");
