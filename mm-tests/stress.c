// SPDX-License-Identifier: GPL-2.0
/*
 * stress: the reliability run (make stress). For SECONDS, WORKERS workers
 * each run job cycles in fresh child cgroups of PARENT; a cleaner deletes
 * what removed jobs left in DIR; a toggler flips the series' sysctls and
 * asks PARENT for proactive reclaim; an injector (when the kernel has
 * failslab and fail_page_alloc in debugfs) makes allocations fail in the
 * "faulty" jobs and, in short windows, in every kworker, where child slab
 * caches are created and offline memcgs are reparented.
 *
 * Each cycle is one job of a kind, in turn:
 *   plain   no limit
 *   tight   memory.max so low that the job's own charges fail (ENOMEM)
 *   oom     a low memory.max, no swap, and anonymous memory over it: an
 *           OOM kill
 *   faulty  the job's allocations fail by injection (make-it-fail)
 *   race    the job leaves its cgroup halfway (for PARENT/hold) and goes on
 *           freeing and allocating while its cgroup is removed
 * A job creates FILES files (and their directory) in DIR/wW-C, looks up
 * as many missing names, and unlinks a quarter of its files. Whatever
 * happens to the job (an error, a kill), the cycle removes its cgroup.
 *
 * At the end everything stops, DIR is emptied, and the caller judges the
 * kernel. Prints "name=value" figures, guest/lab-results.sh's
 * format: cycles, cycles per kind,
 * cgroups_created/removed, jobs_ok/enomem/failed (another error)/killed/
 * timed_out (after JOB_SECONDS), the jobs' memory.events
 * (max, oom, oom_kill), toggles, reclaims, kworker_windows, cleaned_files,
 * faults_failslab and faults_fail_page_alloc (failures injected, from the
 * "times" budget), and errors (anything the driver itself could not do;
 * the caller requires 0).
 */
#include <dirent.h>
#include <signal.h>
#include <stdbool.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include "lab_util.h"

#define FAULT_BUDGET	1000000000L
/*
 * In the faulty jobs, 1 in 200 slab allocation calls fails, and 1 in 10
 * page allocations: a job asks the page allocator for a new slab page
 * only every few dozen objects and ends at its first failure, so at the
 * slab rate a 60 s run saw 0 to 14 page allocation failures.
 */
#define FAULT_INTERVAL		"2"
#define FAULT_PROBABILITY	"1"
#define PAGE_FAULT_INTERVAL	"1"
#define PAGE_FAULT_PROBABILITY	"10"
/*
 * A tight job cannot be OOM-killed and keeps its first TIGHT_OPEN files
 * open: more than TIGHT_MAX of dentries and inodes that reclaim cannot
 * free, so its charges fail (ENOMEM) instead of ending in a kill.
 */
#define TIGHT_MAX	"256K"
#define TIGHT_OPEN	256
/* A job that has not ended after this long is killed (SIGALRM) */
#define JOB_SECONDS	120
#define OOM_MAX		"4M"
#define OOM_ANON	(64L << 20)

enum kind { PLAIN, TIGHT, OOM, FAULTY, RACE, NR_KINDS };
static const char * const kind_names[NR_KINDS] = {
	"plain", "tight", "oom", "faulty", "race",
};

/* Counters shared by every process of the run (MAP_SHARED) */
struct figures {
	long cycles, kind[NR_KINDS];
	long created, removed, ok, enomem, failed, killed, timed_out;
	long ev_max, ev_oom, ev_oom_kill;
	long toggles, reclaims, windows, cleaned, errors;
};

static struct figures *fig;
static const char *parent, *dir;
static long files = 200, duration = 60;
static double deadline;
static bool faults;
static volatile sig_atomic_t stop;

static void add(long *counter, long n)
{
	__atomic_add_fetch(counter, n, __ATOMIC_RELAXED);
}

/* Something the driver itself could not do: counted, and said once */
static void error(const char *what, const char *arg)
{
	fprintf(stderr, "stress: %s %s: %s\n", what, arg, strerror(errno));
	add(&fig->errors, 1);
}

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static bool running(void)
{
	return !stop && lab_now() < deadline;
}

static int fault_set(const char *name, const char *file, const char *val)
{
	char d[64];

	snprintf(d, sizeof(d), "/sys/kernel/debug/%s", name);
	return lab_write_file(d, file, val);
}

/* Injected failures so far: the part of the "times" budget used up */
static long faults_injected(const char *name)
{
	char d[64];
	long left;

	snprintf(d, sizeof(d), "/sys/kernel/debug/%s", name);
	left = lab_read_long(d, "times");
	return left < 0 ? -1 : FAULT_BUDGET - left;
}

/* The faulty jobs' rates, or 1 in 20 of every call during a window */
static int fault_rate(bool window)
{
	int ret;

	ret = fault_set("failslab", "interval", window ? "1" : FAULT_INTERVAL);
	ret |= fault_set("failslab", "probability",
			 window ? "5" : FAULT_PROBABILITY);
	ret |= fault_set("fail_page_alloc", "interval",
			 window ? "1" : PAGE_FAULT_INTERVAL);
	ret |= fault_set("fail_page_alloc", "probability",
			 window ? "5" : PAGE_FAULT_PROBABILITY);
	return ret;
}

/*
 * Only marked tasks (make-it-fail), sleepable allocations too. Nothing is
 * printed per fault: a fault is not a splat. fail_page_alloc skips order-0
 * pages by default (min-order 1), and most slab pages here are order 0: a
 * 60 s run injected no page allocation failure at all (the CI run of
 * 2026-12-04), so order 0 counts too. User pages (__GFP_HIGHMEM) stay
 * exempt: a failed user fault is retried, not failed.
 */
static int faults_setup(void)
{
	static const char * const names[] = { "failslab", "fail_page_alloc" };
	char budget[32];
	unsigned int i;
	int ret = 0;

	snprintf(budget, sizeof(budget), "%ld", FAULT_BUDGET);
	for (i = 0; i < 2; i++) {
		ret |= fault_set(names[i], "task-filter", "Y");
		ret |= fault_set(names[i], "ignore-gfp-wait", "N");
		ret |= fault_set(names[i], "verbose", "0");
		ret |= fault_set(names[i], "times", budget);
	}
	ret |= fault_rate(false);
	ret |= fault_set("fail_page_alloc", "min-order", "0");
	ret |= fault_set("fail_page_alloc", "ignore-gfp-highmem", "Y");
	return ret;
}

static void faults_off(void)
{
	fault_set("failslab", "probability", "0");
	fault_set("fail_page_alloc", "probability", "0");
}

/* Mark or unmark every kworker for injection; returns how many */
static long mark_kworkers(const char *val)
{
	char path[300], comm[64];
	struct dirent *de;
	long n = 0;
	DIR *proc;
	FILE *f;

	proc = opendir("/proc");
	if (!proc)
		return 0;
	while ((de = readdir(proc))) {
		if (de->d_name[0] < '1' || de->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%s/comm", de->d_name);
		f = fopen(path, "r");
		if (!f)
			continue;
		if (fgets(comm, sizeof(comm), f) &&
		    !strncmp(comm, "kworker/", 8)) {
			snprintf(path, sizeof(path), "/proc/%s", de->d_name);
			if (!lab_write_file(path, "make-it-fail", val))
				n++;
		}
		fclose(f);
	}
	closedir(proc);
	return n;
}

/* The job's files: DIR/wW-C/fI */
static int job_file(char *path, size_t size, const char *jobdir, long i)
{
	return snprintf(path, size, "%s/f%ld", jobdir, i) >= (int)size ? -1 : 0;
}

/* Files @from..@to-1 and as many missing lookups; keeps @keep fds open */
static int create_files(const char *jobdir, long from, long to, long keep)
{
	char path[4096];
	struct stat st;
	long i;
	int fd;

	for (i = from; i < to; i++) {
		if (job_file(path, sizeof(path), jobdir, i))
			return -1;
		fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (fd < 0 || write(fd, "stress\n", 7) != 7) {
			if (fd >= 0)
				close(fd);
			return -1;
		}
		if (i >= keep)
			close(fd);
		snprintf(path, sizeof(path), "%s/missing-%ld", jobdir, i);
		if (!stat(path, &st) || errno != ENOENT)
			return -1;
	}
	return 0;
}

static int unlink_quarter(const char *jobdir, long from, long to)
{
	char path[4096];
	long i;

	for (i = from; i < to; i += 4) {
		if (job_file(path, sizeof(path), jobdir, i) || unlink(path))
			return -1;
	}
	return 0;
}

/* Touch @bytes of anonymous memory: over memory.max, the OOM killer */
static int touch_anon(long bytes)
{
	/* volatile: the stores must not be optimised away with the buffer */
	volatile char *p = malloc(bytes);
	long i;

	if (!p)
		return -1;
	for (i = 0; i < bytes; i += 4096)
		p[i] = 1;
	free((void *)p);
	return 0;
}

/*
 * The job, in its cgroup. Exits 0, 1 when an allocation failed (ENOMEM),
 * or 3 on any other error. A race job moves itself to PARENT/hold after
 * half its files and writes a byte to @sync, then goes on.
 */
static int run_job(const char *jobdir, enum kind kind, int sync)
{
	char hold[4096];
	long half = files / 2;

	if (kind == FAULTY && faults &&
	    lab_write_file("/proc/self", "make-it-fail", "1"))
		return 3;
	if (mkdir(jobdir, 0755) ||
	    create_files(jobdir, 0, half, kind == TIGHT ? TIGHT_OPEN : 0))
		goto err;
	if (kind == RACE) {
		snprintf(hold, sizeof(hold), "%s/hold", parent);
		if (lab_enter_cgroup(hold) || write(sync, "x", 1) != 1)
			return 3;
	}
	if (create_files(jobdir, half, files, kind == TIGHT ? TIGHT_OPEN : 0) ||
	    unlink_quarter(jobdir, 0, files))
		goto err;
	if (kind == OOM && touch_anon(OOM_ANON))
		goto err;
	return 0;
err:
	return errno == ENOMEM ? 1 : 3;
}

static void read_events(const char *cg)
{
	long v;

	v = lab_read_key(cg, "memory.events", "max");
	add(&fig->ev_max, v > 0 ? v : 0);
	v = lab_read_key(cg, "memory.events", "oom");
	add(&fig->ev_oom, v > 0 ? v : 0);
	v = lab_read_key(cg, "memory.events", "oom_kill");
	add(&fig->ev_oom_kill, v > 0 ? v : 0);
}

/* rmdir @cg, waiting for exited tasks to leave it */
static void remove_cgroup(const char *cg)
{
	int tries;

	for (tries = 0; tries < 2000; tries++) {
		if (!rmdir(cg)) {
			add(&fig->removed, 1);
			return;
		}
		if (errno != EBUSY)
			break;
		usleep(1000);
	}
	error("rmdir", cg);
}

/*
 * Before a tight job enters its cgroup: the OOM killer must pass it by,
 * and the stack it will use is touched now, so that no page fault of its
 * own is charged there (a user fault whose charge fails is retried
 * forever when nothing can be killed).
 */
static int unkillable(void)
{
	volatile char stack[256 << 10];
	size_t i;

	for (i = 0; i < sizeof(stack); i += 4096)
		stack[i] = 0;
	return lab_write_file("/proc/self", "oom_score_adj", "-1000");
}

/* One cycle of worker @w: a job of @kind in a new cgroup, then removal */
static void run_cycle(int w, long cycle, enum kind kind)
{
	char cg[4096], jobdir[4096], done[4096];
	bool removed = false;
	int sync[2], status;
	pid_t pid;
	char c;

	snprintf(cg, sizeof(cg), "%s/w%d-%ld", parent, w, cycle);
	snprintf(jobdir, sizeof(jobdir), "%s/w%d-%ld", dir, w, cycle);
	if (mkdir(cg, 0755)) {
		error("mkdir", cg);
		return;
	}
	add(&fig->created, 1);
	if ((kind == TIGHT && lab_write_file(cg, "memory.max", TIGHT_MAX)) ||
	    (kind == OOM && lab_write_file(cg, "memory.max", OOM_MAX)))
		error("memory.max of", cg);
	/* The guest has swap: without this the OOM job would swap, not die */
	if (kind == OOM && lab_write_file(cg, "memory.swap.max", "0"))
		error("memory.swap.max of", cg);
	if (pipe(sync)) {
		error("pipe for", cg);
		remove_cgroup(cg);
		return;
	}
	pid = fork();
	if (pid == 0) {
		close(sync[0]);
		alarm(JOB_SECONDS);
		if ((kind == TIGHT && unkillable()) || lab_enter_cgroup(cg))
			_exit(3);
		_exit(run_job(jobdir, kind, sync[1]));
	}
	close(sync[1]);
	if (pid < 0) {
		error("fork for", cg);
	} else {
		/* A race job left: remove its cgroup while it still runs */
		if (kind == RACE && read(sync[0], &c, 1) == 1) {
			read_events(cg);
			remove_cgroup(cg);
			removed = true;
		}
		if (waitpid(pid, &status, 0) != pid)
			error("waitpid for", cg);
		else if (WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM)
			add(&fig->timed_out, 1);
		else if (WIFSIGNALED(status))
			add(&fig->killed, 1);
		else if (WEXITSTATUS(status) == 0)
			add(&fig->ok, 1);
		else if (WEXITSTATUS(status) == 1)
			add(&fig->enomem, 1);
		else
			add(&fig->failed, 1);
	}
	close(sync[0]);
	if (!removed) {
		read_events(cg);
		remove_cgroup(cg);
	}
	/* The cleaner takes what the job left once its cgroup is gone */
	snprintf(done, sizeof(done), "%s/done-w%d-%ld", dir, w, cycle);
	if (rename(jobdir, done) && errno != ENOENT)
		error("rename", jobdir);
	add(&fig->cycles, 1);
	add(&fig->kind[kind], 1);
}

static void worker(int w)
{
	long cycle;

	for (cycle = 0; running(); cycle++)
		run_cycle(w, cycle, (enum kind)((cycle + w) % NR_KINDS));
}

/* Unlink every other file of @d; with @all, the rest and @d itself too */
static void clean_dir(const char *d, bool all)
{
	char path[4096];
	struct dirent *de;
	long i;
	DIR *dp;

	dp = opendir(d);
	if (!dp)
		return;
	while ((de = readdir(dp))) {
		if (de->d_name[0] != 'f' ||
		    sscanf(de->d_name, "f%ld", &i) != 1 || (!all && i % 2))
			continue;
		snprintf(path, sizeof(path), "%s/%s", d, de->d_name);
		if (!unlink(path))
			add(&fig->cleaned, 1);
	}
	closedir(dp);
	if (all && rmdir(d))
		error("rmdir", d);
}

/*
 * One pass of the cleaner over DIR: a removed job's directory first loses
 * every other file (its slab pages become partial: the donation pool), is
 * renamed "half-", and is removed whole on the next pass.
 */
static void clean_pass(bool all)
{
	char path[4096], half[4096];
	struct dirent *de;
	DIR *dp;

	dp = opendir(dir);
	if (!dp) {
		error("opendir", dir);
		return;
	}
	while ((de = readdir(dp))) {
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		if (!strncmp(de->d_name, "half-", 5)) {
			clean_dir(path, true);
		} else if (!strncmp(de->d_name, "done-", 5)) {
			clean_dir(path, all);
			snprintf(half, sizeof(half), "%s/half-%s", dir,
				 de->d_name + 5);
			if (!all && rename(path, half))
				error("rename", path);
		} else if (all && de->d_name[0] == 'w') {
			clean_dir(path, true);
		}
	}
	closedir(dp);
}

static void cleaner(void)
{
	while (running()) {
		clean_pass(false);
		usleep(200 * 1000);
	}
}

/* Write @val to /proc/sys/vm/@name if the kernel has it */
static void toggle(const char *name, long val)
{
	char v[16];
	int ret;

	snprintf(v, sizeof(v), "%ld", val);
	ret = lab_write_file("/proc/sys/vm", name, v);
	errno = -ret;
	if (!ret)
		add(&fig->toggles, 1);
	else if (ret != -ENOENT)
		error("writing", name);
}

/* Every 300 ms a new value for each switch; every 2 s proactive reclaim */
static void toggler(void)
{
	long i;
	int ret;

	for (i = 0; running(); i++) {
		toggle("shrink_slab_min_pressure", random() % 3);
		toggle("memcg_reparent_pages", random() % 2);
		/* EAGAIN: less than asked for could be reclaimed */
		if (i % 7 == 0) {
			ret = lab_write_file(parent, "memory.reclaim", "8M");
			errno = -ret;
			if (!ret || ret == -EAGAIN)
				add(&fig->reclaims, 1);
			else
				error("memory.reclaim of", parent);
		}
		usleep(300 * 1000);
	}
}

/*
 * Every 4 s, for 1 s, every kworker is marked too and 1 in 20 calls
 * fails: child cache creation makes a dozen allocations in a kworker.
 * (With 500 ms windows a 60 s run saw as few as 4 creations fail.)
 */
static void injector(void)
{
	while (running()) {
		usleep(3000 * 1000);
		if (!running())
			break;
		fault_rate(true);
		mark_kworkers("1");
		add(&fig->windows, 1);
		usleep(1000 * 1000);
		mark_kworkers("0");
		fault_rate(false);
	}
	mark_kworkers("0");
}

static pid_t spawn(void (*fn)(void))
{
	pid_t pid = fork();

	if (pid == 0) {
		fn();
		_exit(0);
	}
	if (pid < 0)
		error("fork", "role");
	return pid;
}

static pid_t spawn_worker(int w)
{
	pid_t pid = fork();

	if (pid == 0) {
		srandom(w + 1);
		worker(w);
		_exit(0);
	}
	if (pid < 0)
		error("fork", "worker");
	return pid;
}

static void usage(void)
{
	fprintf(stderr,
		"usage: stress -c PARENT_CGROUP -d DIR [-t seconds] [-w workers]\n"
		"              [-f files/job]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	long workers = 4, i, nroles = 0;
	pid_t roles[64];
	char hold[4096];
	double t0;
	int opt;

	while ((opt = getopt(argc, argv, "c:d:t:w:f:")) != -1) {
		switch (opt) {
		case 'c': parent = optarg; break;
		case 'd': dir = optarg; break;
		case 't': duration = lab_parse_count("stress", "-t", optarg); break;
		case 'w': workers = lab_parse_count("stress", "-w", optarg); break;
		case 'f': files = lab_parse_count("stress", "-f", optarg); break;
		default: usage();
		}
	}
	if (!parent || !dir || optind != argc)
		usage();
	if (duration < 1 || workers < 1 || workers > 60 || files < 2) {
		fprintf(stderr, "stress: need -t >= 1, 1 <= -w <= 60, -f >= 2\n");
		return 2;
	}
	fig = mmap(NULL, sizeof(*fig), PROT_READ | PROT_WRITE,
		   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (fig == MAP_FAILED)
		return 1;
	snprintf(hold, sizeof(hold), "%s/hold", parent);
	if (mkdir(hold, 0755)) {
		fprintf(stderr, "stress: mkdir %s: %s\n", hold, strerror(errno));
		return 1;
	}
	fig->created = 1;
	faults = !access("/sys/kernel/debug/failslab", F_OK);
	if (faults && faults_setup()) {
		fprintf(stderr, "stress: cannot set up fault injection\n");
		return 1;
	}
	signal(SIGTERM, on_signal);
	signal(SIGINT, on_signal);
	t0 = lab_now();
	deadline = t0 + duration;

	for (i = 0; i < workers; i++)
		roles[nroles++] = spawn_worker(i);
	roles[nroles++] = spawn(cleaner);
	roles[nroles++] = spawn(toggler);
	if (faults)
		roles[nroles++] = spawn(injector);
	for (i = 0; i < nroles; i++)
		if (roles[i] > 0)
			waitpid(roles[i], NULL, 0);

	/* Nothing injected from here on; everything the jobs left goes */
	if (faults)
		faults_off();
	mark_kworkers("0");
	clean_pass(true);
	clean_pass(true);
	remove_cgroup(hold);

	printf("seconds=%.1f\n", lab_now() - t0);
	printf("cycles=%ld\n", fig->cycles);
	for (i = 0; i < NR_KINDS; i++)
		printf("cycles_%s=%ld\n", kind_names[i], fig->kind[i]);
	printf("cgroups_created=%ld\n", fig->created);
	printf("cgroups_removed=%ld\n", fig->removed);
	printf("jobs_ok=%ld\njobs_enomem=%ld\njobs_failed=%ld\n",
	       fig->ok, fig->enomem, fig->failed);
	printf("jobs_killed=%ld\njobs_timed_out=%ld\n",
	       fig->killed, fig->timed_out);
	printf("events_max=%ld\nevents_oom=%ld\nevents_oom_kill=%ld\n",
	       fig->ev_max, fig->ev_oom, fig->ev_oom_kill);
	printf("toggles=%ld\nreclaims=%ld\n", fig->toggles,
	       fig->reclaims);
	printf("kworker_windows=%ld\ncleaned_files=%ld\n",
	       fig->windows, fig->cleaned);
	printf("faults_failslab=%ld\n",
	       faults ? faults_injected("failslab") : 0);
	printf("faults_fail_page_alloc=%ld\n",
	       faults ? faults_injected("fail_page_alloc") : 0);
	printf("errors=%ld\n", fig->errors);
	return 0;
}
