// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_seeds.c - writes the seed corpora of the fuzz targets
 * (tests/corpus/fuzz_*): realistic command lines, the snapshots of
 * tests/snapshots.h and check scenarios of tests/judge_scenario.h (as
 * test_judge.c builds them),
 * each in the input format its target reads. `make -C cli fuzz-seeds`
 * rewrites them; the files are committed, so a change here shows in git.
 *
 *   fuzz_seeds DIR      (DIR/fuzz_opts, DIR/fuzz_model, DIR/fuzz_check exist)
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "judge.h"
#include "judge_scenario.h"
#include "model.h"
#include "fuzz_input.h"
#include "snapshots.h"

static const char *dir;

static void put(const char *target, const char *name, const void *data, size_t len)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s/%s", dir, target, name);
	f = fopen(path, "wb");
	if (!f || fwrite(data, 1, len, f) != len || fclose(f)) {
		perror(path);
		exit(1);
	}
}

/* ---- fuzz_opts: arguments separated by NUL ---- */

static void opts(const char *name, ...)
{
	char buf[1024];
	size_t len = 0;
	const char *a;
	va_list ap;

	va_start(ap, name);
	while ((a = va_arg(ap, const char *))) {
		size_t n = strlen(a);

		if (len)
			buf[len++] = 0;
		memcpy(buf + len, a, n);
		len += n;
	}
	va_end(ap);
	put("fuzz_opts", name, buf, len);
}

static void opts_seeds(void)
{
	opts("batch-once", "-b", "-n", "1", NULL);
	opts("json-stream", "--json", "-n", "3", "-d", "0.5", NULL);
	opts("openmetrics-file", "--openmetrics", "-d", "15", "-o",
	     "/var/lib/node_exporter/ucounts.prom", NULL);
	opts("filters", "--uid", "1000", "-t", "sigpending", "-d", "5", "--ns", "4026531837", NULL);
	opts("events-sort", "--events", "-s", "change", NULL);
	opts("pin", "--pin", "/sys/fs/bpf/ucounttop", "--keep-pinned", "-n", "1", NULL);
	opts("top-all", "top", "--task-iter", "--no-tracepoints", "-v", "-b", "--max-entries",
	     "4096", NULL);
	opts("trace-stack", "trace", "-t", "nproc", "--stack", "--count", "10", "--duration",
	     "2.5", NULL);
	opts("trace-filters", "trace", "--ringbuf-kb", "1024", "--ns", "4026531837", "--uid", "0",
	     "--pin", "/sys/fs/bpf/t", NULL);
	opts("check-json", "check", "--json", "-o", "r.json", "--settle", "1", "--timeout", "30",
	     "--", "sh", "-c", "true", NULL);
	opts("check-cmd-opts", "check", "--fail-outstanding", "--max-entries", "65536", "ls", "-l",
	     "-d", NULL);
	opts("err-scope-check", "check", "--stack", "--", "true", NULL);
	opts("err-scope-top", "--settle", "3", NULL);
	opts("err-group", "-bz", NULL);
	opts("err-ambiguous", "--s", "uid", NULL);
	opts("err-noarg", "--json=1", NULL);
	opts("err-secs", "-d", "0x1p3", NULL);
	opts("listen", "--listen", "127.0.0.1:9465", "-d", "15", "--events", NULL);
	opts("listen-v6", "--listen=[::ffff:127.0.0.1]:9465", NULL);
	opts("err-listen-with", "--listen", "[::1]:1", "--json", NULL);
	opts("help", "--help", NULL);
	opts("version", "trace", "-V", NULL);
}

/* ---- fuzz_model: struct hdr, records, stats (see fuzz_model.c) ---- */

/* ... with task records (h->names >> FN_TASKS_SHIFT of them) and
 * passwd text (h->passwd_len bytes of pw) */
static void model_users(const char *name, const struct fuzz_model_hdr *h,
			const struct uct_rec *recs, size_t nrec, const struct uct_tlim *tl,
			const struct uct_stat_kv *st, size_t nst, const char *pw)
{
	size_t nt = h->names >> FN_TASKS_SHIFT;
	size_t len = sizeof(*h) + h->passwd_len + nrec * sizeof(*recs) + nt * sizeof(*tl) +
		     nst * sizeof(*st);
	char *buf = malloc(len), *p = buf;

	memcpy(p, h, sizeof(*h));
	p += sizeof(*h);
	if (h->passwd_len)
		memcpy(p, pw, h->passwd_len);
	p += h->passwd_len;
	memcpy(p, recs, nrec * sizeof(*recs));
	p += nrec * sizeof(*recs);
	if (nt)
		memcpy(p, tl, nt * sizeof(*tl));
	p += nt * sizeof(*tl);
	memcpy(p, st, nst * sizeof(*st));
	put("fuzz_model", name, buf, len);
	free(buf);
}

static void model_tasks(const char *name, const struct fuzz_model_hdr *h,
			const struct uct_rec *recs, size_t nrec, const struct uct_tlim *tl,
			const struct uct_stat_kv *st, size_t nst)
{
	model_users(name, h, recs, nrec, tl, st, nst, NULL);
}

static void model(const char *name, const struct fuzz_model_hdr *h, const struct uct_rec *recs,
		  size_t nrec, const struct uct_stat_kv *st, size_t nst)
{
	model_tasks(name, h, recs, nrec, NULL, st, nst);
}

static struct uct_stat_kv stat_of(__u32 ns, __u32 uid, const char *comm)
{
	struct uct_stat_kv kv;
	int t;

	mkstat(&kv, ns, uid);
	for (t = 0; t < UCT_NTYPES; t++) {
		kv.st.charges[t] = 10 + t;
		kv.st.uncharges[t] = 4 + t;
		kv.st.charged[t] = 10 + t;
		kv.st.uncharged[t] = 4 + t;
	}
	kv.st.denials[UCT_SIGPENDING] = 2;
	kv.st.limit_hits[UCT_NPROC] = 1;
	kv.st.last_pid = 77;
	memcpy(kv.st.last_comm, comm, strnlen(comm, sizeof(kv.st.last_comm) - 1));
	return kv;
}

static void model_seeds(void)
{
	struct uct_rec recs[16], more[32];
	struct uct_stat_kv st[3] = { 0 };
	struct fuzz_model_hdr h;
	size_t n = base_snapshot(recs), m;

	memset(&h, 0, sizeof(h));
	model("empty", &h, recs, 0, st, 0);
	model("base", &h, recs, n, st, 0);

	/* three refreshes over windows of it, with statistics and every view */
	st[0] = stat_of(100, 1001, "we\"ird\\comm\x01");
	st[1] = stat_of(1, 0, "systemd");
	st[2] = stat_of(999, 5, "gone");	/* matches no row */
	h = (struct fuzz_model_hdr){ .sort = UCT_SORT_CHANGE, .type = 0, .flags = FM_EVENTS | FM_TTY | FM_CALLER,
				.updates = 2, .width = 100, .nstats = 3,
				.win = { 0, 6, 1, 6, 0, 4 }, .step = 100 };
	model("refresh-events-tty", &h, recs, n, st, 3);

	/* uids as namespaces map them, an unmapped one; --kuid, 64 KiB pages */
	n = names_snapshot(more);
	more[0].value[UCT_MEMLOCK] = 3;
	h = (struct fuzz_model_hdr){ .sort = UCT_SORT_UID, .flags = FM_TTY, .updates = 1,
				.width = 80, .win = { 0, 5 } };
	model("ns-uids", &h, more, n, st, 0);
	h.flags = FM_TTY | FM_KUID;
	h.pad[0] = 16;
	model("kuid-64k-pages", &h, more, n, st, 0);
	n = base_snapshot(recs);

	/* filters and collapse: --ns 100, --uid 1002, -t msgqueue */
	h = (struct fuzz_model_hdr){ .sort = UCT_SORT_MSGQUEUE, .type = 1 + UCT_MSGQUEUE,
				.flags = FM_NS_FILTER | FM_UID_FILTER | FM_COLLAPSE | FM_TTY, .updates = 1, .width = 60,
				.win = { 0, 6, 0, 6 }, .step = 50, .pick_ns = 2, .pick_uid = 0 };
	model("filters-collapse", &h, recs, n, st, 1);

	/* imbalanced and over-limit rows, a duplicate, an orphan namespace,
	 * unlimited and negative values */
	memcpy(more, recs, n * sizeof(*recs));
	m = n;
	more[1].value[UCT_NPROC] = 1;			/* (1,1001) < 3+3 below it */
	more[m] = more[0];				/* duplicate (task iterator) */
	more[m++].flags = UCT_REC_TASK;
	more[m++] = mkrec(300, 3, 7, 250, 7, 7, -2, INF, 0, 5, 1);	/* parent absent */
	more[m++] = mkrec(1, 0, 4242, 0, 0, 0, INF, -1, INF, 0, INF);
	h = (struct fuzz_model_hdr){ .sort = UCT_SORT_NPROC, .flags = FM_TTY | FM_EVENTS, .updates = 2,
				.width = 80, .win = { 0, 9, 2, 8, 0, 0 }, .step = -100 };
	model("imbalanced-orphan", &h, more, m, st, 0);

	/* regressions of the views: counts of 2^63 and more (OpenMetrics
	 * printed them negative, DENY too), cells wider than their column
	 * (merged with their neighbour), 34 levels (names indented away) */
	mkstat(&st[0], 1, 1001);
	st[0].st.denials[UCT_NPROC] = 0x8000000000000005ULL;
	st[0].st.denials[UCT_MEMLOCK] = 0x7ffffffffffffffeULL;
	st[0].st.limit_hits[UCT_NPROC] = 0x7fffffffffffffffULL;
	st[0].st.charges[UCT_SIGPENDING] = ~0ULL;
	h = (struct fuzz_model_hdr){ .flags = FM_EVENTS, .updates = 0, .nstats = 1 };
	model("huge-counts", &h, recs, n, st, 1);
	memcpy(more, recs, n * sizeof(*recs));
	for (m = 0; m < n; m++)
		if (more[m].ns_inum == 1 && more[m].uid == 1001)
			more[m].value[UCT_MSGQUEUE] = 5632;
	h = (struct fuzz_model_hdr){ .updates = 1, .win = { 0, 6, 6, 12 }, .step = 100 };
	memcpy(more + n, more, n * sizeof(*more));
	memcpy(more, recs, n * sizeof(*recs));
	model("wide-cells", &h, more, 2 * n, st, 0);
	{
		struct uct_rec deep[UCT_MAX_LEVELS];
		__u32 l;

		for (l = 0; l < UCT_MAX_LEVELS; l++)
			deep[l] = mkrec(4026531837u + l, l, 4294967294u, l ? 4026531836u + l : 0,
					4294967294u, 4294967294u, UCT_MAX_LEVELS - l, 0, 0, 0, INF);
		h = (struct fuzz_model_hdr){ .flags = FM_TTY };
		model("deep-33", &h, deep, UCT_MAX_LEVELS, st, 0);
	}

	/* the same names, other objects: namespace 100 torn down and its
	 * inode reused between two refreshes; a stats entry of one of the
	 * old objects, and one named by its address only */
	memcpy(more, recs, n * sizeof(*recs));
	memcpy(more + n, recs, n * sizeof(*recs));
	for (m = n; m < 2 * n; m++)
		if (more[m].ns_inum == 100)
			more[m].id ^= 0x1000;
	mkstat(&st[0], 100, 1001);
	st[0].st.denials[UCT_NPROC] = 4;
	st[1] = stat_of(1, 0, "init");
	st[1].st.ns_inum = st[1].st.uid = 0;
	h = (struct fuzz_model_hdr){ .flags = FM_EVENTS | FM_TTY, .updates = 1, .nstats = 2,
				     .win = { 0, 6, 6, 12 }, .step = 100, .width = 90 };
	model("object-reused", &h, more, 2 * n, st, 2);

	/* what runs in the namespaces: base_tasks(), cgroups looked up (ids
	 * 1, 77: a bare path and a container's; see fuzz_cgroup()), every
	 * view, then --container and a search */
	{
		struct uct_tlim tl[16];
		size_t nt = base_tasks(tl);

		h = (struct fuzz_model_hdr){ .flags = FM_TTY, .updates = 1, .width = 80,
					     .win = { 0, 6, 0, 6 }, .step = 100,
					     .names = (uint8_t)(nt << FN_TASKS_SHIFT | FN_LOOKUP) };
		model_tasks("names", &h, recs, n, tl, st, 0);
		h.names |= FN_CONTAINER | FN_SCREEN;
		h.flags |= FM_SMALL_IDS;
		model_tasks("names-container", &h, recs, n, tl, st, 0);
		h.names = (uint8_t)(nt << FN_TASKS_SHIFT | FN_LOOKUP | FN_SEARCH);
		h.flags = FM_TTY;
		model_tasks("names-search", &h, recs, n, tl, st, 0);
	}

	/* user names: names_snapshot's namespaces and processes (ns 10 and
	 * 20 read the second piece), the host's file and a container's
	 * whose lines for the rows' uids are the hard ones: uid 0's first
	 * line refused, 2000 twice, a comment of 3000 and 3000 last with no
	 * newline (a cut line with FU_CUT); then a third piece of refused
	 * kinds of line and odd bytes, rotating, failing reads and --kuid;
	 * no task iterator */
	{
		static const char pw[] =
			TEST_HOST_PASSWD "\f"
			"# c:x:3000:0::/:\n\nbad:x:0:0:/:/bin/sh\nroot:x:0:0::/:/bin/sh\n"
			"first:x:2000:1::/:\nsecond:x:2000:1::/:\nc1500:x:1500:1::/:\n"
			"cut:x:3000:0::/:/bin/sh";
		static const char odd[] =
			"\fsix:x:101:1:/:/bin/sh\nhex:x:0x67:1::/:\n+nis:x:112:1::/:\n"
			" lead:x:0:1::/:\nq\"u\\o\xc3\xa9:x:2000:1::/:\n"
			"max:x:4294967294:0::/:\nover:x:4294967295:0::/:\n";
		char three[sizeof(pw) + sizeof(odd)];
		struct uct_tlim tl[8];
		size_t nt = names_tasks(tl), nn = names_snapshot(more);

		h = (struct fuzz_model_hdr){ .flags = FM_TTY, .updates = 1, .width = 80,
					     .win = { 0, 5, 0, 5 }, .step = 100,
					     .names = (uint8_t)(nt << FN_TASKS_SHIFT | FN_LOOKUP),
					     .users = FU_READER, .passwd_len = sizeof(pw) - 1 };
		model_users("users", &h, more, nn, tl, st, 0, pw);
		h.users = FU_READER | FU_CUT;
		model_users("users-cut", &h, more, nn, tl, st, 0, pw);
		memcpy(three, pw, sizeof(pw) - 1);
		memcpy(three + sizeof(pw) - 1, odd, sizeof(odd));
		h.users = FU_READER | FU_ROTATE | FU_FAIL;
		h.flags = FM_TTY | FM_KUID;
		h.updates = 2;
		h.names |= FN_SCREEN;
		h.passwd_len = (uint16_t)strlen(three);
		model_users("users-rotate-kuid", &h, more, nn, tl, st, 0, three);
		/* no task iterator: the initial namespace's file only */
		h = (struct fuzz_model_hdr){ .updates = 0, .users = FU_READER,
					     .passwd_len = sizeof(pw) - 1 };
		model_users("users-no-tasks", &h, more, nn, NULL, st, 0, pw);
	}

	/* small ids: the fuzzer's folded space, parents that meet */
	h = (struct fuzz_model_hdr){ .sort = UCT_SORT_UID, .flags = FM_SMALL_IDS | FM_TTY, .updates = 1,
				.width = 120 };
	for (m = 0; m < n; m++) {
		more[m] = recs[m];
		more[m].ns_inum %= 9;
		more[m].parent_ns_inum %= 9;
		more[m].uid %= 4;
		more[m].parent_uid %= 4;
	}
	model("small-ids", &h, more, n, st, 0);
}

/* ---- fuzz_check: struct hdr and arrays (see fuzz_check.c) ---- */

/*
 * A scenario of judge_scenario.h as fuzz_check reads it: the header
 * from the input's counts and flags, then each array's elements in use.
 * flags: what the input has no field for (FC_SMALL_IDS); status: CMD's
 * wait status, for the reports.
 */
static void check_write_as(const char *name, const struct judge_scenario *s, uint8_t flags,
			   int32_t status)
{
	const struct judge_input *in = &s->in;
	const void *arr[FC_NARRAYS] = {
		in->base.recs, in->base.inv, in->base.tally, in->fin.recs, in->fin.inv,
		in->fin.tally, in->agg, in->items, in->over, in->pend, in->freed, in->objs,
		in->pre_rel, in->gone,
	};
	const size_t n[FC_NARRAYS] = {
		in->base.nrecs, in->base.ninv, in->base.ntally, in->fin.nrecs, in->fin.ninv,
		in->fin.ntally, in->nagg, in->nitems, in->nover, in->npend, in->nfreed, in->nobjs,
		in->npre_rel, in->ngone,
	};
	const size_t sz[FC_NARRAYS] = {
		sizeof(*in->base.recs), sizeof(*in->base.inv), sizeof(*in->base.tally),
		sizeof(*in->fin.recs), sizeof(*in->fin.inv), sizeof(*in->fin.tally),
		sizeof(*in->agg), sizeof(*in->items), sizeof(*in->over), sizeof(*in->pend),
		sizeof(*in->freed), sizeof(*in->objs), sizeof(*in->pre_rel), sizeof(*in->gone),
	};
	struct fuzz_check_hdr h;
	char buf[sizeof(h) + sizeof(*s)];	/* the arrays are in *s */
	size_t len = sizeof(h), i;

	memset(&h, 0, sizeof(h));
	for (i = 0; i < FC_NARRAYS; i++)
		h.n[i] = (uint8_t)n[i];	/* no array of a scenario holds 256 */
	h.flags = flags | (in->complete ? FC_COMPLETE : 0) | (in->have_free_tp ? FC_FREE_TP : 0) |
		  (in->have_overlimit ? FC_OVERLIMIT : 0) | (in->have_mq_hooks ? FC_MQ : 0) |
		  (in->have_shm_hooks ? FC_SHM : 0) | (in->fail_outstanding ? FC_FAIL_OUT : 0);
	h.torn = (in->base.torn ? FC_TORN_BASE : 0) | (in->fin.torn ? FC_TORN_FIN : 0);
	for (i = 0; i < UCK_NCOUNTERS; i++)
		h.counters[i] = (uint8_t)in->counters[i];
	for (i = 0; i < JUDGE_NMISS; i++)
		h.missed[i] = (uint8_t)in->missed[i];
	h.status = status;
	memcpy(buf, &h, sizeof(h));
	for (i = 0; i < FC_NARRAYS; i++) {
		memcpy(buf + len, arr[i], n[i] * sz[i]);
		len += n[i] * sz[i];
	}
	put("fuzz_check", name, buf, len);
}

static void check_write(const char *name, const struct judge_scenario *s)
{
	check_write_as(name, s, 0, 0);
}

/* As the seeds have always named rows and tasks (test_id(), two
 * references, "sh" and "leak\ner"): the corpus is committed. */
static struct judge_scenario *sc_new(void)
{
	struct judge_scenario *s = judge_scenario_new();

	s->id_shift = 24;
	s->refcount = 2;
	s->agg_comm = "sh";
	s->item_comm = "leak\ner";
	return s;
}

static void check_seeds(void)
{
	struct judge_scenario *s;

	/* clean: nothing changed */
	s = sc_new();
	tree(s, 30, 3, 2, 30, 3, 2, 0, 0, 0);
	tasks(s, 1, 0, 29, 29);
	tasks(s, 1, 1000, 1, 1);
	tasks(s, 100, 1000, 2, 2);
	check_write("clean", s);

	/* a. lost uncharge of 3 processes in ns 100 */
	judge_scenario_clear(s);
	tree(s, 30, 3, 2, 30, 6, 5, 0, 3, 3);
	tasks(s, 1, 0, 29, 29);
	tasks(s, 1, 1000, 1, 1);
	tasks(s, 100, 1000, 2, 2);
	item(s, 100, 1000, UCT_NPROC, 3, 0, 11);
	agg(s, 100, 1000, UCT_NPROC, UCK_K_CHARGE, 11, 4, 4, 0);
	agg(s, 100, 1000, UCT_NPROC, UCK_K_UNCHARGE, 12, 1, 1, 0);
	s->in.counters[UCK_CNT_EVENTS] = 5;
	check_write("lost-uncharge", s);

	/* b. double uncharge, below zero */
	judge_scenario_clear(s);
	tree(s, 30, 3, 2, 30, 1, 0, 0, -2, -2);
	tasks(s, 1, 0, 29, 29);
	tasks(s, 1, 1000, 1, 1);
	tasks(s, 100, 1000, 2, 2);
	agg(s, 100, 1000, UCT_NPROC, UCK_K_UNMATCHED, 3, 2, 2, 0);
	agg(s, 100, 1000, UCT_NPROC, UCK_K_NEGATIVE, 3, 1, 1, -1);
	check_write_as("double-uncharge", s, 0, 9);	/* killed by SIGKILL */

	/* c. freed while charged, with its ancestors; d. a direct write */
	judge_scenario_clear(s);
	tree(s, 30, 3, 2, 30, 5, 2, 0, 0, 0);
	s->in.fail_outstanding = true;
	s->freed[0].k = (struct uck_free_key){ .ns_inum = 200, .uid = 1000, .stack_id = 5 };
	s->freed[0].v.count = 1;
	s->freed[0].v.value[UCT_NPROC] = 2;
	s->freed[0].v.level = 2;
	s->freed[0].v.nanc = 2;
	s->freed[0].v.anc[0] = (struct uct_key){ 100, 1000 };
	s->freed[0].v.anc[1] = (struct uct_key){ 1, 1000 };
	strcpy(s->freed[0].v.comm, "kworker/0:1");
	s->in.nfreed = 1;
	s->tf[0].k = (struct uct_key){ 200, 1000 };
	s->tf[0].v.net[UCT_NPROC] = 2;
	s->tf[0].v.parent = (struct uct_key){ 100, 1000 };
	s->tf[0].v.level = 2;
	s->in.fin.ntally = 1;
	check_write("freed-direct-write", s);

	/* e. admitted over limit, pending at the end; objects and releases */
	judge_scenario_clear(s);
	tree(s, 30, 3, 2, 30, 3, 2, 0, 0, 0);
	s->in.have_free_tp = false;
	s->over[0].k = (struct uck_over_key){ .ns_inum = 100, .uid = 1000, .type = UCT_NPROC,
					      .flags = UCK_E_CHECKED | UCK_E_SAID_WITHIN |
						       UCK_E_LEVEL, .stack_id = 4 };
	s->over[0].v = (struct uck_over){ .count = 1, .total = 1, .value = 6, .limit = 5,
					  .at_ns = 1, .at_uid = 1000, .at_level = 0, .stack2 = 6,
					  .pid = 61 };
	s->over[1] = s->over[0];
	s->over[1].k.flags = UCK_E_ROLLED_BACK;
	s->in.nover = 2;
	s->pend[0].tid = 62;
	s->pend[0].v = (struct uck_pend){ .ns_inum = 100, .uid = 1000, .type = UCT_MSGQUEUE,
					  .flags = UCK_E_CALLER_CMP, .amount = 1024, .value = 9000,
					  .limit = 8192, .at_level = 1, .stack_id = -14,
					  .pid = 62 };
	s->in.npend = 1;
	s->objs[0].id = 77;
	s->objs[0].v = (struct uck_obj){ .ns_inum = 100, .uid = 1000, .type = UCT_MSGQUEUE,
					 .kind = UCK_OBJ_MQUEUE, .amount = 1024, .pid = 62 };
	s->in.nobjs = 1;
	s->pre[0].k = (struct uck_rt_key){ .ns_inum = 100, .uid = 1000, .type = UCT_MEMLOCK };
	s->pre[0].v = (struct uck_sum){ .count = 1, .total = 4 };
	s->in.npre_rel = 1;
	s->gone[0] = s->pre[0];
	s->in.ngone = 1;
	s->in.counters[UCK_CNT_OVER_FULL] = 1;
	s->in.counters[UCK_CNT_STACK_ERR] = 2;
	check_write("admitted-objects", s);

	/* the task iterator: incomplete snapshots, rows known from tallies */
	judge_scenario_clear(s);
	tree(s, 30, 3, 2, 30, 3, 4, 0, 0, 2);
	s->in.complete = s->in.have_free_tp = false;
	s->in.have_mq_hooks = s->in.have_shm_hooks = false;	/* FC_OVERLIMIT only */
	s->tb[0].k = (struct uct_key){ 7, 3 };
	s->tb[0].v.parent = (struct uct_key){ 100, 1000 };
	s->tb[0].v.level = 2;
	s->in.base.ntally = 1;
	s->tf[0] = s->tb[0];
	s->tf[0].v.net[UCT_SIGPENDING] = 3;
	s->in.fin.ntally = 1;
	s->inv_f[0].k = (struct uck_inv_key){ .ns_inum = 7, .uid = 3, .kind = UCK_INV_SIGQ };
	s->inv_f[0].n = 3;
	s->in.fin.ninv = 1;
	s->in.counters[UCK_CNT_INV_TRUNC] = 1;
	s->in.counters[UCK_CNT_RACED] = 3;
	s->in.fin.torn = true;	/* the final counters never settled */
	check_write_as("task-iter-small-ids", s, FC_SMALL_IDS, 0);

	/* runs the kernel skipped (debug kernel, 71-stress-nproc): a fork
	 * refused by the check whose uncharge nobody saw, a direct write
	 * at ns 100 and a queue whose destruction nobody saw */
	judge_scenario_clear(s);
	tree(s, 30, 3, 2, 30, 3, 3, 0, 0, 0);
	s->over[0].k = (struct uck_over_key){ .ns_inum = 100, .uid = 1000, .type = UCT_NPROC,
					      .flags = UCK_E_CHECKED | UCK_E_CHECK_OVER |
						       UCK_E_LEVEL, .stack_id = 4 };
	s->over[0].v = (struct uck_over){ .count = 1, .total = 1, .value = 322, .limit = 320,
					  .at_ns = 1, .at_uid = 1000, .at_level = 0, .stack2 = -1,
					  .pid = 71 };
	s->in.nover = 1;
	s->objs[0].id = 78;
	s->objs[0].v = (struct uck_obj){ .ns_inum = 100, .uid = 1000, .type = UCT_MSGQUEUE,
					 .kind = UCK_OBJ_MQUEUE, .amount = 1024, .pid = 71 };
	s->in.nobjs = 1;
	s->in.missed[JUDGE_MISS_CHARGE] = 3;
	s->in.missed[JUDGE_MISS_LIMIT] = 1;
	s->in.missed[JUDGE_MISS_MQ] = 1;
	check_write("missed-events", s);
	free(s);
}

/*
 * Inputs that once made a target fail, kept as regressions
 * (docs/testing.md): a delta between LLONG_MIN and LLONG_MAX, a circle
 * of parent links, counters at the ends of the range.
 */
static void known_seeds(void)
{
	struct uct_rec recs[2];
	struct uct_stat_kv none = { 0 };
	struct fuzz_model_hdr h;
	struct judge_scenario *s = sc_new();

	/* model.c: a counter from LLONG_MIN to LLONG_MAX between refreshes,
	 * the delta overflows (and so does the child sum, and |delta|) */
	recs[0] = mkrec(1, 0, 0, 0, 0, 0, -INF - 1, 0, 0, 0, INF);
	recs[1] = mkrec(1, 0, 0, 0, 0, 0, INF, 0, 0, 0, INF);
	h = (struct fuzz_model_hdr){ .updates = 1, .win = { 0, 1, 1, 2 }, .step = 100 };
	model("known-wide-delta-overflow", &h, recs, 2, &none, 0);

	/* judge.c: parent links (2,1) -> (3,1) -> (2,1), as inode
	 * reuse can make them, under them (4,1) and under that (5,1), whose
	 * counter dropped by 5 with no uncharge. (4,1) is left with W = +5
	 * that no level above takes: judge_find_hierarchy() climbs the cycle for ever */
	rec(s, &s->in.base, 2, 1, 1, 3, 1, UCT_NPROC, 0, 0);
	rec(s, &s->in.base, 3, 0, 1, 2, 1, UCT_NPROC, 0, 0);
	rec(s, &s->in.base, 4, 2, 1, 2, 1, UCT_NPROC, 0, 0);
	rec(s, &s->in.base, 5, 3, 1, 4, 1, UCT_NPROC, 5, 0);
	rec(s, &s->in.fin, 2, 1, 1, 3, 1, UCT_NPROC, 0, 0);
	rec(s, &s->in.fin, 3, 0, 1, 2, 1, UCT_NPROC, 0, 0);
	rec(s, &s->in.fin, 4, 2, 1, 2, 1, UCT_NPROC, 0, 0);
	rec(s, &s->in.fin, 5, 3, 1, 4, 1, UCT_NPROC, 0, 0);
	check_write("known-cycle-hang", s);

	/* judge.c: counters at the ends of the range, D = F - B
	 * overflows */
	judge_scenario_clear(s);
	rec(s, &s->in.base, 1, 0, 0, 0, 0, UCT_NPROC, -INF - 1, 0);
	rec(s, &s->in.fin, 1, 0, 0, 0, 0, UCT_NPROC, INF, 0);
	check_write("known-wide-counter-overflow", s);
	free(s);
}

/* ---- fuzz_engine_json: engines' files and cgroup paths ---- */

#define SEED_UID	"0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0"
#define SEED_CID	"0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"

static void engine(const char *name, const char *text)
{
	put("fuzz_engine_json", name, text, strlen(text));
}

static void engine_seeds(void)
{
	engine("docker-config", "{\"StreamConfig\":{},\"Config\":{\"Labels\":{\"Name\":\"/x\"},"
	       "\"Env\":[\"A=1\"]},\"Name\":\"/web\",\"Driver\":\"overlay2\"}");
	engine("containerd-bundle", "{\"ociVersion\":\"1.1.0\",\"process\":{\"args\":[\"sh\"]},"
	       "\"annotations\":{\"io.kubernetes.cri.container-type\":\"container\","
	       "\"io.kubernetes.cri.sandbox-name\":\"web-1\","
	       "\"io.kubernetes.cri.sandbox-namespace\":\"shop\","
	       "\"io.kubernetes.cri.sandbox-uid\":\"" SEED_UID "\","
	       "\"io.kubernetes.cri.container-name\":\"nginx\"}}");
	engine("crio-bundle", "{\n  \"annotations\": {\n"
	       "    \"io.kubernetes.cri-o.ContainerType\": \"sandbox\",\n"
	       "    \"io.kubernetes.pod.name\": \"db-0\",\n"
	       "    \"io.kubernetes.pod.namespace\": \"kube-system\",\n"
	       "    \"io.kubernetes.pod.uid\": \"" SEED_UID "\"\n  }\n}\n");
	/* a UID with a bad digit once left its first digits behind */
	engine("known-partial-pod-uid", "{\"annotations\":{\"io.kubernetes.pod.name\":\"db-0\","
	       "\"io.kubernetes.pod.namespace\":\"ks\",\"io.kubernetes.cri-o.ContainerType\":"
	       "\"sandbox\",\"io.kubernetes.pod.uid\":\"0f1e2d3c-4b5a-6978-8796-a5j4c3d2e1f0\"}}");
	engine("path-cgroupfs", "/kubepods/burstable/pod" SEED_UID "/" SEED_CID);
	engine("path-systemd", "/kubepods.slice/kubepods-besteffort.slice/kubepods-besteffort-pod"
	       "0f1e2d3c_4b5a_6978_8796_a5b4c3d2e1f0.slice/cri-containerd-" SEED_CID ".scope");
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: fuzz_seeds DIR\n");
		return 2;
	}
	dir = argv[1];
	opts_seeds();
	model_seeds();
	check_seeds();
	known_seeds();
	engine_seeds();
	return 0;
}
