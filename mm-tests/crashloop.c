// SPDX-License-Identifier: GPL-2.0
/*
 * crashloop: a service that keeps crashing and is restarted in a new
 * cgroup every time, as systemd restarts a failing unit or kubelet a
 * failing container.
 *
 * Each cycle makes PARENT/unit-N and forks an instance into it.  The
 * instance reads the service's shared files (created once, before the
 * first cycle), writes its own log of LOG_KIB KiB under DIR/log (kept,
 * as logs are: its page cache stays charged to the removed cgroup),
 * creates and unlinks TEMP temporary files, touches ANON_KIB KiB of
 * anonymous memory and exits with status 1.  The loop waits for it,
 * removes the cgroup and sleeps INTERVAL ms.
 *
 * Before the first cycle, every SAMPLE cycles and after the last it
 * prints, for phase cN (N: the cycles done), "cN.key value" lines:
 *   nr_dying           PARENT's nr_dying_descendants
 *   percpu_kb          Percpu in /proc/meminfo
 *   sunreclaim_kb      SUnreclaim in /proc/meminfo
 *   held_kb            percpu_kb + sunreclaim_kb less their values at c0
 *   held_per_dying_kb  held_kb / nr_dying (only while nr_dying >= 10)
 *   memstat_read_us    median of READS reads of ROOT/memory.stat
 *   cgstat_read_us     median of READS reads of ROOT/cgroup.stat
 *   cycles_per_s       cycles per second since the previous sample
 * Exits 0 when every cycle ran; 1 when a cycle failed (the message
 * says which and why); 2 on bad arguments.
 */
#include <sys/wait.h>

#include "lab_util.h"

#define MAX_READS 31

struct crash_opts {
	const char *parent, *dir, *root;
	long cycles, sample, interval_ms, shared, log_kib, temp, anon_kib;
	long reads;
};

static void usage(void)
{
	fprintf(stderr,
		"usage: crashloop -c PARENT -d DIR [-r ROOT] [-n cycles] [-s sample]\n"
		"                 [-i interval_ms] [-S shared_files] [-l log_kib]\n"
		"                 [-t temp_files] [-a anon_kib] [-R reads (1..%d)]\n",
		MAX_READS);
	exit(2);
}

/* The value of @key in /proc/meminfo, in kB, or -1. */
static long meminfo_kb(const char *key)
{
	char k[64], unit[16];
	long v, ret = -1;
	FILE *f = fopen("/proc/meminfo", "r");

	if (!f)
		return -1;
	while (fscanf(f, "%63s %ld %15[^\n]", k, &v, unit) >= 2)
		if (!strcmp(k, key))
			ret = v;
	fclose(f);
	return ret;
}

/* Read @path whole; 0 or -1. */
static int read_file(const char *path)
{
	char buf[4096];
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -1;
	do {
		n = read(fd, buf, sizeof(buf));
	} while (n > 0);
	close(fd);
	return n < 0 ? -1 : 0;
}

/* Microseconds to read @path whole once, or -1. */
static double read_whole_us(const char *path)
{
	double t0 = lab_now();

	if (read_file(path))
		return -1;
	return (lab_now() - t0) * 1e6;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Median over @reads reads of @dir/@file, in microseconds, or -1. */
static double median_read_us(const char *dir, const char *file, long reads)
{
	double t[MAX_READS];
	char path[4096];
	long i;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	for (i = 0; i < reads; i++) {
		t[i] = read_whole_us(path);
		if (t[i] < 0)
			return -1;
	}
	qsort(t, reads, sizeof(t[0]), cmp_double);
	return t[reads / 2];
}

/* Write @kib KiB to the new file @path; 0 or -1. */
static int write_file_kib(const char *path, long kib)
{
	char block[1024];
	int fd;
	long i;

	memset(block, 'l', sizeof(block));
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		return -1;
	for (i = 0; i < kib; i++) {
		if (write(fd, block, sizeof(block)) != (ssize_t)sizeof(block)) {
			close(fd);
			return -1;
		}
	}
	return close(fd);
}

/* One instance of the service, in cgroup @cg; never returns. */
static void instance(const struct crash_opts *o, const char *cg, long n)
{
	char path[4096];
	char *anon;
	long i;

	if (lab_enter_cgroup(cg))
		_exit(10);
	for (i = 0; i < o->shared; i++) {
		snprintf(path, sizeof(path), "%s/shared/f%ld", o->dir, i);
		if (read_file(path))
			_exit(11);
	}
	snprintf(path, sizeof(path), "%s/log/unit-%ld.log", o->dir, n);
	if (o->log_kib && write_file_kib(path, o->log_kib))
		_exit(12);
	for (i = 0; i < o->temp; i++) {
		snprintf(path, sizeof(path), "%s/run/unit-%ld.%ld", o->dir, n, i);
		if (write_file_kib(path, 0) || unlink(path))
			_exit(13);
	}
	if (o->anon_kib) {
		anon = malloc(o->anon_kib * 1024);
		if (!anon)
			_exit(14);
		for (i = 0; i < o->anon_kib * 1024; i += 4096)
			anon[i] = 1;
	}
	/* The crash: the unit fails and is restarted. */
	_exit(1);
}

/* Run cycle @n; 0, or -1 with a message. */
static int run_cycle(const struct crash_opts *o, long n)
{
	static const char * const why[] = {
		[10] = "could not enter its cgroup",
		[11] = "could not read a shared file",
		[12] = "could not write its log",
		[13] = "could not create or unlink a temporary file",
		[14] = "could not allocate its anonymous memory",
	};
	char cg[4096];
	int status, code;
	pid_t pid;

	snprintf(cg, sizeof(cg), "%s/unit-%ld", o->parent, n);
	if (mkdir(cg, 0755)) {
		fprintf(stderr, "crashloop: cycle %ld: mkdir %s: %s\n", n, cg,
			strerror(errno));
		return -1;
	}
	pid = fork();
	if (pid < 0) {
		fprintf(stderr, "crashloop: cycle %ld: fork: %s\n", n,
			strerror(errno));
		rmdir(cg);
		return -1;
	}
	if (!pid)
		instance(o, cg, n);
	if (waitpid(pid, &status, 0) != pid) {
		fprintf(stderr, "crashloop: cycle %ld: waitpid: %s\n", n,
			strerror(errno));
		return -1;
	}
	code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
	if (code != 1) {
		fprintf(stderr, "crashloop: cycle %ld: the instance %s (status %#x)\n",
			n, code >= 10 && code <= 14 ? why[code] : "ended oddly",
			status);
		return -1;
	}
	if (rmdir(cg)) {
		fprintf(stderr, "crashloop: cycle %ld: rmdir %s: %s\n", n, cg,
			strerror(errno));
		return -1;
	}
	if (o->interval_ms)
		usleep(o->interval_ms * 1000);
	return 0;
}

struct crash_base {
	long held_kb;
	double t;
	long cycle;
};

/* Print the figures of phase c@n; 0, or -1 with a message. */
static int sample(const struct crash_opts *o, long n, struct crash_base *b)
{
	long dying, percpu, sunreclaim, held;
	double now = lab_now(), ms, cs, rate;

	dying = lab_read_key(o->parent, "cgroup.stat", "nr_dying_descendants");
	percpu = meminfo_kb("Percpu:");
	sunreclaim = meminfo_kb("SUnreclaim:");
	ms = median_read_us(o->root, "memory.stat", o->reads);
	cs = median_read_us(o->root, "cgroup.stat", o->reads);
	if (dying < 0 || percpu < 0 || sunreclaim < 0 || ms < 0 || cs < 0) {
		fprintf(stderr,
			"crashloop: cannot read the figures of cycle %ld\n"
			"  (%s/cgroup.stat, /proc/meminfo, %s/memory.stat)\n",
			n, o->parent, o->root);
		return -1;
	}
	if (!n)
		b->held_kb = percpu + sunreclaim;
	held = percpu + sunreclaim - b->held_kb;
	printf("c%ld.nr_dying %ld\n", n, dying);
	printf("c%ld.percpu_kb %ld\n", n, percpu);
	printf("c%ld.sunreclaim_kb %ld\n", n, sunreclaim);
	printf("c%ld.held_kb %ld\n", n, held);
	if (dying >= 10)
		printf("c%ld.held_per_dying_kb %.2f\n", n, (double)held / dying);
	printf("c%ld.memstat_read_us %.1f\n", n, ms);
	printf("c%ld.cgstat_read_us %.1f\n", n, cs);
	if (n > b->cycle) {
		rate = (n - b->cycle) / (now - b->t);
		printf("c%ld.cycles_per_s %.2f\n", n, rate);
	}
	fflush(stdout);
	b->t = now;
	b->cycle = n;
	return 0;
}

/* The shared files and the log and run folders under @dir; 0 or -1. */
static int setup(const struct crash_opts *o)
{
	char path[4096];
	long i;

	for (i = 0; i < 3; i++) {
		static const char * const sub[] = { "shared", "log", "run" };

		snprintf(path, sizeof(path), "%s/%s", o->dir, sub[i]);
		if (mkdir(path, 0755) && errno != EEXIST)
			goto fail;
	}
	for (i = 0; i < o->shared; i++) {
		snprintf(path, sizeof(path), "%s/shared/f%ld", o->dir, i);
		if (write_file_kib(path, 16))
			goto fail;
	}
	return 0;
fail:
	fprintf(stderr, "crashloop: %s: %s\n", path, strerror(errno));
	return -1;
}

/* The numeric option @opt's field in @o, or NULL if it has none. */
static long *num_opt(struct crash_opts *o, int opt)
{
	switch (opt) {
	case 'n':
		return &o->cycles;
	case 's':
		return &o->sample;
	case 'i':
		return &o->interval_ms;
	case 'S':
		return &o->shared;
	case 'l':
		return &o->log_kib;
	case 't':
		return &o->temp;
	case 'a':
		return &o->anon_kib;
	case 'R':
		return &o->reads;
	}
	return NULL;
}

int main(int argc, char **argv)
{
	struct crash_opts o = {
		.root = "/sys/fs/cgroup", .cycles = 1000, .sample = 100,
		.interval_ms = 50, .shared = 8, .log_kib = 8, .temp = 4,
		.anon_kib = 1024, .reads = 5,
	};
	struct crash_base b = { 0 };
	char name[3] = "-?";
	long n, *v;
	int opt;

	while ((opt = getopt(argc, argv, "c:d:r:n:s:i:S:l:t:a:R:")) != -1) {
		if (opt == 'c') {
			o.parent = optarg;
		} else if (opt == 'd') {
			o.dir = optarg;
		} else if (opt == 'r') {
			o.root = optarg;
		} else {
			v = num_opt(&o, opt);
			if (!v)
				usage();
			name[1] = opt;
			*v = lab_parse_count("crashloop", name, optarg);
		}
	}
	if (!o.parent || !o.dir || optind != argc || o.sample < 1 ||
	    o.reads < 1 || o.reads > MAX_READS)
		usage();
	if (setup(&o))
		return 1;
	b.t = lab_now();
	if (sample(&o, 0, &b))
		return 1;
	for (n = 1; n <= o.cycles; n++) {
		if (run_cycle(&o, n - 1))
			return 1;
		if ((n % o.sample == 0 || n == o.cycles) && sample(&o, n, &b))
			return 1;
	}
	return 0;
}
