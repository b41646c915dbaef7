// SPDX-License-Identifier: GPL-2.0
/*
 * pressure: light memory pressure, as a streaming reader makes it. Reads a
 * large sparse file once from start to end, from inside cgroup CGROUP; the
 * page cache it fills pushes kswapd into reclaim at low priority without
 * ever needing the disk.
 *
 * Usage: pressure -c CGROUP -f FILE -s MIB
 * Prints "pressure_seconds S" and "pressure_mib_per_s R".
 */
#include <sys/stat.h>
#include "lab_util.h"

int main(int argc, char **argv)
{
	const char *cg = NULL, *file = NULL;
	long mib = 0, done = 0;
	size_t bufsize = 1 << 20;
	double t0, secs;
	char *buf;
	ssize_t n;
	int opt, fd;

	while ((opt = getopt(argc, argv, "c:f:s:")) != -1) {
		switch (opt) {
		case 'c': cg = optarg; break;
		case 'f': file = optarg; break;
		case 's': mib = lab_parse_count("pressure", "-s", optarg); break;
		default: goto usage;
		}
	}
	if (!cg || !file || !mib || optind != argc)
		goto usage;
	if (lab_enter_cgroup(cg)) {
		fprintf(stderr, "pressure: cannot enter cgroup %s\n", cg);
		return 1;
	}
	fd = open(file, O_RDWR | O_CREAT, 0644);
	if (fd < 0 || ftruncate(fd, (off_t)mib << 20)) {
		fprintf(stderr, "pressure: %s: %s\n", file, strerror(errno));
		return 1;
	}
	buf = malloc(bufsize);
	if (!buf)
		return 1;
	t0 = lab_now();
	while ((n = read(fd, buf, bufsize)) > 0)
		done += n;
	secs = lab_now() - t0;
	if (n < 0) {
		fprintf(stderr, "pressure: read %s: %s\n", file, strerror(errno));
		return 1;
	}
	printf("pressure_seconds %.3f\n", secs);
	printf("pressure_mib_per_s %.1f\n", secs > 0 ? (done >> 20) / secs : 0.0);
	close(fd);
	free(buf);
	return 0;
usage:
	fprintf(stderr, "usage: pressure -c CGROUP -f FILE -s MIB\n");
	return 2;
}
