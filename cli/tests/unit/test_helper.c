// SPDX-License-Identifier: GPL-2.0
/*
 * test_helper.c - a helper process asked with a deadline (helper.c): it
 * answers; one that does not answer by the deadline is abandoned, killed,
 * reaped once it ends, and the next request gets a new helper; one that
 * dies is replaced; a helper holds no descriptor of the caller's.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>
#include "helper.h"

/* requests: "echo TEXT", "hang", "die", "fds" (the helper's open
 * descriptors and where 0-2 lead) */
static size_t serve(void *arg, const void *req, size_t len, void *reply, size_t max)
{
	char cmd[64] = "";
	size_t n = 0;

	memcpy(cmd, req, len < sizeof(cmd) - 1 ? len : sizeof(cmd) - 1);
	if (!strncmp(cmd, "echo ", 5)) {
		n = strlen(cmd + 5);
		memcpy(reply, cmd + 5, n);
	} else if (!strcmp(cmd, "hang")) {
		for (;;)
			pause();
	} else if (!strcmp(cmd, "die")) {
		_exit(3);
	} else if (!strcmp(cmd, "fds")) {
		DIR *d = opendir("/proc/self/fd");
		struct dirent *e;
		char link[300], to[256];
		ssize_t r;

		/* the descriptor opendir() holds is one of them */
		while (d && (e = readdir(d))) {
			if (e->d_name[0] == '.')
				continue;
			snprintf(link, sizeof(link), "/proc/self/fd/%s", e->d_name);
			r = readlink(link, to, sizeof(to) - 1);
			to[r > 0 ? r : 0] = 0;
			n += (size_t)snprintf((char *)reply + n, max - n, "%s=%s\n", e->d_name,
					      atoi(e->d_name) < 3 ? to : "");
		}
		if (d)
			closedir(d);
	}
	return n;
}

static int ask(struct uct_helper *h, const char *req, char *out, size_t *n, double deadline)
{
	int err = uct_helper_call(h, req, strlen(req), out, n, deadline);

	if (!err)
		out[*n] = 0;
	return err;
}

/* Wait (bounded) for the abandoned helpers to end and be reaped */
static size_t stuck_after_wait(struct uct_helper *h)
{
	int i;

	for (i = 0; i < 500 && uct_helper_stuck(h); i++)
		usleep(10000);
	return uct_helper_stuck(h);
}

static void test_answers(void **state)
{
	struct uct_helper h;
	char out[256];
	size_t n;

	uct_helper_init(&h, serve, NULL, 64, sizeof(out) - 1);
	assert_int_equal(ask(&h, "echo one", out, &n, 30), 0);
	assert_string_equal(out, "one");
	assert_int_equal(ask(&h, "echo two", out, &n, 30), 0);
	assert_string_equal(out, "two");
	assert_int_equal(h.started, 1);		/* one helper answers both */
	assert_int_equal(uct_helper_call(&h, out, 65, out, &n, 30), -EINVAL);
	uct_helper_close(&h);
	assert_int_equal(stuck_after_wait(&h), 0);
}

static void test_deadline(void **state)
{
	struct uct_helper h;
	char out[256];
	size_t n;
	pid_t first;

	uct_helper_init(&h, serve, NULL, 64, sizeof(out) - 1);
	assert_int_equal(ask(&h, "echo up", out, &n, 30), 0);
	first = h.pid;
	assert_int_equal(ask(&h, "hang", out, &n, 0.2), -ETIMEDOUT);
	assert_int_equal(h.abandoned, 1);
	assert_int_equal(h.pid, 0);
	/* SIGKILL was sent: the abandoned helper ends and is reaped */
	assert_int_equal(stuck_after_wait(&h), 0);
	assert_int_equal(kill(first, 0), -1);
	assert_int_equal(ask(&h, "echo again", out, &n, 30), 0);
	assert_string_equal(out, "again");
	assert_int_equal(h.started, 2);
	uct_helper_close(&h);
}

static void test_died(void **state)
{
	struct uct_helper h;
	char out[256];
	size_t n;

	uct_helper_init(&h, serve, NULL, 64, sizeof(out) - 1);
	assert_int_equal(ask(&h, "die", out, &n, 30), -EPIPE);
	assert_int_equal(h.abandoned, 0);	/* not a timeout */
	assert_int_equal(ask(&h, "echo back", out, &n, 30), 0);
	assert_string_equal(out, "back");
	assert_int_equal(h.started, 2);
	uct_helper_close(&h);
	assert_int_equal(stuck_after_wait(&h), 0);
}

/* A stuck helper must not keep the caller's files (a listening port, an
 * output file): it has /dev/null on 0-2 and its socket on 3 */
static void test_no_descriptors(void **state)
{
	struct uct_helper h;
	char out[1024];
	size_t n;
	int fd = open("/dev/zero", O_RDONLY);

	assert_true(fd > 2);
	uct_helper_init(&h, serve, NULL, 64, sizeof(out) - 1);
	assert_int_equal(ask(&h, "fds", out, &n, 30), 0);
	assert_non_null(strstr(out, "0=/dev/null\n"));
	assert_non_null(strstr(out, "1=/dev/null\n"));
	assert_non_null(strstr(out, "2=/dev/null\n"));
	assert_non_null(strstr(out, "3=\n"));
	/* 0-3 and opendir()'s own: five lines */
	n = 0;
	for (char *p = out; (p = strchr(p, '\n')); p++)
		n++;
	assert_int_equal(n, 5);
	uct_helper_close(&h);
	close(fd);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_answers),
		cmocka_unit_test(test_deadline),
		cmocka_unit_test(test_died),
		cmocka_unit_test(test_no_descriptors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
