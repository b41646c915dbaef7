/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the lab's in-guest test modules share: TAP result lines in the
 * kernel log and the memcg of a cgroup given by path.
 */
#ifndef LAB_TEST_MODULE_H
#define LAB_TEST_MODULE_H

#include <linux/cgroup.h>
#include <linux/memcontrol.h>
#include <linux/printk.h>

static int lab_test_nr;

/* "ok N name" or "not ok N name", numbered in the order of the calls */
static inline void report(int ret, const char *name)
{
	pr_info("%sok %d %s\n", ret ? "not " : "", ++lab_test_nr, name);
}

/* The memcg of the cgroup at @path, with a css reference; or NULL. */
static inline struct mem_cgroup *memcg_from_path(const char *path)
{
	struct cgroup_subsys_state *css;
	struct cgroup *cgrp;

	cgrp = cgroup_get_from_path(path);
	if (IS_ERR(cgrp))
		return NULL;
	css = cgroup_get_e_css(cgrp, &memory_cgrp_subsys);
	cgroup_put(cgrp);
	return css ? mem_cgroup_from_css(css) : NULL;
}

#endif /* LAB_TEST_MODULE_H */
