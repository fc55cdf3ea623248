// SPDX-License-Identifier: GPL-2.0
/*
 * capture.c - check's captures: when two saw the same state (see
 * judge.h, judge_same_state()), and freeing one.
 */
#include <stdlib.h>
#include <string.h>
#include "judge.h"

static int rec_cmp(const void *a, const void *b)
{
	const struct uct_rec *x = &((const struct uck_rec *)a)->r;
	const struct uct_rec *y = &((const struct uck_rec *)b)->r;

	if (x->ns_inum != y->ns_inum)
		return x->ns_inum < y->ns_inum ? -1 : 1;
	return x->uid < y->uid ? -1 : x->uid > y->uid;
}

static int inv_cmp(const void *a, const void *b)
{
	return memcmp(&((const struct judge_inv_kv *)a)->k, &((const struct judge_inv_kv *)b)->k,
		      sizeof(struct uck_inv_key));
}

bool judge_same_state(struct judge_capture *a, struct judge_capture *b)
{
	size_t i;
	int t;

	if (a->nrecs != b->nrecs || a->ninv != b->ninv)
		return false;
	qsort(a->recs, a->nrecs, sizeof(*a->recs), rec_cmp);
	qsort(b->recs, b->nrecs, sizeof(*b->recs), rec_cmp);
	qsort(a->inv, a->ninv, sizeof(*a->inv), inv_cmp);
	qsort(b->inv, b->ninv, sizeof(*b->inv), inv_cmp);
	for (i = 0; i < a->nrecs; i++) {
		if (rec_cmp(&a->recs[i], &b->recs[i]))
			return false;
		/* the counters and the tallies, each: not their difference */
		for (t = 0; t < UCT_NTYPES; t++)
			if (a->recs[i].r.value[t] != b->recs[i].r.value[t] ||
			    a->recs[i].tally[t] != b->recs[i].tally[t])
				return false;
	}
	for (i = 0; i < a->ninv; i++)
		if (inv_cmp(&a->inv[i], &b->inv[i]) || a->inv[i].n != b->inv[i].n)
			return false;
	return true;
}

void judge_capture_free(struct judge_capture *c)
{
	free(c->recs);
	free(c->inv);
	free(c->tally);
	memset(c, 0, sizeof(*c));
}
