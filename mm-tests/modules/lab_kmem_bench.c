// SPDX-License-Identifier: GPL-2.0
/*
 * lab_kmem_bench: the cost of accounted slab allocations, in the guest.
 *
 *   insmod lab_kmem_bench.ko [cg=/lab/bench] [objs=1000] [batches=100] [reps=9]
 *
 * Each repetition allocates objs objects and frees them again, batches
 * times (objs x batches pairs), and the time of the repetition is divided
 * by the number of pairs. Four benchmarks, each reported as the best and
 * the median of reps repetitions, in ns per allocation+free pair:
 *
 *   kmalloc    kmalloc(64, GFP_KERNEL_ACCOUNT) and kfree()
 *   cache      an accounted 64-byte kmem_cache (SLAB_ACCOUNT)
 *   kmalloc_x  as kmalloc, but each batch is freed by a kthread on the
 *              other CPU (allocate on one CPU, free on another)
 *   cache_x    as cache, freed on the other CPU
 *
 * With cg, the allocations are charged to that memory cgroup (as if the
 * loading task ran in it, via set_active_memcg()); without, to the root
 * cgroup, where nothing is charged. Output, one line each, in the kernel
 * log: "lab_kmem_bench: <context>_<bench>_best_ns <n>" and "..._median_ns".
 * The module does its work at load time and keeps nothing; rmmod it.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cgroup.h>
#include <linux/completion.h>
#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/kthread.h>
#include <linux/ktime.h>
#include <linux/memcontrol.h>
#include <linux/module.h>
#include <linux/sched/mm.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/vmalloc.h>

#define OBJ_SIZE	64
#define MAX_REPS	99

static char *cg;
module_param(cg, charp, 0444);
MODULE_PARM_DESC(cg, "memory cgroup to charge, e.g. /lab/bench (default: root)");
static uint objs = 1000;
module_param(objs, uint, 0444);
MODULE_PARM_DESC(objs, "objects per batch (1..100000)");
static uint batches = 100;
module_param(batches, uint, 0444);
MODULE_PARM_DESC(batches, "batches per repetition (1..100000)");
static uint reps = 9;
module_param(reps, uint, 0444);
MODULE_PARM_DESC(reps, "repetitions (1..99)");

static struct kmem_cache *bench_cache;

/* The other CPU's half of a cross-CPU batch: free what it is handed. */
struct remote_free {
	struct task_struct *task;
	struct completion go, done;
	void **ptrs;
	bool use_cache;
	bool stop;
};

static int remote_free_fn(void *arg)
{
	struct remote_free *rf = arg;
	uint i;

	for (;;) {
		wait_for_completion(&rf->go);
		if (rf->stop)
			break;
		for (i = 0; i < objs; i++) {
			if (rf->use_cache)
				kmem_cache_free(bench_cache, rf->ptrs[i]);
			else
				kfree(rf->ptrs[i]);
		}
		complete(&rf->done);
	}
	complete(&rf->done);
	while (!kthread_should_stop())
		schedule_timeout_interruptible(HZ);
	return 0;
}

/*
 * One repetition: objs x batches allocation+free pairs; returns the ns per
 * pair, or 0 if an allocation failed.
 */
static u64 one_rep(void **ptrs, bool use_cache, struct remote_free *rf)
{
	u64 start = ktime_get_ns();
	uint b, i;

	for (b = 0; b < batches; b++) {
		for (i = 0; i < objs; i++) {
			ptrs[i] = use_cache ?
				kmem_cache_alloc(bench_cache, GFP_KERNEL_ACCOUNT) :
				kmalloc(OBJ_SIZE, GFP_KERNEL_ACCOUNT);
			if (!ptrs[i])
				goto fail;
		}
		if (rf) {
			complete(&rf->go);
			wait_for_completion(&rf->done);
			continue;
		}
		for (i = 0; i < objs; i++) {
			if (use_cache)
				kmem_cache_free(bench_cache, ptrs[i]);
			else
				kfree(ptrs[i]);
		}
	}
	return div64_u64(ktime_get_ns() - start, (u64)objs * batches);
fail:
	while (i--) {
		if (use_cache)
			kmem_cache_free(bench_cache, ptrs[i]);
		else
			kfree(ptrs[i]);
	}
	return 0;
}

static int cmp_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

/* Run one benchmark reps times and print its best and median. */
static int bench(const char *ctx, const char *name, void **ptrs,
		 bool use_cache, bool cross)
{
	struct remote_free rf = { .ptrs = ptrs, .use_cache = use_cache };
	/* Off the stack (KASAN's redzones): the benchmarks run one at a time */
	static u64 t[MAX_REPS];
	int cpu, ret = 0;
	uint r;

	if (cross) {
		cpu = cpumask_any_but(cpu_online_mask, raw_smp_processor_id());
		if (cpu >= nr_cpu_ids) {
			pr_info("%s_%s: needs two CPUs, skipped\n", ctx, name);
			return 0;
		}
		init_completion(&rf.go);
		init_completion(&rf.done);
		rf.task = kthread_create(remote_free_fn, &rf, "lab_kmem_free");
		if (IS_ERR(rf.task))
			return PTR_ERR(rf.task);
		kthread_bind(rf.task, cpu);
		wake_up_process(rf.task);
	}
	for (r = 0; r < reps; r++) {
		t[r] = one_rep(ptrs, use_cache, cross ? &rf : NULL);
		if (!t[r]) {
			pr_err("%s_%s: allocation failed\n", ctx, name);
			ret = -ENOMEM;
			break;
		}
		cond_resched();
	}
	if (cross) {
		rf.stop = true;
		complete(&rf.go);
		wait_for_completion(&rf.done);
		kthread_stop(rf.task);
	}
	if (ret)
		return ret;
	sort(t, reps, sizeof(t[0]), cmp_u64, NULL);
	pr_info("%s_%s_best_ns %llu\n", ctx, name, t[0]);
	pr_info("%s_%s_median_ns %llu\n", ctx, name, t[reps / 2]);
	return 0;
}

static int __init lab_kmem_bench_init(void)
{
	struct cgroup_subsys_state *css = NULL;
	struct mem_cgroup *memcg = NULL, *old;
	cpumask_var_t saved;
	const char *ctx = "root";
	struct cgroup *cgrp;
	void **ptrs;
	int ret;

	if (!objs || objs > 100000 || !batches || batches > 100000 ||
	    !reps || reps > MAX_REPS) {
		pr_err("objs=%u batches=%u reps=%u: objs and batches must be 1..100000, reps 1..%d\n",
		       objs, batches, reps, MAX_REPS);
		return -EINVAL;
	}
	if (cg && *cg) {
		cgrp = cgroup_get_from_path(cg);
		if (IS_ERR(cgrp)) {
			pr_err("no cgroup %s\n", cg);
			return -EINVAL;
		}
		css = cgroup_get_e_css(cgrp, &memory_cgrp_subsys);
		cgroup_put(cgrp);
		if (!css) {
			pr_err("%s has no memory controller\n", cg);
			return -EINVAL;
		}
		memcg = mem_cgroup_from_css(css);
		ctx = "user";
	}
	ptrs = vmalloc(array_size(objs, sizeof(void *)));
	bench_cache = kmem_cache_create("lab_kmem_bench", OBJ_SIZE, 0,
					SLAB_ACCOUNT, NULL);
	if (!ptrs || !bench_cache || !alloc_cpumask_var(&saved, GFP_KERNEL)) {
		ret = -ENOMEM;
		goto out;
	}

	/* Stay on one CPU, so that the cross-CPU frees are on the other. */
	cpumask_copy(saved, current->cpus_ptr);
	set_cpus_allowed_ptr(current, cpumask_of(raw_smp_processor_id()));
	old = set_active_memcg(memcg);
	/* A first pass warms the caches (and creates per-memcg children). */
	one_rep(ptrs, false, NULL);
	one_rep(ptrs, true, NULL);
	msleep(100);
	ret = bench(ctx, "kmalloc", ptrs, false, false);
	if (!ret)
		ret = bench(ctx, "cache", ptrs, true, false);
	if (!ret)
		ret = bench(ctx, "kmalloc_x", ptrs, false, true);
	if (!ret)
		ret = bench(ctx, "cache_x", ptrs, true, true);
	set_active_memcg(old);
	set_cpus_allowed_ptr(current, saved);
	free_cpumask_var(saved);
	pr_info("done\n");
out:
	kmem_cache_destroy(bench_cache);
	vfree(ptrs);
	if (css)
		css_put(css);
	return ret;
}

static void __exit lab_kmem_bench_exit(void)
{
}

module_init(lab_kmem_bench_init);
module_exit(lab_kmem_bench_exit);
MODULE_DESCRIPTION("Cost of accounted slab allocations");
MODULE_LICENSE("GPL");
