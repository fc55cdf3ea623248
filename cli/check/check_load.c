// SPDX-License-Identifier: GPL-2.0
/*
 * check_load.c - load ucounttop_check.bpf.c (see check_load.h). The
 * list of programs and their order are check's; choosing, loading,
 * attaching and reading their misses is the loader's machinery.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/libbpf.h>
#include "check_load.h"
#include "mapdump.h"
#include "ucounttop_check.skel.h"

/* Attached in this order: every return (fexit) before its entry (fentry),
 * so that no entry is counted without its return (see window_open()). */
enum {
	P_INC, P_INC_OVER, P_DEC, P_INC_GET, P_DEC_PUT_RET, P_INC_IN, P_INC_OVER_IN, P_DEC_IN,
	P_INC_GET_IN, P_DEC_PUT, P_OVERLIMIT, P_OVERLIMIT_IN, P_UCOUNTS_OVERLIMIT, P_UCOUNTS_OVERLIMIT_IN, P_FREE,
	P_MQ_NEW, P_MQ_EVICT, P_SHM_LOCK_IN, P_SHM_LOCK_OUT, P_USER_SHM_LOCK,
	P_USER_SHM_UNLOCK, P_SHM_EVICT, P_SNAP_UCOUNTS, P_SNAP_TASK, P_INVENTORY, P_COUNT
};

_Static_assert(P_COUNT <= CHECK_PROGS_MAX, "CHECK_PROGS_MAX is too small");

/* Every program of ucounttop_check.bpf.c, chosen for this kernel. */
static void prog_table(struct check_bpf *b)
{
	struct ucounttop_check_bpf *s = b->skel;
	const struct uct_features *f = &b->feat;
	struct uct_prog *p = b->progs;
	size_t i;

#define PROG(i, name, w) (p[i] = (struct uct_prog){ s->progs.name, &s->links.name, (w) })
	/* our series (v3): inc_rlimit_ucounts() is inline, its callee charges */
	PROG(P_INC, ck_inc, !f->fn_inc_over);
	PROG(P_INC_OVER, ck_inc_over, f->fn_inc_over);
	PROG(P_DEC, ck_dec, true);
	PROG(P_INC_GET, ck_inc_get, true);
	PROG(P_DEC_PUT_RET, ck_dec_put_ret, true);
	PROG(P_INC_IN, ck_inc_in, !f->fn_inc_over);
	PROG(P_INC_OVER_IN, ck_inc_over_in, f->fn_inc_over);
	PROG(P_DEC_IN, ck_dec_in, true);
	PROG(P_INC_GET_IN, ck_inc_get_in, true);
	PROG(P_DEC_PUT, ck_dec_put, true);
	PROG(P_OVERLIMIT, ck_overlimit, f->fn_overlimit && !f->fn_ucounts_overlimit);
	PROG(P_OVERLIMIT_IN, ck_overlimit_in, f->fn_overlimit && !f->fn_ucounts_overlimit);
	PROG(P_UCOUNTS_OVERLIMIT, ck_ucounts_overlimit, f->fn_ucounts_overlimit);
	PROG(P_UCOUNTS_OVERLIMIT_IN, ck_ucounts_overlimit_in, f->fn_ucounts_overlimit);
	PROG(P_FREE, ck_free, b->have_free);
	PROG(P_MQ_NEW, ck_mq_new, f->fn_mqueue);
	PROG(P_MQ_EVICT, ck_mq_evict, f->fn_mqueue);
	PROG(P_SHM_LOCK_IN, ck_shm_lock_in, f->fn_shm);
	PROG(P_SHM_LOCK_OUT, ck_shm_lock_out, f->fn_shm);
	PROG(P_USER_SHM_LOCK, ck_user_shm_lock, f->fn_shm);
	PROG(P_USER_SHM_UNLOCK, ck_user_shm_unlock, f->fn_shm);
	PROG(P_SHM_EVICT, ck_shm_evict, f->fn_shm);
	PROG(P_SNAP_UCOUNTS, ck_snap_ucounts, b->complete);
	PROG(P_SNAP_TASK, ck_snap_task, !b->complete);
	PROG(P_INVENTORY, ck_inventory, true);
#undef PROG
	b->nprogs = P_COUNT;
	/* the charge functions and the iterators are required; without
	 * any of the others, what it would show is not judged */
	for (i = P_OVERLIMIT; i <= P_SHM_EVICT; i++) {
		p[i].optional = true;
		p[i].loss = "what it would show is not judged (see the report's notes)";
	}
}

/* What a skipped run of each program would have fed (enum judge_miss);
 * -1: an iterator, which the kernel never skips */
static int miss_group(size_t i)
{
	switch (i) {
	case P_INC: case P_INC_OVER: case P_DEC: case P_INC_GET: case P_DEC_PUT:
		return JUDGE_MISS_CHARGE;
	case P_DEC_PUT_RET: case P_INC_IN: case P_INC_OVER_IN: case P_DEC_IN: case P_INC_GET_IN:
	case P_OVERLIMIT: case P_OVERLIMIT_IN: case P_UCOUNTS_OVERLIMIT:
	case P_UCOUNTS_OVERLIMIT_IN:
		return JUDGE_MISS_LIMIT;
	case P_FREE:
		return JUDGE_MISS_FREE;
	case P_MQ_NEW: case P_MQ_EVICT:
		return JUDGE_MISS_MQ;
	case P_SHM_LOCK_IN: case P_SHM_LOCK_OUT: case P_USER_SHM_LOCK:
	case P_USER_SHM_UNLOCK: case P_SHM_EVICT:
		return JUDGE_MISS_SHM;
	default:
		return -1;
	}
}

void check_bpf_misses(const struct check_bpf *b, unsigned long long m[JUDGE_NMISS])
{
	struct uct_prog group[CHECK_PROGS_MAX];
	size_t i, n;
	int g;

	for (g = 0; g < JUDGE_NMISS; g++) {
		for (i = n = 0; i < b->nprogs; i++)
			if (miss_group(i) == g)
				group[n++] = b->progs[i];
		m[g] = uct_progs_misses(group, n) - b->misses_base[g];
	}
}

/* What a lost optional hook costs, and what the judge must then not
 * claim. Called after attaching. */
static void dropped(struct check_bpf *b)
{
	struct uct_prog *p = b->progs;

	b->have_overlimit = (p[P_OVERLIMIT].want && p[P_OVERLIMIT_IN].want) ||
			    (p[P_UCOUNTS_OVERLIMIT].want && p[P_UCOUNTS_OVERLIMIT_IN].want);
	b->have_free = p[P_FREE].want;
	b->have_mq = p[P_MQ_NEW].want && p[P_MQ_EVICT].want;
	b->have_shm = p[P_SHM_LOCK_IN].want && p[P_SHM_LOCK_OUT].want &&
		      p[P_USER_SHM_LOCK].want && p[P_USER_SHM_UNLOCK].want &&
		      p[P_SHM_EVICT].want;
}

/* The kernel's charge functions traceable, and the task iterator there:
 * check needs both. */
static int kernel_can(const struct uct_features *f, char *msg, size_t len)
{
	if ((!f->fn_inc && !f->fn_inc_over) || !f->fn_dec || !f->fn_inc_get || !f->fn_dec_put) {
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
	return 0;
}

/* Map sizes: --max-entries, at least 16384 a map; the per-charge ones
 * four times that. */
static void size_maps(struct ucounttop_check_bpf *s, unsigned max_entries)
{
	unsigned n_small = max_entries > 16384 ? max_entries : 16384, n_big = n_small * 4;

	bpf_map__set_max_entries(s->maps.tally, n_small);
	bpf_map__set_max_entries(s->maps.agg, n_small);
	bpf_map__set_max_entries(s->maps.fifo, n_small);
	bpf_map__set_max_entries(s->maps.stacks, n_small);
	bpf_map__set_max_entries(s->maps.stack_index, n_small);
	bpf_map__set_max_entries(s->maps.inv, n_small);
	bpf_map__set_max_entries(s->maps.item, n_big);
	bpf_map__set_max_entries(s->maps.obj, n_big);
}

int check_bpf_open(struct check_bpf *b, const struct uct_opts *o, char *msg, size_t len)
{
	LIBBPF_OPTS(bpf_object_open_opts, open_opts);
	int err;

	uct_libbpf_setup(o->verbose);
	err = uct_probe_features(&b->feat, msg, len);
	if (err || (err = kernel_can(&b->feat, msg, len)))
		return err;
	b->have_free = b->feat.tp_free && !o->no_tracepoints;
	b->complete = b->feat.iter_ucounts && !o->force_task_iter;

	open_opts.kernel_log_level = uct_kernel_log_level();
	b->skel = ucounttop_check_bpf__open_opts(&open_opts);
	if (!b->skel) {
		snprintf(msg, len, "cannot open the BPF object: %s", strerror(errno));
		return UCT_EXIT_TOOL;
	}
	prog_table(b);
	uct_progs_autoload(b->progs, b->nprogs);
	b->skel->rodata->page_shift = __builtin_ctzl(sysconf(_SC_PAGESIZE));
	size_maps(b->skel, o->max_entries);
	err = ucounttop_check_bpf__load(b->skel);
	if (err) {
		/* check's exit codes: a tool failure is 6, not the live view's 1 */
		snprintf(msg, len, "loading the check BPF programs failed: %s%s", strerror(-err),
			 o->verbose ? "" : " (run with -v for libbpf's log)");
		return err == -EPERM ? UCT_EXIT_PRIV : UCT_EXIT_TOOL;
	}
	err = uct_progs_attach(b->progs, b->nprogs, b->hooks, sizeof(b->hooks), b->degraded,
			       sizeof(b->degraded), msg, len);
	if (err)
		return err == UCT_EXIT_FAIL ? UCT_EXIT_TOOL : err;
	dropped(b);
	b->snap_link = *b->progs[b->complete ? P_SNAP_UCOUNTS : P_SNAP_TASK].link;
	b->inv_link = *b->progs[P_INVENTORY].link;
	b->stacks_fd = bpf_map__fd(b->skel->maps.stacks);
	return 0;
}

void check_bpf_close(struct check_bpf *b)
{
	ucounttop_check_bpf__destroy(b->skel);
	free(b->snap_buf);
	b->skel = NULL;
	b->snap_buf = NULL;
}

unsigned long long check_bpf_events(const struct check_bpf *b)
{
	volatile __u64 *cnt = b->skel->bss->counters;

	return cnt[UCK_CNT_EVENTS] + cnt[UCK_CNT_FREES];
}

void check_bpf_counters(const struct check_bpf *b, unsigned long long out[UCK_NCOUNTERS])
{
	int i;

	for (i = 0; i < UCK_NCOUNTERS; i++)
		out[i] = b->skel->bss->counters[i] - b->counters_base[i];
}

/* Every map that holds events; not what a task's call in progress keeps
 * (changing, checking: a charge's race guard; shm_stash, unowned), nor the
 * tally, which each capture reads whole, nor the stacks, whose indexes
 * stay valid for the whole run. */
static int clear_event_maps(struct check_bpf *b)
{
	struct bpf_map *maps[] = {
		b->skel->maps.agg, b->skel->maps.fifo, b->skel->maps.item, b->skel->maps.over,
		b->skel->maps.pend, b->skel->maps.freed, b->skel->maps.obj,
		b->skel->maps.pre_rel, b->skel->maps.gone,
	};
	size_t i;
	int err;

	for (i = 0; i < sizeof(maps) / sizeof(maps[0]); i++)
		if ((err = uct_clear_map(bpf_map__fd(maps[i]))))
			return err;
	return 0;
}

int check_bpf_restart(struct check_bpf *b)
{
	unsigned long long m[JUDGE_NMISS];
	int err = clear_event_maps(b);

	if (err)
		return err;
	memset(b->counters_base, 0, sizeof(b->counters_base));
	memset(b->misses_base, 0, sizeof(b->misses_base));
	/* the events counter too: settling compares it, never its value */
	check_bpf_counters(b, b->counters_base);
	check_bpf_misses(b, m);
	memcpy(b->misses_base, m, sizeof(m));
	return 0;
}
