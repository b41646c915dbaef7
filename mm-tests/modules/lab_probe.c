// SPDX-License-Identifier: GPL-2.0
/*
 * lab_probe: what the lab's page reparenting tests need from inside the
 * kernel, as files in /sys/kernel/debug/lab_probe/. Load only in a lab
 * guest: insmod lab_probe.ko
 *
 *   root_usage     read: pages in the root memcg's page counter, which
 *                  counts every charge made below the root
 *   split_queue    write a cgroup path, read: the length of that memcg's
 *                  THP deferred split queue (a signed number, so that an
 *                  underflow shows as negative)
 *   pin            write a cgroup path: hold a css reference on its memcg
 *                  (so that it can be named after rmdir); "-" drops it;
 *                  read: the references on the pinned memcg's css (exact
 *                  once the css is killed, by rmdir; ours included)
 *   hold           write "FILE": hold page 0 of FILE's page cache, read in
 *                  (and charged, if new) with the pinned memcg as the
 *                  active memcg when one is pinned, else the writer's
 *   dirty          write 1: mark the held folio dirty through
 *                  set_page_dirty_lock(), as a GUP user that unpins does
 *   lock           write 1: lock the held folio, as a read filling it
 *                  or a truncation would; write 0: unlock it
 *   release        write 1: drop the held folio (unlocked first)
 *
 * With none of this a user can reach the states the tests need in a
 * bounded time: a page kept after its file was truncated and then dirtied
 * (a pinned user buffer), a charge to a memcg that is already offline (a
 * remote charger such as the loop driver), the root's page counter.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/memcontrol.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/page_counter.h>
#include <linux/pagemap.h>
#include <linux/sched/mm.h>
#include <linux/uaccess.h>

#include "lab_test_module.h"

static DEFINE_MUTEX(probe_lock);
static struct dentry *probe_dir;
static struct mem_cgroup *pinned;	/* under probe_lock */
static struct folio *held;		/* under probe_lock */
static bool held_locked;		/* under probe_lock */
static struct mem_cgroup *queue_memcg;	/* under probe_lock */

/* A path or word written to one of the files, without its newline. */
static int probe_arg(const char __user *ubuf, size_t len, char *buf,
		     size_t size)
{
	if (!len || len >= size)
		return -EINVAL;
	if (copy_from_user(buf, ubuf, len))
		return -EFAULT;
	buf[len] = '\0';
	strim(buf);
	return buf[0] ? 0 : -EINVAL;
}

static int root_usage_show(struct seq_file *m, void *v)
{
	struct mem_cgroup *memcg = memcg_from_path("/"), *root;

	if (!memcg)
		return -ENOENT;
	for (root = memcg; parent_mem_cgroup(root);)
		root = parent_mem_cgroup(root);
	seq_printf(m, "%lu\n", page_counter_read(&root->memory));
	css_put(&memcg->css);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(root_usage);

static int split_queue_show(struct seq_file *m, void *v)
{
	int ret = 0;

	mutex_lock(&probe_lock);
#ifdef CONFIG_TRANSPARENT_HUGEPAGE
	if (queue_memcg)
		seq_printf(m, "%ld\n",
			   (long)READ_ONCE(queue_memcg->deferred_split_queue.split_queue_len));
	else
		ret = -ENOENT;
#else
	ret = -EOPNOTSUPP;
#endif
	mutex_unlock(&probe_lock);
	return ret;
}

static int split_queue_open(struct inode *inode, struct file *file)
{
	return single_open(file, split_queue_show, NULL);
}

/* Name the memcg whose split queue a read reports. */
static ssize_t split_queue_write(struct file *file, const char __user *ubuf,
				 size_t len, loff_t *ppos)
{
	struct mem_cgroup *memcg;
	char path[256];
	int ret;

	ret = probe_arg(ubuf, len, path, sizeof(path));
	if (ret)
		return ret;
	memcg = memcg_from_path(path);
	if (!memcg)
		return -ENOENT;
	mutex_lock(&probe_lock);
	if (queue_memcg)
		css_put(&queue_memcg->css);
	queue_memcg = memcg;
	mutex_unlock(&probe_lock);
	return len;
}

static const struct file_operations split_queue_fops = {
	.owner = THIS_MODULE,
	.open = split_queue_open,
	.read = seq_read,
	.write = split_queue_write,
	.llseek = seq_lseek,
	.release = single_release,
};

static ssize_t pin_write(struct file *file, const char __user *ubuf,
			 size_t len, loff_t *ppos)
{
	struct mem_cgroup *memcg = NULL;
	char path[256];
	int ret;

	ret = probe_arg(ubuf, len, path, sizeof(path));
	if (ret)
		return ret;
	if (strcmp(path, "-")) {
		memcg = memcg_from_path(path);
		if (!memcg)
			return -ENOENT;
	}
	mutex_lock(&probe_lock);
	if (pinned)
		css_put(&pinned->css);
	pinned = memcg;
	mutex_unlock(&probe_lock);
	return len;
}

static int pin_show(struct seq_file *m, void *v)
{
	int ret = 0;

	mutex_lock(&probe_lock);
	if (pinned && pinned->css.refcnt.data)
		seq_printf(m, "%ld\n",
			   atomic_long_read(&pinned->css.refcnt.data->count));
	else
		ret = -ENOENT;
	mutex_unlock(&probe_lock);
	return ret;
}

static int pin_open(struct inode *inode, struct file *file)
{
	return single_open(file, pin_show, NULL);
}

static const struct file_operations pin_fops = {
	.owner = THIS_MODULE,
	.open = pin_open,
	.read = seq_read,
	.write = pin_write,
	.llseek = seq_lseek,
	.release = single_release,
};

static ssize_t hold_write(struct file *file, const char __user *ubuf,
			  size_t len, loff_t *ppos)
{
	struct mem_cgroup *old = NULL;
	struct folio *folio;
	struct file *f;
	char path[256];
	int ret;

	ret = probe_arg(ubuf, len, path, sizeof(path));
	if (ret)
		return ret;
	f = filp_open(path, O_RDONLY, 0);
	if (IS_ERR(f))
		return PTR_ERR(f);
	mutex_lock(&probe_lock);
	if (held) {
		ret = -EBUSY;
		goto out;
	}
	if (pinned)
		old = set_active_memcg(pinned);
	folio = read_cache_folio(f->f_mapping, 0, NULL, f);
	if (pinned)
		set_active_memcg(old);
	if (IS_ERR(folio)) {
		ret = PTR_ERR(folio);
		goto out;
	}
	held = folio;
	ret = len;
out:
	mutex_unlock(&probe_lock);
	filp_close(f, NULL);
	return ret;
}

static const struct file_operations hold_fops = {
	.owner = THIS_MODULE,
	.write = hold_write,
};

static ssize_t dirty_write(struct file *file, const char __user *ubuf,
			   size_t len, loff_t *ppos)
{
	int ret = -ENOENT;

	mutex_lock(&probe_lock);
	if (held && held_locked) {
		/* set_page_dirty_lock() would wait for our own lock */
		ret = -EBUSY;
	} else if (held) {
		set_page_dirty_lock(&held->page);
		ret = len;
	}
	mutex_unlock(&probe_lock);
	return ret;
}

static const struct file_operations dirty_fops = {
	.owner = THIS_MODULE,
	.write = dirty_write,
};

static ssize_t lock_write(struct file *file, const char __user *ubuf,
			  size_t len, loff_t *ppos)
{
	char word[4];
	int ret;

	ret = probe_arg(ubuf, len, word, sizeof(word));
	if (ret)
		return ret;
	if (strcmp(word, "0") && strcmp(word, "1"))
		return -EINVAL;
	mutex_lock(&probe_lock);
	if (!held) {
		ret = -ENOENT;
	} else if (held_locked == (word[0] == '1')) {
		ret = -EINVAL;
	} else {
		ret = len;
		if (held_locked)
			folio_unlock(held);
		else if (folio_lock_killable(held))
			ret = -EINTR;
		if (ret > 0)
			held_locked = !held_locked;
	}
	mutex_unlock(&probe_lock);
	return ret;
}

static const struct file_operations lock_fops = {
	.owner = THIS_MODULE,
	.write = lock_write,
};

static void release_held(void)
{
	if (held && held_locked)
		folio_unlock(held);
	if (held)
		folio_put(held);
	held = NULL;
	held_locked = false;
}

static ssize_t release_write(struct file *file, const char __user *ubuf,
			     size_t len, loff_t *ppos)
{
	mutex_lock(&probe_lock);
	release_held();
	mutex_unlock(&probe_lock);
	return len;
}

static const struct file_operations release_fops = {
	.owner = THIS_MODULE,
	.write = release_write,
};

static int __init lab_probe_init(void)
{
	probe_dir = debugfs_create_dir("lab_probe", NULL);
	debugfs_create_file("root_usage", 0444, probe_dir, NULL,
			    &root_usage_fops);
	debugfs_create_file("split_queue", 0644, probe_dir, NULL,
			    &split_queue_fops);
	debugfs_create_file("pin", 0600, probe_dir, NULL, &pin_fops);
	debugfs_create_file("hold", 0200, probe_dir, NULL, &hold_fops);
	debugfs_create_file("dirty", 0200, probe_dir, NULL, &dirty_fops);
	debugfs_create_file("lock", 0200, probe_dir, NULL, &lock_fops);
	debugfs_create_file("release", 0200, probe_dir, NULL, &release_fops);
	return 0;
}

static void __exit lab_probe_exit(void)
{
	debugfs_remove_recursive(probe_dir);
	mutex_lock(&probe_lock);
	release_held();
	if (pinned)
		css_put(&pinned->css);
	if (queue_memcg)
		css_put(&queue_memcg->css);
	pinned = NULL;
	queue_memcg = NULL;
	mutex_unlock(&probe_lock);
}

module_init(lab_probe_init);
module_exit(lab_probe_exit);
MODULE_DESCRIPTION("Probes into memcg state for the lab's page reparenting tests");
MODULE_LICENSE("GPL");
