// SPDX-License-Identifier: GPL-2.0
/*
 * hotset: a live cgroup's small working set of files, the side that extra
 * shrinker pressure can hurt.
 *
 *   hotset -c CGROUP -d DIR -n FILES create   make the files (4 KiB each)
 *   hotset -c CGROUP -d DIR -n FILES [-i MS] touch
 *                    touch them all, every MS milliseconds (default 100),
 *                    until SIGTERM or SIGINT
 *
 * touch opens each file, asks mincore() whether its page is still cached,
 * reads it and closes it. It prints "hot_lookups N", "hot_passes N" and
 * "hot_data_misses N": lookups whose data page had been reclaimed. Inode
 * and directory re-reads are counted from the cgroup's io.stat by the
 * caller.
 */
#include <signal.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include "lab_util.h"

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static int hot_path(char *path, size_t size, const char *dir, long i)
{
	return snprintf(path, size, "%s/hot%ld", dir, i) < (int)size ? 0 : -1;
}

static int create_files(const char *dir, long n)
{
	char path[4096], page[4096];
	long i;
	int fd;

	memset(page, 'h', sizeof(page));
	if (mkdir(dir, 0755) && errno != EEXIST)
		return -1;
	for (i = 0; i < n; i++) {
		if (hot_path(path, sizeof(path), dir, i))
			return -1;
		fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (fd < 0)
			return -1;
		if (write(fd, page, sizeof(page)) != sizeof(page)) {
			close(fd);
			return -1;
		}
		close(fd);
	}
	return 0;
}

/* Touch one file; return 1 if its page was not cached, 0 if it was. */
static int touch_file(const char *path)
{
	unsigned char vec = 0;
	char c;
	void *p;
	int fd, miss = 0;

	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -1;
	p = mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd, 0);
	if (p != MAP_FAILED) {
		if (!mincore(p, 4096, &vec) && !(vec & 1))
			miss = 1;
		munmap(p, 4096);
	}
	if (read(fd, &c, 1) != 1)
		miss = -1;
	close(fd);
	return miss;
}

static int touch_files(const char *dir, long n, long interval_ms)
{
	long lookups = 0, misses = 0, passes = 0, i;
	char path[4096];
	int r;

	signal(SIGTERM, on_signal);
	signal(SIGINT, on_signal);
	while (!stop) {
		for (i = 0; i < n && !stop; i++) {
			if (hot_path(path, sizeof(path), dir, i))
				return -1;
			r = touch_file(path);
			if (r < 0) {
				fprintf(stderr, "hotset: %s: %s\n", path,
					strerror(errno));
				return -1;
			}
			misses += r;
			lookups++;
		}
		passes++;
		usleep(interval_ms * 1000);
	}
	printf("hot_lookups %ld\n", lookups);
	printf("hot_passes %ld\n", passes);
	printf("hot_data_misses %ld\n", misses);
	return 0;
}

int main(int argc, char **argv)
{
	const char *cg = NULL, *dir = NULL;
	long n = 2000, interval_ms = 100;
	int opt;

	while ((opt = getopt(argc, argv, "c:d:n:i:")) != -1) {
		switch (opt) {
		case 'c': cg = optarg; break;
		case 'd': dir = optarg; break;
		case 'n': n = lab_parse_count("hotset", "-n", optarg); break;
		case 'i': interval_ms = lab_parse_count("hotset", "-i", optarg); break;
		default: goto usage;
		}
	}
	if (!cg || !dir || optind != argc - 1)
		goto usage;
	if (lab_enter_cgroup(cg)) {
		fprintf(stderr, "hotset: cannot enter cgroup %s\n", cg);
		return 1;
	}
	if (!strcmp(argv[optind], "create"))
		return create_files(dir, n) ? 1 : 0;
	if (!strcmp(argv[optind], "touch"))
		return touch_files(dir, n, interval_ms) ? 1 : 0;
usage:
	fprintf(stderr, "usage: hotset -c CGROUP -d DIR [-n FILES] [-i MS] create|touch\n");
	return 2;
}
