// SPDX-License-Identifier: GPL-2.0
/*
 * lab_memcg_donate: in-kernel tests of lazy donation (memcg_slab=donate,
 * series 0008). Load only in a lab guest. The guest job drives it through
 * three write-only parameters, because only user space can remove a cgroup:
 *
 *   insmod lab_memcg_donate.ko parent=/lab
 *   echo /lab/old >/sys/module/lab_memcg_donate/parameters/fill
 *   rmdir /sys/fs/cgroup/lab/old     (its slabs go to the pool)
 *   echo /lab/new >/sys/module/lab_memcg_donate/parameters/adopt
 *
 * fill: a memcg allocates FILL_OBJS objects from the module's accounted
 * cache, each on a memcg-aware list_lru, and frees every other one: its
 * slab pages are left half full.
 * adopt: the TAP tests below, in a second memcg, after the first was removed.
 * race: like adopt, but while the first memcg is being removed: one kthread
 * per CPU frees the old objects through kmem_cache_free() and kfree() while
 * the writer allocates and frees in the new memcg. The guest runs it many
 * times on the debug kernel; KASAN, lockdep and slub_debug judge it.
 * race_adopt: the first allocation of a memcg that has no slab yet adopts
 * a pooled slab; the adopter is held up right after it published the slab
 * on its own partial list (a kprobe on the function it calls next spins on
 * its CPU), and meanwhile the old objects are freed and the adopter's
 * cache is shrunk on the other CPU. Needs a kernel with kprobes and two
 * CPUs.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cgroup.h>
#include <linux/delay.h>
#include <linux/kprobes.h>
#include <linux/kthread.h>
#include <linux/list_lru.h>
#include <linux/memcontrol.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/sched/mm.h>
#include <linux/slab.h>

#include "lab_test_module.h"

/* virt_to_cache() and the per-memcg child fields: which cache holds what */
#include "slab.h"

#define FILL_OBJS	8192
#define OBJ_SIZE	128
#define CHILD_WAIT_MS	2000
#define RACE_ROUNDS	40
#define RACE_OBJS	64	/* per round, held until the race ends */

struct lab_obj {
	struct list_head lru;
	unsigned long owner;	/* 1: old memcg, 2: new memcg */
	char pad[OBJ_SIZE - sizeof(struct list_head) - sizeof(long)];
};

static char *parent;
module_param(parent, charp, 0444);
MODULE_PARM_DESC(parent, "the cgroup both test memcgs are children of");

static DEFINE_MUTEX(lab_mutex);
static struct kmem_cache *lab_cache;
static struct list_lru lab_lru;
static struct mem_cgroup *lab_parent;
static struct lab_obj *old_objs[FILL_OBJS];
static void *old_kmalloc[FILL_OBJS];
static struct page *old_pages[FILL_OBJS];
static int nr_old_pages;

/* Objects leave the list_lru with list_del_init(): set up once per slot */
static void lab_obj_ctor(void *p)
{
	struct lab_obj *obj = p;

	memset(obj, 0, sizeof(*obj));
	INIT_LIST_HEAD(&obj->lru);
}

/* A cgroup path from a parameter write, without its newline */
static struct mem_cgroup *memcg_from_param(const char *val)
{
	struct mem_cgroup *memcg;
	char *path = kstrdup(val, GFP_KERNEL);

	if (!path)
		return NULL;
	memcg = memcg_from_path(strim(path));
	if (!memcg)
		pr_err("%s is not a memory cgroup\n", strim(path));
	kfree(path);
	return memcg;
}

static struct lab_obj *alloc_in(struct mem_cgroup *memcg)
{
	struct mem_cgroup *old = set_active_memcg(memcg);
	struct lab_obj *obj;

	obj = kmem_cache_alloc_lru(lab_cache, &lab_lru, GFP_KERNEL);
	set_active_memcg(old);
	return obj;
}

static void *kmalloc_in(struct mem_cgroup *memcg)
{
	struct mem_cgroup *old = set_active_memcg(memcg);
	void *obj = kmalloc(OBJ_SIZE, GFP_KERNEL_ACCOUNT);

	set_active_memcg(old);
	return obj;
}

/* @obj came from a per-memcg child of its cache, not the root */
static bool from_child(void *obj)
{
	return virt_to_cache(obj)->memcg_params.root;
}

/*
 * Wait until @memcg's allocations from the module cache (or with @kmalloc
 * from kmalloc-cg-128) come from its child, then allocate one.
 */
static void *alloc_from_child(struct mem_cgroup *memcg, bool kmalloc)
{
	int waited;
	void *obj;

	for (waited = 0; waited <= CHILD_WAIT_MS; waited += 20) {
		obj = kmalloc ? kmalloc_in(memcg) : alloc_in(memcg);
		if (!obj)
			return NULL;
		if (from_child(obj))
			return obj;
		if (kmalloc)
			kfree(obj);
		else
			kmem_cache_free(lab_cache, obj);
		msleep(20);
	}
	return NULL;
}

/* Slabs in the pool of the module cache: its dying children's partial ones */
static unsigned long lab_pooled(void)
{
	struct memcg_slab_params *p;
	struct kmem_cache_node *n;
	unsigned long nr = 0;
	int node;

	rcu_read_lock();
	list_for_each_entry_rcu(p, &lab_cache->memcg_params.pool, pool_node) {
		for_each_kmem_cache_node(container_of(p, struct kmem_cache,
						      memcg_params), node, n)
			nr += READ_ONCE(n->nr_partial);
	}
	rcu_read_unlock();
	return nr;
}

static bool on_old_page(void *obj)
{
	struct page *page = virt_to_head_page(obj);
	int i;

	for (i = 0; i < nr_old_pages; i++)
		if (old_pages[i] == page)
			return true;
	return false;
}

static void note_old_page(void *obj)
{
	if (!on_old_page(obj) && nr_old_pages < FILL_OBJS)
		old_pages[nr_old_pages++] = virt_to_head_page(obj);
}

static void free_lab_obj(struct lab_obj *obj)
{
	list_lru_del(&lab_lru, &obj->lru);
	kmem_cache_free(lab_cache, obj);
}

/* Free whatever fill left, e.g. after a failed test */
static void free_old(void)
{
	int i;

	for (i = 0; i < FILL_OBJS; i++) {
		if (old_objs[i])
			free_lab_obj(old_objs[i]);
		kfree(old_kmalloc[i]);
		old_objs[i] = NULL;
		old_kmalloc[i] = NULL;
	}
	nr_old_pages = 0;
}

static int lab_fill(const char *val, const struct kernel_param *kp)
{
	struct mem_cgroup *memcg = memcg_from_param(val);
	int ret = -ENOMEM, i;

	if (!memcg)
		return -EINVAL;
	mutex_lock(&lab_mutex);
	free_old();
	old_objs[0] = alloc_from_child(memcg, false);
	old_kmalloc[0] = alloc_from_child(memcg, true);
	if (!old_objs[0] || !old_kmalloc[0]) {
		pr_err("fill: no allocation came from a child\n");
		goto out;
	}
	for (i = 0; i < FILL_OBJS; i++) {
		if (i) {
			old_objs[i] = alloc_in(memcg);
			old_kmalloc[i] = kmalloc_in(memcg);
		}
		if (!old_objs[i] || !old_kmalloc[i])
			goto out;
		if (!from_child(old_objs[i]) || !from_child(old_kmalloc[i]))
			goto out;
		old_objs[i]->owner = 1;
		list_lru_add(&lab_lru, &old_objs[i]->lru);
	}
	for (i = 0; i < FILL_OBJS; i += 2) {
		free_lab_obj(old_objs[i]);
		kfree(old_kmalloc[i]);
		old_objs[i] = NULL;
		old_kmalloc[i] = NULL;
	}
	for (i = 1; i < FILL_OBJS; i += 2)
		note_old_page(old_objs[i]);
	ret = 0;
out:
	mutex_unlock(&lab_mutex);
	css_put(&memcg->css);
	return ret;
}

/*
 * A live memcg that needs slab pages takes the pooled half-empty pages of
 * the removed memcg before any new page: each of the first FILL_OBJS / 4
 * objects it allocates lands on one of them, and the pool shrinks. Fails
 * under pin and reparent, where the removed memcg's pages are nobody
 * else's.
 */
static int test_adoption_reuses_pages(struct mem_cgroup *memcg,
				      struct lab_obj **objs, int nr)
{
	unsigned long before = lab_pooled();
	int ret = -1, i, fresh = 0;

	objs[0] = alloc_from_child(memcg, false);
	if (!objs[0])
		goto cleanup;
	for (i = 0; i < nr; i++) {
		if (i)
			objs[i] = alloc_in(memcg);
		if (!objs[i])
			goto cleanup;
		objs[i]->owner = 2;
		if (!on_old_page(objs[i]))
			fresh++;
	}
	pr_info("# %d of %d objects on pages of the removed memcg; pool %lu -> %lu slabs\n",
		nr - fresh, nr, before, lab_pooled());
	if (fresh || lab_pooled() >= before)
		goto cleanup;
	ret = 0;
cleanup:
	return ret;
}

/*
 * @memcg's objects on lab_lru, on every node: an object is listed on the
 * node of its page, and the guest may have more than one.
 */
static unsigned long lab_lru_count(struct mem_cgroup *memcg)
{
	unsigned long nr = 0;
	int nid;

	for_each_online_node(nid)
		nr += list_lru_count_one(&lab_lru, nid, memcg);
	return nr;
}

/*
 * The removed memcg's objects stay on its list_lru lists, which went to the
 * parent at removal, after their page changed owner: deleting them empties
 * the parent's list, and the adopter's own objects are counted as its own.
 * A kernel that let an adopted page's old objects follow the page would
 * count the deletions against the adopter and leave the parent's count up.
 */
static int test_old_objects_keep_owner(struct mem_cgroup *memcg,
				       struct lab_obj **objs, int nr)
{
	unsigned long p0, p1, n0, n1;
	int ret = -1, i;

	p0 = lab_lru_count(lab_parent);
	for (i = 0; i < nr; i++)
		list_lru_add(&lab_lru, &objs[i]->lru);
	n0 = lab_lru_count(memcg);
	for (i = 1; i < FILL_OBJS; i += 2)
		list_lru_del(&lab_lru, &old_objs[i]->lru);
	p1 = lab_lru_count(lab_parent);
	n1 = lab_lru_count(memcg);
	pr_info("# list_lru: parent %lu -> %lu, adopter %lu -> %lu\n",
		p0, p1, n0, n1);
	if (p0 < FILL_OBJS / 2 || p1 != p0 - FILL_OBJS / 2 || n0 != nr ||
	    n1 != nr)
		goto cleanup;
	ret = 0;
cleanup:
	return ret;
}

/*
 * Every object frees correctly after its page changed owner, the old ones
 * through kmem_cache_free() of the root cache and kfree(), the new ones
 * after them, and their contents were not touched by the move: a free into
 * the wrong cache or a corrupted freelist is reported by slub_debug=FZPU.
 */
static int test_frees_after_adoption(struct lab_obj **objs, int nr)
{
	int ret = 0, i;

	for (i = 1; i < FILL_OBJS; i += 2) {
		if (old_objs[i]->owner != 1)
			ret = -1;
		kmem_cache_free(lab_cache, old_objs[i]);
		kfree(old_kmalloc[i]);
		old_objs[i] = NULL;
		old_kmalloc[i] = NULL;
	}
	for (i = 0; i < nr; i++) {
		if (objs[i]->owner != 2)
			ret = -1;
		free_lab_obj(objs[i]);
		objs[i] = NULL;
	}
	return ret;
}

static int lab_adopt(const char *val, const struct kernel_param *kp)
{
	struct mem_cgroup *memcg = memcg_from_param(val);
	int nr = FILL_OBJS / 4, i;
	struct lab_obj **objs;

	if (!memcg)
		return -EINVAL;
	objs = kcalloc(nr, sizeof(*objs), GFP_KERNEL);
	if (!objs) {
		css_put(&memcg->css);
		return -ENOMEM;
	}
	mutex_lock(&lab_mutex);
	if (!nr_old_pages) {
		pr_err("adopt: fill first\n");
		goto out;
	}
	report(test_adoption_reuses_pages(memcg, objs, nr),
	       "test_adoption_reuses_pages");
	for (i = 0; i < nr; i++) {
		if (!objs[i])
			break;
	}
	if (i == nr) {
		report(test_old_objects_keep_owner(memcg, objs, nr),
		       "test_old_objects_keep_owner");
		report(test_frees_after_adoption(objs, nr),
		       "test_frees_after_adoption");
	}
	for (i = 0; i < nr; i++)
		if (objs[i])
			free_lab_obj(objs[i]);
	free_old();
out:
	mutex_unlock(&lab_mutex);
	kfree(objs);
	css_put(&memcg->css);
	return 0;
}

struct race_freer {
	struct completion done;
	int cpu, nr_cpus;
};

/*
 * Fill leaves the odd slots: slot pair i / 2 belongs to freer
 * (i / 2) % nr_cpus.
 */
static bool race_share(int i, int cpu, int nr_cpus)
{
	return (i / 2) % nr_cpus == cpu;
}

/* Frees this CPU's share of the old objects, with pauses in between */
static int race_free_fn(void *arg)
{
	struct race_freer *f = arg;
	int i, n = 0;

	for (i = 0; i < FILL_OBJS; i++) {
		if (!race_share(i, f->cpu, f->nr_cpus) || !old_objs[i])
			continue;
		list_lru_del(&lab_lru, &old_objs[i]->lru);
		kmem_cache_free(lab_cache, old_objs[i]);
		kfree(old_kmalloc[i]);
		/* Spread the frees over the removal and the adoptions */
		if (++n % 8 == 0)
			msleep(2);
	}
	complete(&f->done);
	return 0;
}

static int lab_race(const char *val, const struct kernel_param *kp)
{
	struct mem_cgroup *memcg = memcg_from_param(val);
	int nr_cpus = num_online_cpus(), nr = RACE_ROUNDS * RACE_OBJS;
	struct race_freer *f = NULL;
	int ret = -ENOMEM, started = 0, cpu, i;
	struct task_struct *t;
	struct lab_obj **objs;
	void **kobjs;

	if (!memcg)
		return -EINVAL;
	objs = kcalloc(nr, sizeof(*objs), GFP_KERNEL);
	kobjs = kcalloc(nr, sizeof(*kobjs), GFP_KERNEL);
	if (objs && kobjs)
		f = kcalloc(nr_cpus, sizeof(*f), GFP_KERNEL);
	if (!f)
		goto out;
	ret = 0;
	mutex_lock(&lab_mutex);
	for_each_online_cpu(cpu) {
		if (started == nr_cpus)
			break;
		f[started].cpu = started;
		f[started].nr_cpus = nr_cpus;
		init_completion(&f[started].done);
		t = kthread_create(race_free_fn, &f[started], "lab_race/%d",
				   cpu);
		if (IS_ERR(t))
			break;
		kthread_bind(t, cpu);
		wake_up_process(t);
		started++;
	}
	/*
	 * Allocate in the new memcg while the old one goes and its objects
	 * are freed, holding everything, so that it keeps needing slabs.
	 */
	for (i = 0; i < nr; i++) {
		objs[i] = alloc_in(memcg);
		kobjs[i] = kmalloc_in(memcg);
		if (i % RACE_OBJS == RACE_OBJS - 1)
			msleep(20);
	}
	for (i = 0; i < nr; i++) {
		if (objs[i])
			kmem_cache_free(lab_cache, objs[i]);
		kfree(kobjs[i]);
	}
	for (i = 0; i < started; i++)
		wait_for_completion(&f[i].done);
	/* A CPU without a freer leaves its share for free_old() */
	for (i = 0; i < FILL_OBJS; i++) {
		if ((i / 2) % nr_cpus < started) {
			old_objs[i] = NULL;
			old_kmalloc[i] = NULL;
		}
	}
	free_old();
	mutex_unlock(&lab_mutex);
out:
	kfree(f);
	kfree(kobjs);
	kfree(objs);
	css_put(&memcg->css);
	return ret;
}

/*
 * The window race_adopt widens: the function the adopter calls once the
 * slab is on its partial list and both list_locks are dropped (named
 * memcg_slab_adopt_commit() before 2026-12-05, when it also counted the
 * adopter's pages). A kprobe on it holds the adopter's CPU for
 * WINDOW_HOLD_MS: the adopter holds no lock then, only rcu_read_lock(),
 * so the other CPU can free objects and shrink caches meanwhile.
 */
static const char * const window_fns[] = {
	"memcg_slab_adopt_release", "memcg_slab_adopt_commit",
};
#define WINDOW_HOLD_MS	200

static struct kprobe window_kp;
static bool window_armed, window_open;
static int window_cpu;
static atomic_t window_hits;

/* Runs where the adopter is about to call the probed function */
static int window_pre(struct kprobe *kp, struct pt_regs *regs)
{
	if (!READ_ONCE(window_armed) || smp_processor_id() != window_cpu)
		return 0;
	WRITE_ONCE(window_armed, false);
	WRITE_ONCE(window_open, true);
	atomic_inc(&window_hits);
	mdelay(WINDOW_HOLD_MS);
	WRITE_ONCE(window_open, false);
	return 0;
}

struct window_racer {
	struct kmem_cache *adopter;
	struct completion done;
	unsigned long shrinks;
	bool opened;
};

/* On the other CPU: in the window, free the old objects, shrink the adopter */
static int window_racer_fn(void *arg)
{
	struct window_racer *r = arg;
	int waited;

	for (waited = 0; waited < 5000 && !READ_ONCE(window_open); waited++)
		usleep_range(1000, 1100);
	r->opened = READ_ONCE(window_open);
	if (r->opened) {
		free_old();
		while (READ_ONCE(window_open)) {
			kmem_cache_shrink(r->adopter);
			r->shrinks++;
			udelay(200);
		}
	}
	complete(&r->done);
	return 0;
}

/* @memcg's child of the module cache once it exists, or NULL after 2 s */
static struct kmem_cache *wait_for_child(struct mem_cgroup *memcg)
{
	struct kmem_cache *child = NULL;
	void *entry;
	int waited;

	for (waited = 0; waited <= CHILD_WAIT_MS && !child; waited += 20) {
		rcu_read_lock();
		entry = xa_load(&memcg->slab_children,
				lab_cache->memcg_params.id);
		if (entry && !xa_is_value(entry))
			child = entry;
		rcu_read_unlock();
		if (!child)
			msleep(20);
	}
	return child;
}

/*
 * A memcg whose first slab is adopted keeps its child cache live when the
 * adopted slab is emptied and shrunk away right after it was published:
 * the child still serves the memcg (not marked dying) and nothing about
 * it is reported. Before the fix the adopter counted the slab's pages
 * only after publishing it; the shrink then took its page count to zero
 * and retired (and later destroyed) a child its memcg still used.
 */
static int test_adoption_race_keeps_child(struct mem_cgroup *memcg)
{
	struct window_racer racer = { };
	struct kmem_cache *child;
	struct task_struct *t;
	cpumask_var_t saved;
	struct lab_obj *obj;
	int ret = -1, i;

	if (num_online_cpus() < 2 || !alloc_cpumask_var(&saved, GFP_KERNEL))
		return -1;
	cpumask_copy(saved, current->cpus_ptr);
	/* Creates the child (the allocation itself is a shared one) */
	obj = alloc_in(memcg);
	if (obj)
		free_lab_obj(obj);
	child = wait_for_child(memcg);
	if (!child || !lab_pooled()) {
		pr_info("# race_adopt: child %s, pool %lu slabs\n",
			child ? "ready" : "missing", lab_pooled());
		goto out;
	}
	for (i = 0; i < ARRAY_SIZE(window_fns); i++) {
		memset(&window_kp, 0, sizeof(window_kp));
		window_kp.symbol_name = window_fns[i];
		window_kp.pre_handler = window_pre;
		if (!register_kprobe(&window_kp))
			break;
	}
	if (i == ARRAY_SIZE(window_fns)) {
		pr_info("# race_adopt: no kprobe on the adoption path\n");
		goto out;
	}

	window_cpu = cpumask_first(cpu_online_mask);
	set_cpus_allowed_ptr(current, cpumask_of(window_cpu));
	racer.adopter = child;
	init_completion(&racer.done);
	t = kthread_create(window_racer_fn, &racer, "lab_racer");
	if (IS_ERR(t))
		goto restore;
	kthread_bind(t, cpumask_next(window_cpu, cpu_online_mask));
	WRITE_ONCE(window_armed, true);
	wake_up_process(t);

	/* The child's first slab: adopted, then held up in the window */
	obj = alloc_in(memcg);
	WRITE_ONCE(window_armed, false);
	wait_for_completion(&racer.done);
	/* Let a wrongly queued retirement of the child run */
	msleep(500);
	pr_info("# race_adopt: kprobe on %s, window %s, %lu shrinks; object %s the child, child %s\n",
		window_kp.symbol_name, racer.opened ? "opened" : "never opened",
		racer.shrinks,
		obj && virt_to_cache(obj) == child ? "from" : "not from",
		READ_ONCE(child->memcg_params.dying) ? "dying" : "live");
	if (racer.opened && obj && !READ_ONCE(child->memcg_params.dying))
		ret = 0;
	if (obj)
		free_lab_obj(obj);
restore:
	set_cpus_allowed_ptr(current, saved);
	unregister_kprobe(&window_kp);
out:
	free_cpumask_var(saved);
	return ret;
}

static int lab_race_adopt(const char *val, const struct kernel_param *kp)
{
	struct mem_cgroup *memcg = memcg_from_param(val);

	if (!memcg)
		return -EINVAL;
	mutex_lock(&lab_mutex);
	report(test_adoption_race_keeps_child(memcg),
	       "test_adoption_race_keeps_child");
	free_old();
	mutex_unlock(&lab_mutex);
	css_put(&memcg->css);
	return 0;
}

static const struct kernel_param_ops fill_ops = { .set = lab_fill };
static const struct kernel_param_ops adopt_ops = { .set = lab_adopt };
static const struct kernel_param_ops race_ops = { .set = lab_race };
module_param_cb(fill, &fill_ops, NULL, 0200);
MODULE_PARM_DESC(fill, "write a cgroup path: fill the module cache from it");
module_param_cb(adopt, &adopt_ops, NULL, 0200);
MODULE_PARM_DESC(adopt, "write a cgroup path: the adoption tests in it");
module_param_cb(race, &race_ops, NULL, 0200);
MODULE_PARM_DESC(race, "write a cgroup path: free old objects while it allocates");
static const struct kernel_param_ops race_adopt_ops = { .set = lab_race_adopt };
module_param_cb(race_adopt, &race_adopt_ops, NULL, 0200);
MODULE_PARM_DESC(race_adopt, "write a fresh cgroup path: free and shrink while it adopts");

static int __init lab_memcg_donate_init(void)
{
	int ret;

	if (!parent) {
		pr_err("usage: insmod lab_memcg_donate.ko parent=PATH\n");
		return -EINVAL;
	}
	lab_parent = memcg_from_path(parent);
	if (!lab_parent) {
		pr_err("parent=%s is not a memory cgroup\n", parent);
		return -EINVAL;
	}
	ret = list_lru_init_memcg(&lab_lru, NULL);
	if (ret)
		goto put;
	lab_cache = kmem_cache_create("lab_memcg_donate", sizeof(struct lab_obj),
				      0, SLAB_ACCOUNT, lab_obj_ctor);
	if (!lab_cache) {
		ret = -ENOMEM;
		goto lru;
	}
	return 0;
lru:
	list_lru_destroy(&lab_lru);
put:
	css_put(&lab_parent->css);
	return ret;
}

static void __exit lab_memcg_donate_exit(void)
{
	free_old();
	kmem_cache_destroy(lab_cache);
	list_lru_destroy(&lab_lru);
	css_put(&lab_parent->css);
}

module_init(lab_memcg_donate_init);
module_exit(lab_memcg_donate_exit);
MODULE_DESCRIPTION("In-guest tests of lazy donation of dying per-memcg slabs");
MODULE_LICENSE("GPL");
