// SPDX-License-Identifier: GPL-2.0
/*
 * uct-bench: the two loops whose cost ucounttop's hooks change, timed in
 * guest time (make bench runs the guest under QEMU -icount, where guest
 * time follows executed instructions, so the ratios repeat run to run).
 *
 *   sigqueue   queue a real-time signal to ourselves and take it with
 *              sigwaitinfo: one inc_rlimit_get_ucounts + one
 *              dec_rlimit_put_ucounts (RLIMIT_SIGPENDING) per iteration
 *   fork       fork + _exit + waitpid: one NPROC charge and uncharge, plus
 *              is_rlimit_overlimit, per iteration
 *
 * Usage: uct-bench sigqueue|fork ITERATIONS [ROUNDS]
 * Prints "LOOP ns_per_op" for the best of ROUNDS rounds (default 3): the
 * minimum is the run least disturbed by the tool's own periodic refresh.
 *
 *        uct-bench rusage [-q] CMD [ARGS...]
 * Runs CMD and prints "rusage cpu_us N maxrss_kb N exit N wall_us N
 * user_us N sys_us N" from wait4(): the CPU time CMD and the children it
 * reaped used (user + system: a BPF iterator runs in its reader's system
 * time), its peak resident set, the elapsed time, and the CPU time split
 * into user and system, for the scale and check series.
 * -q: CMD's standard output goes to /dev/null.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static int loop_sigqueue(long n)
{
	union sigval v = { .sival_int = 0 };
	siginfo_t si;
	sigset_t set;
	long i;

	sigemptyset(&set);
	sigaddset(&set, SIGRTMIN);
	if (sigprocmask(SIG_BLOCK, &set, NULL))
		return -1;
	for (i = 0; i < n; i++) {
		if (sigqueue(getpid(), SIGRTMIN, v))
			return -1;
		if (sigwaitinfo(&set, &si) != SIGRTMIN)
			return -1;
	}
	return 0;
}

static int loop_fork(long n)
{
	long i;
	int st;

	for (i = 0; i < n; i++) {
		pid_t pid = fork();

		if (pid < 0)
			return -1;
		if (pid == 0)
			_exit(0);
		if (waitpid(pid, &st, 0) != pid)
			return -1;
	}
	return 0;
}

static int run_rusage(char **argv)
{
	bool quiet = argv[0] && !strcmp(argv[0], "-q");
	double t0 = now_ns();
	struct rusage ru;
	long user, sys;
	pid_t pid;
	int st;

	if (quiet)
		argv++;
	if (!argv[0])
		return 2;
	pid = fork();
	if (pid < 0)
		return 1;
	if (pid == 0) {
		int fd = quiet ? open("/dev/null", O_WRONLY) : -1;

		if (fd >= 0)
			dup2(fd, STDOUT_FILENO);
		execvp(argv[0], argv);
		fprintf(stderr, "uct-bench: cannot run %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	if (wait4(pid, &st, 0, &ru) != pid)
		return 1;
	user = ru.ru_utime.tv_sec * 1000000L + ru.ru_utime.tv_usec;
	sys = ru.ru_stime.tv_sec * 1000000L + ru.ru_stime.tv_usec;
	printf("rusage cpu_us %ld maxrss_kb %ld exit %d wall_us %.0f user_us %ld sys_us %ld\n",
	       user + sys, ru.ru_maxrss, WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st),
	       (now_ns() - t0) / 1000, user, sys);
	return 0;
}

int main(int argc, char **argv)
{
	int (*loop)(long);
	double best = 0;
	long n, rounds = 3, r;
	char *end;

	if (argc >= 3 && !strcmp(argv[1], "rusage"))
		return run_rusage(argv + 2);
	if (argc < 3 || argc > 4) {
		fprintf(stderr, "usage: uct-bench sigqueue|fork ITERATIONS [ROUNDS]\n"
			"       uct-bench rusage [-q] CMD [ARGS...]\n");
		return 2;
	}
	if (!strcmp(argv[1], "sigqueue"))
		loop = loop_sigqueue;
	else if (!strcmp(argv[1], "fork"))
		loop = loop_fork;
	else {
		fprintf(stderr, "uct-bench: unknown loop '%s' (sigqueue or fork)\n", argv[1]);
		return 2;
	}
	n = strtol(argv[2], &end, 10);
	if (*end || n <= 0) {
		fprintf(stderr, "uct-bench: ITERATIONS must be a positive number\n");
		return 2;
	}
	if (argc == 4) {
		rounds = strtol(argv[3], &end, 10);
		if (*end || rounds <= 0) {
			fprintf(stderr, "uct-bench: ROUNDS must be a positive number\n");
			return 2;
		}
	}
	for (r = 0; r < rounds; r++) {
		double t0 = now_ns(), per;

		if (loop(n)) {
			fprintf(stderr, "uct-bench: %s loop failed: %s\n", argv[1], strerror(errno));
			return 1;
		}
		per = (now_ns() - t0) / n;
		if (r == 0 || per < best)
			best = per;
	}
	printf("%s %.0f\n", argv[1], best);
	return 0;
}
