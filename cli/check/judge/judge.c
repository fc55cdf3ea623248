// SPDX-License-Identifier: GPL-2.0
/*
 * judge.c - `ucounttop check`: from a baseline, a final capture and
 * the event aggregates, decide which counter changes are errors and how:
 * what the data lets us decide, then each class in order (judge_internal.h
 * lists the files). See judge.h for the quantities and docs/architecture.md
 * for the rules.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "grow.h"
#include "judge_internal.h"

static int judge(const struct judge_input *in, struct judge_result *r);
static int judge_list_undecided(const struct judge_rows *rs, struct judge_result *r);

/* What a skipped event is, for every text that names one */
#define MISS_WHY "the kernel's recursion guard (a program preempted or interrupted while " \
		 "another task on its CPU entered it)"

/*
 * Runs of check's programs the kernel skipped: no trace of the event is
 * left, so whatever it would have fed is not judged (the report says how
 * many). The counters, the snapshots and the task iterator's inventory
 * are read, not traced: what stands on them alone is still judged.
 */
static void judge_misses(const struct judge_input *in, struct judge_result *r,
			 struct judge_undecidable *sk)
{
	const unsigned long long *m = in->missed;

	memcpy(r->missed, m, sizeof(r->missed));
	if (m[JUDGE_MISS_CHARGE]) {
		/* the tally: a counter change no charge reached (a direct
		 * write) can no longer be told from a charge nobody saw */
		sk->direct_writes = true;
		judge_note(r, "%llu charge/uncharge events skipped by %s: changes made without a "
			   "charge (hierarchy-mismatch by a direct write) not checked; stacks of "
			   "open charges may be incomplete", m[JUDGE_MISS_CHARGE], MISS_WHY);
		/* lost and double uncharges stand on counters and live
		 * objects, but a row no snapshot could show is inferred from
		 * the events */
		if (!in->complete || !in->have_free_tp) {
			judge_skip(r, JUDGE_LOST_UNCHARGE, "%llu charge/uncharge events were "
				   "skipped by %s, and rows a snapshot could not show are inferred "
				   "from the events", m[JUDGE_MISS_CHARGE], MISS_WHY);
			memcpy(r->skipped[JUDGE_DOUBLE_UNCHARGE], r->skipped[JUDGE_LOST_UNCHARGE],
			       sizeof(r->skipped[JUDGE_LOST_UNCHARGE]));
		}
	}
	/* admitted-over-limit follows each over-limit charge to the check and the uncharge
	 * of its task, and trusts a re-read only when no change ran
	 * unmarked: any event missing there can make a finding up */
	if (m[JUDGE_MISS_CHARGE] || m[JUDGE_MISS_LIMIT]) {
		judge_skip(r, JUDGE_ADMITTED_OVER_LIMIT, "%llu charge/uncharge and %llu limit-check "
			   "events were skipped by %s: what became of an over-limit charge is not "
			   "known", m[JUDGE_MISS_CHARGE], m[JUDGE_MISS_LIMIT], MISS_WHY);
	}
	/* a free seen charged is a finding whatever else was missed; a
	 * missed one can only hide one */
	if (m[JUDGE_MISS_FREE])
		judge_note(r, "%llu ucounts_free events skipped by %s: freed-while-charged may "
			   "miss some", m[JUDGE_MISS_FREE], MISS_WHY);
	if (m[JUDGE_MISS_MQ]) {
		sk->lost_double[UCT_MSGQUEUE] = sk->outstanding[UCT_MSGQUEUE] = true;
		judge_note(r, "%llu message queue events skipped by %s: lost/double uncharges and "
			   "outstanding charges of msgqueue not checked", m[JUDGE_MISS_MQ],
			   MISS_WHY);
	}
	if (m[JUDGE_MISS_SHM]) {
		sk->lost_double[UCT_MEMLOCK] = sk->outstanding[UCT_MEMLOCK] = true;
		judge_note(r, "%llu SHM_LOCK events skipped by %s: lost/double uncharges and "
			   "outstanding charges of memlock not checked", m[JUDGE_MISS_SHM],
			   MISS_WHY);
	}
}

/* Judge a bounded copy of the input (input.c). */
int judge_run(const struct judge_input *raw, struct judge_result *r)
{
	struct judge_input in;
	int err = judge_input_bounded(raw, &in);

	if (err) {
		memset(r, 0, sizeof(*r));
		return err;
	}
	err = judge(&in, r);
	judge_input_free(&in);
	return err;
}

static int judge(const struct judge_input *in, struct judge_result *r)
{
	const unsigned long long *c = in->counters;
	struct judge_rows rs = {};
	struct judge_undecidable sk = {};
	int *order = NULL;
	size_t i;
	int t, err;

	memset(r, 0, sizeof(*r));
	err = judge_rows_build(in, &rs);
	if (err)
		goto out;
	r->rows = rs.n;
	if (rs.cycles)
		judge_note(r, "%zu parent links formed a circle (namespace inodes reused during "
			   "the run) and were cut: those rows count as roots", rs.cycles);

	/* What the data lets us decide. */
	if (c[UCK_CNT_TALLY_FULL]) {
		sk.direct_writes = true;
		judge_note(r, "tally map full (%llu updates lost): changes made without a charge "
			   "not checked; raise --max-entries", c[UCK_CNT_TALLY_FULL]);
	}
	if (c[UCK_CNT_INV_FULL] || c[UCK_CNT_INV_TRUNC]) {
		sk.lost_double[UCT_NPROC] = sk.lost_double[UCT_SIGPENDING] = true;
		judge_note(r, "task/signal inventory incomplete (map full %llu, lists cut %llu): "
			   "lost/double uncharges of nproc and sigpending not checked",
			   c[UCK_CNT_INV_FULL], c[UCK_CNT_INV_TRUNC]);
	}
	if (c[UCK_CNT_OBJ_FULL]) {
		sk.lost_double[UCT_MSGQUEUE] = sk.lost_double[UCT_MEMLOCK] = true;
		judge_note(r, "object map full (%llu lost): lost/double uncharges of msgqueue and "
			   "memlock not checked; raise --max-entries", c[UCK_CNT_OBJ_FULL]);
	}
	if (!in->have_mq_hooks) {
		sk.lost_double[UCT_MSGQUEUE] = true;
		judge_note(r, "message queue lifetimes not traceable (mqueue_get_inode/"
			   "mqueue_evict_inode): lost/double uncharges of msgqueue not checked");
	}
	if (!in->have_shm_hooks) {
		sk.lost_double[UCT_MEMLOCK] = true;
		judge_note(r, "SHM_LOCK lifetimes not traceable (shmem_lock/user_shm_lock/"
			   "user_shm_unlock): lost/double uncharges of memlock not checked");
	}
	if (c[UCK_CNT_FREE_FULL]) {
		for (t = 0; t < UCT_NTYPES; t++)
			sk.lost_double[t] = true;
		judge_note(r, "free map full (%llu lost): lost/double uncharges not checked",
			   c[UCK_CNT_FREE_FULL]);
	}
	if (c[UCK_CNT_OVER_FULL] || c[UCK_CNT_PEND_FULL])
		judge_note(r, "over-limit maps full (%llu, %llu lost): admitted-over-limit may "
			   "miss some", c[UCK_CNT_OVER_FULL], c[UCK_CNT_PEND_FULL]);
	if (c[UCK_CNT_AGG_FULL] || c[UCK_CNT_ITEM_FULL] || c[UCK_CNT_FIFO_FULL])
		judge_note(r, "stack aggregation maps full (%llu, %llu, %llu lost): some stacks "
			   "missing", c[UCK_CNT_AGG_FULL], c[UCK_CNT_ITEM_FULL],
			   c[UCK_CNT_FIFO_FULL]);
	if (c[UCK_CNT_STACK_ERR])
		judge_note(r, "%llu kernel stacks not recorded (stack table full)",
			   c[UCK_CNT_STACK_ERR]);
	if (c[UCK_CNT_CHAIN_CUT])
		judge_note(r, "%llu chains longer than %d levels cut", c[UCK_CNT_CHAIN_CUT],
			   UCT_MAX_LEVELS);
	if (!in->complete)
		judge_note(r, "snapshots from the task iterator (no iter/ucounts): rows no task "
			   "references are assumed consistent");
	if (!in->have_free_tp)
		judge_note(r, "without the ucounts_free tracepoint, a ucounts freed while charged "
			   "shows as a lost uncharge of the level above it");
	judge_misses(in, r, &sk);

	order = judge_rows_by_depth(&rs);
	if (!order) {
		err = -ENOMEM;
		goto out;
	}
	judge_rows_derive(in, &rs, order);
	/* lost and double uncharges and hierarchy mismatches compare
	 * counters with the tally read beside them: a capture that never
	 * held still judges nothing */
	if (in->base.torn || in->fin.torn) {
		const char *torn = in->base.torn ? "baseline" : "final";

		/* the torn capture is the reason whatever else there is */
		for (t = JUDGE_LOST_UNCHARGE; t <= JUDGE_HIERARCHY_MISMATCH; t++) {
			if (t == JUDGE_FREED_CHARGED)
				continue;
			r->skipped[t][0] = 0;
			judge_skip(r, t, "the %s capture never became consistent (counters kept "
				   "changing while it was read)", torn);
		}
		goto after_state;
	}
	r->checked[JUDGE_HIERARCHY_MISMATCH] = true;
	err = judge_find_hierarchy(in, &rs, order, &sk, r);
	if (err)
		goto out;
	for (i = 0; i < rs.n; i++) {
		struct judge_row *w = &rs.r[i];

		for (t = 0; t < UCT_NTYPES; t++)
			w->unexplained[t] = w->change[t] - w->evidence[t] - w->freed_below[t] -
					    w->unpropagated[t];
	}
	if (!r->skipped[JUDGE_LOST_UNCHARGE][0]) {
		r->checked[JUDGE_LOST_UNCHARGE] = r->checked[JUDGE_DOUBLE_UNCHARGE] = true;
		err = judge_find_lost_double(in, &rs, order, &sk, r);
		if (err)
			goto out;
	}
after_state:
	if (!in->have_free_tp) {
		judge_skip(r, JUDGE_FREED_CHARGED, "the kernel has no ucounts_free tracepoint "
			   "(needs the ucounts tracepoints patch)");
	} else if (!r->skipped[JUDGE_FREED_CHARGED][0]) {
		r->checked[JUDGE_FREED_CHARGED] = true;
		err = judge_find_freed(in, &rs, r);
		if (err)
			goto out;
	}
	r->checked[JUDGE_ADMITTED_OVER_LIMIT] = !r->skipped[JUDGE_ADMITTED_OVER_LIMIT][0];
	if (!in->have_overlimit)
		judge_note(r, "is_rlimit_overlimit() not traceable: NPROC limit checks not judged");
	/* the summary's counts either way */
	err = judge_find_admitted(in, r->checked[JUDGE_ADMITTED_OVER_LIMIT], r);
	if (err)
		goto out;
	r->checked[JUDGE_OUTSTANDING] = true;
	err = judge_find_outstanding(in, &rs, &sk, r);
	if (err)
		goto out;

	err = judge_list_undecided(&rs, r);
	if (err)
		goto out;
	for (i = 0; i < r->n; i++) {
		struct judge_finding *f = &r->f[i];

		if (f->nstacks)
			qsort(f->stacks, f->nstacks, sizeof(*f->stacks), judge_stack_cmp);
		r->counts[f->cls]++;
		if (f->failing)
			r->nfail++;
	}
	if (r->n)
		qsort(r->f, r->n, sizeof(*r->f), judge_finding_cmp);
out:
	free(order);
	judge_rows_free(&rs);
	if (err)
		judge_result_free(r);
	return err;
}

/*
 * Every row and type that changed while CMD ran (its counter, or charges
 * that reached it) and that a skipped class comparing counters with the
 * tally (lost and double uncharges, hierarchy mismatches) did not judge:
 * a capture that never held still, or skipped runs, skip those classes
 * for all rows at once, and the report says which rows that left open.
 */
static int judge_list_undecided(const struct judge_rows *rs, struct judge_result *r)
{
	static const enum judge_class state[] = {
		JUDGE_LOST_UNCHARGE, JUDGE_DOUBLE_UNCHARGE, JUDGE_HIERARCHY_MISMATCH,
	};
	unsigned int skipped = 0;
	size_t i, k;
	int t;

	for (k = 0; k < sizeof(state) / sizeof(state[0]); k++)
		if (!r->checked[state[k]] && r->skipped[state[k]][0])
			skipped |= 1u << state[k];
	if (!skipped)
		return 0;
	for (i = 0; i < rs->n; i++) {
		const struct judge_row *w = &rs->r[i];

		for (t = 0; t < UCT_NTYPES; t++) {
			if (!w->change[t] && !w->tallied[t] && !w->charged[t] && !w->uncharged[t])
				continue;
			if (uct_grow((void **)&r->u, &r->capu, r->nu + 1, sizeof(*r->u)))
				return -ENOMEM;
			r->u[r->nu++] = (struct judge_undecided){
				.ns_inum = w->k.ns_inum, .uid = w->k.uid, .level = w->level,
				.type = t, .classes = skipped,
			};
		}
	}
	return 0;
}

static bool state_based(enum judge_class c)
{
	return c == JUDGE_LOST_UNCHARGE || c == JUDGE_DOUBLE_UNCHARGE ||
	       c == JUDGE_HIERARCHY_MISMATCH || c == JUDGE_OUTSTANDING;
}

void judge_result_confirm(struct judge_result *r, const struct judge_result *prev)
{
	size_t i, j;

	for (i = 0; i < r->n; i++) {
		struct judge_finding *f = &r->f[i];
		bool seen = false;

		if (!f->failing || !state_based(f->cls))
			continue;
		for (j = 0; j < prev->n && !seen; j++) {
			const struct judge_finding *p = &prev->f[j];

			seen = p->failing && p->cls == f->cls && p->ns_inum == f->ns_inum &&
			       p->uid == f->uid && p->type == f->type && p->amount == f->amount;
		}
		if (seen)
			continue;
		f->failing = false;
		r->nfail--;
		judge_how(f, "; not failing: the capture before did not show it (a transient "
			  "of a moving system, caught between two of its steps)");
	}
}

bool judge_result_settled(const struct judge_result *r)
{
	size_t i;

	for (i = 0; i < r->n; i++)
		if (r->f[i].failing && state_based(r->f[i].cls))
			return false;
	return true;
}

void judge_result_free(struct judge_result *r)
{
	size_t i;

	for (i = 0; i < r->n; i++)
		free(r->f[i].stacks);
	free(r->f);
	r->f = NULL;
	r->n = r->cap = 0;
	free(r->u);
	r->u = NULL;
	r->nu = r->capu = 0;
}
