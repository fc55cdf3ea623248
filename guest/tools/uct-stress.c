// SPDX-License-Identifier: GPL-2.0
/*
 * uct-stress - bounded SMP stress workloads for guest/tests/7*-stress-*.sh.
 * Runs as root in the guest. Every workload does a fixed amount of work, or
 * works until the kernel refuses it, counts on its own side what the kernel
 * did (namespaces made, forks admitted and refused, signals queued and
 * refused) and prints what the ucounts counters must read while it holds
 * its state, so that the tests compare counts - never timings - with the
 * ucounts iterator, ucounttop's JSON and the trace events.
 *
 *   uct-stress churn --uid U [--ops 10000] [--workers 4] [--uids 64]
 *	One holder process per uid U..U+uids-1 keeps (init ns, uid) alive;
 *	then WORKERS processes create and destroy OPS user namespaces in all,
 *	each one by a child that takes a uid in turn and unshares. Worker w
 *	uses the uids whose index is w modulo WORKERS.
 *   uct-stress nproc --uid U [--ns 64] [--leaf 8] [--level 320]
 *		[--stormers 3] [--extra 2]
 *	64 sibling namespaces, all created by uid U with RLIMIT_NPROC =
 *	LEVEL (their rlimit_max), whose creators then lower their own
 *	RLIMIT_NPROC to LEAF and, all at once, fork STORMERS children each;
 *	the creator and every stormer fork blocking children until a fork is
 *	refused, then try EXTRA more.
 *   uct-stress signals --uid U [--receivers 8] [--senders 32] [--per 16]
 *		[--leaf 16] [--leaf-step 8] [--level 320]
 *	RECEIVERS processes of uid U, each in a namespace of its own made
 *	with RLIMIT_SIGPENDING = LEVEL and then running with LEAF + i * STEP
 *	(the i-th receiver), block SIGRTMIN; SENDERS processes of uid U, each in a namespace of its
 *	own, all at once sigqueue() PER SIGRTMIN to every receiver.
 *   uct-stress deep --uid U [--depth 0] [--procs 2] [--signals 3]
 *		[--pages 2]
 *	A chain of nested user namespaces DEPTH deep (0: as deep as the
 *	kernel allows, found by a probe), one blocking process at every
 *	level; at the deepest level PROCS more processes, SIGNALS queued
 *	SIGRTMIN, one POSIX message queue and PAGES SHM_LOCKed pages. The
 *	chain's RLIMIT_NPROC makes the initial namespace's row exactly full,
 *	so one more fork at the deepest level is refused there, at level 0.
 *
 *   Every workload above also takes [--hold SECS]: after READY it keeps its
 *   state until SIGUSR1 (or SECS), then releases everything and reaps it.
 *
 *   uct-stress iter-read PIN [--chunk 37] [--pause-ms 20] [--held-uid U --held N]
 *	Read the pinned ucounts iterator PIN over and over, CHUNK bytes per
 *	read(), PAUSE-MS between passes, until SIGTERM/SIGINT; every pass must have the header once and
 *	first and 8 numbers per row. With --held, once all N rows (init ns,
 *	U..U+N-1) have been seen, every later pass must have all of them.
 *	Prints "DUP <start> <end> <ns> <uid>" (CLOCK_MONOTONIC seconds) for a
 *	(namespace, uid) seen twice in a pass, and a summary line "ITER ...".
 *   uct-stress json-rows FILE
 *	Flatten the last ucounttop/1 JSON document of FILE into lines for
 *	awk (format below), since the guest has no JSON parser.
 *   uct-stress json-tail OUT
 *	Read a ucounttop --json stream on stdin, keep its last document in
 *	OUT.last and a count of documents, malformed ones and ones with an
 *	imbalanced flag in OUT.count.
 *
 * Workload output (stdout):
 *   PID <pid>                        the process to send SIGUSR1 to
 *   NS <inum> <level> <parent_inum> <creator_uid>   a namespace it holds
 *   EXPECT <inum> <level> <uid> <nproc> <msgqueue> <sigpending> <memlock>
 *   DENY <inum> <uid> <type> <refused requests>
 *   PROC <pid> <inum> <uid> <role>   a holding process (SigQ is read there)
 *   LIMIT <inum> <type> <n>          the rlimit of the processes of that row
 *   OPS <uid> <n>                    churn: namespaces made by uid n
 *   STAT <key> <value>               numbers for the TAP diagnostics
 *   READY | RELEASED | HOLD-TIMEOUT
 *   ERROR <text>                     the workload failed (exit 1)
 */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <mqueue.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/shm.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <bpf/btf.h>

#define MAX_NS		256
#define MAX_LEVELS	40
#define MQ_MAXMSG	4
#define MQ_MSGSIZE	256
#define SETUP_SECS	300	/* bound on any setup or storm phase */

/* State shared by every process of a workload (MAP_SHARED, inherited). */
struct shared {
	int errors;
	char errmsg[256];
	long running;			/* nproc: storm loops not finished yet */
	unsigned long inum[MAX_NS];	/* per namespace (nproc, signals, deep) */
	pid_t pid[MAX_NS];		/* receivers */
	long attempts[MAX_NS];
	long admitted[MAX_NS];		/* nproc: forks; signals: queued */
	long refused[MAX_NS];
	long ops[MAX_NS];		/* churn: namespaces per uid */
	long fails;
	int depth;			/* deep: levels below init reached */
	int probe_errno;
};

static struct shared *sh;
static int rel[2] = { -1, -1 };	/* release: holders block until EOF */
static int go[2] = { -1, -1 };	/* start barrier: EOF for everyone */
static int ready[2] = { -1, -1 };	/* one byte per process set up */

/* ---- helpers ------------------------------------------------------------ */

/* Record the first failure (every process shares it) and leave. */
static void __attribute__((noreturn, format(printf, 1, 2))) die(const char *fmt, ...)
{
	int e = errno;
	va_list ap;

	if (__atomic_fetch_add(&sh->errors, 1, __ATOMIC_SEQ_CST) == 0) {
		char what[160];

		va_start(ap, fmt);
		vsnprintf(what, sizeof(what), fmt, ap);
		va_end(ap);
		snprintf(sh->errmsg, sizeof(sh->errmsg), "%s (pid %d): %s", what, getpid(),
			 e ? strerror(e) : "unexpected");
	}
	_exit(1);
}

static void add(long *p, long v)
{
	__atomic_add_fetch(p, v, __ATOMIC_SEQ_CST);
}

static long get(const long *p)
{
	return __atomic_load_n(p, __ATOMIC_SEQ_CST);
}

static unsigned long inum_of(const char *path)
{
	struct stat st;

	return stat(path, &st) ? 0 : (unsigned long)st.st_ino;
}

static unsigned long self_inum(void)
{
	return inum_of("/proc/self/ns/user");
}

static void write_file(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY);

	if (fd < 0 || write(fd, text, strlen(text)) != (ssize_t)strlen(text))
		die("write %s", path);
	close(fd);
}

/* Take global uid and gid @uid, without capabilities, dumpable (so that
 * /proc/self stays ours after later unshares). */
static void become(uid_t uid)
{
	if (setresgid(uid, uid, uid) || setresuid(uid, uid, uid))
		die("setresuid %u", uid);
	if (prctl(PR_SET_DUMPABLE, 1))
		die("PR_SET_DUMPABLE");
}

static void set_limit(int res, long v)
{
	struct rlimit r = { v, v };

	if (setrlimit(res, &r))
		die("setrlimit %d to %ld", res, v);
}

/* unshare(CLONE_NEWUSER) and map our own uid and gid (to themselves), so
 * that a namespace can be created inside the new one. 0 or an errno. */
static int nest(uid_t uid)
{
	char map[64];

	if (unshare(CLONE_NEWUSER))
		return errno;
	snprintf(map, sizeof(map), "%u %u 1\n", uid, uid);
	write_file("/proc/self/setgroups", "deny");
	write_file("/proc/self/uid_map", map);
	write_file("/proc/self/gid_map", map);
	return 0;
}

/* After fork: keep only the read ends of the release and start pipes. */
static void child_fds(void)
{
	if (rel[1] >= 0)
		close(rel[1]);
	if (go[1] >= 0)
		close(go[1]);
	if (ready[0] >= 0)
		close(ready[0]);
}

static void say_ready(void)
{
	char c = 1;

	if (write(ready[1], &c, 1) != 1)
		die("ready pipe");
}

/* Block until EOF on fd (every writer gone). */
static void wait_eof(int fd)
{
	char c;

	while (read(fd, &c, 1) != 0)
		if (errno != EINTR)
			break;
}

/* Hold until released, then reap our children and leave. */
static void __attribute__((noreturn)) hold_and_exit(void)
{
	wait_eof(rel[0]);
	while (wait(NULL) > 0 || errno == EINTR)
		;
	_exit(0);
}

/* In the parent: n bytes on the ready pipe, or a failure, or the bound. */
static int collect(int n)
{
	time_t end = time(NULL) + SETUP_SECS;
	int got = 0;

	while (got < n && !sh->errors && time(NULL) < end) {
		struct pollfd p = { .fd = ready[0], .events = POLLIN };
		char buf[64];
		ssize_t r;

		if (poll(&p, 1, 100) == 1) {
			r = read(ready[0], buf, sizeof(buf) < (size_t)(n - got) ?
				 sizeof(buf) : (size_t)(n - got));
			if (r > 0)
				got += r;
		}
	}
	return got == n ? 0 : -1;
}

static void pipes(void)
{
	if (pipe(rel) || pipe(go) || pipe(ready)) {
		perror("uct-stress: pipe");
		exit(1);
	}
}

static pid_t fork_or_die(void)
{
	pid_t p = fork();

	if (p < 0)
		die("fork");
	return p;
}

static void reap_all(void)
{
	while (wait(NULL) > 0 || errno == EINTR)
		;
}

static long hold_secs;

/*
 * READY, then hold until SIGUSR1 (or --hold SECS), then release: close the
 * release pipe and reap everything. SIGUSR1 is blocked since main().
 */
static void hold_and_release(void)
{
	struct timespec ts = { hold_secs, 0 };
	sigset_t s;

	printf("READY\n");
	fflush(stdout);
	if (hold_secs > 0) {
		sigemptyset(&s);
		sigaddset(&s, SIGUSR1);
		if (sigtimedwait(&s, NULL, &ts) < 0)
			printf("HOLD-TIMEOUT\n");
	}
	close(rel[1]);
	rel[1] = -1;
	reap_all();
	printf("RELEASED\n");
}

static int failed(const char *phase)
{
	printf("ERROR %s: %s\n", phase, sh->errors ? sh->errmsg : "timed out");
	fflush(stdout);
	if (rel[1] >= 0)
		close(rel[1]);
	if (go[1] >= 0)
		close(go[1]);
	/* our process group: everything we forked (see main) */
	signal(SIGTERM, SIG_IGN);
	kill(0, SIGTERM);
	reap_all();
	return 1;
}

/* ---- options ---------------------------------------------------------- */

struct opt {
	const char *name;
	const char *val;
	bool used;
};

static struct opt opts[16];
static int nopts;

static long num(const char *s, const char *what)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 0);
	if (errno || !*s || *end || v < 0) {
		fprintf(stderr, "uct-stress: bad %s '%s'\n", what, s);
		exit(2);
	}
	return v;
}

/* --name VALUE, or def; def < 0: required */
static long opt(const char *name, long def)
{
	int i;

	for (i = 0; i < nopts; i++) {
		if (!strcmp(opts[i].name, name)) {
			opts[i].used = true;
			return num(opts[i].val, name);
		}
	}
	if (def < 0) {
		fprintf(stderr, "uct-stress: --%s is required\n", name);
		exit(2);
	}
	return def;
}

static void parse_opts(int argc, char **argv)
{
	int i;

	for (i = 0; i < argc; i += 2) {
		if (strncmp(argv[i], "--", 2) || i + 1 >= argc || nopts == 16) {
			fprintf(stderr, "uct-stress: expected --option VALUE, got '%s'\n", argv[i]);
			exit(2);
		}
		opts[nopts].name = argv[i] + 2;
		opts[nopts].val = argv[i + 1];
		nopts++;
	}
}

static void opts_done(void)
{
	int i;

	for (i = 0; i < nopts; i++) {
		if (!opts[i].used) {
			fprintf(stderr, "uct-stress: unknown option --%s\n", opts[i].name);
			exit(2);
		}
	}
}

/* ---- churn ------------------------------------------------------------ */

/*
 * One user namespace, created by @uid and gone when this returns: a child
 * takes the uid (charging NPROC to (initial ns, uid)) and unshares (moving
 * the charge to (new ns, uid)), then exits. vfork: under TCG copying the
 * address space for every namespace would cost more than the namespace;
 * the child makes raw system calls only, and its errno is the parent's,
 * which is suspended until the child exits.
 */
static int one_ns(uid_t uid)
{
	int status;
	pid_t p = vfork();

	if (p == 0) {
		if (syscall(SYS_setresgid, uid, uid, uid) || syscall(SYS_setresuid, uid, uid, uid))
			syscall(SYS_exit, 1);
		syscall(SYS_exit, syscall(SYS_unshare, CLONE_NEWUSER) ? 2 : 0);
	}
	if (p < 0)
		return errno;
	while (waitpid(p, &status, 0) < 0)
		if (errno != EINTR)
			return errno;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}

static int cmd_churn(void)
{
	long ops = opt("ops", 10000), workers = opt("workers", 4), uid = opt("uid", -1);
	long nuids = opt("uids", 64), w, i, total = 0;
	unsigned long init = self_inum();
	pid_t pids[MAX_NS];

	hold_secs = opt("hold", 0);
	opts_done();
	if (!workers || nuids < workers || nuids > MAX_NS || nuids % workers) {
		fprintf(stderr, "uct-stress: churn needs 0 < WORKERS <= UIDS <= %d, "
			"UIDS a multiple of WORKERS\n", MAX_NS);
		return 2;
	}
	for (i = 0; i < nuids; i++) {
		if (fork_or_die() == 0) {
			child_fds();
			become(uid + i);
			say_ready();
			hold_and_exit();
		}
	}
	if (collect(nuids))
		return failed("holders");
	printf("STAT holders %ld\n", nuids);
	for (w = 0; w < workers; w++) {
		pids[w] = fork_or_die();
		if (pids[w] == 0) {
			long k, n = ops / workers + (w < ops % workers), per = nuids / workers;

			child_fds();
			close(rel[0]);
			for (k = 0; k < n; k++) {
				long u = w + workers * (k % per);
				int e = one_ns(uid + u);

				if (e) {
					add(&sh->fails, 1);
					if (!__atomic_fetch_add(&sh->errors, 1, __ATOMIC_SEQ_CST))
						snprintf(sh->errmsg, sizeof(sh->errmsg),
							 "namespace of uid %ld: %s", uid + u,
							 e == 1 ? "setresuid failed" :
							 e == 2 ? "unshare failed" :
							 e < 128 ? strerror(e) : "killed");
					continue;
				}
				add(&sh->ops[u], 1);
			}
			_exit(0);
		}
	}
	/* the workers only: the holders are still blocked */
	for (w = 0; w < workers; w++)
		while (waitpid(pids[w], NULL, 0) < 0 && errno == EINTR)
			;
	for (i = 0; i < nuids; i++) {
		printf("OPS %ld %ld\n", uid + i, sh->ops[i]);
		total += sh->ops[i];
		printf("EXPECT %lu 0 %ld 1 0 0 0\n", init, uid + i);
	}
	printf("STAT ops %ld\nSTAT failed %ld\n", total, sh->fails);
	if (sh->errors)
		return failed("churn");
	hold_and_release();
	return 0;
}

/* ---- nproc ------------------------------------------------------------ */

static int storm_ns;

/* One counted fork in namespace storm_ns; the child runs fn. 1 admitted,
 * 0 refused (EAGAIN); anything else is an error. */
static int try_fork(void (*fn)(void))
{
	pid_t p;

	add(&sh->attempts[storm_ns], 1);
	p = fork();
	if (p == 0)
		fn();
	if (p > 0) {
		add(&sh->admitted[storm_ns], 1);
		return 1;
	}
	if (errno != EAGAIN)
		die("fork in namespace %d", storm_ns);
	add(&sh->refused[storm_ns], 1);
	return 0;
}

static void blocker(void)
{
	close(ready[1]);
	hold_and_exit();
}

static long storm_extra;

/* Fork blockers until refused (a bounded number of times: a kernel that
 * never refuses is an error, not a fork bomb), EXTRA more, then report
 * done. */
static void storm(void)
{
	long k;

	for (k = 0; try_fork(blocker); k++)
		if (k == 4096)
			die("4096 forks in namespace %d and none refused", storm_ns);
	for (k = 0; k < storm_extra; k++)
		try_fork(blocker);
	add(&sh->running, -1);
}

static void stormer(void)
{
	storm();
	hold_and_exit();
}

static int cmd_nproc(void)
{
	long nns = opt("ns", 64), uid = opt("uid", -1), leaf = opt("leaf", 8);
	long level = opt("level", 320), stormers = opt("stormers", 3), i;
	long sum = 0, att = 0, adm = 0, ref = 0;
	time_t end;

	storm_extra = opt("extra", 2);
	hold_secs = opt("hold", 0);
	opts_done();
	if (!nns || nns > MAX_NS) {
		fprintf(stderr, "uct-stress: --ns 1..%d\n", MAX_NS);
		return 2;
	}
	sh->running = nns;
	for (i = 0; i < nns; i++) {
		if (fork_or_die() == 0) {
			long s;

			child_fds();
			storm_ns = i;
			set_limit(RLIMIT_NPROC, level);	/* -> rlimit_max */
			become(uid);
			if (unshare(CLONE_NEWUSER))
				die("unshare");
			set_limit(RLIMIT_NPROC, leaf);	/* the leaf's limit */
			sh->inum[i] = self_inum();
			say_ready();
			wait_eof(go[0]);
			for (s = 0; s < stormers; s++) {
				add(&sh->running, 1);
				if (!try_fork(stormer))
					add(&sh->running, -1);
			}
			storm();
			hold_and_exit();
		}
	}
	if (collect(nns))
		return failed("namespaces");
	/* all at once */
	close(go[1]);
	go[1] = -1;
	end = time(NULL) + SETUP_SECS;
	while (get(&sh->running) > 0 && !sh->errors && time(NULL) < end)
		usleep(10000);
	if (sh->errors || get(&sh->running) > 0)
		return failed("storm");
	for (i = 0; i < nns; i++) {
		printf("NS %lu 1 %lu %ld\n", sh->inum[i], self_inum(), uid);
		printf("EXPECT %lu 1 %ld %ld 0 0 0\n", sh->inum[i], uid, 1 + sh->admitted[i]);
		printf("DENY %lu %ld nproc %ld\n", sh->inum[i], uid, sh->refused[i]);
		printf("STORM %lu %ld %ld %ld\n", sh->inum[i], sh->attempts[i], sh->admitted[i],
		       sh->refused[i]);
		sum += 1 + sh->admitted[i];
		att += sh->attempts[i];
		adm += sh->admitted[i];
		ref += sh->refused[i];
	}
	printf("EXPECT %lu 0 %ld %ld 0 0 0\n", self_inum(), uid, sum);
	printf("STAT namespaces %ld\nSTAT attempts %ld\nSTAT admitted %ld\nSTAT refused %ld\n",
	       nns, att, adm, ref);
	hold_and_release();
	return 0;
}

/* ---- signals ---------------------------------------------------------- */

static void block_rt(void)
{
	sigset_t s;

	sigemptyset(&s);
	sigaddset(&s, SIGRTMIN);
	if (sigprocmask(SIG_BLOCK, &s, NULL))
		die("sigprocmask");
}

static int cmd_signals(void)
{
	long nrecv = opt("receivers", 8), nsend = opt("senders", 32), per = opt("per", 16);
	long uid = opt("uid", -1), leaf = opt("leaf", 16), step = opt("leaf-step", 8);
	long level = opt("level", 320), i, sum = 0, queued = 0, refused = 0;
	pid_t senders[MAX_NS];

	hold_secs = opt("hold", 0);
	opts_done();
	if (!nrecv || !nsend || nrecv > MAX_NS || nsend > MAX_NS) {
		fprintf(stderr, "uct-stress: 1..%d receivers and senders\n", MAX_NS);
		return 2;
	}
	for (i = 0; i < nrecv; i++) {
		if (fork_or_die() == 0) {
			child_fds();
			block_rt();
			set_limit(RLIMIT_SIGPENDING, level);	/* -> rlimit_max */
			become(uid);
			if (unshare(CLONE_NEWUSER))
				die("unshare");
			set_limit(RLIMIT_SIGPENDING, leaf + i * step);
			sh->inum[i] = self_inum();
			sh->pid[i] = getpid();
			say_ready();
			hold_and_exit();
		}
	}
	if (collect(nrecv))
		return failed("receivers");
	for (i = 0; i < nsend; i++) {
		senders[i] = fork_or_die();
		if (senders[i] == 0) {
			long k, r;

			child_fds();
			close(rel[0]);
			become(uid);
			if (unshare(CLONE_NEWUSER))
				die("unshare");
			say_ready();
			wait_eof(go[0]);
			for (k = 0; k < per; k++) {
				for (r = 0; r < nrecv; r++) {
					union sigval v = { .sival_int = (int)k };

					if (sigqueue(sh->pid[r], SIGRTMIN, v) == 0)
						add(&sh->admitted[r], 1);
					else if (errno == EAGAIN)
						add(&sh->refused[r], 1);
					else
						die("sigqueue to %d", sh->pid[r]);
				}
			}
			_exit(0);
		}
	}
	if (collect(nsend))
		return failed("senders");
	close(go[1]);
	go[1] = -1;
	for (i = 0; i < nsend; i++) {
		int status;

		while (waitpid(senders[i], &status, 0) < 0 && errno == EINTR)
			;
	}
	if (sh->errors)
		return failed("flood");
	for (i = 0; i < nrecv; i++) {
		printf("NS %lu 1 %lu %ld\n", sh->inum[i], self_inum(), uid);
		printf("PROC %d %lu %ld receiver\n", sh->pid[i], sh->inum[i], uid);
		printf("LIMIT %lu sigpending %ld\n", sh->inum[i], leaf + i * step);
		printf("EXPECT %lu 1 %ld 1 0 %ld 0\n", sh->inum[i], uid, sh->admitted[i]);
		printf("DENY %lu %ld sigpending %ld\n", sh->inum[i], uid, sh->refused[i]);
		sum += sh->admitted[i];
		queued += sh->admitted[i];
		refused += sh->refused[i];
	}
	printf("EXPECT %lu 0 %ld %ld 0 %ld 0\n", self_inum(), uid, nrecv, sum);
	printf("STAT receivers %ld\nSTAT senders %ld\nSTAT attempts %ld\nSTAT queued %ld\n"
	       "STAT refused %ld\n", nrecv, nsend, nsend * nrecv * per, queued, refused);
	hold_and_release();
	return 0;
}

/* ---- deep ------------------------------------------------------------- */

/* Bytes mqueue_get_inode() charges for a MQ_MAXMSG x MQ_MSGSIZE queue
 * (ipc/mqueue.c: the messages plus their tree overhead), sized from the
 * running kernel's BTF. */
static long mqueue_bytes(void)
{
	struct btf *btf = btf__load_vmlinux_btf();
	long msg = -1, node = -1;
	int id;

	if (!btf)
		return -1;
	id = btf__find_by_name_kind(btf, "msg_msg", BTF_KIND_STRUCT);
	if (id > 0)
		msg = btf__resolve_size(btf, id);
	id = btf__find_by_name_kind(btf, "posix_msg_tree_node", BTF_KIND_STRUCT);
	if (id > 0)
		node = btf__resolve_size(btf, id);
	btf__free(btf);
	if (msg < 0 || node < 0)
		return -1;
	return MQ_MAXMSG * (MQ_MSGSIZE + msg + node);
}

/* How deep uid can nest user namespaces below the initial one. */
static int probe_depth(uid_t uid)
{
	int status;
	pid_t p = fork_or_die();

	if (p == 0) {
		int e;

		child_fds();
		become(uid);
		while (!(e = nest(uid)))
			sh->depth++;
		sh->probe_errno = e;
		_exit(0);
	}
	while (waitpid(p, &status, 0) < 0 && errno == EINTR)
		;
	return sh->errors ? -1 : sh->depth;
}

static int cmd_deep(void)
{
	long uid = opt("uid", -1), depth = opt("depth", 0), procs = opt("procs", 2);
	long signals = opt("signals", 3), pages = opt("pages", 2);
	long mqb = mqueue_bytes(), page = sysconf(_SC_PAGESIZE), k, nproc;

	hold_secs = opt("hold", 0);
	opts_done();
	if (mqb < 0) {
		fprintf(stderr, "uct-stress: cannot size a message queue from the kernel's BTF\n");
		return 1;
	}
	if (depth >= MAX_LEVELS) {
		fprintf(stderr, "uct-stress: --depth below %d\n", MAX_LEVELS);
		return 2;
	}
	if (!depth) {
		/* a uid of its own: the probe leaves nothing of uid behind */
		depth = probe_depth(uid + 1);
		if (depth < 0)
			return failed("probe");
		printf("STAT max_depth %ld\nSTAT max_depth_errno %s\n", depth,
		       strerror(sh->probe_errno));
		if (depth >= MAX_LEVELS) {
			printf("ERROR deeper than %d levels\n", MAX_LEVELS);
			return 1;
		}
	}
	/* processes at or below the initial namespace's level: a holder per
	 * level, the chain itself and PROCS at the deepest */
	nproc = (depth + 1) + 1 + procs;
	if (fork_or_die() == 0) {
		union sigval v = { .sival_int = 0 };
		struct mq_attr attr = { .mq_maxmsg = MQ_MAXMSG, .mq_msgsize = MQ_MSGSIZE };
		char name[64];
		int id;

		child_fds();
		block_rt();
		/* every namespace's rlimit_max and our own limit: the
		 * initial namespace's row is full when everything is held */
		set_limit(RLIMIT_NPROC, nproc);
		become(uid);
		for (k = 0;; k++) {
			sh->inum[k] = self_inum();
			if (fork_or_die() == 0)
				blocker();
			if (k == depth)
				break;
			errno = nest(uid);
			if (errno)
				die("namespace at level %ld", k + 1);
		}
		for (k = 0; k < procs; k++)
			if (fork_or_die() == 0)
				blocker();
		for (k = 0; k < signals; k++)
			if (sigqueue(getpid(), SIGRTMIN, v))
				die("sigqueue");
		snprintf(name, sizeof(name), "/uct-stress-deep-%d", getpid());
		if (mq_open(name, O_CREAT | O_EXCL | O_RDWR, 0600, &attr) == (mqd_t)-1)
			die("mq_open");
		mq_unlink(name);	/* charged while open */
		id = shmget(IPC_PRIVATE, pages * page, IPC_CREAT | 0600);
		if (id < 0 || shmctl(id, SHM_LOCK, NULL))
			die("SHM_LOCK");
		if (shmat(id, NULL, SHM_RDONLY) == (void *)-1)
			die("shmat");
		shmctl(id, IPC_RMID, NULL);	/* locked until we exit */
		/* the initial namespace's row is at its limit: refused there */
		storm_ns = (int)depth;
		if (try_fork(blocker))
			die("a fork over the level-0 limit was admitted");
		say_ready();
		hold_and_exit();
	}
	if (collect(1))
		return failed("chain");
	for (k = 0; k <= depth; k++) {
		if (k)
			printf("NS %lu %ld %lu %ld\n", sh->inum[k], k, sh->inum[k - 1], uid);
		/* holders at levels k..depth, the chain, PROCS */
		printf("EXPECT %lu %ld %ld %ld %ld %ld %ld\n", sh->inum[k], k, uid,
		       (depth - k + 1) + 1 + procs, mqb, signals, pages);
	}
	printf("DENY %lu %ld nproc 1\n", sh->inum[depth], uid);
	printf("STAT depth %ld\nSTAT levels %ld\nSTAT nproc_limit %ld\nSTAT mqueue_bytes %ld\n",
	       depth, depth + 1, nproc, mqb);
	hold_and_release();
	return 0;
}

/* ---- iter-read -------------------------------------------------------- */

static volatile sig_atomic_t stop;

static void on_stop(int sig)
{
	(void)sig;
	stop = 1;
}

static int key_cmp(const void *a, const void *b)
{
	unsigned long long x = *(const unsigned long long *)a, y = *(const unsigned long long *)b;

	return x < y ? -1 : x > y;
}

static double mono_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int cmd_iter_read(const char *pin)
{
	static const char header[] = "ns_inum level uid owner_uid nproc msgqueue sigpending memlock";
	long chunk = opt("chunk", 37), held_uid = opt("held-uid", 0), held = opt("held", 0);
	long pause_ms = opt("pause-ms", 20);
	unsigned long init = self_inum(), reads = 0, rows_max = 0, rows_min = ~0UL;
	unsigned long malformed = 0, dups = 0, dups_init = 0, bad_header = 0, full = 0, lost = 0;
	unsigned long errs = 0, dup_lines = 0;
	size_t cap = 1 << 20;
	char *buf = malloc(cap);
	unsigned long long *keys = malloc(sizeof(*keys) * (cap / 16));
	bool seen_full = false;
	struct sigaction sa = { .sa_handler = on_stop };

	opts_done();
	if (!buf || !keys || chunk < 1)
		return 2;
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	for (; !stop; usleep(pause_ms * 1000)) {
		size_t len = 0, nkeys = 0, i;
		unsigned long nheld = 0, rows = 0;
		char *line, *save;
		double t0 = mono_now(), t1;
		ssize_t r;
		int fd = open(pin, O_RDONLY);

		if (fd < 0) {
			errs++;
			usleep(100000);
			continue;
		}
		while ((r = read(fd, buf + len, len + chunk < cap ? (size_t)chunk : 0)) > 0)
			len += r;
		close(fd);
		t1 = mono_now();
		if (stop)
			break;
		if (r < 0 || len + chunk >= cap) {
			errs++;
			continue;
		}
		buf[len] = 0;
		reads++;
		line = strtok_r(buf, "\n", &save);
		if (!line || strcmp(line, header))
			bad_header++;
		while ((line = strtok_r(NULL, "\n", &save))) {
			unsigned long ns, lvl, uid, owner;
			long v[4];
			int end = 0;

			if (sscanf(line, "%lu %lu %lu %lu %ld %ld %ld %ld%n", &ns, &lvl, &uid, &owner,
				   &v[0], &v[1], &v[2], &v[3], &end) != 8 || line[end]) {
				malformed++;
				continue;
			}
			rows++;
			keys[nkeys++] = (unsigned long long)ns << 32 | uid;
			if (held && ns == init && uid >= (unsigned long)held_uid &&
			    uid < (unsigned long)(held_uid + held))
				nheld++;
		}
		qsort(keys, nkeys, sizeof(*keys), key_cmp);
		for (i = 1; i < nkeys; i++) {
			if (keys[i] != keys[i - 1])
				continue;
			/* Two rows of one (namespace, uid) in one pass: two
			 * ucounts, the first freed and its namespace's inode
			 * number reused during the pass, or one ucounts shown
			 * twice. The test tells them apart from the trace. */
			dups++;
			if (keys[i] >> 32 == init)
				dups_init++;
			if (dup_lines++ < 100)
				printf("DUP %.6f %.6f %llu %llu\n", t0, t1, keys[i] >> 32,
				       keys[i] & 0xffffffffULL);
		}
		if (rows > rows_max)
			rows_max = rows;
		if (rows < rows_min)
			rows_min = rows;
		if (held && nheld == (unsigned long)held) {
			full++;
			seen_full = true;
		} else if (seen_full) {
			lost++;
		}
	}
	printf("ITER reads %lu rows_min %lu rows_max %lu malformed %lu duplicates %lu "
	       "duplicates_init_ns %lu bad_header %lu held_full %lu held_lost %lu errors %lu\n",
	       reads, reads ? rows_min : 0, rows_max, malformed, dups, dups_init, bad_header, full,
	       lost, errs);
	return 0;
}

/* ---- json-tail -------------------------------------------------------- */

/* Write @text to @path through a temporary file and rename(): a reader
 * sees the previous or the new content, never a part. */
static void replace_file(const char *path, const char *text, size_t len)
{
	char tmp[4096];
	FILE *f;

	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	f = fopen(tmp, "w");
	if (!f || fwrite(text, 1, len, f) != len || fclose(f) || rename(tmp, path))
		perror(path);
}

/*
 * Keep the last document of a ucounttop --json stream on stdin in
 * OUT.last and a tally in OUT.count ("docs N bad B imbalanced I
 * bytes_max M"): a stream of hundreds of documents of hundreds of rows does
 * not fit the guest's tmpfs for long. A document is bad unless it is one
 * whole line, schema ucounttop/1, numbered one more than the previous one.
 */
static int cmd_json_tail(const char *out)
{
	char *line = NULL, path[4096], count[160];
	unsigned long docs = 0, bad = 0, imbalanced = 0, bytes_max = 0;
	size_t cap = 0;
	ssize_t n;

	opts_done();
	snprintf(path, sizeof(path), "%s.last", out);
	while ((n = getline(&line, &cap, stdin)) > 0) {
		unsigned long it = 0;
		int k;

		docs++;
		if (n < 3 || strcmp(line + n - 3, "]}\n") ||
		    sscanf(line, "{\"schema\":\"ucounttop/1\",\"iteration\":%lu,", &it) != 1 ||
		    it != docs) {
			bad++;
		} else {
			replace_file(path, line, n);
		}
		if (strstr(line, "\"imbalanced\""))
			imbalanced++;
		if ((unsigned long)n > bytes_max)
			bytes_max = n;
		k = snprintf(count, sizeof(count), "docs %lu bad %lu imbalanced %lu bytes_max %lu\n",
			     docs, bad, imbalanced, bytes_max);
		snprintf(path, sizeof(path), "%s.count", out);
		replace_file(path, count, k);
		snprintf(path, sizeof(path), "%s.last", out);
	}
	printf("docs %lu bad %lu imbalanced %lu bytes_max %lu\n", docs, bad, imbalanced, bytes_max);
	free(line);
	return 0;
}

/* ---- json-rows -------------------------------------------------------- */

/*
 * The last complete ucounttop/1 document of FILE as lines:
 *   DOC <iteration> <snapshot>
 *   COUNTERS <stats_full> <ringbuf_drops> <dedup_full> <chain_cut> <events>
 *	<duplicates> <stats_unmatched> <recursion_misses>
 *   DENIALS <nproc> <msgqueue> <sigpending> <memlock>
 *   NSJ <ns> <level> <owner_uid> <parent_ns> <creator_uid>
 *   ROW <ns> <level> <uid> <parent_ns> <parent_uid> <refcount> <flags>
 *	then per type (nproc msgqueue sigpending memlock) 8 fields:
 *	value child_sum denials limit_hits charges uncharges charged uncharged
 * "-" for null or absent, flags comma-separated or "-".
 */
static const char *const types[] = { "nproc", "msgqueue", "sigpending", "memlock" };
static const char *const tfields[] = { "value", "child_sum", "denials", "limit_hits",
				       "charges", "uncharges", "charged", "uncharged" };

/* The value of "key": in [s, end) as a number, or "-". */
static void jval(const char *s, const char *end, const char *key, char *out, size_t n)
{
	char pat[64];
	const char *p;
	size_t i = 0;

	snprintf(pat, sizeof(pat), "\"%s\":", key);
	p = strstr(s, pat);
	if (!p || p >= end) {
		snprintf(out, n, "-");
		return;
	}
	p += strlen(pat);
	if (*p == '"')
		p++;
	while (i + 1 < n && p < end && (*p == '-' || *p == '.' || *p == '/' ||
					 (*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'z')))
		out[i++] = *p++;
	out[i] = 0;
	if (!i || !strcmp(out, "null"))
		snprintf(out, n, "-");
}

static void jprint(const char *s, const char *end, const char *key)
{
	char v[64];

	jval(s, end, key, v, sizeof(v));
	printf(" %s", v);
}

static int cmd_json_rows(const char *file)
{
	FILE *f = fopen(file, "r");
	char *line = NULL, *doc = NULL, *p, *end, *rows, *sub;
	size_t cap = 0;
	ssize_t n;
	int t, k;

	opts_done();
	if (!f) {
		perror(file);
		return 1;
	}
	while ((n = getline(&line, &cap, f)) > 0) {
		if (n > 3 && !strcmp(line + n - 3, "]}\n")) {
			free(doc);
			doc = strdup(line);
		}
	}
	fclose(f);
	if (!doc) {
		fprintf(stderr, "uct-stress: no complete document in %s\n", file);
		return 1;
	}
	end = doc + strlen(doc);
	rows = strstr(doc, "\"rows\":[");
	if (!rows || strncmp(doc, "{\"schema\":\"ucounttop/1\"", 23)) {
		fprintf(stderr, "uct-stress: %s: not a ucounttop/1 document\n", file);
		return 1;
	}
	printf("DOC");
	jprint(doc, rows, "iteration");
	jprint(doc, rows, "snapshot");
	printf("\nCOUNTERS");
	sub = strstr(doc, "\"counters\":{");
	for (k = 0; k < 8; k++) {
		static const char *const c[] = { "stats_full", "ringbuf_drops", "dedup_full",
						 "chain_cut", "events", "duplicates",
						 "stats_unmatched", "recursion_misses" };
		jprint(sub ? sub : end, sub ? strchr(sub, '}') : end, c[k]);
	}
	printf("\nDENIALS");
	sub = strstr(doc, "},\"denials\":{");
	for (t = 0; t < 4; t++)
		jprint(sub ? sub : end, sub ? strchr(sub + 2, '}') : end, types[t]);
	printf("\n");
	/* namespaces: between "namespaces":[ and "rows":[ */
	p = strstr(doc, "\"namespaces\":[");
	while (p && (p = strstr(p, "{\"ns\":")) && p < rows) {
		char *next = strstr(p + 1, "{\"ns\":");
		char *e = next && next < rows ? next : rows;

		printf("NSJ");
		jprint(p, e, "ns");
		jprint(p, e, "level");
		jprint(p, e, "owner_uid");
		jprint(p, e, "parent_ns");
		jprint(p, e, "creator_uid");
		printf("\n");
		p = e;
	}
	p = rows;
	while ((p = strstr(p, "{\"ns\":"))) {
		char *next = strstr(p + 1, "{\"ns\":");
		char *e = next ? next : end, *fl, *fe;

		printf("ROW");
		jprint(p, e, "ns");
		jprint(p, e, "level");
		jprint(p, e, "uid");
		jprint(p, e, "parent_ns");
		jprint(p, e, "parent_uid");
		jprint(p, e, "refcount");
		fl = strstr(p, "\"flags\":[");
		if (fl && fl < e) {
			fl += 9;
			fe = strchr(fl, ']');
			printf(" ");
			if (fe == fl)
				printf("-");
			for (; fl < fe; fl++)
				if (*fl != '"')
					putchar(*fl);
		} else {
			printf(" -");
		}
		for (t = 0; t < 4; t++) {
			char pat[32];
			char *ts, *te;

			snprintf(pat, sizeof(pat), "\"%s\":{", types[t]);
			ts = strstr(p, pat);
			te = ts ? strchr(ts, '}') : NULL;
			for (k = 0; k < 8; k++) {
				if (ts && ts < e && te)
					jprint(ts, te, tfields[k]);
				else
					printf(" -");
			}
		}
		printf("\n");
		p = e;
	}
	free(doc);
	free(line);
	return 0;
}

/* ---- main ------------------------------------------------------------- */

static int usage(void)
{
	fprintf(stderr, "usage: uct-stress churn|nproc|signals|deep --uid U [options] [--hold SECS]\n"
		"       uct-stress iter-read PIN [--chunk N] [--pause-ms N] [--held-uid U --held N]\n"
		"       uct-stress json-rows FILE | json-tail OUT\n"
		"(see the comment at the top of guest/tools/uct-stress.c)\n");
	return 2;
}

int main(int argc, char **argv)
{
	sigset_t s;
	int rc;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc < 2)
		return usage();
	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED) {
		perror("uct-stress: mmap");
		return 1;
	}
	if (argc >= 3 && !strcmp(argv[1], "iter-read")) {
		parse_opts(argc - 3, argv + 3);
		return cmd_iter_read(argv[2]);
	}
	if (argc == 3 && !strcmp(argv[1], "json-rows"))
		return cmd_json_rows(argv[2]);
	if (argc == 3 && !strcmp(argv[1], "json-tail"))
		return cmd_json_tail(argv[2]);
	parse_opts(argc - 2, argv + 2);
	/* SIGUSR1 ends the hold (sigtimedwait) */
	sigemptyset(&s);
	sigaddset(&s, SIGUSR1);
	sigprocmask(SIG_BLOCK, &s, NULL);
	if (setgroups(0, NULL)) {
		perror("uct-stress: setgroups (run as root)");
		return 1;
	}
	/* a group of our own: failed() stops everything with one kill() */
	setpgid(0, 0);
	pipes();
	printf("PID %d\n", getpid());
	if (!strcmp(argv[1], "churn"))
		rc = cmd_churn();
	else if (!strcmp(argv[1], "nproc"))
		rc = cmd_nproc();
	else if (!strcmp(argv[1], "signals"))
		rc = cmd_signals();
	else if (!strcmp(argv[1], "deep"))
		rc = cmd_deep();
	else
		return usage();
	return rc;
}
