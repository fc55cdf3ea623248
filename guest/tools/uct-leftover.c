// SPDX-License-Identifier: GPL-2.0
/*
 * uct-leftover - leave charges behind on purpose, for the `ucounttop
 * check` guest tests: what a workload may legitimately leave when it ends
 * (check must call these "outstanding", not errors).
 *
 *   uct-leftover shm-lock KEY PAGES   create SysV segment KEY of PAGES
 *                                     pages and SHM_LOCK it (MEMLOCK is
 *                                     charged to the caller until it is
 *                                     unlocked or removed); exit
 *   uct-leftover shm-rm KEY           remove segment KEY
 *   uct-leftover mq-open NAME MAXMSG MSGSIZE
 *                                     create POSIX queue NAME (MSGQUEUE);
 *                                     exit, leaving it
 *   uct-leftover block                block the real-time signals, print
 *                                     "READY" and sleep until SIGTERM
 *   uct-leftover sigqueue PID N       queue N SIGRTMIN to PID (SIGPENDING
 *                                     is charged to PID's owner)
 *   uct-leftover deleted-timers N     block the real-time signals, fire N
 *                                     POSIX timers (SIGRTMIN + 1), delete
 *                                     them with their signals queued, print
 *                                     "SIGQ <before> <after>" (the queued
 *                                     count of /proc/self/status), "PID
 *                                     <its pid>" and "READY", and sleep
 *                                     until SIGTERM
 */
#include <errno.h>
#include <fcntl.h>
#include <mqueue.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/shm.h>
#include <time.h>
#include <unistd.h>

/* The first number of SigQ: in /proc/self/status: the signals queued to
 * this user (its RLIMIT_SIGPENDING count), or -1 */
static long queued(void)
{
	char line[256];
	long n = -1;
	FILE *f = fopen("/proc/self/status", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "SigQ: %ld/", &n) == 1)
			break;
	fclose(f);
	return n;
}

/*
 * Timers deleted while their signals are queued: since 6.13 a timer's
 * sigqueue is part of the timer, which leaves the process's timer list
 * when deleted but stays charged to SIGPENDING until its queued signal is
 * collected or flushed; before, the sigqueue became an ordinary one.
 */
static int deleted_timers(int n)
{
	struct sigevent ev = { .sigev_notify = SIGEV_SIGNAL, .sigev_signo = SIGRTMIN + 1 };
	struct itimerspec its = { .it_value = { .tv_nsec = 1000000 } };
	long before, after;
	timer_t *ids = calloc(n, sizeof(*ids));
	sigset_t set;
	int i, wait;

	if (!ids)
		return 1;
	sigemptyset(&set);
	for (i = SIGRTMIN; i <= SIGRTMAX; i++)
		sigaddset(&set, i);
	sigprocmask(SIG_BLOCK, &set, NULL);
	before = queued();
	for (i = 0; i < n; i++) {
		if (timer_create(CLOCK_MONOTONIC, &ev, &ids[i]) ||
		    timer_settime(ids[i], 0, &its, NULL)) {
			perror("uct-leftover: deleted-timers");
			return 1;
		}
	}
	/* each timer's signal queued (its sigqueue was charged at create) */
	for (wait = 0; wait < 500; wait++) {
		usleep(10000);
		if (!sigpending(&set) && sigismember(&set, SIGRTMIN + 1) && wait > 20)
			break;
	}
	for (i = 0; i < n; i++)
		if (timer_delete(ids[i])) {
			perror("uct-leftover: timer_delete");
			return 1;
		}
	after = queued();
	printf("SIGQ %ld %ld\nPID %d\nREADY\n", before, after, (int)getpid());
	fflush(stdout);
	for (;;)
		pause();
}

static int usage(void)
{
	fprintf(stderr, "usage: uct-leftover shm-lock KEY PAGES | shm-rm KEY | "
		"mq-open NAME MAXMSG MSGSIZE | block | sigqueue PID N | deleted-timers N\n");
	return 2;
}

int main(int argc, char **argv)
{
	long page = sysconf(_SC_PAGESIZE);
	sigset_t set;
	int i, id;

	if (argc == 4 && !strcmp(argv[1], "shm-lock")) {
		id = shmget((key_t)atoi(argv[2]), (size_t)atol(argv[3]) * page, IPC_CREAT | 0600);
		if (id < 0 || shmctl(id, SHM_LOCK, NULL)) {
			perror("uct-leftover: shm-lock");
			return 1;
		}
		return 0;
	}
	if (argc == 3 && !strcmp(argv[1], "shm-rm")) {
		id = shmget((key_t)atoi(argv[2]), 0, 0);
		if (id < 0 || shmctl(id, IPC_RMID, NULL)) {
			perror("uct-leftover: shm-rm");
			return 1;
		}
		return 0;
	}
	if (argc == 5 && !strcmp(argv[1], "mq-open")) {
		struct mq_attr attr = { .mq_maxmsg = atol(argv[3]), .mq_msgsize = atol(argv[4]) };
		mqd_t q = mq_open(argv[2], O_RDWR | O_CREAT | O_EXCL, 0600, &attr);

		if (q == (mqd_t)-1) {
			perror("uct-leftover: mq_open");
			return 1;
		}
		return 0;
	}
	if (argc == 2 && !strcmp(argv[1], "block")) {
		sigemptyset(&set);
		for (i = SIGRTMIN; i <= SIGRTMAX; i++)
			sigaddset(&set, i);
		sigprocmask(SIG_BLOCK, &set, NULL);
		printf("READY\n");
		fflush(stdout);
		for (;;)
			pause();
	}
	if (argc == 4 && !strcmp(argv[1], "sigqueue")) {
		union sigval v = { .sival_int = 0 };
		pid_t pid = atoi(argv[2]);

		for (i = 0; i < atoi(argv[3]); i++) {
			if (sigqueue(pid, SIGRTMIN, v)) {
				perror("uct-leftover: sigqueue");
				return 1;
			}
		}
		return 0;
	}
	if (argc == 3 && !strcmp(argv[1], "deleted-timers"))
		return deleted_timers(atoi(argv[2]));
	return usage();
}
