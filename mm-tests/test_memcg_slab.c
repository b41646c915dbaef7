// SPDX-License-Identifier: GPL-2.0
/*
 * test_memcg_slab: per-memcg slab caches (memcg_slab=, series 0007) in the
 * guest, seen from user space.
 *
 * Usage: test_memcg_slab PARENT_CGROUP DIR
 *   PARENT_CGROUP  a cgroup2 directory with +memory in its subtree_control;
 *                  the tests make their cgroups below it
 *   DIR            a new directory on a disk file system for the jobs'
 *                  files; DIR/tmpfs gets a tmpfs for the tests that must
 *                  leave no page cache behind
 * Prints TAP lines; exits 0 only if every test passed. The policy comes
 * from /sys/kernel/debug/memcg_slab ("shared" where the file is missing).
 * test_pin_keeps_dying passes only under pin and test_reparent_frees_dying
 * fails only under pin: the harness runs both under every policy, so each
 * shows it can fail.
 */
#include <dirent.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sysinfo.h>
#include <sys/wait.h>
#include "lab_util.h"
#include "lab_test.h"

/* Allowed error of per-cpu batched memcg statistics, as in test_kmem.c. */
#define MAX_VMSTAT_ERROR (4096L * 64 * get_nprocs())
#define NEG_DENTRIES	20000
#define JOBS		5
#define FILES_PER_JOB	200
#define DYING_WAIT_MS	10000

static const char *debugfs_file = "/sys/kernel/debug/memcg_slab";
static const char *parent_cg, *data_dir;
static char tmpfs_dir[2048];
static char policy[32] = "shared";

/* Read the policy; leave "shared" where the kernel has no such file. */
static void read_policy(void)
{
	FILE *f = fopen(debugfs_file, "r");

	if (!f)
		return;
	if (fscanf(f, "policy %31s", policy) != 1)
		strcpy(policy, "unknown");
	fclose(f);
}

/* Live plus dying child caches; 0 where the kernel has none. */
static long child_caches(void)
{
	long live = lab_read_key("/sys/kernel/debug", "memcg_slab",
				 "live_children");
	long dying = lab_read_key("/sys/kernel/debug", "memcg_slab",
				  "dying_children");

	return (live < 0 ? 0 : live) + (dying < 0 ? 0 : dying);
}

/* Active objects of the child "@root(<id of @cg>:<leaf>)", or -1. */
static long child_objects(const char *root, const char *cg)
{
	char line[512], prefix[4400];
	const char *leaf = strrchr(cg, '/');
	long objs = -1;
	struct stat st;
	FILE *f;

	if (stat(cg, &st))
		return -1;
	snprintf(prefix, sizeof(prefix), "%s(%llu:%s) ", root,
		 (unsigned long long)st.st_ino, leaf ? leaf + 1 : cg);
	f = fopen("/proc/slabinfo", "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, prefix, strlen(prefix)))
			objs = strtol(line + strlen(prefix), NULL, 10);
	fclose(f);
	return objs;
}

/*
 * The size one object of cache @name takes in its slab (slabinfo's
 * objsize), debugging metadata such as slub_debug's or KASAN's included;
 * -1 if the cache is not listed.
 */
static long slab_objsize(const char *name)
{
	char line[512], cache[128];
	long active, total, size = -1, objsize;
	FILE *f = fopen("/proc/slabinfo", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%127s %ld %ld %ld", cache, &active, &total,
			   &objsize) == 4 && !strcmp(cache, name))
			size = objsize;
	fclose(f);
	return size;
}

/*
 * Shrink every slab cache: on a KASAN kernel freed objects wait in its
 * quarantine, holding their slab pages (and the charge), until the cache
 * is shrunk. Elsewhere this only frees empty slabs early.
 */
static void shrink_slab_caches(void)
{
	char dir[512];
	struct dirent *d;
	DIR *slabs = opendir("/sys/kernel/slab");

	if (!slabs)
		return;
	while ((d = readdir(slabs))) {
		if (d->d_name[0] == '.')
			continue;
		snprintf(dir, sizeof(dir), "/sys/kernel/slab/%s", d->d_name);
		lab_write_file(dir, "shrink", "1");
	}
	closedir(slabs);
}

/* Write back, then free unused dentries and inodes, without a message. */
static int drop_caches(void)
{
	int ret;

	sync();
	lab_write_file("/proc/sys/vm", "drop_caches", "4");
	ret = lab_write_file("/proc/sys/vm", "drop_caches", "2");
	shrink_slab_caches();
	return ret;
}

/* Run @fn(@arg) in a child process inside @cg; 0 if it exited 0. */
static int run_in(const char *cg, int (*fn)(const char *), const char *arg)
{
	int status;
	pid_t pid = fork();

	if (pid < 0)
		return -1;
	if (pid == 0)
		_exit(lab_enter_cgroup(cg) ? 1 : fn(arg));
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status) ? -1 : 0;
}

/* Remove @cg, waiting for its exited tasks to leave it. */
static int remove_cgroup(const char *cg)
{
	int tries;

	for (tries = 0; rmdir(cg) && errno == EBUSY && tries < 100; tries++)
		usleep(10 * 1000);
	return access(cg, F_OK) ? 0 : -1;
}

/* Look up NEG_DENTRIES missing names in @dir: negative dentries. */
static int make_negative_dentries(const char *dir)
{
	char path[4096];
	struct stat st;
	int i;

	if (mkdir(dir, 0755) && errno != EEXIST)
		return 1;
	for (i = 0; i < NEG_DENTRIES; i++) {
		snprintf(path, sizeof(path), "%s/missing-%d", dir, i);
		stat(path, &st);
	}
	return 0;
}

/*
 * Dentries a memcg creates beyond its memory.high are reclaimed
 * (test_kmem_basic's pattern): with memory.high at 1M, NEG_DENTRIES
 * negative dentries (about 4 MB) leave the memcg's slab figure below half
 * of what they would take at the dentry cache's object size (debugging
 * metadata included). Under pin and reparent they are allocated from
 * the memcg's dentry child: this fails if the child's objects were put on
 * another memcg's (or the root's) LRU, where the memcg's reclaim does not
 * look.
 */
static int test_high_reclaims_dentries(void)
{
	long slab, objs = -1, bound = NEG_DENTRIES * slab_objsize("dentry") / 2;
	char cg[4096], dir[4096];
	int ret = KSFT_FAIL, err;

	snprintf(cg, sizeof(cg), "%s/high", parent_cg);
	if (bound < 0) {
		printf("# no dentry cache in /proc/slabinfo\n");
		goto cleanup;
	}
	if (mkdir(cg, 0755)) {
		printf("# mkdir %s: %s\n", cg, strerror(errno));
		goto cleanup;
	}
	err = lab_write_file(cg, "memory.high", "1M");
	if (err) {
		printf("# %s/memory.high: %s\n", cg, strerror(-err));
		goto cleanup;
	}
	snprintf(dir, sizeof(dir), "%s/high", data_dir);
	if (run_in(cg, make_negative_dentries, dir)) {
		printf("# making negative dentries in %s failed\n", dir);
		goto cleanup;
	}
	slab = lab_read_key(cg, "memory.stat", "slab");
	if (strcmp(policy, "shared"))
		objs = child_objects("dentry", cg);
	printf("# %d negative dentries: slab %ld bytes (bound %ld), dentry child %ld objects\n",
	       NEG_DENTRIES, slab, bound, objs);
	if (slab < 0 || slab > bound)
		goto cleanup;
	if (strcmp(policy, "shared") && (objs < 0 || objs > NEG_DENTRIES / 2))
		goto cleanup;
	ret = KSFT_PASS;
cleanup:
	remove_cgroup(cg);
	return ret;
}

/* Make @dir with FILES_PER_JOB files of a page in it; 0 or -1. */
static int write_files(const char *dir)
{
	char path[4096], buf[4096];
	int fd, i;

	memset(buf, 'x', sizeof(buf));
	if (mkdir(dir, 0755))
		return -1;
	for (i = 0; i < FILES_PER_JOB; i++) {
		snprintf(path, sizeof(path), "%s/f%d", dir, i);
		fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0644);
		if (fd < 0 || write(fd, buf, sizeof(buf)) != sizeof(buf))
			return -1;
		close(fd);
	}
	return 0;
}

/* FILES_PER_JOB files of a page in @dir, then all deleted. */
static int files_made_and_deleted(const char *dir)
{
	char path[4096];
	int i;

	if (write_files(dir))
		return 1;
	for (i = 0; i < FILES_PER_JOB; i++) {
		snprintf(path, sizeof(path), "%s/f%d", dir, i);
		if (unlink(path))
			return 1;
	}
	return rmdir(dir) ? 1 : 0;
}

/*
 * After JOBS cgroups have made and deleted files on tmpfs (no metadata
 * pages to keep them) and have been removed, and their objects have been
 * freed (drop_caches=2), the parent's memory.current and slab figure are
 * back at their start within MAX_VMSTAT_ERROR, and so is the number of
 * child caches: every page a child charged was uncharged and every child
 * was destroyed. The number still dying is printed, not asserted: with
 * two CPUs one removed cgroup now and then stays dying for more than
 * 10 s under shared too, which is not the slab model's doing.
 */
static int test_conserves_charge(void)
{
	long cur0, cur1, slab0, slab1, kids0, kids1 = -1;
	char cg[4096], job[4200], dir[4096];
	int ret = KSFT_FAIL, i, waited;

	if (lab_make_parent_cgroup(cg, sizeof(cg), parent_cg, "conserve"))
		goto cleanup;
	drop_caches();
	cur0 = lab_read_long(cg, "memory.current");
	slab0 = lab_read_key(cg, "memory.stat", "slab");
	kids0 = child_caches();
	for (i = 0; i < JOBS; i++) {
		snprintf(job, sizeof(job), "%s/job%d", cg, i);
		snprintf(dir, sizeof(dir), "%s/conserve%d", tmpfs_dir, i);
		if (mkdir(job, 0755) || run_in(job, files_made_and_deleted, dir) ||
		    remove_cgroup(job)) {
			printf("# job %d failed\n", i);
			goto cleanup;
		}
	}
	/* Freed objects reach their slabs after RCU grace periods. */
	for (waited = 0; waited < DYING_WAIT_MS; waited += 200) {
		drop_caches();
		kids1 = child_caches();
		if (kids1 == kids0 &&
		    lab_read_key(cg, "cgroup.stat", "nr_dying_descendants") == 0)
			break;
		usleep(200 * 1000);
	}
	cur1 = lab_read_long(cg, "memory.current");
	slab1 = lab_read_key(cg, "memory.stat", "slab");
	printf("# memory.current %ld -> %ld, slab %ld -> %ld, child caches %ld -> %ld, dying %ld (allowed error %ld)\n",
	       cur0, cur1, slab0, slab1, kids0, kids1,
	       lab_read_key(cg, "cgroup.stat", "nr_dying_descendants"),
	       MAX_VMSTAT_ERROR);
	if (cur0 < 0 || cur1 < 0 || slab0 < 0 || slab1 < 0)
		goto cleanup;
	if (labs(cur1 - cur0) > MAX_VMSTAT_ERROR ||
	    labs(slab1 - slab0) > MAX_VMSTAT_ERROR || kids1 != kids0)
		goto cleanup;
	ret = KSFT_PASS;
cleanup:
	remove_cgroup(cg);
	return ret;
}

/* FILES_PER_JOB files of a page in @dir, left behind. */
static int files_left_behind(const char *dir)
{
	return write_files(dir) ? 1 : 0;
}

/*
 * Run JOBS jobs below a new cgroup @name, each leaving files (and so
 * dentries and inodes) behind, remove them with page reparenting on, and
 * return how many stay dying after DYING_WAIT_MS without pressure; or -1.
 */
static long dying_after_churn(const char *name)
{
	char cg[4096], job[4200], dir[4096];
	long dying = -1;
	int i;

	if (lab_make_parent_cgroup(cg, sizeof(cg), parent_cg, name)) {
		printf("# cannot make %s\n", cg);
		return -1;
	}
	lab_write_file("/proc/sys/vm", "memcg_reparent_pages", "1");
	for (i = 0; i < JOBS; i++) {
		snprintf(job, sizeof(job), "%s/job%d", cg, i);
		snprintf(dir, sizeof(dir), "%s/%s%d", data_dir, name, i);
		if (mkdir(job, 0755) || run_in(job, files_left_behind, dir) ||
		    remove_cgroup(job)) {
			printf("# job %d failed\n", i);
			goto out;
		}
	}
	/* The jobs' dirty pages would hold their writeback structures. */
	sync();
	if (lab_wait_dying_zero(cg, DYING_WAIT_MS) >= 0)
		dying = 0;
	else
		dying = lab_read_key(cg, "cgroup.stat", "nr_dying_descendants");
	printf("# %s: %ld of %d removed cgroups dying after %d ms\n", name,
	       dying, JOBS, DYING_WAIT_MS);
out:
	lab_write_file("/proc/sys/vm", "memcg_reparent_pages", "0");
	remove_cgroup(cg);
	return dying;
}

/*
 * memcg_slab=pin: removed cgroups whose dentries and inodes are still
 * cached stay dying, even with their pages reparented: each is held by
 * its children until they are empty.
 */
static int test_pin_keeps_dying(void)
{
	int ret = KSFT_FAIL;

	if (dying_after_churn("pin") != JOBS)
		goto cleanup;
	ret = KSFT_PASS;
cleanup:
	return ret;
}

/*
 * memcg_slab=reparent (and shared): the same removed cgroups are all
 * freed within DYING_WAIT_MS; their children's objects stay, charged to
 * the parent.
 */
static int test_reparent_frees_dying(void)
{
	int ret = KSFT_FAIL;

	if (dying_after_churn("frees") != 0)
		goto cleanup;
	ret = KSFT_PASS;
cleanup:
	return ret;
}

static void unmount_tmpfs(void)
{
	umount(tmpfs_dir);
}

static const struct lab_test tests[] = {
	LAB_TEST(test_high_reclaims_dentries),
	LAB_TEST(test_conserves_charge),
	LAB_TEST(test_pin_keeps_dying),
	LAB_TEST(test_reparent_frees_dying),
};

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: test_memcg_slab PARENT_CGROUP DIR\n");
		return 2;
	}
	parent_cg = argv[1];
	data_dir = argv[2];
	if (access(parent_cg, W_OK) || mkdir(data_dir, 0755)) {
		fprintf(stderr, "test_memcg_slab: need a writable cgroup %s and a new directory %s: %s\n",
			parent_cg, data_dir, strerror(errno));
		return 2;
	}
	snprintf(tmpfs_dir, sizeof(tmpfs_dir), "%s/tmpfs", data_dir);
	if (mkdir(tmpfs_dir, 0755) ||
	    mount("tmpfs", tmpfs_dir, "tmpfs", 0, "size=64m")) {
		fprintf(stderr, "test_memcg_slab: tmpfs on %s: %s\n",
			tmpfs_dir, strerror(errno));
		return 2;
	}
	atexit(unmount_tmpfs);
	read_policy();
	lab_tests_begin();
	ksft_print_msg("memcg_slab policy: %s\n", policy);
	lab_run_tests(tests, LAB_NR_TESTS(tests), 0, NULL);
}
