/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one table shape of the lab's in-guest C tests, reported through the
 * tree's tools/testing/selftests/kselftest.h (the cgroup kselftests'
 * harness): each test returns KSFT_PASS, KSFT_FAIL or KSFT_SKIP and is
 * listed with LAB_TEST(). main() calls ksft_print_header() before it
 * prints anything (ksft_print_msg() for "# " lines); lab_run_tests()
 * prints the plan and the results and exits with kselftest's status (0
 * all passed or skipped, 1 a test failed).
 */
#ifndef LAB_TEST_H
#define LAB_TEST_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "kselftest.h"

struct lab_test {
	int (*fn)(void);
	const char *name;
};

#define LAB_TEST(fn) { fn, #fn }
#define LAB_NR_TESTS(t) (sizeof(t) / sizeof((t)[0]))

/*
 * Start the KTAP output; stdout line-buffered, so that a test that forks
 * does not print its parent's pending lines twice.
 */
static inline void lab_tests_begin(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	ksft_print_header();
}

/* Is @name among the @argc names of @argv, or are there none? */
static inline int lab_test_selected(const char *name, int argc, char **argv)
{
	int i;

	for (i = 0; i < argc; i++)
		if (!strcmp(argv[i], name))
			return 1;
	return !argc;
}

/*
 * Exit with status 2 and a message if one of the @argc names of @argv
 * names none of the @n @tests.
 */
static inline void lab_check_test_names(const char *prog,
					const struct lab_test *tests, size_t n,
					int argc, char **argv)
{
	size_t i;
	int a;

	for (a = 0; a < argc; a++) {
		for (i = 0; i < n && strcmp(argv[a], tests[i].name); i++)
			;
		if (i == n) {
			fprintf(stderr, "%s: no test named %s\n", prog, argv[a]);
			exit(2);
		}
	}
}

/*
 * Run those of the @n @tests that the @argc names of @argv select (all if
 * there are none) and exit.
 */
static inline void lab_run_tests(const struct lab_test *tests, size_t n,
				 int argc, char **argv)
{
	unsigned int plan = 0;
	size_t i;

	for (i = 0; i < n; i++)
		plan += lab_test_selected(tests[i].name, argc, argv);
	ksft_set_plan(plan);
	for (i = 0; i < n; i++) {
		if (!lab_test_selected(tests[i].name, argc, argv))
			continue;
		switch (tests[i].fn()) {
		case KSFT_PASS:
			ksft_test_result_pass("%s\n", tests[i].name);
			break;
		case KSFT_SKIP:
			ksft_test_result_skip("%s\n", tests[i].name);
			break;
		default:
			ksft_test_result_fail("%s\n", tests[i].name);
			break;
		}
	}
	ksft_finished();
}

#endif
