// SPDX-License-Identifier: GPL-2.0
/*
 * uct-churn - keep many ucounts alive, or create and free them as fast as
 * possible, for the iterator and stress tests and make bench. Runs as root
 * in the guest.
 *
 *   uct-churn hold N UID
 *	Create N user namespaces, the i-th by uid UID+i, and keep them open
 *	by fd: each keeps the ucounts of (initial namespace, UID+i) alive.
 *	Prints "READY N in S s" (S: the seconds it took), then holds them
 *	until SIGTERM/SIGINT or EOF on stdin.
 *   uct-churn hold-ns N
 *	Create N user namespaces of the initial root, each keeping alive the
 *	ucounts of (that namespace, uid 0) and nothing else: N rows, one per
 *	namespace, held by an fd of the namespace and no process. READY and
 *	the end as for hold.
 *   uct-churn churn WORKERS UID SPAN SECONDS
 *	WORKERS processes each create and drop user namespaces, by uids
 *	UID .. UID+SPAN-1 in turn, for at most SECONDS or until SIGTERM/
 *	SIGINT. Prints "STARTED" once every worker has done one, and at the
 *	end "OPS n", the namespaces created and dropped in all.
 *
 * hold and churn: a namespace is made by a child that takes the uid and
 * unshares; the parent opens /proc/CHILD/ns/user before letting the child
 * exit. The child shares the parent's fd table (CLONE_FILES): a forked
 * child would copy the table with every namespace held so far, and close
 * them all again at its exit, making N namespaces cost O(N^2).
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
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t stop;

static void on_stop(int sig)
{
	(void)sig;
	stop = 1;
}

/* Two pipes shared with each child in turn: the child says it is ready
 * (one byte: 0, or the errno that stopped it), the parent lets it go. */
struct maker {
	int ready[2], done[2];
};

static int maker_init(struct maker *m)
{
	if (pipe2(m->ready, O_CLOEXEC))
		return -1;
	if (pipe2(m->done, O_CLOEXEC)) {
		close(m->ready[0]);
		close(m->ready[1]);
		return -1;
	}
	return 0;
}

/* An fd holding a new user namespace created by @uid, or -1 (errno) */
static int userns_of(struct maker *m, unsigned int uid)
{
	int fd = -1, status;
	char path[64], c = 0;
	pid_t pid;

	/* fork() without copying the fd table: the child must close nothing */
	pid = (pid_t)syscall(SYS_clone, CLONE_FILES | SIGCHLD, NULL, NULL, NULL, NULL);
	if (pid == 0) {
		if (setresgid(uid, uid, uid) || setresuid(uid, uid, uid) ||
		    unshare(CLONE_NEWUSER))
			c = (char)(errno ? errno : EINVAL);
		if (write(m->ready[1], &c, 1) != 1)
			_exit(1);
		/* until the parent holds the namespace */
		if (read(m->done[0], &c, 1) != 1)
			_exit(1);
		_exit(0);
	}
	if (pid < 0)
		return -1;
	if (read(m->ready[0], &c, 1) == 1) {
		if (c) {
			errno = c;
		} else {
			snprintf(path, sizeof(path), "/proc/%d/ns/user", (int)pid);
			fd = open(path, O_RDONLY | O_CLOEXEC);
		}
	}
	c = 0;
	if (write(m->done[1], &c, 1) != 1)
		kill(pid, SIGKILL);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	return fd;
}

/*
 * hold-ns: the child is made in a new user namespace (CLONE_NEWUSER), so
 * its cred charges the ucounts of (new namespace, uid 0); a file it opens
 * keeps that cred (f_cred), hence the ucounts and the namespace, after it
 * exits. The file is the namespace's own, so that /proc/HOLDER/fd names
 * the namespaces held. The child shares our memory and fd table: no copy
 * of either, no handshake.
 */
static char child_stack[64 * 1024] __attribute__((aligned(16)));

static int hold_child(void *arg)
{
	int fd = open("/proc/self/ns/user", O_RDONLY | O_CLOEXEC);

	*(int *)arg = fd < 0 ? -errno : fd;
	return 0;
}

static int userns_file(void)
{
	int res = -EIO, status;
	pid_t pid;

	pid = clone(hold_child, child_stack + sizeof(child_stack),
		    CLONE_VM | CLONE_FILES | CLONE_NEWUSER | SIGCHLD, &res);
	if (pid < 0)
		return -1;
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (res < 0) {
		errno = -res;
		return -1;
	}
	return res;
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

/* hold (uid_base >= 0) or hold-ns (uid_base < 0) */
static int hold(unsigned long n, long long uid_base)
{
	struct rlimit nofile = { n + 64, n + 64 };
	struct timespec t0, t1;
	struct maker m;
	unsigned long i;
	char c;
	int fd;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (setrlimit(RLIMIT_NOFILE, &nofile)) {
		perror("uct-churn: RLIMIT_NOFILE");
		return 1;
	}
	if (uid_base >= 0 && maker_init(&m)) {
		perror("uct-churn: pipe");
		return 1;
	}
	for (i = 0; i < n && !stop; i++) {
		fd = uid_base >= 0 ? userns_of(&m, (unsigned int)(uid_base + i)) : userns_file();
		if (fd < 0) {
			fprintf(stderr, "uct-churn: namespace %lu: %s\n", i, strerror(errno));
			return 1;
		}
	}
	if (stop)
		return 1;
	clock_gettime(CLOCK_MONOTONIC, &t1);
	printf("READY %lu in %.3f s\n", n,
	       (double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9);
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
			struct maker m;
			int fd;

			if (maker_init(&m))
				_exit(1);
			while (!stop && time(NULL) < end) {
				fd = userns_of(&m, uid + k % span);
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
	if (argc == 3 && !strcmp(argv[1], "hold-ns"))
		return hold(number(argv[2], "N"), -1);
	if (argc == 6 && !strcmp(argv[1], "churn"))
		return churn(number(argv[2], "WORKERS"), number(argv[3], "UID"),
			     number(argv[4], "SPAN"), number(argv[5], "SECONDS"));
	fprintf(stderr, "usage: uct-churn hold N UID | hold-ns N | churn WORKERS UID SPAN SECONDS\n");
	return 2;
}
