// SPDX-License-Identifier: GPL-2.0
/*
 * test_reparent: page reparenting (vm.memcg_reparent_pages, series 0005
 * and 0006) in the guest.
 *
 * Usage: test_reparent PARENT_CGROUP DIR
 *   PARENT_CGROUP  a cgroup2 directory with +memory in its subtree_control;
 *                  the tests make their cgroups below it
 *   DIR            a directory on a disk file system for the jobs' files
 * Prints TAP lines; exits 0 only if every test passed. On a kernel without
 * the sysctl the tests still run, as on stock, and fail: that is the check
 * that they can.
 */
#include <sys/stat.h>
#include <sys/sysinfo.h>
#include <sys/wait.h>
#include "lab_util.h"

/* Allowed error of per-cpu batched memcg statistics, as in test_kmem.c. */
#define MAX_VMSTAT_ERROR (4096L * 64 * get_nprocs())
#define JOBS		10
#define FILES_PER_JOB	50
#define DYING_WAIT_MS	10000

static const char *sysctl_path = "/proc/sys/vm/memcg_reparent_pages";
static const char *parent_cg, *data_dir;

/* Write @val to the sysctl; 0, or -errno. Stock has no such file. */
static int set_reparent(const char *val)
{
	int ret = lab_write_file("/proc/sys/vm", "memcg_reparent_pages", val);

	if (ret == -ENOENT)
		printf("# %s missing: running as on stock\n", sysctl_path);
	return ret;
}

/* Pages moved so far by the reparenting worker; 0 where it does not exist. */
static long reparent_moved(void)
{
	long v = lab_read_key("/proc", "vmstat", "memcg_reparent_moved");

	return v < 0 ? 0 : v;
}

/* The body of job @id: FILES_PER_JOB files of a page, and the shared one. */
static int job_body(const char *dir, int id)
{
	char path[4096], buf[4096];
	int fd, i;

	memset(buf, 'x', sizeof(buf));
	snprintf(path, sizeof(path), "%s/job%d", dir, id);
	if (mkdir(path, 0755) && errno != EEXIST)
		return 1;
	for (i = 0; i < FILES_PER_JOB; i++) {
		snprintf(path, sizeof(path), "%s/job%d/f%d", dir, id, i);
		fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0644);
		if (fd < 0 || write(fd, buf, sizeof(buf)) != sizeof(buf))
			return 1;
		close(fd);
	}
	/* Read by every job, charged to the first: shared page cache. */
	snprintf(path, sizeof(path), "%s/shared", dir);
	fd = open(path, O_CREAT | O_RDWR, 0644);
	if (fd < 0)
		return 1;
	if (id == 0)
		for (i = 0; i < 16; i++)
			if (write(fd, buf, sizeof(buf)) != sizeof(buf))
				return 1;
	for (i = 0; i < 16; i++)
		if (pread(fd, buf, sizeof(buf), (off_t)i * sizeof(buf)) < 0)
			return 1;
	close(fd);
	return 0;
}

/*
 * Run JOBS jobs one after the other, each in its own child of @cg, and
 * remove each child when its job has exited. 0 on success.
 */
static int run_jobs(const char *cg, const char *dir)
{
	char child[4096];
	int id, status, tries;
	pid_t pid;

	if (mkdir(dir, 0755) && errno != EEXIST) {
		printf("# mkdir %s: %s\n", dir, strerror(errno));
		return -1;
	}
	for (id = 0; id < JOBS; id++) {
		snprintf(child, sizeof(child), "%s/job%d", cg, id);
		if (mkdir(child, 0755)) {
			printf("# mkdir %s: %s\n", child, strerror(errno));
			return -1;
		}
		pid = fork();
		if (pid < 0)
			return -1;
		if (pid == 0)
			_exit(lab_enter_cgroup(child) ? 1 : job_body(dir, id));
		if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
		    WEXITSTATUS(status)) {
			printf("# job %d failed\n", id);
			return -1;
		}
		/* The exited task may take a moment to leave the cgroup. */
		for (tries = 0; rmdir(child) && errno == EBUSY && tries < 100;
		     tries++)
			usleep(10 * 1000);
		if (access(child, F_OK) == 0) {
			printf("# cannot remove %s\n", child);
			return -1;
		}
	}
	return 0;
}

/*
 * With reparenting on, removed cgroups whose jobs left page cache (their
 * own files and a file all jobs read) stop being dying within 10 s of the
 * last removal, with no memory pressure and no drop_caches. On stock they
 * stay dying until their pages are reclaimed.
 */
static int test_reparent_frees_dying(void)
{
	char cg[4096], dir[4096];
	int ret = -1;
	long ms;

	if (lab_make_parent_cgroup(cg, sizeof(cg), parent_cg, "frees") < 0)
		goto cleanup;
	set_reparent("1");
	snprintf(dir, sizeof(dir), "%s/frees", data_dir);
	if (run_jobs(cg, dir))
		goto cleanup;
	ms = lab_wait_dying_zero(cg, DYING_WAIT_MS);
	printf("# %d removed cgroups: %s after %ld ms\n", JOBS,
	       ms < 0 ? "still dying" : "all freed",
	       ms < 0 ? (long)DYING_WAIT_MS : ms);
	if (ms < 0)
		goto cleanup;
	ret = 0;
cleanup:
	set_reparent("0");
	rmdir(cg);
	return ret;
}

static const char * const lru_keys[] = {
	"anon", "file", "active_anon", "inactive_anon", "active_file",
	"inactive_file", "shmem", "file_mapped", "file_dirty",
	"file_writeback",
};
#define NR_LRU_KEYS (sizeof(lru_keys) / sizeof(lru_keys[0]))

struct charge_snapshot {
	long user;	/* memory.current - kernel - sock */
	long lru[NR_LRU_KEYS];
};

static int snapshot(const char *cg, struct charge_snapshot *s)
{
	long cur = lab_read_long(cg, "memory.current");
	long kernel = lab_read_key(cg, "memory.stat", "kernel");
	long sock = lab_read_key(cg, "memory.stat", "sock");
	size_t i;

	if (cur < 0 || kernel < 0 || sock < 0)
		return -1;
	s->user = cur - kernel - sock;
	for (i = 0; i < NR_LRU_KEYS; i++) {
		s->lru[i] = lab_read_key(cg, "memory.stat", lru_keys[i]);
		if (s->lru[i] < 0)
			return -1;
	}
	return 0;
}

/*
 * Moving the pages of removed children to their parent changes neither
 * the parent's memory.current (less its kernel and socket memory, which
 * freeing the children releases) nor its LRU figures in memory.stat, by
 * more than MAX_VMSTAT_ERROR; and the pages did move (the vmstat counter
 * grew by at least half the pages the jobs wrote). The children are
 * removed with reparenting off, so that the move happens between the two
 * snapshots, when the switch is turned on.
 */
static int test_reparent_conserves_charge(void)
{
	struct charge_snapshot before, after;
	long moved, dying, err = MAX_VMSTAT_ERROR, diff;
	char cg[4096], dir[4096];
	int ret = -1;
	size_t i;

	if (lab_make_parent_cgroup(cg, sizeof(cg), parent_cg, "conserves") < 0)
		goto cleanup;
	err = set_reparent("0");
	if (err && err != -ENOENT)
		goto cleanup;
	err = MAX_VMSTAT_ERROR;
	snprintf(dir, sizeof(dir), "%s/conserves", data_dir);
	if (run_jobs(cg, dir))
		goto cleanup;
	sync();
	dying = lab_read_key(cg, "cgroup.stat", "nr_dying_descendants");
	if (dying != JOBS) {
		printf("# %ld of %d removed cgroups dying before the move\n",
		       dying, JOBS);
		goto cleanup;
	}
	moved = reparent_moved();
	if (snapshot(cg, &before))
		goto cleanup;

	set_reparent("1");
	if (lab_wait_dying_zero(cg, DYING_WAIT_MS) < 0) {
		printf("# the removed cgroups stayed dying\n");
		goto cleanup;
	}
	moved = reparent_moved() - moved;
	if (snapshot(cg, &after))
		goto cleanup;

	printf("# pages moved: %ld; allowed error: %ld bytes\n", moved, err);
	if (moved < JOBS * FILES_PER_JOB / 2)
		goto cleanup;
	diff = labs(after.user - before.user);
	printf("# memory.current - kernel - sock: %ld -> %ld\n", before.user,
	       after.user);
	if (diff > err)
		goto cleanup;
	for (i = 0; i < NR_LRU_KEYS; i++) {
		diff = labs(after.lru[i] - before.lru[i]);
		if (diff > err) {
			printf("# %s: %ld -> %ld\n", lru_keys[i],
			       before.lru[i], after.lru[i]);
			goto cleanup;
		}
	}
	ret = 0;
cleanup:
	set_reparent("0");
	rmdir(cg);
	return ret;
}

struct lab_test {
	int (*fn)(void);
	const char *name;
};

#define T(x) { x, #x }
static const struct lab_test tests[] = {
	T(test_reparent_frees_dying),
	T(test_reparent_conserves_charge),
};

int main(int argc, char **argv)
{
	size_t i, n = sizeof(tests) / sizeof(tests[0]);
	int failed = 0;

	if (argc != 3) {
		fprintf(stderr, "usage: test_reparent PARENT_CGROUP DIR\n");
		return 2;
	}
	parent_cg = argv[1];
	data_dir = argv[2];
	if (mkdir(data_dir, 0755) && errno != EEXIST) {
		fprintf(stderr, "test_reparent: mkdir %s: %s\n", data_dir,
			strerror(errno));
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("1..%zu\n", n);
	for (i = 0; i < n; i++) {
		int ok = tests[i].fn() == 0;

		printf("%s %zu %s\n", ok ? "ok" : "not ok", i + 1,
		       tests[i].name);
		failed += !ok;
	}
	return failed ? 1 : 0;
}
