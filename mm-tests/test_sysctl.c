// SPDX-License-Identifier: GPL-2.0
/*
 * test_sysctl: a switch of the series takes exactly the values it
 * documents, and anything else fails with EINVAL and changes nothing.
 *
 * Usage: test_sysctl NAME MAX    e.g. test_sysctl vm/shrink_slab_min_pressure 2
 * The sysctl is /proc/sys/NAME and takes the integers 0..MAX.
 * Prints TAP lines; exits 0 only if every test passed.
 */
#include "lab_util.h"
#include "lab_test.h"

static char path[4096];
static long max_value;

static int read_value(long *val)
{
	char buf[64];
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	return sscanf(buf, "%ld", val) == 1 ? 0 : -1;
}

/* Write @s in one write(); return 0 or the errno of the failure. */
static int write_value(const char *s)
{
	ssize_t len = strlen(s), n;
	int fd, err = 0;

	fd = open(path, O_WRONLY);
	if (fd < 0)
		return errno;
	n = write(fd, s, len);
	if (n < 0)
		err = errno;
	else if (n != len)
		err = EIO;
	close(fd);
	return err;
}

/* Every value 0..MAX can be written and reads back as written. */
static int test_valid_values(void)
{
	int ret = KSFT_FAIL;
	char buf[32];
	long v, got;

	for (v = max_value; v >= 0; v--) {
		snprintf(buf, sizeof(buf), "%ld\n", v);
		if (write_value(buf) || read_value(&got) || got != v) {
			ksft_print_msg("writing %ld failed or read back wrong\n", v);
			goto cleanup;
		}
	}
	ret = KSFT_PASS;
cleanup:
	return ret;
}

/*
 * Out-of-range, negative, non-numeric, empty-line, huge and multi-number
 * writes (a zero-length write is no write at all: the kernel never sees it)
 * fail with EINVAL and leave the value as it was.
 */
static int test_invalid_values(void)
{
	const char *bad[] = {
		"-1", "abc", "\n", "99999999999999999999", "1 2", " 1",
		"1x", "0x1", NULL,
	};
	char over[32];
	long before, after;
	int ret = KSFT_FAIL, i, err;

	snprintf(over, sizeof(over), "%ld", max_value + 1);
	if (write_value("1\n") || read_value(&before))
		goto cleanup;
	for (i = -1; i < 0 || bad[i]; i++) {
		const char *s = i < 0 ? over : bad[i];

		err = write_value(s);
		if (read_value(&after))
			goto cleanup;
		if (err != EINVAL || after != before) {
			ksft_print_msg("'%s': errno %d (want %d), value %ld -> %ld\n",
				s, err, EINVAL, before, after);
			goto cleanup;
		}
	}
	ret = KSFT_PASS;
cleanup:
	write_value("0\n");
	return ret;
}

static const struct lab_test tests[] = {
	LAB_TEST(test_valid_values),
	LAB_TEST(test_invalid_values),
};

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: test_sysctl NAME MAX\n");
		return 2;
	}
	snprintf(path, sizeof(path), "/proc/sys/%s", argv[1]);
	max_value = lab_parse_count("test_sysctl", "MAX", argv[2]);
	lab_tests_begin();
	ksft_print_msg("%s, 0..%ld\n", path, max_value);
	/* A missing sysctl fails every test (stock is the control). */
	if (access(path, R_OK | W_OK))
		ksft_print_msg("%s: %s\n", path, strerror(errno));
	lab_run_tests(tests, LAB_NR_TESTS(tests), 0, NULL);
}
