// SPDX-License-Identifier: GPL-2.0
/*
 * test_outfile.c - -o FILE (outfile.c) in a directory where someone else
 * planted a symlink at FILE: the link is replaced, its target never
 * written; the file gets the mode the umask gives, as fopen() would. A
 * symbolic link among its directories is not followed; a directory
 * others may write without the sticky bit is refused.
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
#include <errno.h>
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
	char dir[] = "/tmp/test_outfile.XXXXXX", out[128], victim[128], buf[64], msg[256];
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

	assert_int_equal(uct_outfile_open(&o, out, msg, sizeof(msg)), 0);
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
	char dir[] = "/tmp/test_outfile.XXXXXX", out[128], msg[256];
	static const mode_t masks[] = { 022, 077, 002 };
	struct uct_outfile o;
	struct stat st;
	mode_t old;
	size_t i;

	assert_non_null(mkdtemp(dir));
	snprintf(out, sizeof(out), "%s/report", dir);
	for (i = 0; i < sizeof(masks) / sizeof(masks[0]); i++) {
		old = umask(masks[i]);
		assert_int_equal(uct_outfile_open(&o, out, msg, sizeof(msg)), 0);
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
	char dir[] = "/tmp/test_outfile.XXXXXX", out[128], msg[256];
	struct uct_outfile o;

	assert_non_null(mkdtemp(dir));
	snprintf(out, sizeof(out), "%s/report", dir);
	assert_int_equal(uct_outfile_open(&o, out, msg, sizeof(msg)), 0);
	assert_int_equal(uct_outfile_commit(&o, 0), 0);
	assert_int_equal(access(out, F_OK), -1);
	assert_int_equal(rmdir(dir), 0);
}

/* open's errno and message for path, nothing created */
static int refused(const char *path, char *msg, size_t len)
{
	struct uct_outfile o;

	msg[0] = 0;
	if (!uct_outfile_open(&o, path, msg, len)) {
		uct_outfile_commit(&o, 0);
		return 0;
	}
	return errno;
}

/* A directory on the way that is a symbolic link (a writable ancestor's
 * owner could point it anywhere) is not followed */
static void test_symlinked_directory(void **state)
{
	char dir[] = "/tmp/test_outfile.XXXXXX", real[128], link[128], out[160], msg[256];

	assert_non_null(mkdtemp(dir));
	snprintf(real, sizeof(real), "%s/real", dir);
	snprintf(link, sizeof(link), "%s/link", dir);
	assert_int_equal(mkdir(real, 0755), 0);
	assert_int_equal(symlink(real, link), 0);
	snprintf(out, sizeof(out), "%s/report", link);
	assert_int_equal(refused(out, msg, sizeof(msg)), ELOOP);
	assert_non_null(strstr(msg, "symbolic link"));
	snprintf(out, sizeof(out), "%s/report", real);
	assert_int_equal(refused(out, msg, sizeof(msg)), 0);
	assert_int_equal(rmdir(real), 0);	/* nothing written there */
	unlink(link);
	assert_int_equal(rmdir(dir), 0);
}

/* A directory others may write is refused, unless sticky (as /tmp) */
static void test_others_write(void **state)
{
	char dir[] = "/tmp/test_outfile.XXXXXX", out[128], msg[256];

	assert_non_null(mkdtemp(dir));
	snprintf(out, sizeof(out), "%s/report", dir);
	assert_int_equal(chmod(dir, 0777), 0);
	assert_int_equal(refused(out, msg, sizeof(msg)), EPERM);
	assert_non_null(strstr(msg, "others may write its directory"));
	assert_int_equal(chmod(dir, 01777), 0);
	assert_int_equal(refused(out, msg, sizeof(msg)), 0);
	/* group-writable: ours is fine, another group's is not */
	assert_int_equal(chmod(dir, 0775), 0);
	assert_int_equal(refused(out, msg, sizeof(msg)), 0);
	if (geteuid() == 0) {
		assert_int_equal(chown(dir, (uid_t)-1, getegid() + 4242), 0);
		assert_int_equal(refused(out, msg, sizeof(msg)), EPERM);
	}
	assert_int_equal(rmdir(dir), 0);
}

static void test_not_a_file(void **state)
{
	char msg[256];

	assert_int_equal(refused("/tmp/", msg, sizeof(msg)), EISDIR);
	assert_int_equal(refused("/tmp/..", msg, sizeof(msg)), EISDIR);
	assert_int_equal(refused("/no/such/dir/report", msg, sizeof(msg)), ENOENT);
	assert_non_null(strstr(msg, "its directory"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_symlink_replaced),
		cmocka_unit_test(test_umask),
		cmocka_unit_test(test_abandoned),
		cmocka_unit_test(test_symlinked_directory),
		cmocka_unit_test(test_others_write),
		cmocka_unit_test(test_not_a_file),
	};

	return cmocka_run_group_tests_name("outfile", tests, NULL, NULL);
}
