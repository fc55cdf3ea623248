// SPDX-License-Identifier: GPL-2.0
/*
 * test_outfile.c - -o FILE (outfile.c) in a directory where someone else
 * planted a symlink at FILE: the link is replaced, its target never
 * written; the file gets the mode the umask gives, as fopen() would.
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
#include "outfile.h"

static void slurp(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	size_t n;

	assert_non_null(f);
	n = fread(buf, 1, len - 1, f);
	buf[n] = 0;
	fclose(f);
}

static void test_symlink_replaced(void **state)
{
	char dir[] = "/tmp/test_outfile.XXXXXX", out[128], victim[128], buf[64];
	struct uct_outfile o;
	struct stat st;
	FILE *f;

	assert_non_null(mkdtemp(dir));
	snprintf(out, sizeof(out), "%s/report", dir);
	snprintf(victim, sizeof(victim), "%s/victim", dir);
	f = fopen(victim, "w");
	assert_non_null(f);
	fputs("untouched\n", f);
	fclose(f);
	assert_int_equal(symlink(victim, out), 0);

	assert_int_equal(uct_outfile_open(&o, out), 0);
	fputs("report\n", o.f);
	assert_int_equal(uct_outfile_commit(&o, 1), 0);

	slurp(victim, buf, sizeof(buf));
	assert_string_equal(buf, "untouched\n");
	assert_int_equal(lstat(out, &st), 0);
	assert_true(S_ISREG(st.st_mode));
	slurp(out, buf, sizeof(buf));
	assert_string_equal(buf, "report\n");
	unlink(out);
	unlink(victim);
	assert_int_equal(rmdir(dir), 0);	/* no temporary left */
}

/* the mode the umask gives, not a fixed one */
static void test_umask(void **state)
{
	char dir[] = "/tmp/test_outfile.XXXXXX", out[128];
	static const mode_t masks[] = { 022, 077, 002 };
	struct uct_outfile o;
	struct stat st;
	mode_t old;
	size_t i;

	assert_non_null(mkdtemp(dir));
	snprintf(out, sizeof(out), "%s/report", dir);
	for (i = 0; i < sizeof(masks) / sizeof(masks[0]); i++) {
		old = umask(masks[i]);
		assert_int_equal(uct_outfile_open(&o, out), 0);
		assert_int_equal(uct_outfile_commit(&o, 1), 0);
		umask(old);
		assert_int_equal(stat(out, &st), 0);
		assert_int_equal(st.st_mode & 0777, 0666 & ~masks[i]);
	}
	unlink(out);
	assert_int_equal(rmdir(dir), 0);
}

/* not committed: nothing left, FILE not created */
static void test_abandoned(void **state)
{
	char dir[] = "/tmp/test_outfile.XXXXXX", out[128];
	struct uct_outfile o;

	assert_non_null(mkdtemp(dir));
	snprintf(out, sizeof(out), "%s/report", dir);
	assert_int_equal(uct_outfile_open(&o, out), 0);
	assert_int_equal(uct_outfile_commit(&o, 0), 0);
	assert_int_equal(access(out, F_OK), -1);
	assert_int_equal(rmdir(dir), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_symlink_replaced),
		cmocka_unit_test(test_umask),
		cmocka_unit_test(test_abandoned),
	};

	return cmocka_run_group_tests_name("outfile", tests, NULL, NULL);
}
