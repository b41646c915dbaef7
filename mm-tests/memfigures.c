// SPDX-License-Identifier: GPL-2.0
/*
 * memfigures: print the memory figures the lab compares, one "name value"
 * pair per line:
 *   meminfo_*_kB        totals from /proc/meminfo
 *   dentries[_unused]   /proc/sys/fs/dentry-state
 *   inodes[_unused]     /proc/sys/fs/inode-nr
 *   slab_CACHE_*        /proc/slabinfo lines of the dentry and inode caches
 *   slabfam_F_*         the dentry and inode families (root caches and
 *                       their per-memcg children): slab pages, utilisation
 *                       in percent, number of children
 *   memcg_slab_*        live and dying child caches, their slab pages and
 *                       the pooled slabs of memcg_slab=donate
 *   vm_*                reclaim, reparenting and donation counters from
 *                       /proc/vmstat
 *   nr_dying_descendants, cg_memory_current, cg_*   of cgroup -c
 *   cg_lru_gen_file_yN  the multi-gen LRU's file pages of cgroup -c in
 *                       the Nth generation from the youngest (y0), summed
 *                       over nodes (/sys/kernel/debug/lru_gen)
 *   io_rios             block reads issued by cgroup -i (io.stat)
 *
 * Usage: memfigures [-c CGROUP] [-i IO_CGROUP]   (-c defaults to the root)
 */
#include "lab_util.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static const char * const meminfo_keys[] = {
	"MemTotal", "MemFree", "Slab", "SReclaimable", "SUnreclaim",
	"Active(file)", "Inactive(file)",
};
static const char * const vmstat_keys[] = {
	"slabs_scanned", "pginodesteal", "kswapd_inodesteal", "pgscan_kswapd",
	"pgsteal_kswapd",
	/* page reparenting (series 0005); absent on stock */
	"memcg_reparent_moved", "memcg_reparent_busy", "memcg_reparent_left",
	"memcg_reparent_passes",
	/* per-memcg slab caches (series 0007); absent on stock */
	"memcg_slab_child_created", "memcg_slab_child_offlined",
	"memcg_slab_child_freed",
	/* lazy donation (series 0008); absent before it */
	"memcg_slab_donated", "memcg_slab_adopted", "memcg_slab_pool_freed",
	/* what moves folios on the LRU besides reclaim */
	"pgmigrate_success", "compact_isolated", "pgrotated", "pgdeactivate",
};
static const char * const memstat_keys[] = {
	"anon", "file", "kernel", "active_file", "inactive_file", "slab",
	"slab_reclaimable", "slab_unreclaimable",
	/*
	 * Refaults, and activations: with MGLRU these include the folios
	 * that sort_folio() keeps in a younger generation for their tier.
	 */
	"workingset_refault_file", "workingset_activate_file",
};
static const char * const slab_caches[] = {
	"dentry", "inode_cache", "ext4_inode_cache",
};

static int in_list(const char *key, const char * const *list, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(key, list[i]))
			return 1;
	return 0;
}

/*
 * Print the "key value" pairs of @path whose key is in @keys, as
 * @prefix + key. /proc/meminfo's "Key:   value kB" form is read too.
 */
static int print_keyed(const char *path, const char *prefix,
		       const char * const *keys, size_t nkeys,
		       const char *suffix)
{
	char line[512], key[128];
	unsigned long long val;
	FILE *f;

	f = fopen(path, "r");
	if (!f) {
		fprintf(stderr, "memfigures: %s: %s\n", path, strerror(errno));
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%127[^: ]%*[: ]%llu", key, &val) != 2)
			continue;
		if (!in_list(key, keys, nkeys))
			continue;
		/* "Active(file)" becomes "Active_file" */
		if (strchr(key, '(')) {
			key[strcspn(key, ")")] = '\0';
			key[strcspn(key, "(")] = '_';
		}
		printf("%s%s%s %llu\n", prefix, key, suffix, val);
	}
	fclose(f);
	return 0;
}

/* Print the first @n numbers of a one-line /proc file under @names. */
static int print_numbers(const char *path, const char * const *names, int n)
{
	long v[8];
	int i, got;
	FILE *f;

	f = fopen(path, "r");
	if (!f) {
		fprintf(stderr, "memfigures: %s: %s\n", path, strerror(errno));
		return -1;
	}
	for (got = 0; got < n && got < 8; got++)
		if (fscanf(f, "%ld", &v[got]) != 1)
			break;
	fclose(f);
	if (got < n) {
		fprintf(stderr, "memfigures: %s: expected %d numbers\n", path, n);
		return -1;
	}
	for (i = 0; i < n; i++)
		printf("%s %ld\n", names[i], v[i]);
	return 0;
}

/*
 * Cache families: a root cache and its per-memcg children ("dentry" and
 * "dentry(<cgroup id>:<name>)", series 0007).
 */
static const char * const families[][4] = {
	{ "dentry", "dentry", NULL },
	{ "inode", "ext4_inode_cache", "inode_cache", "shmem_inode_cache" },
};

struct family_sum {
	unsigned long pages, active_bytes, children;
};

/* Index of the family @name belongs to, or -1; sets @child for children. */
static int family_of(const char *name, int *child)
{
	size_t f, i, len;

	for (f = 0; f < ARRAY_SIZE(families); f++) {
		for (i = 1; i < 4 && families[f][i]; i++) {
			len = strlen(families[f][i]);
			if (strncmp(name, families[f][i], len))
				continue;
			if (!name[len] || name[len] == '(') {
				*child = name[len] == '(';
				return f;
			}
		}
	}
	return -1;
}

static int print_slabinfo(void)
{
	unsigned long active, num, size, perslab, pages, slabs;
	struct family_sum sum[ARRAY_SIZE(families)] = { };
	char line[512], name[256];
	int fam, child;
	size_t i;
	FILE *f;

	f = fopen("/proc/slabinfo", "r");
	if (!f) {
		perror("memfigures: /proc/slabinfo");
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%255s %lu %lu %lu %lu %lu : tunables %*u %*u %*u : slabdata %*u %lu",
			   name, &active, &num, &size, &perslab, &pages,
			   &slabs) != 7)
			continue;
		fam = family_of(name, &child);
		if (fam >= 0) {
			sum[fam].pages += slabs * pages;
			sum[fam].active_bytes += active * size;
			sum[fam].children += child;
		}
		if (!in_list(name, slab_caches, ARRAY_SIZE(slab_caches)))
			continue;
		printf("slab_%s_active_objs %lu\n", name, active);
		printf("slab_%s_num_objs %lu\n", name, num);
		printf("slab_%s_objsize %lu\n", name, size);
		printf("slab_%s_pagesperslab %lu\n", name, pages);
		printf("slab_%s_num_slabs %lu\n", name, slabs);
	}
	fclose(f);
	/* Utilisation: active objects x object size / slab pages x page size */
	for (i = 0; i < ARRAY_SIZE(families); i++) {
		printf("slabfam_%s_pages %lu\n", families[i][0], sum[i].pages);
		printf("slabfam_%s_util_pct %.1f\n", families[i][0],
		       sum[i].pages ? 100.0 * sum[i].active_bytes /
				      (sum[i].pages * sysconf(_SC_PAGESIZE)) : 0);
		printf("slabfam_%s_children %lu\n", families[i][0],
		       sum[i].children);
	}
	return 0;
}

/* /sys/kernel/debug/memcg_slab (series 0007), where the kernel has it. */
static int print_memcg_slab(void)
{
	static const char * const keys[] = {
		"live_children", "live_pages", "dying_children", "dying_pages",
		"pool_slabs",
	};
	const char *path = "/sys/kernel/debug/memcg_slab";

	if (access(path, R_OK))
		return 0;
	return print_keyed(path, "memcg_slab_", keys, ARRAY_SIZE(keys), "");
}

#define LRU_GENS 4	/* the kernel's MAX_NR_GENS */

/* Add one node's generations, oldest first in @file, to @sum, youngest first. */
static void add_gens(unsigned long long *sum, const unsigned long long *file,
		     int n)
{
	int i;

	for (i = 0; i < n; i++)
		sum[n - 1 - i] += file[i];
}

/*
 * The multi-gen LRU's file pages of @cg by generation, youngest first,
 * from /sys/kernel/debug/lru_gen: "memcg ID PATH", then per node
 * " node N" and one "SEQ AGE_MS ANON FILE" line per generation, oldest
 * first. Where a cgroup's pages sit tells which of them reclaim's next
 * pass reaches (the oldest file generation).
 */
static int print_lru_gen(const char *cg)
{
	const char *path = "/sys/kernel/debug/lru_gen", *root = "/sys/fs/cgroup";
	unsigned long long sum[LRU_GENS] = { }, file[LRU_GENS];
	unsigned long long pages;
	char line[4608], name[4096];
	const char *want;
	int in = 0, n = 0, i;
	FILE *f;

	if (access(path, R_OK))
		return 0;
	if (strncmp(cg, root, strlen(root)))
		return 0;
	want = cg[strlen(root)] ? cg + strlen(root) : "/";
	f = fopen(path, "r");
	if (!f) {
		fprintf(stderr, "memfigures: %s: %s\n", path, strerror(errno));
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, "memcg ", 6) || !strncmp(line, " node ", 6)) {
			if (in)
				add_gens(sum, file, n);
			n = 0;
			if (line[0] == 'm')
				in = sscanf(line, "memcg %*u %4095s", name) == 1 &&
				     !strcmp(name, want);
			continue;
		}
		if (in && n < LRU_GENS &&
		    sscanf(line, "%*u %*u %*u %llu", &pages) == 1)
			file[n++] = pages;
	}
	if (in)
		add_gens(sum, file, n);
	fclose(f);
	for (i = 0; i < LRU_GENS; i++)
		printf("cg_lru_gen_file_y%d %llu\n", i, sum[i]);
	return 0;
}

static int print_cgroup(const char *cg)
{
	static const char * const dying[] = { "nr_dying_descendants" };
	static const char * const current[] = { "cg_memory_current" };
	char path[4096];
	int ret = 0;

	snprintf(path, sizeof(path), "%s/cgroup.stat", cg);
	ret |= print_keyed(path, "", dying, 1, "");
	snprintf(path, sizeof(path), "%s/memory.current", cg);
	if (!access(path, R_OK))
		ret |= print_numbers(path, current, 1);
	snprintf(path, sizeof(path), "%s/memory.stat", cg);
	if (!access(path, R_OK))
		ret |= print_keyed(path, "cg_", memstat_keys,
				   ARRAY_SIZE(memstat_keys), "");
	return ret | print_lru_gen(cg);
}

/*
 * Sum the rios= fields of a cgroup's io.stat over all devices, and print
 * its workingset_refault_file: reads of its pages that reclaim had taken.
 */
static int print_io(const char *cg)
{
	static const char * const refault[] = { "workingset_refault_file" };
	unsigned long long sum = 0, v;
	char path[4096], tok[128];
	FILE *f;

	snprintf(path, sizeof(path), "%s/io.stat", cg);
	f = fopen(path, "r");
	if (!f) {
		fprintf(stderr, "memfigures: %s: %s\n", path, strerror(errno));
		return -1;
	}
	while (fscanf(f, "%127s", tok) == 1)
		if (sscanf(tok, "rios=%llu", &v) == 1)
			sum += v;
	fclose(f);
	printf("io_rios %llu\n", sum);
	snprintf(path, sizeof(path), "%s/memory.stat", cg);
	return print_keyed(path, "io_", refault, 1, "");
}

int main(int argc, char **argv)
{
	static const char * const dentry[] = { "dentries", "dentries_unused" };
	static const char * const inode[] = { "inodes", "inodes_unused" };
	const char *cg = "/sys/fs/cgroup", *io = NULL;
	int opt, ret = 0;

	while ((opt = getopt(argc, argv, "c:i:")) != -1) {
		switch (opt) {
		case 'c': cg = optarg; break;
		case 'i': io = optarg; break;
		default:
			fprintf(stderr, "usage: memfigures [-c CGROUP] [-i IO_CGROUP]\n");
			return 2;
		}
	}
	if (optind != argc) {
		fprintf(stderr, "usage: memfigures [-c CGROUP] [-i IO_CGROUP]\n");
		return 2;
	}
	ret |= print_keyed("/proc/meminfo", "meminfo_", meminfo_keys,
			   ARRAY_SIZE(meminfo_keys), "_kB");
	ret |= print_numbers("/proc/sys/fs/dentry-state", dentry, 2);
	ret |= print_numbers("/proc/sys/fs/inode-nr", inode, 2);
	ret |= print_slabinfo();
	ret |= print_memcg_slab();
	ret |= print_keyed("/proc/vmstat", "vm_", vmstat_keys,
			   ARRAY_SIZE(vmstat_keys), "");
	ret |= print_cgroup(cg);
	if (io)
		ret |= print_io(io);
	return ret ? 1 : 0;
}
