// SPDX-License-Identifier: GPL-2.0
/*
 * lost_double.c - lost and double uncharges: what nothing explains,
 * where it originates
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "judge_internal.h"

/* Whether an uncharge took (w, t) below zero, and the lowest it saw. */
static bool went_negative(const struct judge_input *in, const struct judge_row *w, int t,
			  long long *lowest)
{
	bool neg = false;
	size_t i;

	*lowest = 0;
	for (i = 0; i < in->nagg; i++) {
		const struct judge_agg_kv *a = &in->agg[i];

		if (a->k.kind == UCK_K_NEGATIVE && a->k.ns_inum == w->k.ns_inum &&
		    a->k.uid == w->k.uid && (int)a->k.type == t) {
			neg = true;
			if (a->v.extreme < *lowest)
				*lowest = a->v.extreme;
		}
	}
	return neg;
}

static int lost(const struct judge_input *in, const struct judge_row *w, int t,
		struct judge_result *r)
{
	long long here = w->unexplained_here[t];
	struct judge_finding *f = judge_add_finding(r, JUDGE_LOST_UNCHARGE, w, t);

	if (!f)
		return -ENOMEM;
	f->failing = true;
	f->amount = here;
	judge_counter_how(f, w, t);
	judge_evidence_how(f, w, t);
	judge_how(f, "; %lld charged here and never uncharged: no live object explains it",
		  here);
	return judge_stacks_charged(in, f);
}

static int doubled(const struct judge_input *in, const struct judge_row *w, int t, bool neg,
		   long long lowest, struct judge_result *r)
{
	long long here = w->unexplained_here[t];
	struct judge_finding *f = judge_add_finding(r, JUDGE_DOUBLE_UNCHARGE, w, t);
	size_t before;

	if (!f)
		return -ENOMEM;
	f->failing = true;
	f->amount = -here > -lowest ? -here : -lowest;
	judge_counter_how(f, w, t);
	judge_evidence_how(f, w, t);
	if (here < 0)
		judge_how(f, "; %lld more uncharged than was charged since the baseline plus "
			  "what objects from before it released", -here);
	if (neg)
		judge_how(f, "; an uncharge took it below zero (lowest %lld)", lowest);
	before = f->nstacks;
	if (judge_stacks_from_agg(in, f, UCK_K_UNMATCHED, JUDGE_STACK_UNMATCHED) ||
	    judge_stacks_from_agg(in, f, UCK_K_NEGATIVE, JUDGE_STACK_NEGATIVE))
		return -ENOMEM;
	if (f->nstacks == before &&
	    judge_stacks_from_agg(in, f, UCK_K_UNCHARGE, JUDGE_STACK_UNCHARGE))
		return -ENOMEM;
	return 0;
}

int judge_find_lost_double(const struct judge_input *in, struct judge_rows *rs, const int *order,
			   const struct judge_undecidable *sk, struct judge_result *r)
{
	size_t oi, k;
	int t, err;

	for (t = 0; t < UCT_NTYPES; t++) {
		if (sk->lost_double[t])
			continue;
		for (oi = 0; oi < rs->n; oi++) {
			struct judge_row *w = &rs->r[order[oi]];
			long long kids = 0, lowest;
			bool neg;

			if (!w->known)
				continue;
			for (k = 0; k < w->nkids; k++)
				kids += rs->r[w->kids[k]].unexplained[t];
			w->unexplained_here[t] = w->unexplained[t] - kids;
			neg = went_negative(in, w, t, &lowest);
			err = 0;
			if (w->unexplained_here[t] > 0)
				err = lost(in, w, t, r);
			else if (w->unexplained_here[t] < 0 || neg)
				err = doubled(in, w, t, neg, lowest, r);
			if (err)
				return err;
		}
	}
	return 0;
}
