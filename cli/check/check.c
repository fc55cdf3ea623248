// SPDX-License-Identifier: GPL-2.0
/*
 * check.c - `ucounttop check`: load ucounttop_check.bpf.c, take a
 * baseline, run the command as a child subreaper, wait for every
 * descendant, settle, read everything the BPF side aggregated, judge it
 * (judge.c) and report (check_report.c).
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include "check.h"
#include "judge.h"
#include "check_report.h"
#include "check_cmd.h"
#include "clock.h"
#include "ksyms.h"
#include "loader.h"
#include "mapdump.h"
#include "ucounttop_check.skel.h"

#define QUIET_S		1.0	/* settle: stop after this long without events */
#define POLL_S		0.1
#define C_COUNT_MAX	24	/* programs in ucounttop_check.bpf.c, at most */

struct ck {
	struct ucounttop_check_bpf *skel;
	struct uct_features feat;
	bool have_mq, have_shm, have_free, have_overlimit, complete;
	struct uct_prog progs[C_COUNT_MAX];
	size_t nprogs;
	char hooks[1024];
	char degraded[1024];		/* hooks dropped, and what it costs */
	struct bpf_link *snap_link, *inv_link;
	struct uct_ksyms *ksyms;
	bool ksyms_tried;
	/* symbolized stacks, by id */
	struct frames { __s32 id; size_t n; char **f; } *cache;
	size_t ncache;
	char *snap_buf;
	size_t snap_cap;
};

static void sleep_s(double s)
{
	struct timespec ts = { (time_t)s, (long)((s - (time_t)s) * 1e9) };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/* ---- loading --------------------------------------------------------------------- */

/* Attached in this order: every return (fexit) before its entry (fentry),
 * so that no entry is counted without its return (see window_open()). */
enum {
	C_INC, C_DEC, C_INC_GET, C_DEC_PUT_RET, C_INC_IN, C_DEC_IN, C_INC_GET_IN, C_DEC_PUT,
	C_OVERLIMIT, C_OVERLIMIT_IN, C_UCOUNTS_OVERLIMIT, C_UCOUNTS_OVERLIMIT_IN, C_FREE,
	C_MQ_NEW, C_MQ_EVICT, C_SHM_LOCK_IN, C_SHM_LOCK_OUT, C_USER_SHM_LOCK,
	C_USER_SHM_UNLOCK, C_SHM_EVICT, C_SNAP_UCOUNTS, C_SNAP_TASK, C_INVENTORY, C_COUNT
};

/* Every program of ucounttop_check.bpf.c, chosen for this kernel. */
static void prog_table(struct ck *c)
{
	struct ucounttop_check_bpf *s = c->skel;
	const struct uct_features *f = &c->feat;
	struct uct_prog *p = c->progs;

#define PROG(i, name, w) (p[i] = (struct uct_prog){ s->progs.name, &s->links.name, (w) })
	PROG(C_INC, ck_inc, true);
	PROG(C_DEC, ck_dec, true);
	PROG(C_INC_GET, ck_inc_get, true);
	PROG(C_DEC_PUT_RET, ck_dec_put_ret, true);
	PROG(C_INC_IN, ck_inc_in, true);
	PROG(C_DEC_IN, ck_dec_in, true);
	PROG(C_INC_GET_IN, ck_inc_get_in, true);
	PROG(C_DEC_PUT, ck_dec_put, true);
	PROG(C_OVERLIMIT, ck_overlimit, f->fn_overlimit && !f->fn_ucounts_overlimit);
	PROG(C_OVERLIMIT_IN, ck_overlimit_in, f->fn_overlimit && !f->fn_ucounts_overlimit);
	PROG(C_UCOUNTS_OVERLIMIT, ck_ucounts_overlimit, f->fn_ucounts_overlimit);
	PROG(C_UCOUNTS_OVERLIMIT_IN, ck_ucounts_overlimit_in, f->fn_ucounts_overlimit);
	PROG(C_FREE, ck_free, c->have_free);
	PROG(C_MQ_NEW, ck_mq_new, f->fn_mqueue);
	PROG(C_MQ_EVICT, ck_mq_evict, f->fn_mqueue);
	PROG(C_SHM_LOCK_IN, ck_shm_lock_in, f->fn_shm);
	PROG(C_SHM_LOCK_OUT, ck_shm_lock_out, f->fn_shm);
	PROG(C_USER_SHM_LOCK, ck_user_shm_lock, f->fn_shm);
	PROG(C_USER_SHM_UNLOCK, ck_user_shm_unlock, f->fn_shm);
	PROG(C_SHM_EVICT, ck_shm_evict, f->fn_shm);
	PROG(C_SNAP_UCOUNTS, ck_snap_ucounts, c->complete);
	PROG(C_SNAP_TASK, ck_snap_task, !c->complete);
	PROG(C_INVENTORY, ck_inventory, true);
#undef PROG
	c->nprogs = C_COUNT;
}

/* What a skipped run of each program would have fed (enum judge_miss);
 * -1: an iterator, which the kernel never skips */
static int miss_group(int i)
{
	switch (i) {
	case C_INC: case C_DEC: case C_INC_GET: case C_DEC_PUT:
		return JUDGE_MISS_CHARGE;
	case C_DEC_PUT_RET: case C_INC_IN: case C_DEC_IN: case C_INC_GET_IN:
	case C_OVERLIMIT: case C_OVERLIMIT_IN: case C_UCOUNTS_OVERLIMIT:
	case C_UCOUNTS_OVERLIMIT_IN:
		return JUDGE_MISS_LIMIT;
	case C_FREE:
		return JUDGE_MISS_FREE;
	case C_MQ_NEW: case C_MQ_EVICT:
		return JUDGE_MISS_MQ;
	case C_SHM_LOCK_IN: case C_SHM_LOCK_OUT: case C_USER_SHM_LOCK:
	case C_USER_SHM_UNLOCK: case C_SHM_EVICT:
		return JUDGE_MISS_SHM;
	default:
		return -1;
	}
}

/* Runs the kernel skipped since attach, by what they would have fed. */
static void read_misses(struct ck *c, unsigned long long m[JUDGE_NMISS])
{
	size_t i;
	int g;

	memset(m, 0, JUDGE_NMISS * sizeof(*m));
	for (i = 0; i < c->nprogs; i++) {
		g = miss_group((int)i);
		if (g >= 0 && c->progs[i].want && *c->progs[i].link)
			m[g] += uct_prog_misses(c->progs[i].prog);
	}
}

/* What a lost optional hook costs, and what the judge must then not
 * claim. Called after attaching. */
static void dropped(struct ck *c)
{
	struct uct_prog *p = c->progs;

	c->have_overlimit = (p[C_OVERLIMIT].want && p[C_OVERLIMIT_IN].want) ||
			    (p[C_UCOUNTS_OVERLIMIT].want && p[C_UCOUNTS_OVERLIMIT_IN].want);
	c->have_free = p[C_FREE].want;
	c->have_mq = p[C_MQ_NEW].want && p[C_MQ_EVICT].want;
	c->have_shm = p[C_SHM_LOCK_IN].want && p[C_SHM_LOCK_OUT].want &&
		      p[C_USER_SHM_LOCK].want && p[C_USER_SHM_UNLOCK].want &&
		      p[C_SHM_EVICT].want;
}

static int ck_open(struct ck *c, const struct uct_opts *o, char *msg, size_t len)
{
	LIBBPF_OPTS(bpf_object_open_opts, open_opts);
	const struct uct_features *f = &c->feat;
	unsigned n_small, n_big;
	size_t i;
	int err;

	uct_libbpf_setup(o->verbose);
	err = uct_probe_features(&c->feat, msg, len);
	if (err)
		return err;
	if (!f->fn_inc || !f->fn_dec || !f->fn_inc_get || !f->fn_dec_put) {
		snprintf(msg, len, "the kernel cannot trace the four rlimit charge functions "
			 "(inc_rlimit_ucounts and friends: %s), which check hooks",
			 f->refused[0] ? "the verifier refused a tracing program" :
					 "not in its BTF");
		return UCT_EXIT_KERNEL;
	}
	if (!f->iter_task) {
		snprintf(msg, len, "kernel lacks the BPF task iterator (iter/task)");
		return UCT_EXIT_KERNEL;
	}
	c->have_free = f->tp_free && !o->no_tracepoints;
	c->complete = f->iter_ucounts && !o->force_task_iter;

	open_opts.kernel_log_level = uct_kernel_log_level();
	c->skel = ucounttop_check_bpf__open_opts(&open_opts);
	if (!c->skel) {
		snprintf(msg, len, "cannot open the BPF object: %s", strerror(errno));
		return UCT_EXIT_TOOL;
	}
	prog_table(c);
	for (i = C_OVERLIMIT; i <= C_SHM_EVICT; i++) {
		c->progs[i].optional = true;
		c->progs[i].loss = "what it would show is not judged (see the report's notes)";
	}
	uct_progs_autoload(c->progs, c->nprogs);
	c->skel->rodata->page_shift = __builtin_ctzl(sysconf(_SC_PAGESIZE));
	n_small = o->max_entries > 16384 ? o->max_entries : 16384;
	n_big = n_small * 4;
	bpf_map__set_max_entries(c->skel->maps.tally, n_small);
	bpf_map__set_max_entries(c->skel->maps.agg, n_small);
	bpf_map__set_max_entries(c->skel->maps.fifo, n_small);
	bpf_map__set_max_entries(c->skel->maps.stacks, n_small);
	bpf_map__set_max_entries(c->skel->maps.inv, n_small);
	bpf_map__set_max_entries(c->skel->maps.item, n_big);
	bpf_map__set_max_entries(c->skel->maps.obj, n_big);
	err = ucounttop_check_bpf__load(c->skel);
	if (err) {
		snprintf(msg, len, "loading the check BPF programs failed: %s%s", strerror(-err),
			 o->verbose ? "" : " (run with -v for libbpf's log)");
		return err == -EPERM ? UCT_EXIT_PRIV : UCT_EXIT_TOOL;
	}
	err = uct_progs_attach(c->progs, c->nprogs, c->hooks, sizeof(c->hooks), c->degraded,
			       sizeof(c->degraded), msg, len);
	if (err)
		return err == UCT_EXIT_FAIL ? UCT_EXIT_TOOL : err;
	dropped(c);
	c->snap_link = *c->progs[c->complete ? C_SNAP_UCOUNTS : C_SNAP_TASK].link;
	c->inv_link = *c->progs[C_INVENTORY].link;
	return 0;
}

static void ck_close(struct ck *c)
{
	size_t i, j;

	ucounttop_check_bpf__destroy(c->skel);
	uct_ksyms_free(c->ksyms);
	for (i = 0; i < c->ncache; i++) {
		for (j = 0; j < c->cache[i].n; j++)
			free(c->cache[i].f[j]);
		free(c->cache[i].f);
	}
	free(c->cache);
	free(c->snap_buf);
}

/* ---- reading ----------------------------------------------------------------------- */

static unsigned long long events_now(struct ck *c)
{
	volatile __u64 *cnt = c->skel->bss->counters;

	return cnt[UCK_CNT_EVENTS] + cnt[UCK_CNT_FREES];
}

/* The whole map as a new array of elements of esz bytes: key at 0, value
 * at voff (see mapdump.h). */
static int dump_map(struct bpf_map *map, size_t voff, size_t esz, void **out, size_t *n)
{
	struct uct_dump d = { .esz = esz, .voff = voff };
	int err = uct_dump_map(bpf_map__fd(map), &d);

	if (!err) {
		*out = d.elems;
		*n = d.n;
		d.elems = NULL;
	}
	uct_dump_free(&d);
	return err;
}

#define DUMP(c, map, type, arr, n) \
	dump_map((c)->skel->maps.map, offsetof(type, v), sizeof(type), (void **)(arr), (n))

static void clear_map(struct bpf_map *map)
{
	int fd = bpf_map__fd(map);
	char key[64];

	while (bpf_map_get_next_key(fd, NULL, key) == 0)
		if (bpf_map_delete_elem(fd, key))
			break;
}

static void capture_free(struct judge_capture *cap)
{
	free(cap->recs);
	free(cap->inv);
	free(cap->tally);
	memset(cap, 0, sizeof(*cap));
}

#define CAPTURE_TRIES	50

/* One capture with no charge, uncharge or free while it was taken; after
 * CAPTURE_TRIES the last one, marked torn. */
static int capture(struct ck *c, struct judge_capture *cap)
{
	int attempt, err;

	for (attempt = 1;; attempt++) {
		unsigned long long e0 = events_now(c);
		size_t used = 0, dummy = 0;
		char *ibuf = NULL;

		capture_free(cap);
		c->skel->bss->snap_gen++;
		err = uct_read_iter(c->snap_link, &c->snap_buf, &c->snap_cap, &used);
		if (err)
			return err;
		cap->nrecs = used / sizeof(struct uck_rec);
		cap->recs = malloc((cap->nrecs ? cap->nrecs : 1) * sizeof(struct uck_rec));
		if (!cap->recs)
			return -ENOMEM;
		memcpy(cap->recs, c->snap_buf, cap->nrecs * sizeof(struct uck_rec));
		clear_map(c->skel->maps.inv);
		err = uct_read_iter(c->inv_link, &ibuf, &dummy, &used);
		free(ibuf);
		if (err)
			return err;
		err = dump_map(c->skel->maps.inv, offsetof(struct judge_inv_kv, n),
			       sizeof(struct judge_inv_kv), (void **)&cap->inv, &cap->ninv);
		if (!err)
			err = DUMP(c, tally, struct judge_tally_kv, &cap->tally, &cap->ntally);
		if (err)
			return err;
		if (events_now(c) == e0)
			return 0;
		if (attempt >= CAPTURE_TRIES) {
			cap->torn = true;
			return 0;
		}
		usleep(2000);
	}
}

/* The baseline: two captures in a row that saw one state (judge_same_state():
 * a fork or a signal half done while one was taken makes them differ). If none of
 * BASELINE_TRIES pairs agree, the last capture is marked torn: what
 * stands on it is then not judged, rather than judged from a state that
 * never held still. */
#define BASELINE_TRIES	20
static int baseline(struct ck *c, struct judge_capture *base)
{
	struct judge_capture again = {};
	int i, err;

	err = capture(c, base);
	for (i = 0; !err; i++) {
		if (i == BASELINE_TRIES) {
			base->torn = true;
			break;
		}
		usleep(20000);
		err = capture(c, &again);
		if (err)
			break;
		if (judge_same_state(base, &again))
			break;
		capture_free(base);
		*base = again;
		memset(&again, 0, sizeof(again));
	}
	capture_free(&again);
	return err;
}

struct maps {
	struct judge_agg_kv *agg;
	struct judge_item_kv *items;
	struct judge_over_kv *over;
	struct judge_pend_kv *pend;
	struct judge_free_kv *freed;
	struct judge_obj_kv *objs;
	struct judge_rt_kv *pre_rel, *gone;
};

static void maps_free(struct maps *m)
{
	free(m->agg);
	free(m->items);
	free(m->over);
	free(m->pend);
	free(m->freed);
	free(m->objs);
	free(m->pre_rel);
	free(m->gone);
	memset(m, 0, sizeof(*m));
}

static int read_maps(struct ck *c, struct maps *m, struct judge_input *in)
{
	int err, i;

	maps_free(m);
	err = DUMP(c, agg, struct judge_agg_kv, &m->agg, &in->nagg);
	if (!err)
		err = DUMP(c, item, struct judge_item_kv, &m->items, &in->nitems);
	if (!err)
		err = DUMP(c, over, struct judge_over_kv, &m->over, &in->nover);
	if (!err)
		err = dump_map(c->skel->maps.pend, offsetof(struct judge_pend_kv, v),
			       sizeof(struct judge_pend_kv), (void **)&m->pend, &in->npend);
	if (!err)
		err = DUMP(c, freed, struct judge_free_kv, &m->freed, &in->nfreed);
	if (!err)
		err = dump_map(c->skel->maps.obj, offsetof(struct judge_obj_kv, v),
			       sizeof(struct judge_obj_kv), (void **)&m->objs, &in->nobjs);
	if (!err)
		err = DUMP(c, pre_rel, struct judge_rt_kv, &m->pre_rel, &in->npre_rel);
	if (!err)
		err = DUMP(c, gone, struct judge_rt_kv, &m->gone, &in->ngone);
	if (err)
		return err;
	in->agg = m->agg;
	in->items = m->items;
	in->over = m->over;
	in->pend = m->pend;
	in->freed = m->freed;
	in->objs = m->objs;
	in->pre_rel = m->pre_rel;
	in->gone = m->gone;
	for (i = 0; i < UCK_NCOUNTERS; i++)
		in->counters[i] = c->skel->bss->counters[i];
	read_misses(c, in->missed);
	return 0;
}

/* ---- stacks ------------------------------------------------------------------------ */

static size_t frames_cb(void *ctx, __s32 id, const char **out, size_t max)
{
	struct ck *c = ctx;
	__u64 ips[UCK_STACK_DEPTH] = {};
	struct frames *fr;
	size_t i, n = 0;

	for (i = 0; i < c->ncache; i++)
		if (c->cache[i].id == id)
			goto have;
	if (!c->ksyms_tried) {
		c->ksyms_tried = true;
		c->ksyms = uct_ksyms_load("/proc/kallsyms");
		if (!c->ksyms)
			fprintf(stderr, "ucounttop: cannot read /proc/kallsyms (%s): stacks show "
				"addresses only\n", strerror(errno));
	}
	fr = realloc(c->cache, (c->ncache + 1) * sizeof(*fr));
	if (!fr)
		return 0;
	c->cache = fr;
	fr = &c->cache[c->ncache];
	memset(fr, 0, sizeof(*fr));
	fr->id = id;
	if (bpf_map_lookup_elem(bpf_map__fd(c->skel->maps.stacks), &id, ips) == 0) {
		fr->f = calloc(UCK_STACK_DEPTH, sizeof(char *));
		for (i = 0; fr->f && i < UCK_STACK_DEPTH && ips[i]; i++) {
			unsigned long long off = 0;
			const char *name = uct_ksyms_lookup(c->ksyms, ips[i], &off);
			char buf[256];

			/* our own programs and their trampolines are not the path */
			if (name && (!strncmp(name, "bpf_prog_", 9) ||
				     !strncmp(name, "bpf_trampoline_", 15) ||
				     !strncmp(name, "bpf_trace_run", 13)))
				continue;
			if (name)
				snprintf(buf, sizeof(buf), "%s+0x%llx", name, off);
			else
				snprintf(buf, sizeof(buf), "0x%llx", (unsigned long long)ips[i]);
			fr->f[fr->n] = strdup(buf);
			if (fr->f[fr->n])
				fr->n++;
		}
	}
	c->ncache++;
	i = c->ncache - 1;
have:
	fr = &c->cache[i];
	for (n = 0; n < fr->n && n < max; n++)
		out[n] = fr->f[n];
	return n;
}

/* ---- main -------------------------------------------------------------------------- */

int check_main(const struct uct_opts *o)
{
	struct ck c = {};
	struct judge_input in = {};
	struct judge_result res = {};
	struct check_run_info ri = {};
	struct maps m = {};
	struct check_cmd run = {};
	struct judge_result prev = {};
	int judged;
	char msg[1024] = "";
	double t1, last_change;
	unsigned long long ev;
	unsigned int nsig;
	FILE *out = stdout;
	int rc, err, i;

	rc = ck_open(&c, o, msg, sizeof(msg));
	if (rc) {
		fprintf(stderr, "ucounttop: %s\n", msg);
		ck_close(&c);
		return rc;
	}
	err = baseline(&c, &in.base);
	if (err) {
		fprintf(stderr, "ucounttop: taking the baseline: %s\n", strerror(-err));
		rc = UCT_EXIT_TOOL;
		goto out;
	}
	in.complete = c.complete;
	in.have_free_tp = c.have_free;
	in.have_overlimit = c.have_overlimit;
	in.have_mq_hooks = c.have_mq;
	in.have_shm_hooks = c.have_shm;
	in.fail_outstanding = o->fail_outstanding;

	rc = check_cmd_run(o->cmd_argv, o->timeout, o->settle, &run, msg, sizeof(msg));
	if (rc) {
		fprintf(stderr, "ucounttop: %s\n", msg);
		goto out;
	}
	/* CMD has ended: --settle counts from here, and reaping its
	 * descendants already took run.reap_s of it */
	t1 = uct_now_s() - run.reap_s;
	nsig = check_cmd_signals();
	ri.pid = run.pid;
	ri.status = run.status;
	ri.duration = run.cmd_s;
	ri.run = &run;
	ri.timeout = o->timeout;

	/* settle: until nothing failing could still go away, the kernel
	 * went quiet, or --settle is up; a failing state-based finding
	 * needs two captures in a row to stand (see judge_result_confirm) */
	ev = events_now(&c);
	last_change = t1;
	for (judged = 0;; judged++) {
		double now;

		capture_free(&in.fin);
		err = capture(&c, &in.fin);
		if (!err)
			err = read_maps(&c, &m, &in);
		if (err) {
			fprintf(stderr, "ucounttop: reading the results: %s\n", strerror(-err));
			rc = UCT_EXIT_TOOL;
			goto out;
		}
		judge_result_free(&prev);
		prev = res;
		memset(&res, 0, sizeof(res));
		err = judge_run(&in, &res);
		if (err) {
			fprintf(stderr, "ucounttop: out of memory\n");
			rc = UCT_EXIT_TOOL;
			goto out;
		}
		now = uct_now_s();
		if (events_now(&c) != ev) {
			ev = events_now(&c);
			last_change = now;
		}
		if (judge_result_settled(&res))
			break;
		/* a signal since CMD ended: report now, but from two captures
		 * (judge_result_confirm), never from one taken as the group died */
		if (judged && check_cmd_signals() != nsig)
			break;
		/* time is up, but a failing finding has not been seen twice yet */
		if (judged && (now - t1 >= o->settle ||
			       now - last_change >= (o->settle < QUIET_S ? o->settle : QUIET_S)))
			break;
		sleep_s(POLL_S);
	}
	if (judged)
		judge_result_confirm(&res, &prev);
	ri.settle_waited = uct_now_s() - t1;

	ri.argv = o->cmd_argv;
	ri.settle_limit = o->settle;
	ri.snapshot = c.complete ? "iter/ucounts" : "iter/task";
	ri.hooks = c.hooks;
	ri.degraded = c.degraded;
	for (i = 0; i < UCK_NCOUNTERS; i++)
		ri.counters[i] = in.counters[i];
	/* a finding first; else CMD's own failure: never 0 unless both pass */
	rc = res.nfail ? UCT_EXIT_FAIL : check_cmd_ok(&run) ? UCT_EXIT_OK : UCT_EXIT_CMD_FAILED;
	ri.exit_code = rc;
	if (o->output_file) {
		out = fopen(o->output_file, "w");
		if (!out) {
			fprintf(stderr, "ucounttop: -o %s: %s\n", o->output_file, strerror(errno));
			rc = UCT_EXIT_TOOL;
			goto out;
		}
	}
	if (o->output == UCT_OUT_JSON)
		check_report_json(out, &res, &ri, frames_cb, &c);
	else
		check_report_text(out, &res, &ri, frames_cb, &c);
	if (out != stdout && fclose(out)) {
		fprintf(stderr, "ucounttop: -o %s: %s\n", o->output_file, strerror(errno));
		rc = UCT_EXIT_TOOL;
	} else if (out == stdout) {
		fflush(stdout);
	}
out:
	judge_result_free(&res);
	judge_result_free(&prev);
	check_cmd_free(&run);
	maps_free(&m);
	capture_free(&in.base);
	capture_free(&in.fin);
	ck_close(&c);
	return rc;
}
