// SPDX-License-Identifier: GPL-2.0
/*
 * test_reparent: page reparenting (vm.memcg_reparent_pages, series 0005
 * and 0006) in the guest.
 *
 * Usage: test_reparent PARENT_CGROUP DIR [TEST...]
 *   PARENT_CGROUP  a cgroup2 directory with +memory in its subtree_control;
 *                  the tests make their cgroups below it
 *   DIR            a directory on a disk file system for the jobs' files
 *   TEST           run only these tests (names as in the TAP output)
 * Prints TAP lines; exits 0 only if every test passed. On a kernel without
 * the sysctl the tests still run, as on stock, and fail: that is the check
 * that they can. Some tests read kernel state through lab_probe.ko
 * (mm-tests/modules/lab_probe.c), which the job loads first.
 */
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysinfo.h>
#include <sys/wait.h>
#include "lab_util.h"
#include "lab_test.h"

/* Allowed error of per-cpu batched memcg statistics, as in test_kmem.c. */
#define MAX_VMSTAT_ERROR (4096L * 64 * get_nprocs())
#define JOBS		10
#define FILES_PER_JOB	50
/*
 * How long removed cgroups may stay dying with reparenting on: a generous
 * bound. The pages move within a pass or two and the dirty inodes of the
 * last jobs are written back then (test_reparent_dirty_writeback() holds
 * that to 2 s).
 */
#define DYING_WAIT_MS	30000

#define CGROUP_ROOT	"/sys/fs/cgroup"
#define PROBE		"/sys/kernel/debug/lab_probe"
#define THP_SIZE	(2UL << 20)
#define NR_THPS		4

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

/*
 * Wait up to @max_ms for the vmstat counter @key to exceed @than; then
 * wait until it has not changed for @quiet_ms.  0, or -1 on timeout.
 */
static int wait_vmstat_settled(const char *key, long than, long max_ms,
			       long quiet_ms)
{
	long last = lab_read_key("/proc", "vmstat", key), still = 0, ms;

	for (ms = 0; ms < max_ms && (last <= than || still < quiet_ms);
	     ms += 50) {
		long now;

		usleep(50 * 1000);
		now = lab_read_key("/proc", "vmstat", key);
		still = now == last ? still + 50 : 0;
		last = now;
	}
	return last > than && still >= quiet_ms ? 0 : -1;
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

/* Remove cgroup @cg, waiting for exited tasks to leave it; 0 or -1. */
static int remove_cgroup(const char *cg)
{
	int tries;

	for (tries = 0; rmdir(cg) && errno == EBUSY && tries < 100; tries++)
		usleep(10 * 1000);
	if (access(cg, F_OK) == 0) {
		printf("# cannot remove %s\n", cg);
		return -1;
	}
	return 0;
}

/*
 * lab_wait_dying_zero(@cg, @max_ms), and a TAP comment that says how long
 * @what stayed dying.
 */
static long wait_dying_zero(const char *cg, long max_ms, const char *what)
{
	long ms = lab_wait_dying_zero(cg, max_ms);

	if (ms < 0)
		printf("# %s: still dying after %ld ms\n", what, max_ms);
	else
		printf("# %s: all freed after %ld ms\n", what, ms);
	return ms;
}

/*
 * Run JOBS jobs one after the other, each in its own child of @cg, and
 * remove each child when its job has exited. 0 on success.
 */
static int run_jobs(const char *cg, const char *dir)
{
	char child[4096];
	int id, status;
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
		if (remove_cgroup(child))
			return -1;
	}
	return 0;
}

/*
 * With reparenting on, removed cgroups whose jobs left page cache (their
 * own files and a file all jobs read) stop being dying within 30 s of the
 * last removal, with no memory pressure and no drop_caches. On stock they
 * stay dying until their pages are reclaimed.
 */
static int test_reparent_frees_dying(void)
{
	char cg[4096], dir[4096];
	int ret = KSFT_FAIL;
	long ms;

	if (lab_make_parent_cgroup(cg, sizeof(cg), parent_cg, "frees") < 0)
		goto cleanup;
	set_reparent("1");
	snprintf(dir, sizeof(dir), "%s/frees", data_dir);
	if (run_jobs(cg, dir))
		goto cleanup;
	ms = wait_dying_zero(cg, DYING_WAIT_MS, "the removed cgroups");
	if (ms < 0)
		goto cleanup;
	ret = KSFT_PASS;
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
	int ret = KSFT_FAIL;
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
	ret = KSFT_PASS;
cleanup:
	set_reparent("0");
	rmdir(cg);
	return ret;
}

/* Write @val to the probe file @name; 0, or -errno. */
static int probe_write(const char *name, const char *val)
{
	int ret = lab_write_file(PROBE, name, val);

	if (ret)
		printf("# %s/%s <- %s: %s\n", PROBE, name, val, strerror(-ret));
	return ret;
}

/* @cg without the cgroup2 mount point, as the probe takes it. */
static const char *probe_path(const char *cg)
{
	size_t n = strlen(CGROUP_ROOT);

	return strncmp(cg, CGROUP_ROOT, n) ? cg : cg[n] ? cg + n : "/";
}

/* kB of anonymous THPs mapped by the calling process, or -1. */
static long anon_huge_kb(void)
{
	FILE *f = fopen("/proc/self/smaps_rollup", "r");
	long kb = -1;
	char line[256];

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "AnonHugePages: %ld kB", &kb) == 1)
			break;
	fclose(f);
	return kb;
}

/*
 * The body of the THP job, run in cgroup @c: map NR_THPS anonymous THPs
 * and share them with a child that moves to cgroup @d (the COW sharing a
 * fork-then-attach launcher leaves behind). The child unmaps the second
 * quarter of each THP, which splits its PMD mappings; then this process
 * unmaps the THPs altogether. That was the last PMD mapping of each, so
 * each THP, still charged to @c and still mapped by the child's PTEs,
 * goes on @c's deferred split queue. The child writes its pid to @ready
 * and waits until it is killed.
 */
static int thp_job(const char *c, const char *d, int ready)
{
	size_t len = NR_THPS * THP_SIZE, i;
	char *map, *thps, byte;
	int done[2];
	pid_t child;

	if (lab_enter_cgroup(c) || pipe(done))
		return 1;
	map = mmap(NULL, len + THP_SIZE, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (map == MAP_FAILED)
		return 1;
	thps = (char *)(((uintptr_t)map + THP_SIZE - 1) & ~(THP_SIZE - 1));
	madvise(thps, len, MADV_HUGEPAGE);
	memset(thps, 0x5a, len);
	if (anon_huge_kb() < (long)(len >> 10)) {
		printf("# only %ld kB of THPs mapped, %zu wanted\n",
		       anon_huge_kb(), len >> 10);
		return 3;
	}
	child = fork();
	if (child < 0)
		return 1;
	if (child == 0) {
		char pid[32];

		if (lab_enter_cgroup(d))
			_exit(1);
		for (i = 0; i < NR_THPS; i++)
			if (madvise(thps + i * THP_SIZE + THP_SIZE / 4,
				    THP_SIZE / 4, MADV_DONTNEED))
				_exit(1);
		snprintf(pid, sizeof(pid), "%d", getpid());
		if (write(done[1], "x", 1) != 1 ||
		    write(ready, pid, strlen(pid)) < 0)
			_exit(1);
		for (;;)
			pause();
	}
	close(done[1]);
	if (read(done[0], &byte, 1) != 1)
		return 1;
	return madvise(thps, len, MADV_DONTNEED) ? 1 : 0;
}

/* Can anonymous memory be THPs here (madvise() or always)? */
static int thp_available(void)
{
	char mode[128] = "";
	FILE *f;

	f = fopen("/sys/kernel/mm/transparent_hugepage/enabled", "r");
	if (!f)
		return 0;
	if (!fgets(mode, sizeof(mode), f))
		mode[0] = '\0';
	fclose(f);
	return !strstr(mode, "[never]") && mode[0];
}

/*
 * THPs charged to a removed cgroup and queued on its deferred split queue
 * (partially unmapped, COW-shared with a live cgroup's task) are moved
 * without leaving a THP linked on the removed memcg's queue: the removed
 * cgroup is freed, and then reclaim (which splits them) and the exit of
 * the last task that maps them (which frees them) leave the parent's
 * split queue length sane. Before the fix, each free took one off the
 * parent's length (it went negative) and unlinked the THP from the freed
 * memcg's list: a use-after-free that KASAN reports on the debug kernel.
 */
static int test_reparent_thp_split_queue(void)
{
	char cg[2048], c[4096], d[4096], buf[64];
	int ret = KSFT_FAIL, fds[2] = { -1, -1 }, status = 0;
	pid_t job = -1, child = -1;
	long q_moved, q_end, n;

	if (!thp_available()) {
		ksft_print_msg("no THPs for anonymous memory in this kernel\n");
		return KSFT_SKIP;
	}
	if (lab_make_parent_cgroup(cg, sizeof(cg), parent_cg, "thp") < 0)
		goto cleanup;
	snprintf(c, sizeof(c), "%s/c", cg);
	snprintf(d, sizeof(d), "%s/d", cg);
	if (mkdir(c, 0755) || mkdir(d, 0755) || pipe(fds))
		goto cleanup;
	if (probe_write("split_queue", probe_path(cg)))
		goto cleanup;
	set_reparent("1");
	job = fork();
	if (job < 0)
		goto cleanup;
	if (job == 0)
		_exit(thp_job(c, d, fds[1]));
	close(fds[1]);
	fds[1] = -1;
	/* The child writes its pid once it is in @d. */
	n = read(fds[0], buf, sizeof(buf) - 1);
	if (n > 0) {
		buf[n] = '\0';
		child = atoi(buf);
	}
	if (waitpid(job, &status, 0) != job || !WIFEXITED(status) ||
	    WEXITSTATUS(status) || child <= 0) {
		printf("# the THP job failed (status %#x)\n", status);
		goto cleanup;
	}
	if (remove_cgroup(c))
		goto cleanup;
	if (lab_wait_dying_zero(cg, DYING_WAIT_MS) < 0) {
		printf("# the removed cgroup holding the THPs stayed dying\n");
		goto cleanup;
	}
	/* Let the freed memcg's memory go back through its RCU grace period. */
	sleep(1);
	q_moved = lab_read_long(PROBE, "split_queue");
	/* Reclaim splits and swaps them; the exit frees the rest. */
	lab_write_file(cg, "memory.reclaim", "16M");
	kill(child, SIGKILL);
	waitpid(child, NULL, 0);
	child = -1;
	q_end = lab_read_long(PROBE, "split_queue");
	printf("# parent's deferred split queue: %ld after the move, %ld after reclaim and exit\n",
	       q_moved, q_end);
	if (q_moved < 0 || q_end < 0 || q_end > NR_THPS)
		goto cleanup;
	ret = KSFT_PASS;
cleanup:
	if (child > 0) {
		kill(child, SIGKILL);
		waitpid(child, NULL, 0);
	}
	if (fds[0] >= 0)
		close(fds[0]);
	if (fds[1] >= 0)
		close(fds[1]);
	set_reparent("0");
	rmdir(c);
	rmdir(d);
	rmdir(cg);
	return ret;
}

/* The root's page counter less what its children's counters hold, in kB. */
static long root_orphan_kb(void)
{
	long root = lab_read_long(PROBE, "root_usage"), sum = 0, v;
	char path[4096];
	FILE *ls;

	if (root < 0)
		return -1;
	ls = popen("ls -d " CGROUP_ROOT "/*/", "r");
	if (!ls)
		return -1;
	while (fgets(path, sizeof(path), ls)) {
		path[strcspn(path, "\n")] = '\0';
		v = lab_read_long(path, "memory.current");
		if (v > 0)
			sum += v;
	}
	pclose(ls);
	return root * (getpagesize() >> 10) - (sum >> 10);
}

/* Write @mib MiB of page cache to @path; 0 or -1. */
static int write_mib(const char *path, int mib)
{
	char buf[65536];
	int fd, i;

	memset(buf, 't', sizeof(buf));
	fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0644);
	if (fd < 0)
		return -1;
	for (i = 0; i < mib * 16; i++)
		if (write(fd, buf, sizeof(buf)) != sizeof(buf))
			break;
	if (i < mib * 16 || fsync(fd)) {
		close(fd);
		return -1;
	}
	close(fd);
	return 0;
}

/*
 * Run @fn(@path, @arg) in a child process that first enters cgroup @cg,
 * so that what it writes is charged there; 0, or -1 if anything failed.
 */
static int run_in_cgroup(const char *cg, int (*fn)(const char *, int),
			 const char *path, int arg)
{
	int status;
	pid_t pid;

	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0)
		_exit(lab_enter_cgroup(cg) || fn(path, arg));
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status))
		return -1;
	return 0;
}

/*
 * Reparenting out of a top-level cgroup (the destination is the root)
 * leaves no charge in the root's page counter: after the 8 MiB of page
 * cache the cgroup wrote moved to the root (the pages moved counter says
 * they did), what the root counts beyond its children's counters has
 * grown by less than 1 MiB, and still has after the pages were dropped.
 * Before the fix the cancel loop stopped below the root, and the root
 * never uncharges its own pages, so every moved page stayed counted.
 */
static int test_reparent_top_level(void)
{
	long before, moved, dropped, pages;
	char cg[4096], file[4096];
	int ret = KSFT_FAIL;

	snprintf(cg, sizeof(cg), "%s/lab-top", CGROUP_ROOT);
	snprintf(file, sizeof(file), "%s/top", data_dir);
	if (mkdir(cg, 0755))
		goto cleanup;
	set_reparent("1");
	sync();
	before = root_orphan_kb();
	pages = reparent_moved();
	if (run_in_cgroup(cg, write_mib, file, 8))
		goto cleanup;
	if (remove_cgroup(cg))
		goto cleanup;
	/* The worker's first pass moves what it can at once */
	sleep(2);
	pages = reparent_moved() - pages;
	moved = root_orphan_kb();
	lab_write_file("/proc/sys/vm", "drop_caches", "1");
	dropped = root_orphan_kb();
	printf("# %ld pages moved; root's charge beyond its children: %ld kB, %ld kB after the move, %ld kB after drop_caches\n",
	       pages, before, moved, dropped);
	if (before < 0 || pages < 2048 || moved - before > 1024 ||
	    dropped - before > 1024)
		goto cleanup;
	ret = KSFT_PASS;
cleanup:
	set_reparent("0");
	unlink(file);
	rmdir(cg);
	return ret;
}

/* Write a page to @path, and make it stable on disk if @stable; 0 or -1. */
static int write_page(const char *path, int stable)
{
	char buf[4096];
	int fd;

	memset(buf, 'd', sizeof(buf));
	fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0644);
	if (fd < 0)
		return -1;
	if (write(fd, buf, sizeof(buf)) != sizeof(buf) ||
	    (stable && fsync(fd))) {
		close(fd);
		return -1;
	}
	close(fd);
	return 0;
}

/*
 * Make @cg (a new cgroup @name below the parent) and @c (its child "c"),
 * and have a task in @c write a page to @file (DATA_DIR/@name), which
 * charges it to @c, stable on disk if @stable; 0 or -1.  The buffers are
 * the callers' arrays.
 */
static int child_writes_page(const char *name, char cg[2048], char c[4096],
			     char file[4096], bool stable)
{
	if (lab_make_parent_cgroup(cg, 2048, parent_cg, name) < 0)
		return -1;
	snprintf(c, 4096, "%s/c", cg);
	snprintf(file, 4096, "%s/%s", data_dir, name);
	/* A new file: truncating an old one can make ext4 write it at close. */
	unlink(file);
	if (mkdir(c, 0755))
		return -1;
	return run_in_cgroup(c, write_page, file, stable);
}

/* Undo child_writes_page() and the switch; what is not there is skipped. */
static void undo_child_page(const char *cg, const char *c, const char *file)
{
	set_reparent("0");
	unlink(file);
	rmdir(c);
	rmdir(cg);
}

/*
 * A page of a removed cgroup that was truncated from its file while a
 * user held it and was then dirtied by that user (as a GUP user does
 * when it unpins a buffer it wrote to) is not moved: it is on its way to
 * be freed. The removed cgroup goes once the user drops the page. Before
 * the fix the move read the dirty page's NULL mapping (an oops).
 */
static int test_reparent_truncated_dirty(void)
{
	char cg[2048] = "", c[4096] = "", file[4096] = "";
	int ret = KSFT_FAIL, held = 0;

	if (child_writes_page("trunc", cg, c, file, true))
		goto cleanup;
	if (probe_write("hold", file))
		goto cleanup;
	held = 1;
	if (truncate(file, 0) || probe_write("dirty", "1"))
		goto cleanup;
	set_reparent("1");
	if (remove_cgroup(c))
		goto cleanup;
	/* Give the worker its passes over the held page. */
	sleep(2);
	probe_write("release", "1");
	held = 0;
	/*
	 * The truncation dirtied the inode, which keeps it on the removed
	 * cgroup's writeback until it is written: write it now, so that the
	 * wait below is about the page only.
	 */
	sync();
	if (lab_wait_dying_zero(cg, DYING_WAIT_MS) < 0) {
		printf("# the removed cgroup stayed dying after the page was released\n");
		goto cleanup;
	}
	ret = KSFT_PASS;
cleanup:
	if (held)
		probe_write("release", "1");
	undo_child_page(cg, c, file);
	return ret;
}

/*
 * A page charged to a cgroup after it went offline and after the worker
 * found its lists empty (a remote charge, as the loop driver makes with
 * the memcg of the IO's issuer) is moved too: the removed cgroup goes.
 * Before the fix nothing queued the worker again and the page kept the
 * cgroup dying.
 */
static int test_reparent_late_charge(void)
{
	char cg[2048], c[4096], file[4096];
	int ret = KSFT_FAIL, pinned = 0;

	if (lab_make_parent_cgroup(cg, sizeof(cg), parent_cg, "late") < 0)
		goto cleanup;
	snprintf(c, sizeof(c), "%s/c", cg);
	snprintf(file, sizeof(file), "%s/late", data_dir);
	if (mkdir(c, 0755) || write_page(file, true))
		goto cleanup;
	/* Not in the page cache any more: the probe's read charges it. */
	lab_write_file("/proc/sys/vm", "drop_caches", "1");
	if (probe_write("pin", probe_path(c)))
		goto cleanup;
	pinned = 1;
	set_reparent("1");
	if (remove_cgroup(c))
		goto cleanup;
	/* The worker runs and finds nothing; then the late charge. */
	sleep(2);
	if (probe_write("hold", file))
		goto cleanup;
	probe_write("release", "1");
	probe_write("pin", "-");
	pinned = 0;
	if (lab_wait_dying_zero(cg, DYING_WAIT_MS) < 0) {
		printf("# the late charge kept the removed cgroup dying\n");
		goto cleanup;
	}
	ret = KSFT_PASS;
cleanup:
	if (pinned)
		probe_write("pin", "-");
	undo_child_page(cg, c, file);
	return ret;
}

/*
 * A page the worker finds locked (a read filling it, a truncation) is
 * passed over and retried: once it is unlocked the removed cgroup goes.
 * Before the fix, with the multi-gen LRU enabled, the worker took the
 * memcg's LRU sizes, which the multi-gen LRU does not keep, for empty,
 * stopped after the first pass, and the page kept the cgroup dying.
 */
static int test_reparent_busy_page(void)
{
	char cg[2048] = "", c[4096] = "", file[4096] = "";
	int ret = KSFT_FAIL, held = 0;
	long busy;

	if (child_writes_page("busy", cg, c, file, true))
		goto cleanup;
	/* Clean and on the removed cgroup's writeback no more. */
	sync();
	if (probe_write("hold", file))
		goto cleanup;
	held = 1;
	if (probe_write("lock", "1"))
		goto cleanup;
	busy = lab_read_key("/proc", "vmstat", "memcg_reparent_busy");
	set_reparent("1");
	if (remove_cgroup(c))
		goto cleanup;
	/* The worker's first pass finds the page locked, and decides. */
	if (lab_read_key("/proc", "vmstat", "memcg_reparent_busy") < 0 ||
	    wait_vmstat_settled("memcg_reparent_busy", busy, 5000, 0)) {
		printf("# the worker never found the page locked\n");
		goto cleanup;
	}
	usleep(300 * 1000);
	probe_write("release", "1");
	held = 0;
	if (lab_wait_dying_zero(cg, 4000) < 0) {
		printf("# the page that was locked kept the removed cgroup dying\n");
		goto cleanup;
	}
	ret = KSFT_PASS;
cleanup:
	if (held)
		probe_write("release", "1");
	undo_child_page(cg, c, file);
	return ret;
}

/*
 * A page of a removed cgroup that is mlocked while its worker runs is on
 * no list the worker walks; once it is munlocked it goes back on one, and
 * the worker must come back for it: the removed cgroup goes.  Before the
 * fix the munlock put it back without calling the worker, which had
 * already found the lists empty and stopped, and the page kept the
 * cgroup dying.
 */
static int test_reparent_munlocked_page(void)
{
	char cg[2048] = "", c[4096] = "", file[4096] = "";
	void *map = MAP_FAILED;
	int ret = KSFT_FAIL, fd = -1, cpu;
	cpu_set_t cpus;
	long passes;

	/*
	 * munlock() drains the mlock batch of the CPU it ends on; the page
	 * was queued on the CPU of the page walk: keep them the same.
	 */
	CPU_ZERO(&cpus);
	CPU_SET(0, &cpus);
	if (sched_setaffinity(0, sizeof(cpus), &cpus))
		goto cleanup;
	if (child_writes_page("mlock", cg, c, file, true))
		goto cleanup;
	sync();
	/* An atime update would dirty the inode on the cgroup's writeback. */
	fd = open(file, O_RDONLY | O_NOATIME);
	if (fd < 0)
		goto cleanup;
	map = mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd, 0);
	if (map == MAP_FAILED || mlock(map, 4096))
		goto cleanup;
	passes = lab_read_key("/proc", "vmstat", "memcg_reparent_passes");
	set_reparent("1");
	if (remove_cgroup(c))
		goto cleanup;
	/* The worker runs, finds only the unevictable page, and stops. */
	if (passes < 0 ||
	    wait_vmstat_settled("memcg_reparent_passes", passes, 10000, 500)) {
		printf("# the worker did not run and stop\n");
		goto cleanup;
	}
	if (lab_wait_dying_zero(cg, 0) >= 0) {
		printf("# the removed cgroup went while its page was mlocked\n");
		goto cleanup;
	}
	if (munlock(map, 4096))
		goto cleanup;
	if (lab_wait_dying_zero(cg, 4000) < 0) {
		printf("# the page munlocked after the worker ended kept the removed cgroup dying\n");
		goto cleanup;
	}
	ret = KSFT_PASS;
cleanup:
	CPU_ZERO(&cpus);
	for (cpu = 0; cpu < get_nprocs(); cpu++)
		CPU_SET(cpu, &cpus);
	sched_setaffinity(0, sizeof(cpus), &cpus);
	if (map != MAP_FAILED)
		munmap(map, 4096);
	if (fd >= 0)
		close(fd);
	undo_child_page(cg, c, file);
	return ret;
}

#define WB_INTERVAL	"/proc/sys/vm/dirty_writeback_centisecs"
#define DIRTY_GONE_MS	2000

/*
 * A removed cgroup whose task left a dirty page in a new file, not
 * synced, stops being dying within 2 s of its removal with reparenting
 * on, with periodic writeback every 30 s (dirty_writeback_centisecs set
 * to 3000 for the test): once its pages are moved, the cleanup starts
 * the writeback of its cgroup writeback and releases it when that is
 * done. With the first version of series patch 0006, which only ran the
 * cleanup again every second, it stayed dying until periodic writeback.
 */
static int test_reparent_dirty_writeback(void)
{
	char cg[2048] = "", c[4096] = "", file[4096] = "", saved[32] = "";
	long interval = lab_read_long("/proc/sys/vm", "dirty_writeback_centisecs");
	int ret = KSFT_FAIL;
	long ms;

	if (interval < 0) {
		printf("# cannot read %s\n", WB_INTERVAL);
		goto cleanup;
	}
	snprintf(saved, sizeof(saved), "%ld", interval);
	if (lab_write_file("/proc/sys/vm", "dirty_writeback_centisecs", "3000"))
		goto cleanup;
	set_reparent("1");
	if (child_writes_page("dirtywb", cg, c, file, false))
		goto cleanup;
	if (remove_cgroup(c))
		goto cleanup;
	ms = wait_dying_zero(cg, DIRTY_GONE_MS,
			     "the removed cgroup with a dirty page");
	if (ms < 0)
		goto cleanup;
	ret = KSFT_PASS;
cleanup:
	if (saved[0])
		lab_write_file("/proc/sys/vm", "dirty_writeback_centisecs", saved);
	undo_child_page(cg, c, file);
	return ret;
}

#define COLD_LIVE_MIB	32
#define COLD_MOVED_MIB	16
/* Light pressure: memory.reclaim asks for this much at a time. */
#define COLD_STEP	"1048576"
#define COLD_MAX_STEPS	64

/* Page cache charged to @cg and its descendants, in kB; -1 on error. */
static long file_kb(const char *cg)
{
	long v = lab_read_key(cg, "memory.stat", "file");

	return v < 0 ? -1 : v >> 10;
}

/*
 * Reclaim takes the page cache a removed cgroup left before its live
 * sibling's. The removed cgroup's 16 MiB of clean cache moves to the
 * parent and the removed cgroup is freed; then proactive reclaim of the
 * parent (memory.reclaim, 1 MiB at a time) until half of the moved cache
 * is gone takes at most 4 MiB of the live sibling's 32 MiB. Without a
 * floor for moved pages the sibling loses about as much as the moved
 * cache does: on the multi-gen LRU while the floor's count was clamped
 * to sizes it never updates (each lruvec gave one eviction batch per
 * call, then only the sibling's was large enough to be asked), and on
 * the classic lists while the floor was 32 pages a call (each 1 MiB call
 * walked down the priorities, taking from both). On stock the removed
 * cgroup keeps its pages and stays dying, and the test fails there.
 */
static int test_reparent_cold_first(void)
{
	char cg[2048] = "", live[4096] = "", dead[4096] = "";
	char lfile[4096] = "", dfile[4096] = "";
	long moved0, moved = -1, live0, live1 = -1, all, step;
	int ret = KSFT_FAIL;

	if (lab_make_parent_cgroup(cg, sizeof(cg), parent_cg, "coldfirst") < 0)
		goto cleanup;
	snprintf(live, sizeof(live), "%s/live", cg);
	snprintf(dead, sizeof(dead), "%s/dead", cg);
	snprintf(lfile, sizeof(lfile), "%s/cold-live", data_dir);
	snprintf(dfile, sizeof(dfile), "%s/cold-dead", data_dir);
	if (mkdir(live, 0755) || mkdir(dead, 0755))
		goto cleanup;
	set_reparent("1");
	if (run_in_cgroup(live, write_mib, lfile, COLD_LIVE_MIB) ||
	    run_in_cgroup(dead, write_mib, dfile, COLD_MOVED_MIB)) {
		printf("# writing the page cache failed\n");
		goto cleanup;
	}
	if (remove_cgroup(dead) ||
	    wait_dying_zero(cg, DYING_WAIT_MS,
			    "the removed cgroup with clean cache") < 0)
		goto cleanup;
	live0 = file_kb(live);
	all = file_kb(cg);
	moved0 = all - live0;
	if (live0 < 0 || all < 0 || moved0 < COLD_MOVED_MIB * 1024 * 3 / 4) {
		printf("# %ld kB of page cache moved, %ld kB live: too little to tell\n",
		       moved0, live0);
		goto cleanup;
	}
	for (step = 0; step < COLD_MAX_STEPS; step++) {
		all = file_kb(cg);
		live1 = file_kb(live);
		if (all < 0 || live1 < 0)
			goto cleanup;
		moved = all - live1;
		if (moved * 2 <= moved0)
			break;
		/* -EAGAIN: less than asked for this time; keep pressing. */
		lab_write_file(cg, "memory.reclaim", COLD_STEP);
	}
	printf("# %ld x %s bytes of memory.reclaim: moved cache %ld -> %ld kB, live sibling's %ld -> %ld kB\n",
	       step, COLD_STEP, moved0, moved, live0, live1);
	if (moved * 2 > moved0 || live0 - live1 > 4096)
		goto cleanup;
	ret = KSFT_PASS;
cleanup:
	set_reparent("0");
	unlink(lfile);
	unlink(dfile);
	rmdir(live);
	rmdir(dead);
	if (cg[0])
		rmdir(cg);
	return ret;
}

static const struct lab_test tests[] = {
	LAB_TEST(test_reparent_frees_dying),
	LAB_TEST(test_reparent_conserves_charge),
	LAB_TEST(test_reparent_thp_split_queue),
	LAB_TEST(test_reparent_top_level),
	LAB_TEST(test_reparent_truncated_dirty),
	LAB_TEST(test_reparent_late_charge),
	LAB_TEST(test_reparent_busy_page),
	LAB_TEST(test_reparent_munlocked_page),
	LAB_TEST(test_reparent_dirty_writeback),
	LAB_TEST(test_reparent_cold_first),
};

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: test_reparent PARENT_CGROUP DIR [TEST...]\n");
		return 2;
	}
	lab_check_test_names("test_reparent", tests, LAB_NR_TESTS(tests),
			     argc - 3, argv + 3);
	parent_cg = argv[1];
	data_dir = argv[2];
	if (mkdir(data_dir, 0755) && errno != EEXIST) {
		fprintf(stderr, "test_reparent: mkdir %s: %s\n", data_dir,
			strerror(errno));
		return 2;
	}
	lab_tests_begin();
	lab_run_tests(tests, LAB_NR_TESTS(tests), argc - 3, argv + 3);
}
