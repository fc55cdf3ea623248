// SPDX-License-Identifier: GPL-2.0
/*
 * bench_names.c - the model's and the batch view's cost per refresh with
 * user names, on the host (no BPF): N namespaces with a process and a
 * row each (uct-bench's and make bench's shape), refreshed REPS times.
 *
 *   bench_names N REPS MODE [ROOTS]
 *
 * MODE 0: no names at all (no task records);
 *      1: process names (task records, cgroups), no passwd reader;
 *      2: and user names through a reader that hands out one passwd
 *         file of 40 users, as the guest's or a host's /etc/passwd;
 *      3: and the real reader, uct_passwd_read() of /proc/self: the
 *         syscalls of checking ROOTS files per refresh (the N namespaces'
 *         processes spread over ROOTS roots; default 1);
 *      4: hostile tenants: each namespace its own root and 1 MiB passwd
 *         file, changed before every refresh; ROOTS 0 lifts the budget
 *         (users.h) as if there were none. Also prints the peak RSS and
 *         what the budget counted.
 * Prints user+system CPU ms per refresh after the first. Under
 * valgrind --tool=callgrind, compare REPS 1 and REPS 6 for instructions
 * per refresh (docs/performance.md).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>
#include "model.h"
#include "views.h"
#include "snapshots.h"

/* -DNO_USERS builds it against a tree without user names, to compare
 * with one: modes 0 and 1 only */
#ifdef NO_USERS
#define ROOTED(t, mnt, dev, ino) (t)
#else
#define ROOTED(t, mnt, dev, ino) with_root(t, mnt, dev, ino)
#endif

static char passwd40[4096];

#ifndef NO_USERS
static int fake_passwd(void *arg, const struct uct_pwsrc *src, const struct uct_file_id *known,
		       struct uct_file_id *id, char **text, size_t *len, bool *whole)
{
	memset(id, 0, sizeof(*id));
	id->dev = 1;
	id->ino = 2;
	id->size = strlen(passwd40);
	if (known && !memcmp(known, id, sizeof(*id)))
		return 1;
	*len = strlen(passwd40);
	*text = strdup(passwd40);
	*whole = true;
	return *text ? 0 : -1;
}

static int real_passwd(void *arg, const struct uct_pwsrc *src, const struct uct_file_id *known,
		       struct uct_file_id *id, char **text, size_t *len, bool *whole)
{
	/* every check goes through our own process, in our namespaces */
	return uct_passwd_read("/proc", "/etc/passwd", arg, known, id, text, len, whole);
}

#endif

/* mode 4: a 1 MiB file of 1 MiB / 40 lines, changed every refresh */
static char *big;
static size_t big_len;
static int big_version;

static int hostile_passwd(void *arg, const struct uct_pwsrc *src, const struct uct_file_id *known,
			  struct uct_file_id *id, char **text, size_t *len, bool *whole)
{
	memset(id, 0, sizeof(*id));
	id->ino = src->pid;
	id->mtime_sec = src->pid ? big_version : 0;
	if (known && !memcmp(known, id, sizeof(*id)))
		return 1;
	*text = malloc(big_len);
	if (!*text)
		return -1;
	memcpy(*text, big, big_len);
	*len = big_len;
	*whole = true;
	return 0;
}

static int cgroup_root(void *arg, __u32 pid, __u64 id, char *path, size_t len, size_t *trusted,
		       __u32 *tenant)
{
	snprintf(path, len, "/");
	*trusted = 1;
	return 0;
}

static double cpu_ms(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return (ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1e3 +
	       (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e3;
}

static __u32 ns_ino(const char *path)
{
	struct stat st;

	return stat(path, &st) ? 0 : (__u32)st.st_ino;
}

int main(int argc, char **argv)
{
	size_t n = argc > 1 ? strtoul(argv[1], NULL, 10) : 10000, i, len = 0;
	int reps = argc > 2 ? atoi(argv[2]) : 6, mode = argc > 3 ? atoi(argv[3]) : 2, k;
	unsigned roots = argc > 4 ? (unsigned)atoi(argv[4]) : 1;
	struct uct_rec *recs = calloc(n + 1, sizeof(*recs));
	struct uct_tlim *tl = calloc(n + 1, sizeof(*tl));
	struct { __u32 pid, ns_inum, mnt_ns; } self = { (__u32)getpid(),
		ns_ino("/proc/self/ns/user"), ns_ino("/proc/self/ns/mnt") };
	struct uct_view_ctx c = { .snapshot_src = "iter/ucounts", .hooks = "-", .degraded = "",
				  .delay = 1.0 };
	struct uct_model m;
	FILE *out = fopen("/dev/null", "w");
	double t0 = 0;

	if (!recs || !tl || !out || (!roots && mode != 4))
		return 1;
	for (i = 0; i < 40; i++)
		len += (size_t)snprintf(passwd40 + len, sizeof(passwd40) - len,
					"user%zu:x:%zu:%zu:a user:/home/user%zu:/bin/sh\n", i,
					i ? 999 + i : 0, i ? 999 + i : 0, i);
	/* the initial namespace, and a namespace per row below it whose
	 * process (uid 1000 inside) has one of the roots */
	recs[0] = mkrec(1, 0, 1000, 0, 0, 0, (long long)n, 0, 0, 0, INF);
	tl[0] = ROOTED(mktask(1, 1000, 1, 1, 1, "init", "h"), self.mnt_ns, 1, 2);
	for (i = 1; i <= n; i++) {
		__u32 ns = 100 + (__u32)i;

		recs[i] = mkrec(ns, 1, 1000, 1, 1000, 1000, 1, 0, 0, 0, 100);
		tl[i] = ROOTED(mktask(ns, 1000, (__u32)(1000 + i), 10 + i, 1, "svc", "h"),
				  self.mnt_ns, 1, 3 + i % (roots ? roots : 1));
		/* the real reader checks a process of ours: its namespaces */
		tl[i].ns_inum = ns;
	}
	uct_model_init(&m);
	if (mode >= 1)
		m.cgroup_fn = cgroup_root;
#ifndef NO_USERS
	if (mode == 2)
		m.passwd_fn = fake_passwd;
	if (mode == 3) {
		m.passwd_fn = real_passwd;
		m.passwd_arg = &self;
	}
	if (mode == 4) {
		big = malloc(1 << 20);
		if (!big)
			return 1;
		while (big_len + 48 < 1 << 20)
			big_len += (size_t)sprintf(big + big_len, "tenant-user-%08zu:x:%zu:1::/:/bin/sh\n",
						   big_len, 10000 + big_len);
		m.passwd_fn = hostile_passwd;
		if (!roots) {
			m.passwd.max_files = m.passwd.max_bytes = m.passwd.max_held = (size_t)-1;
			m.passwd.max_seconds = 1e9;
		}
		for (i = 1; i <= n; i++)
			tl[i].root_ino = 3 + i;
	}
#endif
	for (k = 0; k < reps; k++) {
		if (k == 1)
			t0 = cpu_ms();
		if (uct_model_update(&m, recs, n + 1, NULL, 0, 1000.0 + k))
			return 1;
		if (mode >= 1 && uct_model_set_tasks(&m, tl, n + 1))
			return 1;
#ifndef NO_USERS
		big_version++;
#endif
		uct_model_resolve_names(&m, -1, 0);
		uct_view_batch(out, &m, &c);
	}
	fprintf(stderr, "n=%zu mode=%d roots=%u: %.3f ms/refresh after the first\n",
		n, mode, roots, reps > 1 ? (cpu_ms() - t0) / (reps - 1) : 0);
#ifndef NO_USERS
	if (mode == 4) {
		struct rusage ru;

		getrusage(RUSAGE_SELF, &ru);
		fprintf(stderr, "peak RSS %.1f MiB; passwd files held %.1f MiB; read %lu, "
			"put off %lu, not kept %lu\n", ru.ru_maxrss / 1024.0,
			m.passwd.held / 1048576.0, m.passwd.reads, m.passwd.deferred,
			m.passwd.dropped);
	}
#endif
	uct_model_free(&m);
	free(recs);
	free(tl);
	return 0;
}
