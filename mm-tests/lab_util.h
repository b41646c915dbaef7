/* SPDX-License-Identifier: GPL-2.0 */
/* Small helpers shared by the lab's guest programs. */
#ifndef LAB_UTIL_H
#define LAB_UTIL_H

#include <errno.h>
#include <sys/stat.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static inline double lab_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Write @val to the file @dir/@name; return 0 or -errno. */
static inline int lab_write_file(const char *dir, const char *name,
				 const char *val)
{
	char path[4096];
	ssize_t len = strlen(val);
	int fd, ret = 0;

	if (snprintf(path, sizeof(path), "%s/%s", dir, name) >= (int)sizeof(path))
		return -ENAMETOOLONG;
	fd = open(path, O_WRONLY);
	if (fd < 0)
		return -errno;
	if (write(fd, val, len) != len)
		ret = -errno;
	close(fd);
	return ret;
}

/* Move the calling process into cgroup directory @cg. */
static inline int lab_enter_cgroup(const char *cg)
{
	char pid[32];

	snprintf(pid, sizeof(pid), "%d", getpid());
	return lab_write_file(cg, "cgroup.procs", pid);
}

/* Parse a non-negative integer argument, or exit with a clear message. */
static inline long lab_parse_count(const char *prog, const char *opt,
				   const char *arg)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(arg, &end, 10);
	if (errno || end == arg || *end || v < 0) {
		fprintf(stderr, "%s: %s needs a non-negative integer, got '%s'\n",
			prog, opt, arg);
		exit(2);
	}
	return v;
}

/* Open @dir/@file for reading; NULL if the path is too long or missing. */
static inline FILE *lab_open_in(const char *dir, const char *file)
{
	char path[4096];

	if (snprintf(path, sizeof(path), "%s/%s", dir, file) >= (int)sizeof(path))
		return NULL;
	return fopen(path, "r");
}

/* The value of @key in the "key value" file @dir/@file, or -1. */
static inline long lab_read_key(const char *dir, const char *file,
				const char *key)
{
	FILE *f = lab_open_in(dir, file);
	long ret = -1;
	long long v;
	char k[128];

	if (!f)
		return -1;
	while (fscanf(f, "%127s %lld", k, &v) == 2)
		if (!strcmp(k, key))
			ret = v;
	fclose(f);
	return ret;
}

/* The single number in @dir/@file, or -1. */
static inline long lab_read_long(const char *dir, const char *file)
{
	FILE *f = lab_open_in(dir, file);
	long v = -1;

	if (!f)
		return -1;
	if (fscanf(f, "%ld", &v) != 1)
		v = -1;
	fclose(f);
	return v;
}

/* Milliseconds until @cg has no dying descendants, or -1 after @max_ms. */
static inline long lab_wait_dying_zero(const char *cg, long max_ms)
{
	double t0 = lab_now();
	long ms;

	for (;;) {
		ms = (long)((lab_now() - t0) * 1000);
		if (lab_read_key(cg, "cgroup.stat", "nr_dying_descendants") == 0)
			return ms;
		if (ms >= max_ms)
			return -1;
		usleep(50 * 1000);
	}
}

/*
 * Make @parent/@name, a cgroup whose children get the memory controller;
 * its path goes to @cg. Prints a TAP comment and returns nonzero on error.
 */
static inline int lab_make_parent_cgroup(char *cg, size_t size,
					 const char *parent, const char *name)
{
	int ret;

	snprintf(cg, size, "%s/%s", parent, name);
	if (mkdir(cg, 0755)) {
		printf("# mkdir %s: %s\n", cg, strerror(errno));
		return -1;
	}
	ret = lab_write_file(cg, "cgroup.subtree_control", "+memory");
	if (ret)
		printf("# %s/cgroup.subtree_control: %s\n", cg, strerror(-ret));
	return ret;
}

#endif
