// SPDX-License-Identifier: GPL-2.0
/*
 * uct-timeout [-k KILL_SECS] SECS CMD [ARG...]
 *
 * The sweep's /usr/bin/timeout (guest/sweep.sh): kselftest's runner bounds
 * each test with `timeout --foreground SECS`, and busybox's timeout signals
 * the test's own pid only. A test whose children outlive it (file_stressor,
 * rename_attack_test) then holds the runner's pipe open for as long as the
 * children run: 900 s for a 45 s timeout. This one runs CMD in a process
 * group of its own, as the subreaper of its descendants, and when SECS
 * pass sends SIGTERM to the group and to every descendant (a kselftest
 * harness puts each test in a group of its own), SIGKILL KILL_SECS later
 * (default 10), and SIGKILL to what is left once CMD is gone, as check
 * --timeout does: the run alone and the run under check end a test the
 * same way, and nothing of it runs on into the next test.
 *
 * Exit: CMD's status (128 + its signal if killed), 124 if SECS passed
 * (what kselftest's runner reports as TIMEOUT), 125 on a usage error or a
 * failed fork, 127 if CMD could not be run.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <dirent.h>
#include <string.h>
#include <sys/prctl.h>
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

/* pid's parent, from /proc/pid/stat ("pid (comm) state ppid": comm may
 * hold anything, so after the last ')'); 0 when it is gone. */
static pid_t parent(pid_t pid)
{
	char path[64], buf[512], *p;
	int ppid = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	f = fopen(path, "r");
	if (!f)
		return 0;
	if (fgets(buf, sizeof(buf), f) && (p = strrchr(buf, ')')))
		sscanf(p + 1, " %*c %d", &ppid);
	fclose(f);
	return ppid;
}

/* Send sig to every descendant: each process whose parent chain reaches
 * us (an orphan is ours: we are its subreaper). */
static void signal_descendants(int sig)
{
	pid_t self = getpid(), pid, p;
	struct dirent *e;
	DIR *d = opendir("/proc");
	int depth;

	if (!d)
		return;
	while ((e = readdir(d))) {
		pid = (pid_t)atoi(e->d_name);
		if (pid <= 0 || pid == self)
			continue;
		for (p = parent(pid), depth = 0; p > 1 && p != self && depth < 4096; depth++)
			p = parent(p);
		if (p == self)
			kill(pid, sig);
	}
	closedir(d);
}

/* Wait for pid, reaping the orphans that come to us meanwhile; 0 once pid
 * is reaped (or none is left to wait for), -1 when an alarm or a signal
 * came first. */
static int reap(pid_t pid, int *status)
{
	pid_t w;
	int st;

	for (;;) {
		w = waitpid(-1, &st, 0);
		if (w == pid) {
			*status = st;
			return 0;
		}
		if (w > 0)
			continue;
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

	/* the test's orphans come to us, so that a timeout finds them */
	prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
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
			signal_descendants(SIGTERM);
			alarm(kill_secs);
		} else {
			kill(-pid, SIGKILL);
			signal_descendants(SIGKILL);
		}
	}
	if (timed_out) {
		/* what ignored SIGTERM goes with the test, not into the next
		 * one; reaped, so that none holds the runner's pipe */
		alarmed = 0;
		alarm(kill_secs ? kill_secs : 10);
		kill(-pid, SIGKILL);
		signal_descendants(SIGKILL);
		/* bounded: one stuck in the kernel (D state) is left */
		while (!alarmed && (waitpid(-1, NULL, 0) > 0 || errno == EINTR))
			;
		return 124;
	}
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WEXITSTATUS(status);
}
