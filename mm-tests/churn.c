// SPDX-License-Identifier: GPL-2.0
/*
 * churn: dentry- and inode-heavy jobs, each in its own child cgroup of a
 * parent, removed when the job ends. What the removed cgroups leave behind
 * (dentries, inodes, page cache) is what the lab measures.
 *
 * Each job: creates D directories in DIR/jobN, F files spread over them
 * with B bytes each, looks up M names that do not exist (negative
 * dentries), unlinks U percent of its files (spread evenly over them),
 * exits; then its cgroup is removed. Up to P jobs run at once.
 *
 * Prints "name value" lines: churn_jobs, churn_ops (files created, lookups
 * and unlinks), churn_seconds, churn_ops_per_s, churn_rmdir_retries.
 *
 * -o N numbers the jobs from N, so that a later batch does not reuse the
 * names of an earlier one. -x is the cleaner: no jobs run, the caller
 * unlinks U percent of the files jobs -o.. left (spread as above, files
 * already gone are skipped) in its own cgroup, and prints clean_files and
 * clean_seconds.
 */
#include <signal.h>
#include <stdbool.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include "lab_util.h"

struct churn_args {
	const char *parent;
	const char *dir;
	long jobs, parallel, files, bytes, missing, dirs, unlink_pct, first;
};

static void usage(void)
{
	fprintf(stderr,
		"usage: churn -c PARENT_CGROUP -d DIR [-j jobs] [-p parallel]\n"
		"             [-f files/job] [-b bytes/file] [-m missing lookups/job]\n"
		"             [-D dirs/job] [-u percent unlinked] [-o first job]\n"
		"       churn -x -d DIR [-j jobs] [-f files/job] [-D dirs/job]\n"
		"             [-u percent unlinked] [-o first job]\n");
	exit(2);
}

/* Path of file @i of job @id: spread over the job's directories, if any. */
static int file_path(char *path, size_t size, const struct churn_args *a,
		     long id, long i)
{
	int n;

	if (a->dirs)
		n = snprintf(path, size, "%s/job%ld/d%ld/f%ld", a->dir, id,
			     i % a->dirs, i);
	else
		n = snprintf(path, size, "%s/job%ld/f%ld", a->dir, id, i);
	return n < (int)size ? 0 : -1;
}

/*
 * Unlink @pct percent of job @id's @files files, spread evenly over them,
 * so that they empty slots all over the job's slab pages instead of whole
 * pages at one end. With @gone_ok a file already unlinked is skipped.
 * Returns the number unlinked, or -1.
 */
static long unlink_files(const struct churn_args *a, long id, long files,
			 bool gone_ok)
{
	char path[4096];
	long i, n = 0;

	for (i = 0; i < files; i++) {
		if ((i + 1) * a->unlink_pct / 100 == i * a->unlink_pct / 100)
			continue;
		if (file_path(path, sizeof(path), a, id, i))
			return -1;
		if (unlink(path)) {
			if (gone_ok && errno == ENOENT)
				continue;
			return -1;
		}
		n++;
	}
	return n;
}

/* The cleaner (-x): unlink what the jobs left, in the caller's cgroup. */
static int clean(const struct churn_args *a)
{
	long id, n, total = 0;
	double t0 = lab_now();
	char path[4096];
	struct stat st;

	for (id = a->first; id < a->first + a->jobs; id++) {
		/* A job that never ran is an error, not 0 files */
		snprintf(path, sizeof(path), "%s/job%ld", a->dir, id);
		if (stat(path, &st)) {
			fprintf(stderr, "churn: %s: %s\n", path, strerror(errno));
			return 1;
		}
		n = unlink_files(a, id, a->files, true);
		if (n < 0) {
			fprintf(stderr, "churn: cleaning job%ld: %s\n", id,
				strerror(errno));
			return 1;
		}
		total += n;
	}
	printf("clean_files %ld\n", total);
	printf("clean_seconds %.3f\n", lab_now() - t0);
	return 0;
}

/* The body of one job, run in a child process inside its cgroup. */
static int run_job(const struct churn_args *a, long id)
{
	char path[4096], *buf;
	long i, created = 0;
	struct stat st;
	int fd;

	buf = malloc(a->bytes + 1);
	if (!buf)
		return 1;
	memset(buf, 'x', a->bytes);
	snprintf(path, sizeof(path), "%s/job%ld", a->dir, id);
	if (mkdir(path, 0755) && errno != EEXIST)
		return 1;
	for (i = 0; i < a->dirs; i++) {
		snprintf(path, sizeof(path), "%s/job%ld/d%ld", a->dir, id, i);
		if (mkdir(path, 0755) && errno != EEXIST)
			return 1;
	}
	for (i = 0; i < a->files; i++) {
		if (file_path(path, sizeof(path), a, id, i))
			return 1;
		fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (fd < 0)
			return 1;
		if (a->bytes && write(fd, buf, a->bytes) != a->bytes) {
			close(fd);
			return 1;
		}
		close(fd);
		created++;
	}
	for (i = 0; i < a->missing; i++) {
		snprintf(path, sizeof(path), "%s/job%ld/missing-%ld", a->dir,
			 id, i);
		if (!stat(path, &st))
			return 1;
	}
	free(buf);
	return unlink_files(a, id, created, false) < 0;
}

static pid_t start_job(const struct churn_args *a, long id)
{
	char cg[4096];
	pid_t pid;

	snprintf(cg, sizeof(cg), "%s/job%ld", a->parent, id);
	if (mkdir(cg, 0755)) {
		fprintf(stderr, "churn: mkdir %s: %s\n", cg, strerror(errno));
		return -1;
	}
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		if (lab_enter_cgroup(cg)) {
			fprintf(stderr, "churn: cannot enter %s\n", cg);
			_exit(1);
		}
		_exit(run_job(a, id));
	}
	return pid;
}

/* Remove job @id's cgroup; a just-exited task can keep it busy briefly. */
static int remove_job_cgroup(const struct churn_args *a, long id,
			     long *retries)
{
	char cg[4096];
	int tries;

	snprintf(cg, sizeof(cg), "%s/job%ld", a->parent, id);
	for (tries = 0; tries < 1000; tries++) {
		if (!rmdir(cg))
			return 0;
		if (errno != EBUSY)
			break;
		(*retries)++;
		usleep(1000);
	}
	fprintf(stderr, "churn: rmdir %s: %s\n", cg, strerror(errno));
	return -1;
}

int main(int argc, char **argv)
{
	struct churn_args a = {
		.jobs = 50, .parallel = 1, .files = 200, .bytes = 8,
		.missing = 200, .dirs = 0, .unlink_pct = 0,
	};
	long started = 0, done = 0, retries = 0, *ids;
	pid_t *pids;
	double t0, secs;
	int opt, status, failed = 0;
	bool cleaner = false;
	long i, ops;

	while ((opt = getopt(argc, argv, "c:d:j:p:f:b:m:D:u:o:x")) != -1) {
		switch (opt) {
		case 'c': a.parent = optarg; break;
		case 'd': a.dir = optarg; break;
		case 'j': a.jobs = lab_parse_count("churn", "-j", optarg); break;
		case 'p': a.parallel = lab_parse_count("churn", "-p", optarg); break;
		case 'f': a.files = lab_parse_count("churn", "-f", optarg); break;
		case 'b': a.bytes = lab_parse_count("churn", "-b", optarg); break;
		case 'm': a.missing = lab_parse_count("churn", "-m", optarg); break;
		case 'D': a.dirs = lab_parse_count("churn", "-D", optarg); break;
		case 'u': a.unlink_pct = lab_parse_count("churn", "-u", optarg); break;
		case 'o': a.first = lab_parse_count("churn", "-o", optarg); break;
		case 'x': cleaner = true; break;
		default: usage();
		}
	}
	if (!a.dir || optind != argc || (!a.parent && !cleaner))
		usage();
	if (a.parallel < 1 || a.unlink_pct > 100 || a.bytes > (1L << 30)) {
		fprintf(stderr, "churn: need -p >= 1, -u <= 100, -b <= 1 GiB\n");
		return 2;
	}
	if (cleaner)
		return clean(&a);

	pids = calloc(a.parallel, sizeof(*pids));
	ids = calloc(a.parallel, sizeof(*ids));
	if (!pids || !ids)
		return 1;
	t0 = lab_now();
	while (done < a.jobs) {
		for (i = 0; i < a.parallel && started < a.jobs; i++) {
			if (pids[i])
				continue;
			pids[i] = start_job(&a, a.first + started);
			if (pids[i] < 0)
				return 1;
			ids[i] = a.first + started++;
		}
		pid_t pid = wait(&status);

		if (pid < 0)
			return 1;
		for (i = 0; i < a.parallel; i++) {
			if (pids[i] != pid)
				continue;
			if (!WIFEXITED(status) || WEXITSTATUS(status)) {
				fprintf(stderr, "churn: job %ld failed\n", ids[i]);
				failed = 1;
			}
			if (remove_job_cgroup(&a, ids[i], &retries))
				failed = 1;
			pids[i] = 0;
			done++;
		}
	}
	secs = lab_now() - t0;
	ops = a.jobs * (a.files + a.missing + a.files * a.unlink_pct / 100);
	printf("churn_jobs %ld\n", a.jobs);
	printf("churn_ops %ld\n", ops);
	printf("churn_seconds %.3f\n", secs);
	printf("churn_ops_per_s %.1f\n", secs > 0 ? ops / secs : 0.0);
	printf("churn_rmdir_retries %ld\n", retries);
	free(pids);
	free(ids);
	return failed;
}
