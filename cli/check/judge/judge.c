// SPDX-License-Identifier: GPL-2.0
/*
 * judge.c - `ucounttop check`: from a baseline, a final capture and
 * the event aggregates, decide which counter changes are errors and how:
 * what the data lets us decide, then each class in order (judge_internal.h
 * lists the files). See judge.h for the quantities and cli/README.md
 * for the rules.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "judge_internal.h"

static int judge(const struct uck_input *in, struct uck_result *r);

/* What a skipped event is, for every text that names one */
#define MISS_WHY "the kernel's recursion guard (a program preempted or interrupted while " \
		 "another task on its CPU entered it)"

/*
 * Runs of check's programs the kernel skipped: no trace of the event is
 * left, so whatever it would have fed is not judged (the report says how
 * many). The counters, the snapshots and the task iterator's inventory
 * are read, not traced: what stands on them alone is still judged.
 */
static void judge_misses(const struct uck_input *in, struct uck_result *r, struct skip *sk)
{
	const unsigned long long *m = in->missed;

	memcpy(r->missed, m, sizeof(r->missed));
	if (m[UCK_MISS_CHARGE]) {
		/* the tally: a counter change no charge reached (d2) can
		 * no longer be told from a charge nobody saw */
		sk->d2 = true;
		ck_note(r, "%llu charge/uncharge events skipped by %s: changes made without a "
			"charge (hierarchy-mismatch by a direct write) not checked; stacks of "
			"open charges may be incomplete", m[UCK_MISS_CHARGE], MISS_WHY);
		/* a and b stand on counters and live objects, but a row no
		 * snapshot could show is inferred from the events */
		if (!in->complete || !in->have_free_tp) {
			ck_skip(r, UCK_LOST, "%llu charge/uncharge events were skipped by %s, "
				"and rows a snapshot could not show are inferred from the events",
				m[UCK_MISS_CHARGE], MISS_WHY);
			memcpy(r->skipped[UCK_DOUBLE], r->skipped[UCK_LOST],
			       sizeof(r->skipped[UCK_LOST]));
		}
	}
	/* e follows each over-limit charge to the check and the uncharge
	 * of its task, and trusts a re-read only when no change ran
	 * unmarked: any event missing there can make a finding up */
	if (m[UCK_MISS_CHARGE] || m[UCK_MISS_LIMIT]) {
		ck_skip(r, UCK_ADMIT, "%llu charge/uncharge and %llu limit-check events were "
			"skipped by %s: what became of an over-limit charge is not known",
			m[UCK_MISS_CHARGE], m[UCK_MISS_LIMIT], MISS_WHY);
	}
	/* a free seen charged is a finding whatever else was missed; a
	 * missed one can only hide one */
	if (m[UCK_MISS_FREE])
		ck_note(r, "%llu ucounts_free events skipped by %s: freed-while-charged may "
			"miss some", m[UCK_MISS_FREE], MISS_WHY);
	if (m[UCK_MISS_MQ]) {
		sk->ab[UCT_MSGQUEUE] = sk->out[UCT_MSGQUEUE] = true;
		ck_note(r, "%llu message queue events skipped by %s: lost/double uncharges and "
			"outstanding charges of msgqueue not checked", m[UCK_MISS_MQ], MISS_WHY);
	}
	if (m[UCK_MISS_SHM]) {
		sk->ab[UCT_MEMLOCK] = sk->out[UCT_MEMLOCK] = true;
		ck_note(r, "%llu SHM_LOCK events skipped by %s: lost/double uncharges and "
			"outstanding charges of memlock not checked", m[UCK_MISS_SHM], MISS_WHY);
	}
}

/* Judge a bounded copy of the input (input.c). */
int uck_judge(const struct uck_input *raw, struct uck_result *r)
{
	struct uck_input in;
	int err = ck_input_bounded(raw, &in);

	if (err) {
		memset(r, 0, sizeof(*r));
		return err;
	}
	err = judge(&in, r);
	ck_input_free(&in);
	return err;
}

static int judge(const struct uck_input *in, struct uck_result *r)
{
	const unsigned long long *c = in->counters;
	struct rows rs = {};
	struct skip sk = {};
	int *order = NULL;
	size_t i;
	int t, err;

	memset(r, 0, sizeof(*r));
	err = ck_rows_build(in, &rs);
	if (err)
		goto out;
	r->rows = rs.n;
	if (rs.cycles)
		ck_note(r, "%zu parent links formed a circle (namespace inodes reused during the "
			"run) and were cut: those rows count as roots", rs.cycles);

	/* What the data lets us decide. */
	if (c[UCK_CNT_TALLY_FULL]) {
		sk.d2 = true;
		ck_note(r, "tally map full (%llu updates lost): changes made without a charge "
		     "not checked; raise --max-entries", c[UCK_CNT_TALLY_FULL]);
	}
	if (c[UCK_CNT_INV_FULL] || c[UCK_CNT_INV_TRUNC]) {
		sk.ab[UCT_NPROC] = sk.ab[UCT_SIGPENDING] = true;
		ck_note(r, "task/signal inventory incomplete (map full %llu, lists cut %llu): "
		     "lost/double uncharges of nproc and sigpending not checked",
		     c[UCK_CNT_INV_FULL], c[UCK_CNT_INV_TRUNC]);
	}
	if (c[UCK_CNT_OBJ_FULL]) {
		sk.ab[UCT_MSGQUEUE] = sk.ab[UCT_MEMLOCK] = true;
		ck_note(r, "object map full (%llu lost): lost/double uncharges of msgqueue and "
		     "memlock not checked; raise --max-entries", c[UCK_CNT_OBJ_FULL]);
	}
	if (!in->have_mq_hooks) {
		sk.ab[UCT_MSGQUEUE] = true;
		ck_note(r, "message queue lifetimes not traceable (mqueue_get_inode/"
		     "mqueue_evict_inode): lost/double uncharges of msgqueue not checked");
	}
	if (!in->have_shm_hooks) {
		sk.ab[UCT_MEMLOCK] = true;
		ck_note(r, "SHM_LOCK lifetimes not traceable (shmem_lock/user_shm_lock/"
		     "user_shm_unlock): lost/double uncharges of memlock not checked");
	}
	if (c[UCK_CNT_FREE_FULL]) {
		for (t = 0; t < NT; t++)
			sk.ab[t] = true;
		ck_note(r, "free map full (%llu lost): lost/double uncharges not checked",
		     c[UCK_CNT_FREE_FULL]);
	}
	if (c[UCK_CNT_OVER_FULL] || c[UCK_CNT_PEND_FULL])
		ck_note(r, "over-limit maps full (%llu, %llu lost): admitted-over-limit may miss "
		     "some", c[UCK_CNT_OVER_FULL], c[UCK_CNT_PEND_FULL]);
	if (c[UCK_CNT_AGG_FULL] || c[UCK_CNT_ITEM_FULL] || c[UCK_CNT_FIFO_FULL])
		ck_note(r, "stack aggregation maps full (%llu, %llu, %llu lost): some stacks missing",
		     c[UCK_CNT_AGG_FULL], c[UCK_CNT_ITEM_FULL], c[UCK_CNT_FIFO_FULL]);
	if (c[UCK_CNT_STACK_ERR])
		ck_note(r, "%llu kernel stacks not recorded (stack map collision or full)",
		     c[UCK_CNT_STACK_ERR]);
	if (c[UCK_CNT_CHAIN_CUT])
		ck_note(r, "%llu chains longer than %d levels cut", c[UCK_CNT_CHAIN_CUT],
		     UCT_MAX_LEVELS);
	if (!in->complete)
		ck_note(r, "snapshots from the task iterator (no iter/ucounts): rows no task "
		     "references are assumed consistent");
	if (!in->have_free_tp)
		ck_note(r, "without the ucounts_free tracepoint, a ucounts freed while charged "
		     "shows as a lost uncharge of the level above it");
	judge_misses(in, r, &sk);

	order = ck_rows_by_depth(&rs);
	if (!order) {
		err = -ENOMEM;
		goto out;
	}
	ck_rows_derive(in, &rs, order);
	/* a, b and d compare counters with the tally read beside them: a
	 * capture that never held still judges nothing */
	if (in->base.torn || in->fin.torn) {
		const char *torn = in->base.torn ? "baseline" : "final";

		/* the torn capture is the reason whatever else there is */
		for (t = UCK_LOST; t <= UCK_HIER; t++) {
			if (t == UCK_FREED)
				continue;
			r->skipped[t][0] = 0;
			ck_skip(r, t, "the %s capture never became consistent (counters kept "
				"changing while it was read)", torn);
		}
		goto after_state;
	}
	r->checked[UCK_HIER] = true;
	err = ck_judge_hier(in, &rs, order, &sk, r);
	if (err)
		goto out;
	for (i = 0; i < rs.n; i++) {
		struct row *w = &rs.r[i];

		for (t = 0; t < NT; t++)
			w->unexplained[t] = w->change[t] - w->evidence[t] - w->freed_below[t] - w->unpropagated[t];
	}
	if (!r->skipped[UCK_LOST][0]) {
		r->checked[UCK_LOST] = r->checked[UCK_DOUBLE] = true;
		err = ck_judge_lost_double(in, &rs, order, &sk, r);
		if (err)
			goto out;
	}
after_state:
	if (!in->have_free_tp) {
		ck_skip(r, UCK_FREED, "the kernel has no ucounts_free tracepoint (needs the "
			"ucounts tracepoints patch)");
	} else if (!r->skipped[UCK_FREED][0]) {
		r->checked[UCK_FREED] = true;
		err = ck_judge_freed(in, &rs, r);
		if (err)
			goto out;
	}
	r->checked[UCK_ADMIT] = !r->skipped[UCK_ADMIT][0];
	if (!in->have_overlimit)
		ck_note(r, "is_rlimit_overlimit() not traceable: NPROC limit checks not judged");
	/* the summary's counts either way */
	err = ck_judge_admit(in, r->checked[UCK_ADMIT], r);
	if (err)
		goto out;
	r->checked[UCK_OUTSTANDING] = true;
	err = ck_judge_outstanding(in, &rs, &sk, r);
	if (err)
		goto out;

	for (i = 0; i < r->n; i++) {
		struct uck_finding *f = &r->f[i];

		if (f->nstacks)
			qsort(f->stacks, f->nstacks, sizeof(*f->stacks), ck_stack_cmp);
		r->counts[f->cls]++;
		if (f->failing)
			r->nfail++;
	}
	if (r->n)
		qsort(r->f, r->n, sizeof(*r->f), ck_finding_cmp);
out:
	free(order);
	ck_rows_free(&rs);
	if (err)
		uck_result_free(r);
	return err;
}

static bool state_based(enum uck_class c)
{
	return c == UCK_LOST || c == UCK_DOUBLE || c == UCK_HIER || c == UCK_OUTSTANDING;
}

void uck_result_confirm(struct uck_result *r, const struct uck_result *prev)
{
	size_t i, j;

	for (i = 0; i < r->n; i++) {
		struct uck_finding *f = &r->f[i];
		bool seen = false;

		if (!f->failing || !state_based(f->cls))
			continue;
		for (j = 0; j < prev->n && !seen; j++) {
			const struct uck_finding *p = &prev->f[j];

			seen = p->failing && p->cls == f->cls && p->ns_inum == f->ns_inum &&
			       p->uid == f->uid && p->type == f->type && p->amount == f->amount;
		}
		if (seen)
			continue;
		f->failing = false;
		r->nfail--;
		ck_how(f, "; not failing: the capture before did not show it (a transient "
		       "of a moving system, caught between two of its steps)");
	}
}

bool uck_result_settled(const struct uck_result *r)
{
	size_t i;

	for (i = 0; i < r->n; i++)
		if (r->f[i].failing && (r->f[i].cls == UCK_LOST || r->f[i].cls == UCK_DOUBLE ||
					r->f[i].cls == UCK_HIER || r->f[i].cls == UCK_OUTSTANDING))
			return false;
	return true;
}

void uck_result_free(struct uck_result *r)
{
	size_t i;

	for (i = 0; i < r->n; i++)
		free(r->f[i].stacks);
	free(r->f);
	r->f = NULL;
	r->n = r->cap = 0;
}
