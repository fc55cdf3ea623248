// SPDX-License-Identifier: GPL-2.0
/*
 * check_model.c - `ucounttop check`: from a baseline, a final capture and
 * the event aggregates, decide which counter changes are errors and how:
 * what the data lets us decide, then each class in order (check_judge.h
 * lists the files). See check_model.h for the quantities and cli/README.md
 * for the rules.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "check_judge.h"

static int judge(const struct uck_input *in, struct uck_result *r);

/* Judge a bounded copy of the input (check_input.c). */
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

	order = ck_rows_by_depth(&rs);
	if (!order) {
		err = -ENOMEM;
		goto out;
	}
	ck_rows_derive(in, &rs, order);
	/* a, b and d compare counters with the tally read beside them: a
	 * capture that never held still judges nothing */
	if (in->base.torn || in->fin.torn) {
		r->skipped[UCK_HIER] = r->skipped[UCK_LOST] = r->skipped[UCK_DOUBLE] =
			in->base.torn ? "the baseline capture never became consistent (counters "
					"kept changing while it was read)" :
					"the final capture never became consistent (counters "
					"kept changing while it was read)";
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
	r->checked[UCK_LOST] = r->checked[UCK_DOUBLE] = true;
	err = ck_judge_lost_double(in, &rs, order, &sk, r);
	if (err)
		goto out;
after_state:
	if (in->have_free_tp) {
		r->checked[UCK_FREED] = true;
		err = ck_judge_freed(in, &rs, r);
		if (err)
			goto out;
	} else {
		r->skipped[UCK_FREED] = "the kernel has no ucounts_free tracepoint (needs the "
					"ucounts tracepoints patch)";
	}
	r->checked[UCK_ADMIT] = true;
	if (!in->have_overlimit)
		ck_note(r, "is_rlimit_overlimit() not traceable: NPROC limit checks not judged");
	err = ck_judge_admit(in, r);
	if (err)
		goto out;
	r->checked[UCK_OUTSTANDING] = true;
	err = ck_judge_outstanding(in, &rs, r);
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
