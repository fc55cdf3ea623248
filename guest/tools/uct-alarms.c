// SPDX-License-Identifier: GPL-2.0
/*
 * uct-alarms - refused MSGQUEUE and MEMLOCK requests while signals arrive
 * from interrupts, for the `ucounttop check` guest test 6A: the kernel
 * charges them there, under whichever task was interrupted, which may be
 * between the charge and the check of a request that is then refused.
 *
 *   uct-alarms [SOURCE] N
 *                  with RLIMIT_MSGQUEUE and RLIMIT_MEMLOCK at one page, N
 *                  times: mq_open() a queue larger than the limit
 *                  (EMFILE), and SHM_LOCK a segment of two pages (ENOMEM),
 *                  while SOURCE signals us (default itimer):
 *       itimer     SIGALRM every 1 ms from an ITIMER_REAL (charged in the
 *                  timer's hard interrupt)
 *       posix      SIGALRM every 1 ms from a POSIX timer (its sigqueue
 *                  charged when the timer is made; 6.x and 7.x deliver it
 *                  from the hard interrupt)
 *       sigurg     SIGURG for each urgent byte a child sends to our TCP
 *                  socket over loopback (charged in the NET_RX softirq,
 *                  in the sender's context)
 *                  Run as a uid that is not root (CAP_IPC_LOCK would lock
 *                  anyway).
 *
 * Prints "refused MQ SHM SIGNALS" and exits 0 when every request was
 * refused as asked; 1 (naming what) otherwise; 2 on bad usage.
 */
#include <errno.h>
#include <fcntl.h>
#include <mqueue.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/resource.h>
#include <sys/prctl.h>
#include <sys/shm.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t alarms;
static int urg_fd = -1;	/* sigurg: our end of the connection */

static void on_alarm(int sig)
{
	int saved = errno;	/* the request's, read after we return */
	char buf[64];

	alarms++;
	if (sig != SIGURG)
		return;
	/* take the urgent byte, and the stream bytes it leaves behind, so
	 * that the window stays open for the next */
	recv(urg_fd, buf, 1, MSG_OOB | MSG_DONTWAIT);
	while (recv(urg_fd, buf, sizeof(buf), MSG_DONTWAIT) > 0)
		;
	errno = saved;
}

static int fail(const char *what)
{
	fprintf(stderr, "uct-alarms: %s: %s\n", what, strerror(errno));
	return 1;
}

/* A POSIX timer sending SIGALRM every 1 ms. */
static int posix_timer(void)
{
	struct sigevent ev = { .sigev_notify = SIGEV_SIGNAL, .sigev_signo = SIGALRM };
	struct itimerspec every_ms = { { 0, 1000000 }, { 0, 1000000 } };
	timer_t id;

	if (timer_create(CLOCK_MONOTONIC, &ev, &id) || timer_settime(id, 0, &every_ms, NULL))
		return fail("the 1 ms POSIX timer");
	return 0;
}

/*
 * A loopback TCP connection whose accepted end is ours (F_SETOWN: SIGURG
 * comes to us) and a child that sends an urgent byte every 1 ms until we
 * exit. *child: its pid.
 */
static int urgent_sender(pid_t *child)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t alen = sizeof(a);
	int l, c, one = 1;

	l = socket(AF_INET, SOCK_STREAM, 0);
	if (l < 0 || bind(l, (void *)&a, sizeof(a)) || listen(l, 1) ||
	    getsockname(l, (void *)&a, &alen))
		return fail("a loopback listener");
	c = socket(AF_INET, SOCK_STREAM, 0);
	if (c < 0 || connect(c, (void *)&a, sizeof(a)))
		return fail("connect over loopback");
	urg_fd = accept(l, NULL, NULL);
	if (urg_fd < 0 || fcntl(urg_fd, F_SETOWN, getpid()))
		return fail("the accepted socket's owner");
	close(l);
	setsockopt(c, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	*child = fork();
	if (*child < 0)
		return fail("fork");
	if (*child == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		close(urg_fd);
		for (;;) {
			send(c, "u", 1, MSG_OOB | MSG_DONTWAIT);
			usleep(1000);
		}
	}
	close(c);
	return 0;
}

int main(int argc, char **argv)
{
	long page = sysconf(_SC_PAGESIZE), i, n, mq = 0, shm = 0;
	struct itimerval every_ms = { { 0, 1000 }, { 0, 1000 } };
	struct rlimit one_page = { page, page };
	struct mq_attr attr = { .mq_maxmsg = 4, .mq_msgsize = page };
	struct sigaction sa = { .sa_handler = on_alarm, .sa_flags = SA_RESTART };
	const char *source = argc == 3 ? argv[1] : "itimer";
	pid_t sender = 0;
	char *end;
	int id;

	n = argc == 2 || argc == 3 ? strtol(argv[argc - 1], &end, 10) : 0;
	if (argc < 2 || argc > 3 || *end || n <= 0 ||
	    (strcmp(source, "itimer") && strcmp(source, "posix") && strcmp(source, "sigurg"))) {
		fprintf(stderr, "usage: uct-alarms [itimer|posix|sigurg] N (refused requests of "
			"each type)\n");
		return 2;
	}
	if (setrlimit(RLIMIT_MSGQUEUE, &one_page) || setrlimit(RLIMIT_MEMLOCK, &one_page))
		return fail("setrlimit");
	/* two pages: more than the one RLIMIT_MEMLOCK allows */
	id = shmget(IPC_PRIVATE, 2 * page, IPC_CREAT | 0600);
	if (id < 0)
		return fail("shmget");
	if (sigaction(SIGALRM, &sa, NULL) || sigaction(SIGURG, &sa, NULL))
		return fail("sigaction");
	if (!strcmp(source, "itimer") && setitimer(ITIMER_REAL, &every_ms, NULL))
		return fail("the 1 ms ITIMER_REAL");
	if (!strcmp(source, "posix") && posix_timer())
		return 1;
	if (!strcmp(source, "sigurg") && urgent_sender(&sender))
		return 1;
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
	if (sender > 0) {
		kill(sender, SIGKILL);
		waitpid(sender, NULL, 0);
	}
	signal(SIGALRM, SIG_IGN);
	signal(SIGURG, SIG_IGN);
	shmctl(id, IPC_RMID, NULL);
	printf("refused %ld %ld %ld\n", mq, shm, (long)alarms);
	if (mq != n || shm != n) {
		fprintf(stderr, "uct-alarms: %ld of %ld mq_open() and %ld of %ld SHM_LOCK refused\n",
			mq, n, shm, n);
		return 1;
	}
	return 0;
}
