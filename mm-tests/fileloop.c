// SPDX-License-Identifier: GPL-2.0
/*
 * fileloop: the file create/stat/unlink loop of the accounting-cost
 * scenario. Each file is a dentry and an inode from accounted caches, so
 * the loop runs through the slab paths memcg_slab= changes, with little
 * else (no data pages beyond the few bytes written).
 *
 *   fileloop -c CGROUP -d DIR [-n FILES] [-l LOOPS] [-r REPS]
 *
 * Enters CGROUP, then REPS times: LOOPS times create FILES files in DIR
 * (8 bytes each), stat each, unlink each. Prints, for the repetitions'
 * best and median, "fileloop_best_ops_per_s N" and
 * "fileloop_median_ops_per_s N": files times three operations per second.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lab_util.h"

#define MAX_REPS 99

static const char *prog = "fileloop";

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* One repetition; returns the seconds it took, or -1 with a message. */
static double one_rep(const char *dir, long files, long loops)
{
	char path[4096];
	struct stat st;
	double start = lab_now();
	long l, i;
	int fd;

	for (l = 0; l < loops; l++) {
		for (i = 0; i < files; i++) {
			snprintf(path, sizeof(path), "%s/f%ld", dir, i);
			fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0644);
			if (fd < 0) {
				fprintf(stderr, "%s: create %s: %s\n", prog,
					path, strerror(errno));
				return -1;
			}
			/* A short write leaves errno as it was */
			errno = EIO;
			if (write(fd, "fileloop", 8) != 8) {
				fprintf(stderr, "%s: write %s: %s\n", prog,
					path, strerror(errno));
				close(fd);
				return -1;
			}
			close(fd);
		}
		for (i = 0; i < files; i++) {
			snprintf(path, sizeof(path), "%s/f%ld", dir, i);
			if (stat(path, &st)) {
				fprintf(stderr, "%s: stat %s: %s\n", prog,
					path, strerror(errno));
				return -1;
			}
		}
		for (i = 0; i < files; i++) {
			snprintf(path, sizeof(path), "%s/f%ld", dir, i);
			if (unlink(path)) {
				fprintf(stderr, "%s: unlink %s: %s\n", prog,
					path, strerror(errno));
				return -1;
			}
		}
	}
	return lab_now() - start;
}

static void usage(void)
{
	fprintf(stderr,
		"usage: %s -c CGROUP -d DIR [-n FILES] [-l LOOPS] [-r REPS]\n",
		prog);
	exit(2);
}

int main(int argc, char **argv)
{
	const char *cg = NULL, *dir = NULL;
	long files = 1000, loops = 10, reps = 5, r;
	double secs, rate[MAX_REPS];
	int opt, err;

	while ((opt = getopt(argc, argv, "c:d:n:l:r:")) != -1) {
		switch (opt) {
		case 'c':
			cg = optarg;
			break;
		case 'd':
			dir = optarg;
			break;
		case 'n':
			files = lab_parse_count(prog, "-n", optarg);
			break;
		case 'l':
			loops = lab_parse_count(prog, "-l", optarg);
			break;
		case 'r':
			reps = lab_parse_count(prog, "-r", optarg);
			break;
		default:
			usage();
		}
	}
	if (!cg || !dir || optind != argc)
		usage();
	/* Room for "/f" and the largest file number */
	if (strlen(dir) > 4000) {
		fprintf(stderr, "%s: -d %.40s...: path too long\n", prog, dir);
		return 2;
	}
	if (files < 1 || loops < 1 || reps < 1 || reps > MAX_REPS) {
		fprintf(stderr, "%s: -n and -l must be at least 1, -r 1..%d\n",
			prog, MAX_REPS);
		return 2;
	}
	err = lab_enter_cgroup(cg);
	if (err) {
		fprintf(stderr, "%s: cannot enter %s: %s\n", prog, cg,
			strerror(-err));
		return 1;
	}
	if (mkdir(dir, 0755) && errno != EEXIST) {
		fprintf(stderr, "%s: mkdir %s: %s\n", prog, dir,
			strerror(errno));
		return 1;
	}
	for (r = 0; r < reps; r++) {
		secs = one_rep(dir, files, loops);
		if (secs < 0)
			return 1;
		rate[r] = 3.0 * files * loops / secs;
	}
	qsort(rate, reps, sizeof(rate[0]), cmp_double);
	printf("fileloop_best_ops_per_s %.0f\n", rate[reps - 1]);
	printf("fileloop_median_ops_per_s %.0f\n",
	       reps % 2 ? rate[reps / 2] :
	       (rate[reps / 2 - 1] + rate[reps / 2]) / 2);
	return 0;
}
