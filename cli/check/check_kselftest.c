// SPDX-License-Identifier: GPL-2.0
/* check_kselftest.c - check around every test of kselftest collections
 * (see check_kselftest.h). */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "check.h"
#include "check_kselftest.h"
#include "check_report.h"

#define FORWARD_MS	100	/* a signal to us reaches the test within this */

static volatile sig_atomic_t got_signal;

static void on_signal(int sig)
{
	got_signal = sig;
}

/* One test: check_one() in a child of its own process group (a signal
 * reaches it through us, once), its standard output through a pipe and
 * onto ours, nested. Returns the child's exit code. */
static int run_test(struct check_bpf *b, const struct uct_opts *o, const struct check_user *user,
		    const struct ksft_test *t, bool restart)
{
	bool line_start = true;
	int fds[2], status, forwarded = 0;
	char buf[4096];
	ssize_t n;
	pid_t pid;

	if (pipe2(fds, O_CLOEXEC)) {
		fprintf(stderr, "ucounttop: pipe: %s\n", strerror(errno));
		return UCT_EXIT_TOOL;
	}
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		fprintf(stderr, "ucounttop: cannot fork to run %s: %s\n", t->path, strerror(errno));
		close(fds[0]);
		close(fds[1]);
		return UCT_EXIT_TOOL;
	}
	if (pid == 0) {
		char *argv[] = { t->path, NULL };
		int rc;

		setpgid(0, 0);
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGHUP, SIG_DFL);
		if (dup2(fds[1], STDOUT_FILENO) < 0)
			_exit(UCT_EXIT_TOOL);
		/* kselftest's runner runs a test from its directory */
		if (chdir(t->dir)) {
			fprintf(stderr, "ucounttop: cd %s: %s\n", t->dir, strerror(errno));
			_exit(UCT_EXIT_CMD);
		}
		rc = check_one(b, o, user, argv, t->timeout, restart);
		fflush(NULL);
		/* not check_bpf_close(): the programs stay ours, for the next test */
		_exit(rc);
	}
	setpgid(pid, pid);
	close(fds[1]);
	for (;;) {
		struct pollfd p = { .fd = fds[0], .events = POLLIN };

		/* a signal that came just before poll() waits at most
		 * FORWARD_MS; during it, poll() ends at once (EINTR) */
		if (got_signal && forwarded != got_signal) {
			forwarded = got_signal;
			kill(pid, got_signal);
		}
		n = poll(&p, 1, FORWARD_MS);
		if (n == 0 || (n < 0 && errno == EINTR))
			continue;
		n = n < 0 ? -1 : read(fds[0], buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		check_report_nest(stdout, buf, (size_t)n, &line_start);
		fflush(stdout);
	}
	close(fds[0]);
	if (!line_start)
		putchar('\n');
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return UCT_EXIT_TOOL;
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	/* the signal we passed on, before check had started the test and
	 * taken it over: interrupted, as check reports it after */
	if (forwarded && WTERMSIG(status) == forwarded)
		return UCT_EXIT_CMD_FAILED;
	fprintf(stderr, "ucounttop: checking %s ended by signal %d\n", t->path, WTERMSIG(status));
	return UCT_EXIT_TOOL;
}

enum { T_PASS, T_FAIL, T_SKIP, T_ERROR, T_N };

int check_kselftest(struct check_bpf *b, const struct uct_opts *o, const struct check_user *user,
		    const struct ksft_plan *p)
{
	struct sigaction sa = { .sa_handler = on_signal };
	unsigned totals[T_N] = { 0 };
	bool imbalance = false;
	size_t i;

	/* no SA_RESTART: a signal ends the read, and is forwarded at once */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	printf("KTAP version 1\n1..%zu\n", p->n);
	for (i = 0; i < p->n; i++) {
		const struct ksft_test *t = &p->t[i];
		int rc;

		if (got_signal) {
			printf("not ok %zu selftests: %s: %s # ERROR not run: interrupted\n", i + 1,
			       t->collection, t->name);
			totals[T_ERROR]++;
			continue;
		}
		if (t->timeout > 0)
			printf("# timeout set to %.0f\n", t->timeout);
		printf("# selftests: %s: %s\n", t->collection, t->name);
		rc = run_test(b, o, user, t, i > 0);
		switch (rc) {
		case UCT_EXIT_OK:
			printf("ok %zu selftests: %s: %s\n", i + 1, t->collection, t->name);
			totals[T_PASS]++;
			break;
		case UCT_EXIT_SKIP:
			printf("ok %zu selftests: %s: %s # SKIP\n", i + 1, t->collection, t->name);
			totals[T_SKIP]++;
			break;
		case UCT_EXIT_TIMEOUT:
			printf("not ok %zu selftests: %s: %s # TIMEOUT", i + 1, t->collection,
			       t->name);
			if (t->timeout > 0)
				printf(" %.0f seconds", t->timeout);
			putchar('\n');
			totals[T_FAIL]++;
			break;
		case UCT_EXIT_FAIL:
			imbalance = true;
			/* fall through */
		case UCT_EXIT_CMD_FAILED:
			printf("not ok %zu selftests: %s: %s # exit=%d\n", i + 1, t->collection,
			       t->name, rc);
			totals[T_FAIL]++;
			break;
		default:	/* it could not start, or check failed */
			printf("not ok %zu selftests: %s: %s # ERROR exit=%d\n", i + 1,
			       t->collection, t->name, rc);
			totals[T_ERROR]++;
			break;
		}
		fflush(stdout);
	}
	printf("# Totals: pass:%u fail:%u xfail:0 xpass:0 skip:%u error:%u\n", totals[T_PASS],
	       totals[T_FAIL], totals[T_SKIP], totals[T_ERROR]);
	fflush(stdout);
	if (imbalance)
		return UCT_EXIT_FAIL;
	return totals[T_FAIL] || totals[T_ERROR] ? UCT_EXIT_CMD_FAILED : UCT_EXIT_OK;
}
