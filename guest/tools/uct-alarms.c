// SPDX-License-Identifier: GPL-2.0
/*
 * uct-alarms - refused MSGQUEUE and MEMLOCK requests while SIGALRMs arrive,
 * for the `ucounttop check` guest test 6A: the kernel charges each SIGALRM
 * of an ITIMER_REAL from the timer interrupt, under the interrupted task,
 * between the charge and the check of a request that is then refused.
 *
 *   uct-alarms N   with RLIMIT_MSGQUEUE and RLIMIT_MEMLOCK at one page,
 *                  and an ITIMER_REAL of 1 ms, N times: mq_open() a queue
 *                  larger than the limit (EMFILE), and SHM_LOCK a segment
 *                  of two pages (ENOMEM). Run as a uid that is not root
 *                  (CAP_IPC_LOCK would lock anyway).
 *
 * Prints "refused MQ SHM ALARMS" and exits 0 when every request was
 * refused as asked; 1 (naming what) otherwise; 2 on bad usage.
 */
#include <errno.h>
#include <fcntl.h>
#include <mqueue.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/resource.h>
#include <sys/shm.h>
#include <sys/time.h>
#include <unistd.h>

static volatile sig_atomic_t alarms;

static void on_alarm(int sig)
{
	alarms++;
}

static int fail(const char *what)
{
	fprintf(stderr, "uct-alarms: %s: %s\n", what, strerror(errno));
	return 1;
}

int main(int argc, char **argv)
{
	long page = sysconf(_SC_PAGESIZE), i, n, mq = 0, shm = 0;
	struct itimerval every_ms = { { 0, 1000 }, { 0, 1000 } };
	struct rlimit one_page = { page, page };
	struct mq_attr attr = { .mq_maxmsg = 4, .mq_msgsize = page };
	struct sigaction sa = { .sa_handler = on_alarm, .sa_flags = SA_RESTART };
	char *end;
	int id;

	n = argc == 2 ? strtol(argv[1], &end, 10) : 0;
	if (argc != 2 || *end || n <= 0) {
		fprintf(stderr, "usage: uct-alarms N (refused requests of each type)\n");
		return 2;
	}
	if (setrlimit(RLIMIT_MSGQUEUE, &one_page) || setrlimit(RLIMIT_MEMLOCK, &one_page))
		return fail("setrlimit");
	/* two pages: more than the one RLIMIT_MEMLOCK allows */
	id = shmget(IPC_PRIVATE, 2 * page, IPC_CREAT | 0600);
	if (id < 0)
		return fail("shmget");
	if (sigaction(SIGALRM, &sa, NULL) || setitimer(ITIMER_REAL, &every_ms, NULL))
		return fail("the 1 ms ITIMER_REAL");
	for (i = 0; i < n; i++) {
		/* 4 messages of a page and their headers: over one page */
		mqd_t q = mq_open("/uct-alarms", O_RDWR | O_CREAT | O_EXCL, 0600, &attr);

		if (q != (mqd_t)-1) {
			mq_close(q);
			mq_unlink("/uct-alarms");
		} else if (errno == EMFILE) {
			mq++;
		}
		if (shmctl(id, SHM_LOCK, NULL) == 0)
			shmctl(id, SHM_UNLOCK, NULL);
		else if (errno == ENOMEM)
			shm++;
	}
	setitimer(ITIMER_REAL, &(struct itimerval){ 0 }, NULL);
	shmctl(id, IPC_RMID, NULL);
	printf("refused %ld %ld %ld\n", mq, shm, (long)alarms);
	if (mq != n || shm != n) {
		fprintf(stderr, "uct-alarms: %ld of %ld mq_open() and %ld of %ld SHM_LOCK refused\n",
			mq, n, shm, n);
		return 1;
	}
	return 0;
}
