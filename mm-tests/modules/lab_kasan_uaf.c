// SPDX-License-Identifier: GPL-2.0
/*
 * lab_kasan_uaf: a deliberate use-after-free of a kmalloc(GFP_KERNEL_ACCOUNT)
 * object allocated in a memory cgroup, for a KASAN kernel, so that the lab
 * can check what KASAN reports about an object of a per-memcg child of a
 * kmalloc cache (memcg_slab=pin|reparent|donate). Load only in a lab guest
 * of the debug kernel:
 *
 *   insmod lab_kasan_uaf.ko cg=/lab/a
 *
 * The report must name the allocation: its "Allocated by task" stack holds
 * lab_kasan_alloc(). The cache that held the object is printed first, with
 * kmem_dump_obj().
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/delay.h>
#include <linux/memcontrol.h>
#include <linux/module.h>
#include <linux/sched/mm.h>
#include <linux/slab.h>

#include "lab_test_module.h"

#define CHILD_WAIT_MS	500

static char *cg;
module_param(cg, charp, 0444);
MODULE_PARM_DESC(cg, "memory cgroup to allocate in, e.g. /lab/a");

static noinline void *lab_kasan_alloc(struct mem_cgroup *memcg)
{
	struct mem_cgroup *old = set_active_memcg(memcg);
	void *obj = kmalloc(64, GFP_KERNEL_ACCOUNT);

	set_active_memcg(old);
	return obj;
}

static noinline char lab_kasan_read(char *p)
{
	return READ_ONCE(p[8]);
}

static int __init lab_kasan_uaf_init(void)
{
	struct mem_cgroup *memcg;
	char *first, *obj;

	if (!cg)
		return -EINVAL;
	memcg = memcg_from_path(cg);
	if (!memcg)
		return -ENOENT;
	/* The first allocation queues the child's creation: give it time. */
	first = lab_kasan_alloc(memcg);
	msleep(CHILD_WAIT_MS);
	obj = lab_kasan_alloc(memcg);
	css_put(&memcg->css);
	kfree(first);
	if (!obj)
		return -ENOMEM;
	pr_info("the object:");
	kmem_dump_obj(obj);
	kfree(obj);
	pr_info("reading the freed object; KASAN reports it\n");
	lab_kasan_read(obj);
	return 0;
}

static void __exit lab_kasan_uaf_exit(void)
{
}

module_init(lab_kasan_uaf_init);
module_exit(lab_kasan_uaf_exit);
MODULE_DESCRIPTION("Deliberate use-after-free of an accounted kmalloc object");
MODULE_LICENSE("GPL");
