// SPDX-License-Identifier: GPL-2.0
/*
 * test_helper.c - a helper process asked with a deadline (helper.c): it
 * answers; one that does not answer by the deadline is abandoned, killed,
 * reaped once it ends, and the next request gets a new helper; one that
 * dies is replaced; a helper holds no descriptor of the caller's. And
 * the same made by a spawner (spawner.c): its helpers answer, are
 * killed at their deadline by it and seen to end through their pidfds;
 * it kills no process but its helpers, answers calls with a descriptor
 * passed, holds only its socket and the descriptors kept, and runs
 * at_exit when the caller closes it.
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
#include <sys/wait.h>
#include "helper.h"
#include "spawner.h"

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
	} else if (!strcmp(cmd, "ppid")) {
		n = (size_t)snprintf(reply, max, "%d", (int)getppid());
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

/* ---- made by a spawner --------------------------------------------------- */

static char exit_mark[64];

/* The spawner's call: "cat" answers the descriptor's bytes, "fds" its
 * open descriptors' numbers */
static size_t call(void *arg, const void *req, size_t len, int fd, void *reply, size_t max)
{
	size_t n = 0;

	if (len == 3 && !memcmp(req, "cat", 3) && fd >= 0) {
		ssize_t r;

		lseek(fd, 0, SEEK_SET);
		while (n < max && (r = read(fd, (char *)reply + n, max - n)) > 0)
			n += (size_t)r;
	} else if (len == 3 && !memcmp(req, "fds", 3)) {
		DIR *d = opendir("/proc/self/fd");
		struct dirent *e;

		while (d && (e = readdir(d)))
			if (e->d_name[0] != '.')
				n += (size_t)snprintf((char *)reply + n, max - n, "%s ", e->d_name);
		if (d)
			closedir(d);
	}
	if (fd >= 0)
		close(fd);
	return n;
}

static void at_exit(void *arg)
{
	int fd = open(exit_mark, O_WRONLY | O_CREAT | O_EXCL, 0600);

	if (fd >= 0)
		close(fd);
}

static const struct uct_spawner_service svc = {
	.name = "test-spawner", .helper_name = "test-helper",
	.serve = serve, .req_max = 64, .reply_max = 1023,
	.call = call, .call_max = 16, .call_reply_max = 1023, .at_exit = at_exit,
};

static void spawned(struct uct_helper *h, struct uct_spawner *s)
{
	assert_int_equal(uct_spawner_start(s, &svc, NULL, 0), 0);
	uct_helper_init(h, serve, NULL, 64, 1023);
	uct_helper_use_spawner(h, uct_spawner_spawn, uct_spawner_kill, s);
}

static void test_spawned_answers(void **state)
{
	struct uct_spawner s;
	struct uct_helper h;
	char out[1024];
	size_t n;

	spawned(&h, &s);
	assert_int_equal(ask(&h, "echo one", out, &n, 30), 0);
	assert_string_equal(out, "one");
	/* the spawner's child, not ours */
	assert_int_equal(ask(&h, "ppid", out, &n, 30), 0);
	assert_int_equal(atoi(out), s.pid);
	assert_true(h.pidfd >= 0);
	uct_helper_close(&h);
	assert_int_equal(stuck_after_wait(&h), 0);
	uct_spawner_stop(&s, 30);
	assert_int_equal(s.pid, 0);	/* ended and reaped */
}

static void test_spawned_deadline(void **state)
{
	struct uct_spawner s;
	struct uct_helper h;
	char out[1024];
	size_t n;

	spawned(&h, &s);
	assert_int_equal(ask(&h, "hang", out, &n, 0.2), -ETIMEDOUT);
	assert_int_equal(h.abandoned, 1);
	/* killed by the spawner, its end seen through the pidfd */
	assert_int_equal(stuck_after_wait(&h), 0);
	assert_int_equal(ask(&h, "echo again", out, &n, 30), 0);
	assert_string_equal(out, "again");
	assert_int_equal(h.started, 2);
	uct_helper_close(&h);
	uct_spawner_stop(&s, 30);
}

/* Asked to kill a process that is not its helper, the spawner does not */
static void test_spawner_kills_only_helpers(void **state)
{
	struct uct_spawner s;
	struct uct_helper h;
	char out[1024];
	size_t n;
	pid_t other = fork();

	if (!other) {
		pause();
		_exit(0);
	}
	spawned(&h, &s);
	uct_spawner_kill(&s, other);
	/* a round trip: the kill request was handled before it */
	assert_int_equal(ask(&h, "echo x", out, &n, 30), 0);
	assert_int_equal(waitpid(other, NULL, WNOHANG), 0);
	kill(other, SIGKILL);
	waitpid(other, NULL, 0);
	uct_helper_close(&h);
	uct_spawner_stop(&s, 30);
}

static void test_spawner_call(void **state)
{
	struct uct_spawner s;
	char out[1024];
	size_t n;
	int fd = open("/dev/zero", O_RDONLY), keep;
	FILE *f = tmpfile();

	assert_true(fd > 2);
	keep = fd;
	assert_non_null(f);
	fputs("a document", f);
	fflush(f);
	assert_int_equal(uct_spawner_start(&s, &svc, &keep, 1), 0);
	assert_int_equal(uct_spawner_call(&s, "cat", 3, fileno(f), out, &n, 30), 0);
	out[n] = 0;
	assert_string_equal(out, "a document");
	/* 0-2, its socket, the kept one and opendir()'s: nothing of ours else */
	assert_int_equal(uct_spawner_call(&s, "fds", 3, -1, out, &n, 30), 0);
	out[n] = 0;
	{
		int count = 0, seen_keep = 0;
		char *tok = strtok(out, " ");

		for (; tok; tok = strtok(NULL, " ")) {
			count++;
			seen_keep += atoi(tok) == keep;
		}
		assert_int_equal(count, 6);
		assert_int_equal(seen_keep, 1);
	}
	fclose(f);
	close(fd);
	uct_spawner_stop(&s, 30);
}

/* A call longer than the service takes is not read: the spawner ends
 * (at_exit run), and the caller sees it gone */
static void test_spawner_call_too_long(void **state)
{
	struct uct_spawner s;
	char out[1024], req[17];
	size_t n;
	struct stat st;

	snprintf(exit_mark, sizeof(exit_mark), "/tmp/uct-test-spawner.%d", (int)getpid());
	unlink(exit_mark);
	memset(req, 'x', sizeof(req));
	assert_int_equal(uct_spawner_start(&s, &svc, NULL, 0), 0);
	/* its end closed with our bytes unread: a reset, or the end */
	assert_true(uct_spawner_call(&s, req, svc.call_max + 1, -1, out, &n, 30) < 0);
	assert_int_equal(n, 0);
	/* and the exchange is over for good */
	assert_int_equal(uct_spawner_call(&s, "fds", 3, -1, out, &n, 30), -EPIPE);
	uct_spawner_stop(&s, 30);
	assert_int_equal(stat(exit_mark, &st), 0);
	unlink(exit_mark);
}

static void test_spawner_at_exit(void **state)
{
	struct uct_spawner s;
	struct stat st;

	snprintf(exit_mark, sizeof(exit_mark), "/tmp/uct-test-spawner.%d", (int)getpid());
	unlink(exit_mark);
	assert_int_equal(uct_spawner_start(&s, &svc, NULL, 0), 0);
	uct_spawner_stop(&s, 30);
	assert_int_equal(stat(exit_mark, &st), 0);
	unlink(exit_mark);
	/* a call to a stopped spawner fails at once */
	assert_int_equal(uct_spawner_call(&s, "fds", 3, -1, exit_mark, &(size_t){ 0 }, 30),
			 -EPIPE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_spawned_answers),
		cmocka_unit_test(test_spawned_deadline),
		cmocka_unit_test(test_spawner_kills_only_helpers),
		cmocka_unit_test(test_spawner_call),
		cmocka_unit_test(test_spawner_call_too_long),
		cmocka_unit_test(test_spawner_at_exit),
		cmocka_unit_test(test_answers),
		cmocka_unit_test(test_deadline),
		cmocka_unit_test(test_died),
		cmocka_unit_test(test_no_descriptors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
