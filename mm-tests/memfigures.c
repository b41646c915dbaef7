// SPDX-License-Identifier: GPL-2.0
/*
 * memfigures: print the memory figures the lab compares, one "name value"
 * pair per line: meminfo totals, dentry and inode counts, and the dying
 * descendants of a cgroup.
 *
 * Usage: memfigures [CGROUP_DIR]   (default /sys/fs/cgroup)
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char * const meminfo_keys[] = {
	"MemTotal", "MemFree", "Slab", "SReclaimable", "SUnreclaim",
	"Active(file)", "Inactive(file)",
};

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static int print_meminfo(void)
{
	char line[256], key[64];
	unsigned long val;
	size_t i;
	FILE *f;

	f = fopen("/proc/meminfo", "r");
	if (!f) {
		perror("memfigures: /proc/meminfo");
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%63[^:]: %lu", key, &val) != 2)
			continue;
		for (i = 0; i < ARRAY_SIZE(meminfo_keys); i++) {
			if (strcmp(key, meminfo_keys[i]))
				continue;
			/* "Active(file)" becomes "Active_file" */
			if (strchr(key, '(')) {
				key[strcspn(key, ")")] = '\0';
				key[strcspn(key, "(")] = '_';
			}
			printf("meminfo_%s_kB %lu\n", key, val);
		}
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

static int print_dying(const char *cgroup)
{
	char path[4096], key[64];
	long val;
	FILE *f;

	snprintf(path, sizeof(path), "%s/cgroup.stat", cgroup);
	f = fopen(path, "r");
	if (!f) {
		fprintf(stderr, "memfigures: %s: %s\n", path, strerror(errno));
		return -1;
	}
	while (fscanf(f, "%63s %ld", key, &val) == 2)
		if (!strcmp(key, "nr_dying_descendants"))
			printf("nr_dying_descendants %ld\n", val);
	fclose(f);
	return 0;
}

int main(int argc, char **argv)
{
	static const char * const dentry[] = { "dentries", "dentries_unused" };
	static const char * const inode[] = { "inodes", "inodes_unused" };
	const char *cgroup = argc > 1 ? argv[1] : "/sys/fs/cgroup";
	int ret = 0;

	if (argc > 2) {
		fprintf(stderr, "usage: memfigures [CGROUP_DIR]\n");
		return 2;
	}
	ret |= print_meminfo();
	ret |= print_numbers("/proc/sys/fs/dentry-state", dentry, 2);
	ret |= print_numbers("/proc/sys/fs/inode-nr", inode, 2);
	ret |= print_dying(cgroup);
	return ret ? 1 : 0;
}
