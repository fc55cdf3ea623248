// SPDX-License-Identifier: GPL-2.0
/*
 * uct-timeout [-k KILL_SECS] SECS CMD [ARG...]
 *
 * The sweep's /usr/bin/timeout (guest/sweep.sh): kselftest's runner bounds
 * each test with `timeout --foreground SECS`, and busybox's timeout signals
 * the test's own pid only. A test whose children outlive it (file_stressor,
 * rename_attack_test) then holds the runner's pipe open for as long as the
 * children run: 900 s for a 45 s timeout. This one runs CMD in a process
 * group of its own and, when SECS pass, sends SIGTERM to the whole group,
 * SIGKILL KILL_SECS later (default 10), as check --timeout does, so that
 * the run alone and the run under check end a test the same way.
 *
 * Exit: CMD's status (128 + its signal if killed), 124 if SECS passed
 * (what kselftest's runner reports as TIMEOUT), 125 on a usage error or a
 * failed fork, 127 if CMD could not be run.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile sig_atomic_t alarmed;
static volatile sig_atomic_t forwarded;

static void on_alarm(int sig)
{
	alarmed = 1;
}

static void on_term(int sig)
{
	forwarded = sig;
}

static unsigned int whole_secs(const char *what, const char *s)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || end == s || *end || s[0] == '-' || v > 86400) {
		fprintf(stderr, "uct-timeout: %s must be whole seconds in [0, 86400], got '%s'\n",
			what, s);
		exit(125);
	}
	return v;
}

/* Wait for pid; 0 once reaped, -1 when an alarm or a signal came first. */
static int reap(pid_t pid, int *status)
{
	for (;;) {
		if (waitpid(pid, status, 0) == pid)
			return 0;
		if (errno != EINTR)
			return 0;
		if (alarmed || forwarded)
			return -1;
	}
}

int main(int argc, char **argv)
{
	unsigned int secs, kill_secs = 10;
	struct sigaction sa = { 0 };
	int status = 0, i = 1, timed_out = 0;
	pid_t pid;

	if (argc > 2 && !strcmp(argv[1], "-k")) {
		kill_secs = whole_secs("KILL_SECS", argv[2]);
		i = 3;
	}
	if (argc - i < 2) {
		fprintf(stderr, "usage: uct-timeout [-k KILL_SECS] SECS CMD [ARG...]\n");
		return 125;
	}
	secs = whole_secs("SECS", argv[i]);

	/* no SA_RESTART: the alarm and a forwarded signal interrupt waitpid */
	sa.sa_handler = on_alarm;
	sigaction(SIGALRM, &sa, NULL);
	sa.sa_handler = on_term;
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);

	pid = fork();
	if (pid < 0) {
		perror("uct-timeout: fork");
		return 125;
	}
	if (pid == 0) {
		setpgid(0, 0);
		signal(SIGALRM, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGINT, SIG_DFL);
		execvp(argv[i + 1], argv + i + 1);
		fprintf(stderr, "uct-timeout: %s: %s\n", argv[i + 1], strerror(errno));
		_exit(127);
	}
	/* both sides set the group, so that a signal sent now reaches it */
	setpgid(pid, pid);

	alarm(secs);
	while (reap(pid, &status)) {
		if (forwarded) {
			kill(-pid, forwarded);
			forwarded = 0;
			continue;
		}
		alarmed = 0;
		if (!timed_out) {
			timed_out = 1;
			kill(-pid, SIGTERM);
			alarm(kill_secs);
		} else {
			kill(-pid, SIGKILL);
		}
	}
	if (timed_out) {
		/* what ignored SIGTERM goes with the test, not into the next one */
		kill(-pid, SIGKILL);
		return 124;
	}
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WEXITSTATUS(status);
}
