/* SPDX-License-Identifier: GPL-2.0 */
/*
 * snapshots.h - synthetic snapshots for the host unit tests.
 *
 * Tree used by most tests (inums small for readability):
 *
 *   ns 1 L0 (init)           uid 0: nproc 10
 *                            uid 1001: nproc 6, msgqueue 2048, sigpending 4
 *                            uid 1002: nproc 2
 *     ns 100 L1 owner 1001   (created by (1,1001), max nproc 5)
 *                            uid 1001: nproc 3, sigpending 4
 *                            uid 1002: nproc 3, msgqueue 2048
 *       ns 200 L2 owner 1002 (created by (100,1002), max nproc 4)
 *                            uid 1002: nproc 2, msgqueue 2048
 *
 * (1,1001) = 6 == 3+3 (the rows of namespace 100), but 6 > max 5: over
 * limit. (100,1002) = 3 >= 2 (namespace 200). Nothing imbalanced.
 */
#ifndef UCT_TEST_SNAPSHOTS_H
#define UCT_TEST_SNAPSHOTS_H

#include <string.h>
#include "model.h"

#define INF 0x7fffffffffffffffLL

/* A made-up kernel address per (ns, uid), as the iterator reports it */
static inline __u64 test_id(__u32 ns, __u32 uid)
{
	return 0xffff888000000000ULL | (__u64)ns << 24 | uid;
}

/* A stats entry made for the object (ns, uid) */
static inline void mkstat(struct uct_stat_kv *kv, __u32 ns, __u32 uid)
{
	memset(kv, 0, sizeof(*kv));
	kv->id = test_id(ns, uid);
	kv->st.ns_inum = ns;
	kv->st.uid = uid;
}

static inline struct uct_rec mkrec(__u32 ns, __u32 level, __u32 uid, __u32 pns, __u32 puid,
				   __u32 owner, long long nproc, long long mq, long long sig,
				   long long mem, long long max_nproc)
{
	struct uct_rec r;

	memset(&r, 0, sizeof(r));
	r.id = test_id(ns, uid);
	r.ns_inum = ns;
	r.level = level;
	r.uid = uid;
	r.parent_ns_inum = pns;
	r.parent_uid = puid;
	r.owner_uid = owner;
	/* uids mapped to themselves, as uct-workload's namespaces map them */
	r.ns_uid = uid;
	r.owner_ns_uid = owner;
	r.refcount = 1;
	r.flags = pns ? UCT_REC_ITER : (UCT_REC_ITER | UCT_REC_ROOT);
	r.value[UCT_NPROC] = nproc;
	r.value[UCT_MSGQUEUE] = mq;
	r.value[UCT_SIGPENDING] = sig;
	r.value[UCT_MEMLOCK] = mem;
	r.ns_max[UCT_NPROC] = max_nproc;
	r.ns_max[UCT_MSGQUEUE] = 819200;
	r.ns_max[UCT_SIGPENDING] = 7671;
	r.ns_max[UCT_MEMLOCK] = 2048;	/* pages: 8 MiB, as the series stores it */
	return r;
}

/* Fills recs (>= 6 entries) with the tree above, in a scrambled order. */
static inline size_t base_snapshot(struct uct_rec *recs)
{
	size_t n = 0;

	recs[n++] = mkrec(200, 2, 1002, 100, 1002, 1002, 2, 2048, 0, 0, 4);
	recs[n++] = mkrec(1, 0, 1001, 0, 0, 0, 6, 2048, 4, 0, INF);
	recs[n++] = mkrec(100, 1, 1001, 1, 1001, 1001, 3, 0, 4, 0, 5);
	recs[n++] = mkrec(1, 0, 0, 0, 0, 0, 10, 0, 0, 0, INF);
	recs[n++] = mkrec(100, 1, 1002, 1, 1001, 1001, 3, 2048, 0, 0, 5);
	recs[n++] = mkrec(1, 0, 1002, 0, 0, 0, 2, 0, 0, 0, INF);
	return n;
}

/*
 * uids as namespaces map them: kuid 1000 creates namespace 10
 * and is uid 2000 in it ("2000 1000 1"), creates namespace 20 there and
 * is uid 3000 in it ("3000 2000 1"). Namespace 20 also has a row of kuid
 * 1500, which it does not map (a process that has not written its map
 * yet, say), and namespace 10 a row of kuid 900, mapped to 0.
 *
 *   ns 1 L0 (init)            uid 1000 (kuid 1000): nproc 3
 *     ns 10 L1 owner 1000     uid 2000 (kuid 1000): nproc 3; uid 0 (kuid 900)
 *       ns 20 L2 owner 2000   uid 3000 (kuid 1000): nproc 1; uid - (kuid 1500)
 */
static inline size_t names_snapshot(struct uct_rec *recs)
{
	size_t n = 0;

	recs[n++] = mkrec(20, 2, 1500, 10, 1000, 1000, 1, 0, 0, 0, 50);
	recs[n - 1].ns_uid = UCT_NO_UID;
	recs[n - 1].owner_ns_uid = 2000;
	recs[n++] = mkrec(20, 2, 1000, 10, 1000, 1000, 1, 0, 0, 0, 50);
	recs[n - 1].ns_uid = 3000;
	recs[n - 1].owner_ns_uid = 2000;
	recs[n++] = mkrec(10, 1, 1000, 1, 1000, 1000, 3, 0, 0, 0, 60);
	recs[n - 1].ns_uid = 2000;
	recs[n++] = mkrec(10, 1, 900, 1, 1000, 1000, 1, 0, 0, 0, 60);
	recs[n - 1].ns_uid = 0;
	recs[n++] = mkrec(1, 0, 1000, 0, 0, 0, 5, 0, 0, 0, INF);
	return n;
}

/*
 * What runs in base_snapshot's namespaces (task_limits records):
 *   ns 1    init(1), sh(50); hostname uct-guest, cgroup 1 = "/"
 *   ns 100  nginx(300) and nginx(301), started in the same tick, and
 *           worker(299), started later: named nginx(300); hostname web-1,
 *           cgroup 77 = docker container TEST_CID
 *   ns 200  no process: its row (200,1002) holds a queue of its own
 * and a record of a namespace not in the snapshot, one with no pid.
 */
#define TEST_CID "3f2a1b4c5d6e7f8091a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f708"
#define TEST_CGROUP "/system.slice/docker-" TEST_CID ".scope"

static inline struct uct_tlim mktask(__u32 ns, __u32 uid, __u32 pid, __u64 start, __u64 cgid,
				     const char *comm, const char *host)
{
	struct uct_tlim t;
	size_t n;
	int i;

	memset(&t, 0, sizeof(t));
	t.id = test_id(ns, uid);
	for (i = 0; i < UCT_NTYPES; i++)
		t.rlim[i] = INF;
	t.ns_inum = ns;
	t.pid = pid;
	t.start_time = start;
	t.cgroup_id = cgid;
	/* as the kernel fills them: cut, NUL-terminated but for a full field */
	n = strlen(comm);
	memcpy(t.comm, comm, n < sizeof(t.comm) ? n : sizeof(t.comm));
	n = strlen(host);
	memcpy(t.hostname, host, n < sizeof(t.hostname) ? n : sizeof(t.hostname));
	return t;
}

static inline size_t base_tasks(struct uct_tlim *t)
{
	size_t n = 0;

	t[n++] = mktask(100, 1001, 301, 3000, 77, "nginx", "web-1");
	t[n++] = mktask(1, 0, 50, 500, 1, "sh", "uct-guest");
	t[n++] = mktask(100, 1002, 299, 3500, 77, "worker", "web-1");
	t[n++] = mktask(1, 0, 1, 10, 1, "init", "uct-guest");
	t[n++] = mktask(100, 1001, 300, 3000, 77, "nginx", "web-1");
	t[n++] = mktask(999, 5, 7, 1, 5, "elsewhere", "x");
	t[n++] = mktask(1, 0, 0, 0, 1, "nopid", "x");
	return n;
}

/* The cgroup lookup the tool does from /proc: cgroups 1 and 77 (above),
 * 88 (a podman container); others fail. *arg counts the calls. */
static inline int test_cgroup_fn(void *arg, __u32 pid, __u64 id, char *path, size_t len,
				 size_t *trusted, __u32 *tenant)
{
	const char *p = id == 1 ? "/" : id == 77 ? TEST_CGROUP :
			id == 88 ? "/machine.slice/libpod-" TEST_CID ".scope/container" : NULL;

	if (arg)
		(*(int *)arg)++;
	if (!p || strlen(p) >= len)
		return -1;
	strcpy(path, p);
	*trusted = strlen(p);	/* all of it made by root */
	return 0;
}

/*
 * User names (users.h) for names_snapshot's namespaces. Each namespace's
 * oldest process and where its root is:
 *   ns 1   init(1)      the host's root (mount ns 4026531840, root 2)
 *   ns 10  app(110)     a root of its own (a container, chrooted: root 777)
 *   ns 20  job(120)     the host's root again
 * and the passwd files the fake reader gives: ucounttop's own and the
 * host root's (through pid 120 or 1) hold TEST_HOST_PASSWD, the
 * container's TEST_CTR_PASSWD. The host calls kuid 1000 alice and 2000
 * bob; the container calls its uid 2000 (kuid 1000) app - "bob" there
 * would be the host's name, the wrong one. Nobody names 3000.
 */
#define TEST_MNT_NS	4026531840u
#define TEST_HOST_PASSWD "root:x:0:0:root:/root:/bin/sh\n" \
			 "alice:x:1000:1000:Alice:/home/alice:/bin/sh\n" \
			 "k1500:x:1500:1500::/:/bin/sh\n" \
			 "bob:x:2000:2000::/home/bob:/bin/sh\n"
#define TEST_CTR_PASSWD	 "root:x:0:0:root:/root:/bin/sh\n" \
			 "app:x:2000:2000:the app:/srv:/sbin/nologin\n" \
			 "c1500:x:1500:1500::/:/bin/sh\n"

static inline struct uct_tlim with_root(struct uct_tlim t, __u32 mnt, __u32 dev, __u64 ino)
{
	t.mnt_ns = mnt;
	t.root_dev = dev;
	t.root_ino = ino;
	return t;
}

static inline size_t names_tasks(struct uct_tlim *t)
{
	size_t n = 0;

	t[n++] = with_root(mktask(1, 0, 1, 10, 1, "init", "uct-guest"), TEST_MNT_NS, 0x800001, 2);
	t[n++] = with_root(mktask(10, 1000, 110, 500, 1, "app", "uct-guest"), TEST_MNT_NS,
			   0x800001, 777);
	t[n++] = with_root(mktask(20, 1000, 120, 600, 1, "job", "uct-guest"), TEST_MNT_NS,
			   0x800001, 2);
	return n;
}

/* The fake reader's state: calls and reads so far; a file's version
 * (bump it to change the file: a new mtime); text to use instead */
struct test_passwd {
	int calls, reads, fail_pid;
	int version[3];			/* own, host root, container */
	const char *text[3];		/* NULL: the defaults above */
};

static inline int test_passwd_fn(void *arg, const struct uct_pwsrc *src,
				 const struct uct_file_id *known, struct uct_file_id *id,
				 char **text, size_t *len, bool *whole)
{
	struct test_passwd *tp = arg;
	int k = src->pid == 0 ? 0 : src->pid == 110 ? 2 : 1;
	const char *t;

	tp->calls++;
	if (src->pid && (int)src->pid == tp->fail_pid)
		return -1;
	t = tp->text[k] ? tp->text[k] : k == 2 ? TEST_CTR_PASSWD : TEST_HOST_PASSWD;
	memset(id, 0, sizeof(*id));
	id->dev = 8;
	id->ino = 100 + (__u64)k;
	id->size = strlen(t);
	id->mtime_sec = tp->version[k];
	if (known && !memcmp(known, id, sizeof(*id)))
		return 1;
	tp->reads++;
	*len = strlen(t);
	*text = malloc(*len + 1);
	if (!*text)
		return -1;
	memcpy(*text, t, *len + 1);
	*whole = true;
	return 0;
}

#endif /* UCT_TEST_SNAPSHOTS_H */
