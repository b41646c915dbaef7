// SPDX-License-Identifier: GPL-2.0
/*
 * dyingwait: how long the removed children of a cgroup stay dying.
 *
 * Polls nr_dying_descendants in CGROUP/cgroup.stat every INTERVAL ms
 * until it is 0 or TIMEOUT seconds have passed, and prints:
 *   dying_start N       the count at the first poll
 *   dying_zero_ms MS    milliseconds until it was 0, or -1 if never
 *   dying_end N         the count at the last poll
 * Exits 0 whether or not the count reached 0 (it is a sampler); 1 if
 * the file cannot be read, 2 on bad arguments.
 */
#include "lab_util.h"

static void usage(void)
{
	fprintf(stderr,
		"usage: dyingwait -c CGROUP [-t timeout_s] [-i interval_ms]\n");
	exit(2);
}

/* nr_dying_descendants of @cg, or -1 if it cannot be read. */
static long read_dying(const char *cg)
{
	char path[4096], key[64];
	long val, ret = -1;
	FILE *f;

	if (snprintf(path, sizeof(path), "%s/cgroup.stat", cg) >=
	    (int)sizeof(path))
		return -1;
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fscanf(f, "%63s %ld", key, &val) == 2)
		if (!strcmp(key, "nr_dying_descendants"))
			ret = val;
	fclose(f);
	return ret;
}

int main(int argc, char **argv)
{
	long timeout_s = 30, interval_ms = 100, start, now;
	const char *cg = NULL;
	double t0, waited;
	int opt;

	while ((opt = getopt(argc, argv, "c:t:i:")) != -1) {
		switch (opt) {
		case 'c':
			cg = optarg;
			break;
		case 't':
			timeout_s = lab_parse_count("dyingwait", "-t", optarg);
			break;
		case 'i':
			interval_ms = lab_parse_count("dyingwait", "-i", optarg);
			break;
		default:
			usage();
		}
	}
	if (!cg || optind != argc || interval_ms < 1)
		usage();

	t0 = lab_now();
	start = read_dying(cg);
	if (start < 0) {
		fprintf(stderr, "dyingwait: cannot read %s/cgroup.stat: %s\n",
			cg, strerror(errno));
		return 1;
	}
	now = start;
	for (;;) {
		waited = lab_now() - t0;
		if (now == 0 || waited >= timeout_s)
			break;
		usleep(interval_ms * 1000);
		now = read_dying(cg);
		if (now < 0) {
			fprintf(stderr, "dyingwait: %s/cgroup.stat vanished\n",
				cg);
			return 1;
		}
	}
	printf("dying_start %ld\n", start);
	printf("dying_zero_ms %ld\n", now == 0 ? (long)(waited * 1000) : -1L);
	printf("dying_end %ld\n", now);
	return 0;
}
