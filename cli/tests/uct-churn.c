// SPDX-License-Identifier: GPL-2.0
/*
 * uct-churn - keep many ucounts alive, or create and free them as fast as
 * possible, for the iterator and stress tests. Runs as root in the guest.
 *
 *   uct-churn hold N UID
 *	Create N user namespaces, the i-th by uid UID+i, and keep them open
 *	by fd: each keeps the ucounts of (initial namespace, UID+i) alive.
 *	Prints "READY N", then holds them until SIGTERM/SIGINT or EOF on
 *	stdin.
 *   uct-churn churn WORKERS UID SPAN SECONDS
 *	WORKERS processes each create and drop user namespaces, by uids
 *	UID .. UID+SPAN-1 in turn, for at most SECONDS or until SIGTERM/
 *	SIGINT. Prints "STARTED" once every worker has done one, and at the
 *	end "OPS n", the namespaces created and dropped in all.
 *
 * A namespace is made by a child that takes the uid and unshares; the
 * parent opens /proc/CHILD/ns/user before letting the child exit.
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t stop;

static void on_stop(int sig)
{
	(void)sig;
	stop = 1;
}

/* An fd holding a new user namespace created by @uid, or -1 */
static int userns_of(unsigned int uid)
{
	int ready[2], done[2], fd = -1, status;
	char path[64], c = 1;
	pid_t pid;

	if (pipe(ready))
		return -1;
	if (pipe(done)) {
		close(ready[0]);
		close(ready[1]);
		return -1;
	}
	pid = fork();
	if (pid == 0) {
		close(ready[0]);
		close(done[1]);
		if (setresgid(uid, uid, uid) || setresuid(uid, uid, uid) ||
		    unshare(CLONE_NEWUSER) || write(ready[1], &c, 1) != 1)
			_exit(1);
		/* until the parent holds the namespace */
		if (read(done[0], &c, 1) < 0)
			_exit(1);
		_exit(0);
	}
	close(ready[1]);
	close(done[0]);
	if (pid > 0 && read(ready[0], &c, 1) == 1) {
		snprintf(path, sizeof(path), "/proc/%d/ns/user", (int)pid);
		fd = open(path, O_RDONLY | O_CLOEXEC);
	}
	close(done[1]);
	close(ready[0]);
	if (pid > 0)
		while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
			;
	return fd;
}

static unsigned long number(const char *s, const char *what)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 0);
	if (errno || !*s || *end) {
		fprintf(stderr, "uct-churn: bad %s '%s'\n", what, s);
		exit(2);
	}
	return v;
}

static int hold(unsigned long n, unsigned long uid)
{
	struct rlimit nofile = { n + 64, n + 64 };
	unsigned long i;
	char c;

	if (setrlimit(RLIMIT_NOFILE, &nofile)) {
		perror("uct-churn: RLIMIT_NOFILE");
		return 1;
	}
	for (i = 0; i < n && !stop; i++) {
		if (userns_of(uid + i) < 0) {
			fprintf(stderr, "uct-churn: namespace %lu of uid %lu: %s\n", i, uid + i,
				strerror(errno));
			return 1;
		}
	}
	if (stop)
		return 1;
	printf("READY %lu\n", n);
	fflush(stdout);
	while (!stop && read(0, &c, 1) > 0)
		;
	return 0;
}

static int churn(unsigned long workers, unsigned long uid, unsigned long span,
		 unsigned long seconds)
{
	unsigned long *ops = mmap(NULL, (workers + 1) * sizeof(*ops), PROT_READ | PROT_WRITE,
				  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	time_t end = time(NULL) + seconds;
	unsigned long w, started, total = 0;
	int status;

	if (ops == MAP_FAILED || !workers || !span) {
		fprintf(stderr, "uct-churn: churn needs WORKERS and SPAN > 0\n");
		return 2;
	}
	/* a group of our own: the workers and their children are stopped
	 * with one kill(0, ...) that reaches nobody else */
	if (setpgid(0, 0)) {
		perror("uct-churn: setpgid");
		return 1;
	}
	for (w = 0; w < workers; w++) {
		if (fork() == 0) {
			unsigned long k = w;
			int fd;

			while (!stop && time(NULL) < end) {
				fd = userns_of(uid + k % span);
				if (fd >= 0)
					close(fd);
				__atomic_add_fetch(&ops[w], 1, __ATOMIC_RELAXED);
				k += workers;
			}
			_exit(0);
		}
	}
	do {	/* every worker has done one */
		started = 0;
		for (w = 0; w < workers; w++)
			started += __atomic_load_n(&ops[w], __ATOMIC_RELAXED) > 0;
		if (started < workers)
			usleep(10000);
	} while (started < workers && !stop && time(NULL) < end);
	printf("STARTED\n");
	fflush(stdout);
	while (!stop && time(NULL) < end)
		usleep(100000);
	kill(0, SIGTERM);
	while (wait(&status) > 0 || errno == EINTR)
		;
	for (w = 0; w < workers; w++)
		total += ops[w];
	printf("OPS %lu\n", total);
	return 0;
}

int main(int argc, char **argv)
{
	struct sigaction sa = { .sa_handler = on_stop };

	setvbuf(stdout, NULL, _IOLBF, 0);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	if (argc == 4 && !strcmp(argv[1], "hold"))
		return hold(number(argv[2], "N"), number(argv[3], "UID"));
	if (argc == 6 && !strcmp(argv[1], "churn"))
		return churn(number(argv[2], "WORKERS"), number(argv[3], "UID"),
			     number(argv[4], "SPAN"), number(argv[5], "SECONDS"));
	fprintf(stderr, "usage: uct-churn hold N UID | churn WORKERS UID SPAN SECONDS\n");
	return 2;
}
