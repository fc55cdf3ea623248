// SPDX-License-Identifier: GPL-2.0
/*
 * uct-refusals - what the kernel refuses, and what it only checks, for the
 * guest test 5E: every case where an rlimit check finds a counter over its
 * limit, and whether the request then failed. Run as root; each case runs
 * in a child of its own, which counts the refusals it got (EAGAIN,
 * EMFILE, ENOMEM) and holds its row alive afterwards.
 *
 *   root-fork   root with RLIMIT_NPROC 1 forks 3 times: all admitted
 *               (fork lets root's user past the limit)
 *   setuid      setresuid() onto uid 2001, over its RLIMIT_NPROC: admitted;
 *               only flagged for the next execve(), which never comes
 *   setuid-exec setresuid() onto uid 2002, over its limit, then execve():
 *               the execve() is refused
 *   leaf        uid 2003 in the initial namespace, one request of each type
 *               over its own rlimit (sigpending: a signal and a POSIX
 *               timer, whose sigqueue timer_create() charges)
 *   sig-target  root queues a signal to uid 2005's task, which holds its
 *               limit, in a container's cgroup: refused for the target
 *   clone-newuser  uid 2006 over RLIMIT_NPROC 1 clones a new user
 *               namespace: refused, for the new namespace's row
 *   ns          uid 2004 in a user namespace it created with low rlimits and
 *               then raised its own: one request of each type over the
 *               namespace's maximum one level up (the kernel refuses or
 *               admits memlock by its own reading of that maximum)
 *   nomem       uid 2007, far below its RLIMIT_SIGPENDING, queues two RT
 *               signals and a SIGUSR1 to itself, each with the sigqueue
 *               allocation made to fail (/proc/thread-self/fail-nth, a
 *               kernel with CONFIG_FAULT_INJECTION and CONFIG_FAILSLAB):
 *               EAGAIN and a signal without its siginfo, no refusal
 *
 * Prints, after every case is done and held:
 *   DENY <ns inode> <kuid> <type> <refusals the kernel made>
 * for every row a case charged and every type it requested (zeros
 * included), and for the two cases that queue signals
 *   SIGQ <ns inode> <kuid> <charges> <uncharges>
 * the SIGPENDING charges and uncharges the kernel made,
 *   GONE nproc <refusals of rows that died with the refused request>
 *   TARGET <ns inode> <kuid> <container id> <pid>
 * the sig-target case's target,
 *   NOMEM <ns inode> <kuid> <failed allocations>   or   NOMEM unavailable
 * the nomem case's, then READY; exits when stdin closes, taking the
 * holders with it.
 */
#include <errno.h>
#include <fcntl.h>
#include <mqueue.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/shm.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

enum { T_NPROC, T_MSGQUEUE, T_SIGPENDING, T_MEMLOCK, NTYPES };
static const char *const type_names[NTYPES] = { "nproc", "msgqueue", "sigpending", "memlock" };

/* One row's refusals, written by the case that charges it. */
struct row {
	unsigned long ns;
	unsigned int uid;
	int denied[NTYPES];
	unsigned int types;	/* the types the case requested: 1 << T_* */
	/* SIGPENDING charges and uncharges the kernel made: a refusal at the
	 * leaf is a charge taken back, one above it is undone inside the
	 * charge and counts as neither */
	int sig_charges, sig_uncharges;
	int leaf;		/* the case's refusals are the leaf's */
	int target;		/* sig-target: the target's pid */
	int gone;		/* refusals of a row that died with the request */
	int nomem;		/* sigqueues the kernel failed to allocate; -1:
				 * the kernel cannot be made to fail one */
	int done;
};

#define NROWS 8
static struct row *rows;	/* shared with the children */
static long page_size;

static void fail(const char *what)
{
	fprintf(stderr, "uct-refusals: %s: %s\n", what, strerror(errno));
	exit(1);
}

static unsigned long ns_inode(void)
{
	struct stat st;

	if (stat("/proc/self/ns/user", &st))
		fail("stat /proc/self/ns/user");
	return st.st_ino;
}

static void set_limit(int res, rlim_t soft, rlim_t hard)
{
	struct rlimit r = { soft, hard };

	if (setrlimit(res, &r))
		fail("setrlimit");
}

static void become(uid_t uid)
{
	if (setresgid(uid, uid, uid) || setresuid(uid, uid, uid))
		fail("setresuid");
}

/* A process of uid that sleeps until the test ends: a count of 1. Returns
 * once it has changed its uid. */
static void sleeper(uid_t uid)
{
	int fds[2];
	pid_t p;
	char c;

	if (pipe(fds))
		fail("pipe");
	p = fork();
	if (p < 0)
		fail("fork");
	if (p == 0) {
		become(uid);
		/* after the uid change, which clears it */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (write(fds[1], "s", 1) != 1)
			_exit(1);
		for (;;)
			pause();
	}
	close(fds[1]);
	if (read(fds[0], &c, 1) != 1)
		fail("the sleeper did not start");
	close(fds[0]);
}

/* Hold this case's row until the parent goes. */
static void hold(struct row *r)
{
	r->done = 1;
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() == 1)
		_exit(0);
	for (;;)
		pause();
}

/* Run fn in a child and wait until it has filled its row. */
static void run_case(void (*fn)(struct row *), struct row *r)
{
	pid_t p = fork();
	int i;

	if (p < 0)
		fail("fork");
	if (p == 0) {
		fn(r);
		hold(r);
	}
	for (i = 0; i < 3000 && !__atomic_load_n(&r->done, __ATOMIC_ACQUIRE); i++) {
		if (waitpid(p, NULL, WNOHANG) == p) {
			fprintf(stderr, "uct-refusals: a case exited before it was done\n");
			exit(1);
		}
		usleep(10000);
	}
	if (!r->done) {
		fprintf(stderr, "uct-refusals: a case did not finish in 30 s\n");
		exit(1);
	}
}

/* A refused fork is EAGAIN; an admitted child exits at once. */
static void try_fork(struct row *r)
{
	pid_t p = fork();

	if (p == 0)
		_exit(0);
	if (p > 0) {
		waitpid(p, NULL, 0);
		return;
	}
	if (errno != EAGAIN)
		fail("fork");
	r->denied[T_NPROC]++;
}

static void try_mqueue(struct row *r)
{
	struct mq_attr attr = { .mq_maxmsg = 1, .mq_msgsize = 1024 };
	char name[64];
	mqd_t q;

	snprintf(name, sizeof(name), "/uct-refusals-%d", getpid());
	q = mq_open(name, O_CREAT | O_EXCL | O_RDWR, 0600, &attr);
	if (q != (mqd_t)-1) {
		mq_unlink(name);	/* held open: charged until we exit */
		return;
	}
	if (errno != EMFILE)
		fail("mq_open");
	r->denied[T_MSGQUEUE]++;
}

/* What one SIGPENDING request (ret 0: admitted, charged) did: a refusal
 * (EAGAIN) at the leaf is a charge the kernel takes back, one above it is
 * undone inside the charge and is neither. what names it in an error. */
static void sig_request(struct row *r, int ret, const char *what)
{
	if (!ret) {
		r->sig_charges++;
		return;
	}
	if (errno != EAGAIN)
		fail(what);
	r->denied[T_SIGPENDING]++;
	if (r->leaf) {
		r->sig_charges++;
		r->sig_uncharges++;
	}
}

/* Two RT signals queued to ourselves (blocked: they stay pending). */
static void try_signals(struct row *r)
{
	union sigval v = { .sival_int = 0 };
	sigset_t s;
	int i;

	sigemptyset(&s);
	sigaddset(&s, SIGRTMIN);
	sigprocmask(SIG_BLOCK, &s, NULL);
	for (i = 0; i < 2; i++)
		sig_request(r, sigqueue(getpid(), SIGRTMIN, v), "sigqueue");
}

/* A POSIX timer that would signal us: timer_create() charges its sigqueue
 * when it makes the timer, with no signal sent (after try_signals(), the
 * pending signal holds the limit). Refused with EAGAIN; an admitted timer
 * stays charged until we exit. */
static void try_timer(struct row *r)
{
	struct sigevent ev = { .sigev_notify = SIGEV_SIGNAL, .sigev_signo = SIGRTMIN + 1 };
	timer_t id;

	sig_request(r, timer_create(CLOCK_MONOTONIC, &ev, &id), "timer_create");
}

/* SHM_LOCK of a 2-page segment. */
static void try_shm_lock(struct row *r)
{
	int id = shmget(IPC_PRIVATE, 2 * page_size, IPC_CREAT | 0600);

	if (id < 0)
		fail("shmget");
	if (shmctl(id, SHM_LOCK, NULL)) {
		if (errno != ENOMEM)
			fail("SHM_LOCK");
		r->denied[T_MEMLOCK]++;
	} else if (shmat(id, NULL, SHM_RDONLY) == (void *)-1) {
		fail("shmat");
	}
	shmctl(id, IPC_RMID, NULL);	/* attached: lives until we exit */
}

static void case_root_fork(struct row *r)
{
	int i;

	r->ns = ns_inode();
	r->uid = 0;
	r->types = 1 << T_NPROC;
	set_limit(RLIMIT_NPROC, 1, 1);
	for (i = 0; i < 3; i++)
		try_fork(r);
}

/* setresuid() onto a uid that already has a process, with RLIMIT_NPROC 0:
 * admitted, and the task flagged PF_NPROC_EXCEEDED */
static void over_by_setuid(struct row *r, uid_t uid)
{
	r->ns = ns_inode();
	r->uid = uid;
	r->types = 1 << T_NPROC;
	sleeper(uid);
	set_limit(RLIMIT_NPROC, 0, 0);
	become(uid);
}

static void case_setuid(struct row *r)
{
	over_by_setuid(r, 2001);
}

/* The same, then execve(): refused with EAGAIN, or (exit 0) admitted. In
 * a child, so that an admitted execve() does not replace the case. */
static void case_setuid_exec(struct row *r)
{
	char *argv[] = { "/bin/true", NULL };
	int status;
	pid_t p;

	r->ns = ns_inode();
	r->uid = 2002;
	r->types = 1 << T_NPROC;
	sleeper(2002);
	p = fork();
	if (p < 0)
		fail("fork");
	if (p == 0) {
		set_limit(RLIMIT_NPROC, 0, 0);
		become(2002);
		execv(argv[0], argv);
		_exit(errno == EAGAIN ? 42 : 1);
	}
	if (waitpid(p, &status, 0) != p || !WIFEXITED(status))
		fail("waitpid");
	if (WEXITSTATUS(status) == 42)
		r->denied[T_NPROC]++;
	else if (WEXITSTATUS(status))
		fail("execve failed otherwise than with EAGAIN");
}

/*
 * A signal refused to a task in a container, sent from outside it: uid
 * 2005's task, in a docker-like cgroup of its own, holds its one pending
 * signal (RLIMIT_SIGPENDING 1); root, in its own cgroup, queues it
 * another. The refusal is of the target's row, and of its container.
 */
/* the target's container id: 64 hex digits, as docker's */
static void target_cid(char cid[65])
{
	int i;

	for (i = 0; i < 64; i++)
		cid[i] = "0123456789abcdef"[(i * 7 + 5) % 16];
	cid[64] = 0;
}

static void join_cgroup(const char *dir)
{
	char path[256], pid[16];
	int fd;

	if (mkdir(dir, 0755) && errno != EEXIST)
		fail(dir);
	snprintf(path, sizeof(path), "%s/cgroup.procs", dir);
	fd = open(path, O_WRONLY);
	if (fd < 0)
		fail(path);
	snprintf(pid, sizeof(pid), "%d", getpid());
	if (write(fd, pid, strlen(pid)) < 0)
		fail(path);
	close(fd);
}

static void case_sig_target(struct row *r)
{
	union sigval v = { .sival_int = 0 };
	char dir[160], cid[65];
	pid_t target;
	int fds[2];
	sigset_t s;
	char c;

	target_cid(cid);
	if (mkdir("/sys/fs/cgroup/uct-5E.slice", 0755) && errno != EEXIST)
		fail("mkdir /sys/fs/cgroup/uct-5E.slice");
	snprintf(dir, sizeof(dir), "/sys/fs/cgroup/uct-5E.slice/docker-%s.scope", cid);
	r->ns = ns_inode();
	r->uid = 2005;
	r->types = 1 << T_SIGPENDING;
	r->leaf = 1;
	if (pipe(fds))
		fail("pipe");
	target = fork();
	if (target < 0)
		fail("fork");
	if (target == 0) {
		join_cgroup(dir);
		set_limit(RLIMIT_SIGPENDING, 1, 1);
		become(2005);
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		sigemptyset(&s);
		sigaddset(&s, SIGRTMIN);
		sigprocmask(SIG_BLOCK, &s, NULL);
		if (sigqueue(getpid(), SIGRTMIN, v))
			_exit(1);
		if (write(fds[1], "t", 1) != 1)
			_exit(1);
		for (;;)
			pause();
	}
	close(fds[1]);
	if (read(fds[0], &c, 1) != 1)
		fail("the target did not start");
	close(fds[0]);
	r->target = target;
	r->sig_charges++;
	join_cgroup("/sys/fs/cgroup/uct-5E.slice/sender");
	sig_request(r, sigqueue(target, SIGRTMIN, v), "sigqueue to the target");
}

/*
 * clone(CLONE_NEWUSER) by uid 2006, over RLIMIT_NPROC one level up. The
 * check is of the new namespace's row, which dies with the refused clone:
 * the refusal is in the totals only. Told from set*uid()'s check of
 * another cred's row by the system call, with kallsyms or without.
 */
static void case_clone_newuser(struct row *r)
{
	int status;
	long p;

	sleeper(2006);
	set_limit(RLIMIT_NPROC, 1, 1);
	become(2006);
	r->ns = ns_inode();
	r->uid = 2006;
	r->types = 1 << T_NPROC;
	p = syscall(SYS_clone, CLONE_NEWUSER | SIGCHLD, NULL, NULL, NULL, NULL);
	if (p == 0)
		_exit(0);
	if (p > 0) {
		waitpid((pid_t)p, &status, 0);
		return;
	}
	if (errno != EAGAIN)
		fail("clone(CLONE_NEWUSER)");
	r->gone++;
}

static void case_leaf(struct row *r)
{
	become(2003);
	r->ns = ns_inode();
	r->uid = 2003;
	r->types = (1 << NTYPES) - 1;
	r->leaf = 1;
	set_limit(RLIMIT_NPROC, 1, 1);
	set_limit(RLIMIT_MSGQUEUE, 512, 512);
	set_limit(RLIMIT_SIGPENDING, 1, 1);
	set_limit(RLIMIT_MEMLOCK, page_size, page_size);
	try_fork(r);
	try_mqueue(r);
	try_signals(r);
	try_timer(r);
	try_shm_lock(r);
}

/* Make the next fault-injection point of this thread fail (nth 1) or
 * none (0); false when the kernel has no fail-nth. */
static bool fail_nth(int fd, const char *nth)
{
	return fd >= 0 && pwrite(fd, nth, strlen(nth), 0) == (ssize_t)strlen(nth);
}

/* Whether the injected failure was used: fail-nth reads 0 then. */
static bool fail_nth_used(int fd)
{
	char buf[16] = "";

	if (pread(fd, buf, sizeof(buf) - 1, 0) <= 0)
		fail("read fail-nth");
	fail_nth(fd, "0");
	return atoi(buf) == 0;
}

/*
 * Signals whose sigqueue allocation (GFP_ATOMIC, the first fault point
 * the failslab defaults do not skip) fails: an RT signal from sigqueue()
 * fails with EAGAIN, a SIGUSR1 from kill() is queued without its siginfo.
 * Each was charged and uncharged at once. A call that found no fault
 * point to fail is a plain charge.
 */
static void case_nomem(struct row *r)
{
	union sigval v = { .sival_int = 0 };
	int fd, i, ret, err;
	sigset_t s;

	/* opened as root: the uid change makes us undumpable, and our
	 * /proc files root's */
	fd = open("/proc/thread-self/fail-nth", O_RDWR);
	if (fd < 0 && errno != ENOENT)
		fail("open /proc/thread-self/fail-nth");
	become(2007);
	r->ns = ns_inode();
	r->uid = 2007;
	r->types = 1 << T_SIGPENDING;
	r->leaf = 1;
	set_limit(RLIMIT_SIGPENDING, 100, 100);
	if (fd < 0) {
		r->nomem = -1;
		return;
	}
	sigemptyset(&s);
	sigaddset(&s, SIGRTMIN);
	sigaddset(&s, SIGUSR1);
	sigprocmask(SIG_BLOCK, &s, NULL);
	for (i = 0; i < 3; i++) {
		if (!fail_nth(fd, "1"))
			fail("write fail-nth");
		ret = i < 2 ? sigqueue(getpid(), SIGRTMIN, v) : kill(getpid(), SIGUSR1);
		err = errno;
		if (!fail_nth_used(fd)) {
			if (ret)
				fail("a signal with no allocation failed");
			r->sig_charges += i < 2;
			continue;
		}
		if (i < 2 && (!ret || err != EAGAIN))
			fail("sigqueue() with its allocation failed: not EAGAIN");
		r->nomem++;
		r->sig_charges++;
		r->sig_uncharges++;
	}
	close(fd);
}

/*
 * The namespace copies the creator's soft limits as its maxima one level
 * up; the process then raises its own soft limits to the hard ones, so
 * that only the namespace level can refuse.
 */
static void case_ns(struct row *r)
{
	/* as root: the hard limits may be raised */
	set_limit(RLIMIT_NPROC, 1, 100);
	set_limit(RLIMIT_MSGQUEUE, 512, 1 << 20);
	set_limit(RLIMIT_SIGPENDING, 1, 100);
	set_limit(RLIMIT_MEMLOCK, page_size, 64 * page_size);
	become(2004);
	if (unshare(CLONE_NEWUSER))
		fail("unshare(CLONE_NEWUSER)");
	set_limit(RLIMIT_NPROC, 100, 100);
	set_limit(RLIMIT_MSGQUEUE, 1 << 20, 1 << 20);
	set_limit(RLIMIT_SIGPENDING, 100, 100);
	set_limit(RLIMIT_MEMLOCK, 64 * page_size, 64 * page_size);
	r->ns = ns_inode();
	r->uid = 2004;
	r->types = (1 << NTYPES) - 1;
	try_fork(r);
	try_mqueue(r);
	try_signals(r);
	try_timer(r);
	try_shm_lock(r);
}

int main(int argc, char **argv)
{
	static void (*const cases[])(struct row *) = {
		case_root_fork, case_setuid, case_setuid_exec, case_leaf, case_ns,
		case_sig_target, case_clone_newuser, case_nomem,
	};
	char buf[1], cid[65];
	size_t i;
	int t;

	if (argc > 1) {
		fprintf(stderr, "usage: uct-refusals (as root; prints DENY lines, then READY; "
			"exits when stdin closes)\n");
		return 2;
	}
	if (geteuid()) {
		fprintf(stderr, "uct-refusals: run as root\n");
		return 2;
	}
	/* a process group of our own: the cases and their sleepers, which
	 * the SIGTERM at the end is for */
	if (setpgid(0, 0))
		fail("setpgid");
	page_size = sysconf(_SC_PAGESIZE);
	rows = mmap(NULL, NROWS * sizeof(*rows), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
		    -1, 0);
	if (rows == MAP_FAILED)
		fail("mmap");
	setvbuf(stdout, NULL, _IOLBF, 0);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		run_case(cases[i], &rows[i]);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		for (t = 0; t < NTYPES; t++)
			if (rows[i].types & (1 << t))
				printf("DENY %lu %u %s %d\n", rows[i].ns, rows[i].uid,
				       type_names[t], rows[i].denied[t]);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		if (rows[i].gone)
			printf("GONE nproc %d\n", rows[i].gone);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		if (rows[i].types & (1 << T_SIGPENDING))
			printf("SIGQ %lu %u %d %d\n", rows[i].ns, rows[i].uid, rows[i].sig_charges,
			       rows[i].sig_uncharges);
	/* the refused target's container, as ucounttop names it */
	target_cid(cid);
	printf("TARGET %lu %u %s %d\n", rows[5].ns, rows[5].uid, cid, rows[5].target);
	if (rows[7].nomem < 0)
		printf("NOMEM unavailable\n");
	else
		printf("NOMEM %lu %u %d\n", rows[7].ns, rows[7].uid, rows[7].nomem);
	printf("READY\n");
	while (read(0, buf, 1) > 0)
		;
	/* the holders; each takes its sleepers with it */
	signal(SIGTERM, SIG_IGN);
	kill(0, SIGTERM);
	return 0;
}
