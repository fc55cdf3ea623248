// SPDX-License-Identifier: GPL-2.0
/*
 * uct-workload - build nested user namespaces that hold a known amount of
 * every ucounts rlimit, print what the kernel must be counting at every
 * level, and hold it until SIGTERM/SIGINT. Runs as root in the guest; the
 * guest tests compare its EXPECT lines with `ucounttop --json`.
 *
 *   uct-workload [--denials]      build, print, hold
 *   uct-workload --exec-as UID -- CMD [ARGS]   run CMD as UID (no caps)
 *   uct-workload --exec-as-caps UID CAP[,CAP...] -- CMD [ARGS]
 *                                  run CMD as UID with only the capabilities
 *                                  named (numbers, as in linux/capability.h),
 *                                  ambient, so that they survive execve()
 *   uct-workload --shm-lock PAGES  SHM_LOCK a new segment of PAGES pages with
 *                                  the caller's credentials (rlimits, caps),
 *                                  print LOCKED or REFUSED <errno name>,
 *                                  remove it; exit 0 either way
 *   uct-workload --names           namespaces whose uid maps are not the
 *                                  identity, in containers' cgroups, with
 *                                  hostnames, one in a root of its own
 *                                  (its own /etc/passwd), three with no
 *                                  process left
 *                                  (see "--names" below), print what each
 *                                  maps and runs, hold until SIGTERM
 *   uct-workload --container KIND ID [HOSTNAME] -- CMD [ARGS]
 *                                  run CMD in container ID's cgroup as
 *                                  runtime KIND (docker, dockerfs, podman,
 *                                  containerd, crio) names it, with a
 *                                  hostname of its own if given
 *   uct-workload --fork-hold N     as whoever runs it (a container's
 *                                  process, say): fork N children that
 *                                  hold, then try one fork more and print
 *                                  FORK REFUSED <errno name> or FORK
 *                                  STARTED, then READY; hold until SIGTERM
 *   uct-workload --shared-uid UID LIMIT KIND:ID:N...
 *                                  containers that share a uid in the
 *                                  initial namespace (no user namespace,
 *                                  as Docker runs them): in each
 *                                  container's cgroup, N processes of UID
 *                                  under RLIMIT_NPROC LIMIT; then the last
 *                                  container tries one fork more. Prints
 *                                  SHARE KIND ID N PID..., then FORK ID
 *                                  REFUSED <errno name> or FORK ID STARTED,
 *                                  READY; holds until SIGTERM
 *
 * Tree (kuids are identity-mapped 1000..1099 in every namespace, so the
 * uid inside equals the global kuid):
 *
 *   init
 *   |- A1 (created by 1001)  holders 1001 x2, 1002
 *   |  `- A2 (by 1002)       holders 1002 x2, 1003
 *   |     `- A3 (by 1003)    holders 1003 x2, 1001
 *   |- B1 (by 1002)          holder 1002
 *   `- D1 (by 1004, --denials only; low rlimits, see deny_holder())
 *
 * Every namespace also holds its creator process (the "agent", which
 * forks the holders and creates the child namespaces). A holder owns:
 * itself (NPROC), N queued SIGRTMIN signals to itself (SIGPENDING), M
 * POSIX message queues (MSGQUEUE bytes) and SHM_LOCKed SysV segments
 * (MEMLOCK pages). A charge to row (ns, uid) also charges (parent ns,
 * creator of ns), and so on to init: this program applies that rule to
 * what it created and prints the result per row.
 *
 * Output lines (stdout):
 *   NS <name> <inum> <level> <parent_inum> <creator_uid>
 *   PROC <pid> <inum> <uid> <role>
 *   MQBYTES <bytes charged per queue>
 *   EXPECT <inum> <level> <uid> <nproc> <msgqueue> <sigpending> <memlock>
 *   DENY <inum> <uid> <type> <refused attempts>
 *   READY
 */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <mqueue.h>
#include <sched.h>
#include <signal.h>
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
#include <poll.h>
#include <time.h>
#include <unistd.h>
#include <bpf/btf.h>
#include <linux/capability.h>
#include "uct-container.h"

#define MAXPROC		64
#define MQ_MAXMSG	4
#define MQ_MSGSIZE	256
#define MQ_PRIO_MAX_	32768

enum { T_NPROC, T_MSGQUEUE, T_SIGPENDING, T_MEMLOCK, NTYPES };
static const char *const type_names[NTYPES] = { "nproc", "msgqueue", "sigpending", "memlock" };

struct nsspec {
	const char *name;
	int parent;		/* index, -1 for init */
	uid_t creator;
	bool deny;		/* --denials namespace */
};

/* index 0 is the init namespace */
static const struct nsspec nss[] = {
	{ "init", -1, 0, false },
	{ "A1", 0, 1001, false },
	{ "A2", 1, 1002, false },
	{ "A3", 2, 1003, false },
	{ "B1", 0, 1002, false },
	{ "D1", 0, 1004, true },
};
#define NNS (int)(sizeof(nss) / sizeof(nss[0]))

struct holderspec {
	int ns;
	uid_t uid;
	int signals, mqueues, shm_pages;
};

static const struct holderspec holders[] = {
	{ 1, 1001, 2, 1, 1 }, { 1, 1001, 0, 0, 0 }, { 1, 1002, 1, 0, 2 },
	{ 2, 1002, 3, 1, 0 }, { 2, 1002, 0, 0, 1 }, { 2, 1003, 1, 2, 0 },
	{ 3, 1003, 2, 1, 3 }, { 3, 1003, 0, 0, 0 }, { 3, 1001, 5, 0, 1 },
	{ 4, 1002, 1, 1, 1 },
};
#define NHOLDERS (int)(sizeof(holders) / sizeof(holders[0]))

/* --denials: namespace D1, its rlimits and what its holder tries. */
#define DENY_UID	1005
#define DENY_NPROC	3	/* agent + 2 holders fill (init,1004) */
#define DENY_FORKS	3	/* each refused: (init,1004) would be 4 > 3 */
#define DENY_SIGS_OK	4
#define DENY_SIGS_BAD	2
#define DENY_SHM_OK	2	/* pages; RLIMIT_MEMLOCK = 2 pages */

/* What every process recorded, in memory shared across fork. */
struct proc {
	pid_t pid;
	int ns;
	uid_t uid;
	int res[NTYPES];
	const char *role;
};

struct shared {
	unsigned long ns_inum[NNS];
	int nproc;
	struct proc procs[MAXPROC];
	int denied[NTYPES];	/* refusals seen by the D1 holder */
	unsigned long names_inum[9];	/* --names: each namespace, */
	unsigned names_uid[9];		/* getuid() in it, */
	pid_t names_pid[9];		/* and the process that made it */
	int errors;
	char errmsg[256];
};

static struct shared *sh;
static long mq_bytes;		/* charged per queue */
static long page_size;
static int ready_pipe[2];
static bool with_denials;

static void fail(const char *what)
{
	/* first error wins; the parent reports it */
	if (!sh->errors++)
		snprintf(sh->errmsg, sizeof(sh->errmsg), "%s (pid %d): %s", what, getpid(),
			 strerror(errno));
	_exit(1);
}

static unsigned long ns_inum_of(pid_t pid)
{
	char path[64];
	struct stat st;

	snprintf(path, sizeof(path), "/proc/%d/ns/user", pid);
	return stat(path, &st) ? 0 : (unsigned long)st.st_ino;
}

static void record(int ns, uid_t uid, const int res[NTYPES], const char *role)
{
	int i = __atomic_fetch_add(&sh->nproc, 1, __ATOMIC_SEQ_CST);

	if (i >= MAXPROC) {
		errno = ENOSPC;
		fail("too many processes");
	}
	sh->procs[i].pid = getpid();
	sh->procs[i].ns = ns;
	sh->procs[i].uid = uid;
	sh->procs[i].role = role;
	memcpy(sh->procs[i].res, res, sizeof(sh->procs[i].res));
}

static void signal_ready(void)
{
	char c = 1;

	if (write(ready_pipe[1], &c, 1) != 1)
		fail("ready pipe");
}

static void hold_forever(void)
{
	for (;;)
		pause();
}

static void become(uid_t uid)
{
	if (setresgid(uid, uid, uid))
		fail("setresgid");
	if (setresuid(uid, uid, uid))
		fail("setresuid");
	/* the uid change made us non-dumpable, which makes /proc/PID/ owned by
	 * init's root, unmapped in our namespaces: the agent could not write
	 * our uid_map. Dumpable again, /proc/PID/ is ours. */
	if (prctl(PR_SET_DUMPABLE, 1))
		fail("PR_SET_DUMPABLE");
}

/* Bytes mqueue_get_inode() charges for one queue, from the kernel's BTF. */
static long mqueue_charge(void)
{
	struct btf *btf = btf__load_vmlinux_btf();
	long msg, node, treesize;
	int id;

	if (!btf)
		return -1;
	id = btf__find_by_name_kind(btf, "msg_msg", BTF_KIND_STRUCT);
	msg = id >= 0 ? btf__resolve_size(btf, id) : -1;
	id = btf__find_by_name_kind(btf, "posix_msg_tree_node", BTF_KIND_STRUCT);
	node = id >= 0 ? btf__resolve_size(btf, id) : -1;
	btf__free(btf);
	if (msg < 0 || node < 0)
		return -1;
	/* ipc/mqueue.c: mq_treesize + maxmsg * msgsize */
	treesize = MQ_MAXMSG * msg + (MQ_MAXMSG < MQ_PRIO_MAX_ ? MQ_MAXMSG : MQ_PRIO_MAX_) * node;
	return MQ_MAXMSG * MQ_MSGSIZE + treesize;
}

static int open_mqueue(int i)
{
	struct mq_attr attr = { .mq_maxmsg = MQ_MAXMSG, .mq_msgsize = MQ_MSGSIZE };
	char name[64];
	mqd_t q;

	snprintf(name, sizeof(name), "/uct-%d-%d", getpid(), i);
	q = mq_open(name, O_CREAT | O_EXCL | O_RDWR, 0600, &attr);
	if (q == (mqd_t)-1)
		return -1;
	/* unlinked: the queue (and its charge) lives while q is open */
	mq_unlink(name);
	return 0;
}

static int lock_shm(int pages)
{
	int id = shmget(IPC_PRIVATE, pages * page_size, IPC_CREAT | 0600);

	if (id < 0)
		return -1;
	if (shmctl(id, SHM_LOCK, NULL)) {
		int e = errno;

		shmctl(id, IPC_RMID, NULL);
		errno = e;
		return -1;
	}
	/* attached + removed: destroyed, and uncharged, when we exit */
	if (shmat(id, NULL, SHM_RDONLY) == (void *)-1)
		fail("shmat");
	shmctl(id, IPC_RMID, NULL);
	return 0;
}

static void queue_signal(void)
{
	union sigval v = { .sival_int = 0 };

	if (sigqueue(getpid(), SIGRTMIN, v))
		fail("sigqueue");
}

static void block_rt(void)
{
	sigset_t s;

	sigemptyset(&s);
	sigaddset(&s, SIGRTMIN);
	sigprocmask(SIG_BLOCK, &s, NULL);
}

static void holder(const struct holderspec *h)
{
	int res[NTYPES] = { 1, 0, h->signals, h->shm_pages };
	int i;

	become(h->uid);
	block_rt();
	for (i = 0; i < h->signals; i++)
		queue_signal();
	for (i = 0; i < h->mqueues; i++)
		if (open_mqueue(i))
			fail("mq_open");
	res[T_MSGQUEUE] = h->mqueues * mq_bytes;
	if (h->shm_pages && lock_shm(h->shm_pages))
		fail("SHM_LOCK");
	record(h->ns, h->uid, res, "holder");
	signal_ready();
	hold_forever();
}

/* The D1 holder: fill what D1 allows, then try more and count refusals. */
static void deny_holder(int ns)
{
	int res[NTYPES] = { 1, 0, DENY_SIGS_OK, DENY_SHM_OK };
	union sigval v = { .sival_int = 0 };
	int i;

	become(DENY_UID);
	block_rt();
	for (i = 0; i < DENY_FORKS; i++) {
		pid_t p = fork();

		if (p == 0)
			_exit(0);	/* not expected: the limit should refuse */
		if (p > 0) {
			waitpid(p, NULL, 0);
			errno = 0;
			fail("fork beyond the D1 limit succeeded");
		}
		if (errno != EAGAIN)
			fail("fork in D1");
		sh->denied[T_NPROC]++;
	}
	for (i = 0; i < DENY_SIGS_OK + DENY_SIGS_BAD; i++) {
		if (sigqueue(getpid(), SIGRTMIN, v) == 0)
			continue;
		if (errno != EAGAIN)
			fail("sigqueue in D1");
		sh->denied[T_SIGPENDING]++;
	}
	if (open_mqueue(0))
		fail("first mq_open in D1");
	if (open_mqueue(1) == 0) {
		errno = 0;
		fail("second mq_open in D1 succeeded");
	}
	if (errno != EMFILE)
		fail("second mq_open in D1");
	sh->denied[T_MSGQUEUE]++;
	res[T_MSGQUEUE] = mq_bytes;
	if (lock_shm(DENY_SHM_OK))
		fail("SHM_LOCK in D1");
	if (lock_shm(1) == 0) {
		errno = 0;
		fail("SHM_LOCK beyond RLIMIT_MEMLOCK succeeded");
	}
	if (errno != ENOMEM)
		fail("second SHM_LOCK in D1");
	sh->denied[T_MEMLOCK]++;
	record(ns, DENY_UID, res, "deny-holder");
	signal_ready();
	hold_forever();
}

static void wait_byte(int fd)
{
	char c;

	if (read(fd, &c, 1) != 1)
		fail("sync pipe");
}

static void write_file(pid_t pid, const char *file, const char *text)
{
	char path[64];
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/%s", pid, file);
	fd = open(path, O_WRONLY);
	if (fd < 0 || write(fd, text, strlen(text)) != (ssize_t)strlen(text))
		fail(path);
	close(fd);
}

static void agent(int ns);

/* Fork a child that becomes the creator of namespace j and its agent. */
static void spawn_ns(int j)
{
	int up[2], down[2];
	pid_t pid;

	if (pipe(up) || pipe(down))
		fail("pipe");
	pid = fork();
	if (pid < 0)
		fail("fork");
	if (pid == 0) {
		/* die on SIGTERM/SIGINT instead of running main's handler */
		signal(SIGTERM, SIG_DFL);
		signal(SIGINT, SIG_DFL);
		close(up[0]);
		close(down[1]);
		become(nss[j].creator);
		if (nss[j].deny) {
			/* ns->rlimit_max[] is copied from these at unshare */
			struct rlimit nproc = { DENY_NPROC, DENY_NPROC };
			struct rlimit sig = { DENY_SIGS_OK, DENY_SIGS_OK };
			struct rlimit mq = { mq_bytes + mq_bytes / 2, mq_bytes + mq_bytes / 2 };
			struct rlimit mem = { DENY_SHM_OK * page_size, DENY_SHM_OK * page_size };

			if (setrlimit(RLIMIT_NPROC, &nproc) || setrlimit(RLIMIT_SIGPENDING, &sig) ||
			    setrlimit(RLIMIT_MSGQUEUE, &mq) || setrlimit(RLIMIT_MEMLOCK, &mem))
				fail("setrlimit");
		}
		if (unshare(CLONE_NEWUSER))
			fail("unshare(CLONE_NEWUSER)");
		if (write(up[1], "u", 1) != 1)
			fail("sync pipe");
		wait_byte(down[0]);	/* maps written */
		close(up[1]);
		close(down[0]);
		agent(j);
	}
	close(up[1]);
	close(down[0]);
	wait_byte(up[0]);
	/* identity-map 1000..1099: we hold CAP_SETUID in the parent ns */
	write_file(pid, "uid_map", "1000 1000 100\n");
	write_file(pid, "gid_map", "1000 1000 100\n");
	if (write(down[1], "m", 1) != 1)
		fail("sync pipe");
	close(up[0]);
	close(down[1]);
}

/* Runs inside namespace ns as its creator: fork holders, create children. */
static void agent(int ns)
{
	int res[NTYPES] = { 1, 0, 0, 0 };
	int i;

	sh->ns_inum[ns] = ns_inum_of(getpid());
	for (i = 0; i < NHOLDERS; i++) {
		if (holders[i].ns != ns)
			continue;
		if (fork() == 0)
			holder(&holders[i]);
	}
	if (nss[ns].deny) {
		/* a plain holder first, so the counts are settled before the
		 * deny holder starts (see the DENY_* comments) */
		struct holderspec plain = { ns, DENY_UID, 0, 0, 0 };
		pid_t p = fork();

		if (p == 0)
			holder(&plain);
		for (;;) {	/* wait for the plain holder's record */
			bool found = false;

			for (i = 0; i < sh->nproc; i++)
				found |= sh->procs[i].pid == p;
			if (found)
				break;
			usleep(1000);
		}
		if (fork() == 0)
			deny_holder(ns);
	}
	for (i = 1; i < NNS; i++)
		if (nss[i].parent == ns && (!nss[i].deny || with_denials))
			spawn_ns(i);
	record(ns, nss[ns].creator, res, "agent");
	signal_ready();
	hold_forever();
}

/* ---- --names: uids as namespaces map them, and what runs in them ---- */

/*
 * Issue 11's scenario, and the two other ways a map can be read:
 *   N1  kuid 1000 unshares and maps itself to 2000 ("2000 1000 1"): uid 2000
 *   N2  inside N1, uid 2000 unshares and maps itself to 3000
 *       ("3000 2000 1": lower ids are N1's): uid 3000, still kuid 1000
 *   N3  kuid 1000 unshares and writes no map: the row's uid is unmapped
 *   N4  root unshares, the parent writes 7 extents (more than the 5 held
 *       inline: the kernel keeps them in forward[]), the last "6 5000 1",
 *       and the process becomes uid 6 there: kuid 5000
 * and what names them: each runs in a container's
 * cgroup (when cgroup2 is mounted at /sys/fs/cgroup) under a comm of its
 * own, svc-n1 ...; N1, N2 and N6 have a UTS namespace and hostname of
 * their own, made with their user namespace; N1 also has a younger
 * process, svc-n1-b, which must not name it. Two namespaces nothing runs
 * in any more:
 *   N5  kuid 1000 unshares ("0 1000 1"), creates N6 and exits: N6, where
 *       its child runs (as N5's uid 0, mapped "0 0 1"), holds it
 *   N7  kuid 1000 unshares ("0 1000 1"), creates a POSIX message queue
 *       and exits: the queue holds it
 *   N8  kuid 1000 unshares ("0 1000 1"), its child creates N9, and both
 *       exit; an fd of ours holds N9, which has no row (nothing in it is
 *       charged), and N9 holds N8: only N8's row, whose
 *       ucount[UCOUNT_USER_NAMESPACES] counts N9, tells
 * and what names its users: N1's process chroots
 * into NAMES_ROOT, whose etc/passwd - a link to /etc/passwd.n1, which
 * resolves in there - names its uid 2000 "n1-app"; the others keep the
 * guest's root and its /etc/passwd.
 */
enum { NM_N1, NM_N2, NM_N3, NM_N4, NM_N5, NM_N6, NM_N7, NM_N8, NM_N9, NM_COUNT };
static volatile sig_atomic_t stop;
static void on_stop(int sig);
static void kill_all(void);
static bool wait_ready(int want, int secs, const char *what);
#define NAMES_KUID	1000
#define NAMES_WIDE_KUID	5000
#define NAMES_WIDE_UID	6
#define NAMES_QUEUE	"/uct-names-n7"
#define NAMES_ROOT	"/tmp/uct-names-n1root"
#define NAMES_N1_PASSWD	"root:x:0:0:root:/root:/bin/sh\nn1-app:x:2000:2000:N1's app:/:/bin/sh\n"
static const char names_wide_map[] =
	"0 200000 1\n1 200001 1\n2 200002 1\n3 200003 1\n4 200004 1\n5 200005 1\n6 5000 1\n";
static const char *const names_name[NM_COUNT] = {
	"N1", "N2", "N3", "N4", "N5", "N6", "N7", "N8", "N9",
};
static const char *const names_comm[NM_COUNT] = {
	"svc-n1", "svc-n2", "svc-n3", "svc-n4", "svc-n5", "svc-n6", "svc-n7", "svc-n8", "svc-n9",
};
/* the containers: runtime (uct-container.h) and id, "" for none */
static const char *const names_kind[NM_COUNT] = {
	"docker", "podman", "dockerfs", "crio", "", "containerd", "", "", "",
};
static const char *const names_cid[NM_COUNT] = {
	"3f2a1b4c5d6e7f8091a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f708",
	"9b8c7d6e5f4a3b2c1d0e9f8a7b6c5d4e3f2a1b0c9d8e7f6a5b4c3d2e1f0a9b8c",
	"0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef",
	"c0ffee00112233445566778899aabbccddeeff00112233445566778899aabbcc",
	"",
	"6e0b5a4c3d2e1f00112233445566778899aabbccddeeff0011223344556677ff",
	"", "", "",
};
static const char *const names_host[NM_COUNT] = {
	"n1-web", "n2-db", "", "", "", "n6-job", "", "", "",
};
static int names_go[2];		/* N8: we hold N9, its processes may go */
static bool names_cgroups;	/* cgroup2 at /sys/fs/cgroup */

static void names_note(int k)
{
	sh->names_inum[k] = ns_inum_of(getpid());
	sh->names_uid[k] = getuid();
	sh->names_pid[k] = getpid();
}

static void names_publish(int k)
{
	names_note(k);
	signal_ready();
}

/* N1's root of its own, with its own etc/passwd, made by root first:
 * etc/passwd is an absolute link, which must resolve in there. The file
 * is N1's tenant's (kuid NAMES_KUID, mapped in N1), as a container's own
 * files are: ucounttop reads no other. */
static void names_make_root(void)
{
	FILE *f;

	mkdir(NAMES_ROOT, 0755);
	mkdir(NAMES_ROOT "/etc", 0755);
	unlink(NAMES_ROOT "/etc/passwd");
	f = fopen(NAMES_ROOT "/etc/passwd.n1", "w");
	if (!f || fputs(NAMES_N1_PASSWD, f) < 0 || fclose(f) ||
	    chown(NAMES_ROOT "/etc/passwd.n1", NAMES_KUID, NAMES_KUID) ||
	    symlink("/etc/passwd.n1", NAMES_ROOT "/etc/passwd"))
		fail("making " NAMES_ROOT);
}

/* An unprivileged process maps its own uid and gid, one id each */
static void map_self(const char *map)
{
	write_file(getpid(), "setgroups", "deny");
	write_file(getpid(), "uid_map", map);
	write_file(getpid(), "gid_map", map);
}

/* As root, before anything else: the container's cgroup, for us and
 * what we fork */
static void names_enter(int k)
{
	if (names_cgroups && names_kind[k][0] &&
	    uct_container_enter(names_kind[k], names_cid[k], 0, NULL, 0))
		fail("moving into a container's cgroup");
}

/* The process's comm, and with a hostname a UTS namespace of its own
 * (owned by the user namespace just made) */
static void names_self(int k)
{
	if (prctl(PR_SET_NAME, names_comm[k]))
		fail("PR_SET_NAME");
	if (names_host[k][0] && sethostname(names_host[k], strlen(names_host[k])))
		fail("sethostname");
}

static void names_chain(void)
{
	names_enter(NM_N1);
	become(NAMES_KUID);
	if (unshare(CLONE_NEWUSER | CLONE_NEWUTS))
		fail("unshare N1");
	map_self("2000 1000 1\n");
	names_self(NM_N1);
	/* /proc is not in the root it goes to */
	names_note(NM_N1);
	/* a younger process of N1: the older one names it */
	if (fork() == 0) {
		prctl(PR_SET_NAME, "svc-n1-b");
		hold_forever();
	}
	if (fork() == 0) {
		if (unshare(CLONE_NEWUSER | CLONE_NEWUTS))
			fail("unshare N2");
		map_self("3000 2000 1\n");
		names_self(NM_N2);
		names_publish(NM_N2);
		hold_forever();
	}
	/* after the forks: a chrooted process may not make a namespace,
	 * and its children would inherit the root */
	if (chroot(NAMES_ROOT) || chdir("/"))
		fail("chroot N1");
	signal_ready();
	hold_forever();
}

static void names_unmapped(void)
{
	names_enter(NM_N3);
	become(NAMES_KUID);
	if (unshare(CLONE_NEWUSER))
		fail("unshare N3");
	names_self(NM_N3);
	names_publish(NM_N3);
	hold_forever();
}

/* N5 and N6: N5's process makes N6 and goes; N6's stays (and keeps its
 * parent's cgroup, which names_enter() chose for N6) */
static void names_held_by_child(void)
{
	int up[2];

	names_enter(NM_N6);
	become(NAMES_KUID);
	if (unshare(CLONE_NEWUSER))
		fail("unshare N5");
	map_self("0 1000 1\n");
	names_self(NM_N5);
	if (pipe(up))
		fail("pipe");
	if (fork() == 0) {
		if (unshare(CLONE_NEWUSER | CLONE_NEWUTS))
			fail("unshare N6");
		map_self("0 0 1\n");
		names_self(NM_N6);
		names_publish(NM_N6);
		if (write(up[1], "6", 1) != 1)
			fail("sync pipe");
		hold_forever();
	}
	wait_byte(up[0]);
	names_publish(NM_N5);
	_exit(0);
}

/* N7: a queue of its own, then gone */
static void names_held_by_queue(void)
{
	struct mq_attr attr = { .mq_maxmsg = 1, .mq_msgsize = 64 };
	mqd_t q;

	become(NAMES_KUID);
	if (unshare(CLONE_NEWUSER))
		fail("unshare N7");
	map_self("0 1000 1\n");
	names_self(NM_N7);
	q = mq_open(NAMES_QUEUE, O_CREAT | O_EXCL | O_RDWR, 0600, &attr);
	if (q == (mqd_t)-1)
		fail("mq_open in N7");
	mq_close(q);
	names_publish(NM_N7);
	_exit(0);
}

/* N8 and N9: both processes wait until we hold N9 by an fd, then go */
static void names_held_by_fd(void)
{
	int up[2];
	pid_t child;

	become(NAMES_KUID);
	if (unshare(CLONE_NEWUSER))
		fail("unshare N8");
	map_self("0 1000 1\n");
	names_self(NM_N8);
	if (pipe(up))
		fail("pipe");
	child = fork();
	if (child == 0) {
		if (unshare(CLONE_NEWUSER))
			fail("unshare N9");
		prctl(PR_SET_NAME, names_comm[NM_N9]);
		names_publish(NM_N9);
		hold_forever();
	}
	if (child < 0)
		fail("fork");
	names_publish(NM_N8);
	wait_byte(names_go[0]);
	kill(child, SIGKILL);
	waitpid(child, NULL, 0);
	_exit(0);
}

/* N4: the map takes CAP_SETUID in the parent, so we write it */
static void names_wide(void)
{
	int up[2], down[2];
	pid_t pid;

	if (pipe(up) || pipe(down))
		fail("pipe");
	pid = fork();
	if (pid < 0)
		fail("fork");
	if (pid == 0) {
		signal(SIGTERM, SIG_DFL);
		signal(SIGINT, SIG_DFL);
		names_enter(NM_N4);
		if (unshare(CLONE_NEWUSER))
			fail("unshare N4");
		if (write(up[1], "u", 1) != 1)
			fail("sync pipe");
		wait_byte(down[0]);
		/* all caps in N4: any uid it maps */
		if (setresuid(NAMES_WIDE_UID, NAMES_WIDE_UID, NAMES_WIDE_UID))
			fail("setresuid in N4");
		names_self(NM_N4);
		names_publish(NM_N4);
		hold_forever();
	}
	wait_byte(up[0]);
	write_file(pid, "uid_map", names_wide_map);
	if (write(down[1], "m", 1) != 1)
		fail("sync pipe");
}

/* A child for one namespace's setup: fn never returns */
static pid_t names_fork(void (*fn)(void))
{
	pid_t pid = fork();

	if (pid == 0) {
		signal(SIGTERM, SIG_DFL);
		signal(SIGINT, SIG_DFL);
		fn();
	}
	if (pid < 0)
		fail("fork");
	return pid;
}

static int names_mode(void)
{
	/* level, kuid, and the owner as kuid and as the parent maps it */
	static const unsigned info[NM_COUNT][4] = {
		{ 1, NAMES_KUID, NAMES_KUID, NAMES_KUID },
		{ 2, NAMES_KUID, NAMES_KUID, 2000 },
		{ 1, NAMES_KUID, NAMES_KUID, NAMES_KUID },
		{ 1, NAMES_WIDE_KUID, 0, 0 },
		{ 1, NAMES_KUID, NAMES_KUID, NAMES_KUID },
		{ 2, NAMES_KUID, NAMES_KUID, 0 },
		{ 1, NAMES_KUID, NAMES_KUID, NAMES_KUID },
		{ 1, NAMES_KUID, NAMES_KUID, NAMES_KUID },
		{ 2, NAMES_KUID, NAMES_KUID, 0 },
	};
	struct sigaction sa = { .sa_handler = on_stop };
	pid_t gone[3];
	char path[512];
	int k, n9fd;

	setvbuf(stdout, NULL, _IOLBF, 0);
	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED || pipe(ready_pipe) || pipe(names_go) || setgroups(0, NULL)) {
		perror("uct-workload --names (must run as root)");
		return 1;
	}
	names_cgroups = !access(UCT_CGROUP_ROOT "/cgroup.procs", W_OK);
	/* a queue left by a run that was killed would not be charged again */
	mq_unlink(NAMES_QUEUE);
	names_make_root();
	setpgid(0, 0);
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	names_fork(names_chain);
	names_fork(names_unmapped);
	gone[0] = names_fork(names_held_by_child);
	gone[1] = names_fork(names_held_by_queue);
	gone[2] = names_fork(names_held_by_fd);
	names_wide();
	if (!wait_ready(NM_COUNT, 60, "--names setup")) {
		mq_unlink(NAMES_QUEUE);
		return 1;
	}
	/* we hold N9; then N8's and N9's processes go */
	snprintf(path, sizeof(path), "/proc/%d/ns/user", sh->names_pid[NM_N9]);
	n9fd = open(path, O_RDONLY | O_CLOEXEC);
	if (n9fd < 0 || write(names_go[1], "g", 1) != 1) {
		perror("uct-workload --names: holding N9");
		kill_all();
		mq_unlink(NAMES_QUEUE);
		return 1;
	}
	/* N5's, N7's and N8's processes are gone, reaped: no zombie of
	 * theirs is left for a task iterator to find */
	for (k = 0; k < 3; k++)
		while (waitpid(gone[k], NULL, 0) < 0 && errno == EINTR)
			;
	/* N2's process cannot leave N1's cgroup by itself (it has no
	 * privilege there): we move it */
	if (names_cgroups &&
	    uct_container_enter(names_kind[NM_N2], names_cid[NM_N2], sh->names_pid[NM_N2], NULL, 0)) {
		perror("uct-workload --names: moving N2's process");
		kill_all();
		mq_unlink(NAMES_QUEUE);
		return 1;
	}
	/* NAMES name inum level kuid uid-inside pid owner-kuid owner-in-parent comm */
	for (k = 0; k < NM_COUNT; k++)
		printf("NAMES %s %lu %u %u %u %d %u %u %s\n", names_name[k], sh->names_inum[k],
		       info[k][0], info[k][1], sh->names_uid[k], sh->names_pid[k], info[k][2],
		       info[k][3], names_comm[k]);
	/* CONTAINER name kind id cgroup-path; HOST name hostname */
	for (k = 0; k < NM_COUNT; k++) {
		if (names_cgroups && names_kind[k][0] &&
		    !uct_container_path(names_kind[k], names_cid[k], path, sizeof(path)))
			printf("CONTAINER %s %s %s %s\n", names_name[k], names_kind[k],
			       names_cid[k], path);
		if (names_host[k][0])
			printf("HOST %s %s\n", names_name[k], names_host[k]);
	}
	if (!names_cgroups)
		printf("CGROUP none\n");
	/* ROOT name directory: a namespace whose process has a root of its own */
	printf("ROOT N1 %s\n", NAMES_ROOT);
	printf("READY\n");
	while (!stop)
		pause();
	kill_all();
	close(n9fd);
	mq_unlink(NAMES_QUEUE);
	return 0;
}

/*
 * --container KIND ID [HOSTNAME] -- CMD [ARGS]: run CMD as if in container
 * ID of runtime KIND (its cgroup, see uct-container.h), with a hostname of
 * its own if given: what the demo's containers need to be named.
 */
static int container_exec(char **argv)
{
	const char *kind = argv[0], *id = argv[1], *host = argv[2] && strcmp(argv[2], "--") ?
							  argv[2] : NULL;
	char **cmd = argv + (host ? 4 : 3);
	char path[512];

	if (!*cmd) {
		fprintf(stderr, "uct-workload --container KIND ID [HOSTNAME] -- CMD [ARGS]\n");
		return 2;
	}
	if (uct_container_enter(kind, id, 0, path, sizeof(path))) {
		fprintf(stderr, "uct-workload --container %s %s: %s\n", kind, id, strerror(errno));
		return 1;
	}
	if (host && uct_own_hostname(host)) {
		fprintf(stderr, "uct-workload --container: hostname %s: %s\n", host, strerror(errno));
		return 1;
	}
	execvp(cmd[0], cmd);
	fprintf(stderr, "uct-workload --container: %s: %s\n", cmd[0], strerror(errno));
	return 127;
}

/*
 * --shared-uid UID LIMIT KIND:ID:N...: see the header. Each container's
 * first process enters its cgroup as root, takes LIMIT and becomes UID,
 * then forks its N - 1 others (all pause()); the last container's forks
 * once more only when every container is up, so that the fork is the
 * LIMIT + 1st process of UID and refused there.
 */
#define SHARED_MAX 8

static void shared_container(const char *spec, uid_t uid, long limit, int ready_fd, int go_fd,
			     bool last)
{
	char kind[32], id[80], line[512];
	struct rlimit rl = { (rlim_t)limit, (rlim_t)limit };
	int n, k, len;
	pid_t pid;

	/* a process group of its own: the container's processes end together */
	if (setpgid(0, 0) || sscanf(spec, "%31[^:]:%79[^:]:%d", kind, id, &n) != 3 || n < 1 ||
	    uct_container_enter(kind, id, 0, NULL, 0) || setrlimit(RLIMIT_NPROC, &rl) ||
	    setgroups(0, NULL) || setresgid(uid, uid, uid) || setresuid(uid, uid, uid)) {
		fprintf(stderr, "uct-workload --shared-uid %s: %s\n", spec, strerror(errno));
		_exit(1);
	}
	len = snprintf(line, sizeof(line), "SHARE %s %s %d %d", kind, id, n, (int)getpid());
	for (k = 1; k < n; k++) {
		pid = fork();
		if (pid == 0) {
			for (;;)
				pause();
		}
		if (pid < 0) {
			fprintf(stderr, "uct-workload --shared-uid %s: fork %d: %s\n", spec, k,
				strerror(errno));
			_exit(1);
		}
		len += snprintf(line + len, sizeof(line) - (size_t)len, " %d", (int)pid);
	}
	printf("%s\n", line);
	if (write(ready_fd, "r", 1) != 1)
		_exit(1);
	if (last) {
		char c;

		if (read(go_fd, &c, 1) != 1)
			_exit(1);
		pid = fork();
		if (pid == 0)
			_exit(0);
		if (pid > 0) {
			waitpid(pid, NULL, 0);
			printf("FORK %s STARTED\n", id);
		} else {
			printf("FORK %s REFUSED %s\n", id, errno == EAGAIN ? "EAGAIN" : strerror(errno));
		}
		if (write(ready_fd, "f", 1) != 1)
			_exit(1);
	}
	for (;;)
		pause();
}

/* --fork-hold N: N children that hold, one fork more tried */
static int fork_hold_mode(int n)
{
	struct sigaction sa = { .sa_handler = on_stop };
	pid_t pid;
	int i, err = 0;

	setvbuf(stdout, NULL, _IOLBF, 0);
	sigaction(SIGTERM, &sa, NULL);
	for (i = 0; i <= n; i++) {
		pid = fork();
		if (pid == 0) {
			while (!stop)
				pause();
			_exit(0);
		}
		if (pid < 0) {
			err = errno;
			break;
		}
	}
	if (i < n) {
		printf("FORK %d of %d failed: %s\n", i + 1, n, strerror(err));
		return 1;
	}
	if (i == n)
		printf("FORK REFUSED %s\n", err == EAGAIN ? "EAGAIN" : strerror(err));
	else
		printf("FORK STARTED\n");
	printf("READY\n");
	while (!stop)
		pause();
	/* the children are ours to end: a container's init ends its own */
	signal(SIGTERM, SIG_IGN);
	kill(0, SIGTERM);
	return 0;
}

static int shared_uid_mode(int argc, char **argv)
{
	uid_t uid = (uid_t)atoi(argv[0]);
	long limit = atol(argv[1]);
	int ready[2], go[2], n = argc - 2, k;
	pid_t kids[SHARED_MAX];
	struct sigaction sa = { .sa_handler = on_stop };
	char c;

	if (n < 1 || n > SHARED_MAX || limit < 1 || pipe(ready) || pipe(go)) {
		fprintf(stderr, "uct-workload --shared-uid UID LIMIT KIND:ID:N... (1 to %d)\n",
			SHARED_MAX);
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	/* one container at a time: SHARE lines in order */
	for (k = 0; k < n; k++) {
		kids[k] = fork();
		if (kids[k] == 0)
			shared_container(argv[2 + k], uid, limit, ready[1], go[0], k == n - 1);
		if (kids[k] < 0 || read(ready[0], &c, 1) != 1) {
			perror("uct-workload --shared-uid");
			n = k;
			goto out;
		}
	}
	if (write(go[1], "g", 1) != 1 || read(ready[0], &c, 1) != 1) {
		perror("uct-workload --shared-uid: the last fork");
		goto out;
	}
	printf("READY\n");
	while (!stop)
		pause();
out:
	/* each container's processes are its first's process group */
	for (k = 0; k < n; k++)
		kill(-kids[k], SIGKILL);
	for (k = 0; k < n; k++)
		waitpid(kids[k], NULL, 0);
	return 0;
}

/* ---- expectations ---- */

struct row {
	int ns;
	uid_t uid;
	long v[NTYPES];
};

static struct row rows[128];
static int nrows;

static struct row *row_for(int ns, uid_t uid)
{
	int i;

	for (i = 0; i < nrows; i++)
		if (rows[i].ns == ns && rows[i].uid == uid)
			return &rows[i];
	rows[nrows].ns = ns;
	rows[nrows].uid = uid;
	return &rows[nrows++];
}

/* kernel/ucount.c: for (iter = ucounts; iter; iter = iter->ns->ucounts) */
static void charge(int ns, uid_t uid, const int res[NTYPES])
{
	while (ns >= 0) {
		struct row *r = row_for(ns, uid);
		int t;

		for (t = 0; t < NTYPES; t++)
			r->v[t] += res[t];
		uid = nss[ns].creator;
		ns = nss[ns].parent;
	}
}

static int level_of(int ns)
{
	int l = 0;

	while (nss[ns].parent >= 0) {
		ns = nss[ns].parent;
		l++;
	}
	return l;
}

static volatile sig_atomic_t stop;

static void on_stop(int sig)
{
	stop = 1;
}

/*
 * Until want children have each written their readiness byte, an error is
 * reported, we are stopped or secs pass. A child that failed sends no
 * byte: poll, and check errors. On failure everything is killed and false
 * returned, with what went wrong on stderr.
 */
static bool wait_ready(int want, int secs, const char *what)
{
	time_t deadline = time(NULL) + secs;
	int got = 0;

	while (got < want && !sh->errors && !stop && time(NULL) < deadline) {
		struct pollfd pfd = { .fd = ready_pipe[0], .events = POLLIN };
		char c;

		if (poll(&pfd, 1, 100) == 1 && read(ready_pipe[0], &c, 1) == 1)
			got++;
	}
	if (sh->errors || got < want) {
		fprintf(stderr, "uct-workload: %s failed: %s\n", what,
			sh->errors ? sh->errmsg : stop ? "interrupted" : "timed out");
		kill_all();
		return false;
	}
	return true;
}

static void kill_all(void)
{
	int i;

	/* everything we forked is in our process group (setpgid in main);
	 * also SIGKILL the recorded ones in case one ignores SIGTERM */
	signal(SIGTERM, SIG_IGN);
	kill(0, SIGTERM);
	for (i = 0; i < sh->nproc && i < MAXPROC; i++)
		if (sh->procs[i].pid > 0)
			kill(sh->procs[i].pid, SIGKILL);
	/* we are the subreaper: reap everyone so NPROC is uncharged before
	 * the next test starts */
	while (wait(NULL) > 0 || errno == EINTR)
		;
}

static int exec_as(uid_t uid, char **argv)
{
	if (setgroups(0, NULL) || setresgid(uid, uid, uid) || setresuid(uid, uid, uid)) {
		perror("uct-workload: dropping privileges");
		return 1;
	}
	execv(argv[0], argv);
	perror("uct-workload: execv");
	return 127;
}

/* --exec-as-caps: as exec_as(), keeping the capabilities listed in caps
 * ("39,38": CAP_BPF, CAP_PERFMON) as permitted, effective, inheritable
 * and ambient ones - what `setcap` on the tool would give a user. No
 * libcap: capset() and prctl() directly. */
static int exec_as_caps(uid_t uid, const char *caps, char **argv)
{
	struct __user_cap_header_struct hdr = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct data[2] = {};
	unsigned long list[64];
	size_t n = 0, i;
	const char *p = caps;
	char *end;

	while (*p && n < 64) {
		list[n] = strtoul(p, &end, 10);
		if (end == p || list[n] > 63 || (*end && *end != ',')) {
			fprintf(stderr, "uct-workload: bad capability list '%s'\n", caps);
			return 2;
		}
		n++;
		p = *end ? end + 1 : end;
	}
	if (prctl(PR_SET_KEEPCAPS, 1) || setgroups(0, NULL) || setresgid(uid, uid, uid) ||
	    setresuid(uid, uid, uid)) {
		perror("uct-workload: dropping privileges");
		return 1;
	}
	for (i = 0; i < n; i++) {
		data[list[i] / 32].permitted |= 1u << (list[i] % 32);
		data[list[i] / 32].effective |= 1u << (list[i] % 32);
		data[list[i] / 32].inheritable |= 1u << (list[i] % 32);
	}
	if (syscall(SYS_capset, &hdr, data)) {
		perror("uct-workload: capset");
		return 1;
	}
	for (i = 0; i < n; i++)
		if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_RAISE, list[i], 0, 0)) {
			perror("uct-workload: PR_CAP_AMBIENT_RAISE");
			return 1;
		}
	execv(argv[0], argv);
	perror("uct-workload: execv");
	return 127;
}

/* --shm-lock: one SHM_LOCK, charged to RLIMIT_MEMLOCK by user_shm_lock() */
static int shm_lock_once(long pages)
{
	int id = shmget(IPC_PRIVATE, pages * sysconf(_SC_PAGESIZE), IPC_CREAT | 0600);
	int rc = 0;

	if (pages <= 0 || id < 0) {
		perror("uct-workload: shmget");
		return 1;
	}
	if (shmctl(id, SHM_LOCK, NULL) == 0)
		printf("LOCKED\n");
	else if (errno == ENOMEM || errno == EPERM)
		printf("REFUSED %s\n", errno == ENOMEM ? "ENOMEM" : "EPERM");
	else
		rc = 1, perror("uct-workload: SHM_LOCK");
	shmctl(id, IPC_RMID, NULL);
	return rc;
}

int main(int argc, char **argv)
{
	int expected_ready = 0, i, t;
	struct sigaction sa = { .sa_handler = on_stop };

	if (argc > 3 && !strcmp(argv[1], "--exec-as") && !strcmp(argv[3], "--"))
		return exec_as((uid_t)atoi(argv[2]), argv + 4);
	if (argc > 5 && !strcmp(argv[1], "--exec-as-caps") && !strcmp(argv[4], "--"))
		return exec_as_caps((uid_t)atoi(argv[2]), argv[3], argv + 5);
	if (argc == 3 && !strcmp(argv[1], "--shm-lock"))
		return shm_lock_once(atol(argv[2]));
	if (argc == 2 && !strcmp(argv[1], "--names"))
		return names_mode();
	if (argc > 4 && !strcmp(argv[1], "--shared-uid"))
		return shared_uid_mode(argc - 2, argv + 2);
	if (argc == 3 && !strcmp(argv[1], "--fork-hold"))
		return fork_hold_mode(atoi(argv[2]));
	if (argc > 5 && !strcmp(argv[1], "--container") &&
	    (!strcmp(argv[4], "--") || (argc > 6 && !strcmp(argv[5], "--"))))
		return container_exec(argv + 2);
	with_denials = argc > 1 && !strcmp(argv[1], "--denials");
	if (argc > 1 && !with_denials) {
		fprintf(stderr, "usage: uct-workload [--denials] | --exec-as UID -- CMD [ARGS] | "
			"--exec-as-caps UID CAP[,CAP...] -- CMD [ARGS] | --shm-lock PAGES | "
			"--names | --container KIND ID [HOSTNAME] -- CMD [ARGS] | "
			"--shared-uid UID LIMIT KIND:ID:N... | --fork-hold N\n");
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	page_size = sysconf(_SC_PAGESIZE);
	mq_bytes = mqueue_charge();
	if (mq_bytes < 0) {
		fprintf(stderr, "uct-workload: cannot size struct msg_msg/posix_msg_tree_node "
			"from /sys/kernel/btf/vmlinux\n");
		return 1;
	}
	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED || pipe(ready_pipe)) {
		perror("uct-workload");
		return 1;
	}
	/* own process group (kill_all), and reaper of all descendants */
	setpgid(0, 0);
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	if (setgroups(0, NULL)) {
		perror("uct-workload: setgroups (must run as root)");
		return 1;
	}
	sh->ns_inum[0] = ns_inum_of(getpid());

	/* readiness: one byte per agent and holder */
	for (i = 1; i < NNS; i++)
		if (!nss[i].deny || with_denials)
			expected_ready += 1 + (nss[i].deny ? 2 : 0);
	for (i = 0; i < NHOLDERS; i++)
		expected_ready++;

	for (i = 1; i < NNS; i++)
		if (nss[i].parent == 0 && (!nss[i].deny || with_denials))
			spawn_ns(i);
	if (!wait_ready(expected_ready, 120, "setup"))
		return 1;

	printf("MQBYTES %ld\n", mq_bytes);
	for (i = 0; i < NNS; i++) {
		if (nss[i].deny && !with_denials)
			continue;
		printf("NS %s %lu %d %lu %u\n", nss[i].name, sh->ns_inum[i], level_of(i),
		       nss[i].parent >= 0 ? sh->ns_inum[nss[i].parent] : 0UL, nss[i].creator);
	}
	for (i = 0; i < sh->nproc; i++) {
		const struct proc *p = &sh->procs[i];

		printf("PROC %d %lu %u %s\n", p->pid, sh->ns_inum[p->ns], p->uid, p->role);
		charge(p->ns, p->uid, p->res);
	}
	for (i = 0; i < nrows; i++) {
		const struct row *r = &rows[i];

		/* (init, 0) also counts everything else root runs: not ours */
		if (r->ns == 0 && r->uid == 0)
			continue;
		printf("EXPECT %lu %d %u %ld %ld %ld %ld\n", sh->ns_inum[r->ns], level_of(r->ns),
		       r->uid, r->v[T_NPROC], r->v[T_MSGQUEUE], r->v[T_SIGPENDING],
		       r->v[T_MEMLOCK]);
	}
	if (with_denials)
		for (t = 0; t < NTYPES; t++)
			printf("DENY %lu %u %s %d\n", sh->ns_inum[NNS - 1], DENY_UID, type_names[t],
			       sh->denied[t]);
	printf("READY\n");

	while (!stop)
		pause();
	kill_all();
	return 0;
}
