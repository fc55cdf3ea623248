// SPDX-License-Identifier: GPL-2.0
/*
 * test_ksft_plan.c - which tests `check --kselftest DIR...` runs
 * (check_ksft_plan.c): a collection's executable files by name, an
 * installed tree's kselftest-list.txt in order, each with its settings
 * timeout (45 s without one, --timeout over all), and every malformed
 * directory, list or settings file a usage error naming it.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>
#include "check_kselftest.h"
#include "common.h"
#include "fixture_files.h"

/* dir/name with mode */
static void make_file(const char *dir, const char *name, mode_t mode)
{
	char path[512];

	put_in(dir, name, "#!/bin/sh\n");
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	assert_int_equal(chmod(path, mode), 0);
}

static void make_dir(char *out, size_t len, const char *parent, const char *name)
{
	snprintf(out, len, "%s/%s", parent, name);
	assert_int_equal(mkdir(out, 0755), 0);
}

static int plan_of(struct ksft_plan *p, char *msg, double timeout, ...)
{
	struct uct_opts o = { .timeout = timeout };
	char *dirs[8];
	size_t n = 0;
	va_list ap;

	va_start(ap, timeout);
	while (n < 7 && (dirs[n] = va_arg(ap, char *)))
		n++;
	va_end(ap);
	dirs[n] = NULL;
	o.cmd_argv = dirs;
	msg[0] = 0;
	return check_kselftest_plan(&o, p, msg, 512);
}

static void rm_rf(const char *dir)
{
	char cmd[600];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
}

/* A collection: its executables by name; not a plain file, a directory, a
 * dot file or settings itself */
static void test_collection(void **state)
{
	char top[] = "/tmp/test_ksft_plan.XXXXXX", coll[256], sub[300], msg[512];
	struct ksft_plan p;

	assert_non_null(mkdtemp(top));
	make_dir(coll, sizeof(coll), top, "pidfd");
	make_file(coll, "pidfd_wait", 0755);
	make_file(coll, "pidfd_open_test", 0700);
	make_file(coll, "pidfd.h", 0644);
	make_file(coll, ".hidden", 0755);
	make_dir(sub, sizeof(sub), coll, "subdir");
	put_in(coll, "settings", "# comment\ntimeout=120\n");

	assert_int_equal(plan_of(&p, msg, 0, coll, NULL), 0);
	assert_int_equal(p.n, 2);
	assert_string_equal(p.t[0].name, "pidfd_open_test");
	assert_string_equal(p.t[1].name, "pidfd_wait");
	assert_string_equal(p.t[0].collection, "pidfd");
	assert_string_equal(p.t[0].dir, coll);
	snprintf(sub, sizeof(sub), "%s/pidfd_wait", coll);
	assert_string_equal(p.t[1].path, sub);
	assert_true(p.t[0].timeout == 120 && p.t[1].timeout == 120);
	check_kselftest_plan_free(&p);

	/* --timeout over the settings file */
	assert_int_equal(plan_of(&p, msg, 7.5, coll, NULL), 0);
	assert_true(p.t[0].timeout == 7.5);
	check_kselftest_plan_free(&p);
	rm_rf(top);
}

/* No settings: kselftest's 45 s; timeout=0: none; two directories, in
 * the order given */
static void test_timeouts(void **state)
{
	char top[] = "/tmp/test_ksft_plan.XXXXXX", a[256], b[256], msg[512];
	struct ksft_plan p;

	assert_non_null(mkdtemp(top));
	make_dir(a, sizeof(a), top, "rlimits");
	make_file(a, "rlimits-per-userns", 0755);
	make_dir(b, sizeof(b), top, "mqueue");
	make_file(b, "mq_open_tests", 0755);
	put_in(b, "settings", "timeout=0\n");

	assert_int_equal(plan_of(&p, msg, 0, b, a, NULL), 0);
	assert_int_equal(p.n, 2);
	assert_string_equal(p.t[0].collection, "mqueue");
	assert_true(p.t[0].timeout == 0);
	assert_string_equal(p.t[1].collection, "rlimits");
	assert_true(p.t[1].timeout == KSFT_DEFAULT_TIMEOUT);
	check_kselftest_plan_free(&p);
	rm_rf(top);
}

/* An installed tree: the list's order and collections, each collection's
 * settings; a list wins over the executables beside it */
static void test_installed(void **state)
{
	char top[] = "/tmp/test_ksft_plan.XXXXXX", c1[256], c2[256], msg[512];
	struct ksft_plan p;

	assert_non_null(mkdtemp(top));
	make_dir(c1, sizeof(c1), top, "ptrace");
	make_file(c1, "peeksiginfo", 0755);
	put_in(c1, "settings", "timeout=10\n");
	make_dir(c2, sizeof(c2), top, "mqueue");
	make_file(c2, "mq_open_tests", 0755);
	make_file(top, "run_kselftest.sh", 0755);
	put_in(top, "kselftest-list.txt", "mqueue:mq_open_tests\n\nptrace:peeksiginfo\n");

	assert_int_equal(plan_of(&p, msg, 0, top, NULL), 0);
	assert_int_equal(p.n, 2);
	assert_string_equal(p.t[0].collection, "mqueue");
	assert_string_equal(p.t[0].name, "mq_open_tests");
	assert_string_equal(p.t[0].dir, c2);
	assert_true(p.t[0].timeout == KSFT_DEFAULT_TIMEOUT);
	assert_string_equal(p.t[1].collection, "ptrace");
	assert_true(p.t[1].timeout == 10);
	check_kselftest_plan_free(&p);
	rm_rf(top);
}

/* Each mistake: a usage error whose message names what is wrong */
static void test_errors(void **state)
{
	char top[] = "/tmp/test_ksft_plan.XXXXXX", c[256], empty[256], file[300], msg[512];
	static const struct {
		const char *list, *want;
	} lists[] = {
		{ "mqueue\n", "line 1 is not COLLECTION:TEST: 'mqueue'" },
		{ "mqueue:t\n:t\n", "line 2 is not COLLECTION:TEST" },
		{ "mqueue:\n", "line 1 is not COLLECTION:TEST" },
		{ "mqueue:../t\n", "line 1 is not COLLECTION:TEST" },
		{ "nosuch:t\n", "line 1: " },
		{ "\n", "names no test" },
	};
	struct ksft_plan p;
	size_t i;

	assert_non_null(mkdtemp(top));
	make_dir(empty, sizeof(empty), top, "empty");
	assert_int_equal(plan_of(&p, msg, 0, empty, NULL), UCT_EXIT_USAGE);
	assert_non_null(strstr(msg, "no executable file in it"));
	assert_int_equal(p.n, 0);

	snprintf(file, sizeof(file), "%s/nosuch", top);
	assert_int_equal(plan_of(&p, msg, 0, file, NULL), UCT_EXIT_USAGE);
	assert_non_null(strstr(msg, "nosuch: No such file or directory"));
	make_file(empty, "plain", 0644);
	snprintf(file, sizeof(file), "%s/plain", empty);
	assert_int_equal(plan_of(&p, msg, 0, file, NULL), UCT_EXIT_USAGE);
	assert_non_null(strstr(msg, "plain: not a directory"));

	make_dir(c, sizeof(c), top, "mqueue");
	make_file(c, "t", 0755);
	put_in(c, "settings", "timeout=abc\n");
	assert_int_equal(plan_of(&p, msg, 0, c, NULL), UCT_EXIT_USAGE);
	assert_non_null(strstr(msg, "settings: timeout=abc is not whole seconds"));
	put_in(c, "settings", "timeout=-1\n");
	assert_int_equal(plan_of(&p, msg, 0, c, NULL), UCT_EXIT_USAGE);
	put_in(c, "settings", "timeout=45\n");

	for (i = 0; i < sizeof(lists) / sizeof(lists[0]); i++) {
		put_in(top, "kselftest-list.txt", lists[i].list);
		if (plan_of(&p, msg, 0, top, NULL) != UCT_EXIT_USAGE || !strstr(msg, lists[i].want))
			fail_msg("list '%s': want a usage error with '%s', got '%s'", lists[i].list,
				 lists[i].want, msg);
		assert_int_equal(p.n, 0);
	}
	/* one good directory, then a bad one: nothing is kept */
	assert_int_equal(plan_of(&p, msg, 0, c, empty, NULL), UCT_EXIT_USAGE);
	assert_int_equal(p.n, 0);
	assert_null(p.t);
	rm_rf(top);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_collection),
		cmocka_unit_test(test_timeouts),
		cmocka_unit_test(test_installed),
		cmocka_unit_test(test_errors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
