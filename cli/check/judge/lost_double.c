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

int judge_find_lost_double(const struct judge_input *in, struct judge_rows *rs, const int *order,
			   const struct judge_undecidable *sk, struct judge_result *r)
{
	size_t oi, i, k;
	int t;

	for (t = 0; t < UCT_NTYPES; t++) {
		if (sk->lost_double[t])
			continue;
		for (oi = 0; oi < rs->n; oi++) {
			struct judge_row *w = &rs->r[order[oi]];
			long long kids = 0, lowest = 0;
			bool neg = false;
			struct judge_finding *f;

			if (!w->known)
				continue;
			for (k = 0; k < w->nkids; k++)
				kids += rs->r[w->kids[k]].unexplained[t];
			w->unexplained_here[t] = w->unexplained[t] - kids;
			for (i = 0; i < in->nagg; i++) {
				const struct judge_agg_kv *a = &in->agg[i];

				if (a->k.kind == UCK_K_NEGATIVE && a->k.ns_inum == w->k.ns_inum &&
				    a->k.uid == w->k.uid && (int)a->k.type == t) {
					neg = true;
					if (a->v.extreme < lowest)
						lowest = a->v.extreme;
				}
			}
			if (w->unexplained_here[t] > 0) {
				f = judge_add_finding(r, JUDGE_LOST_UNCHARGE, w, t);
				if (!f)
					return -ENOMEM;
				f->failing = true;
				f->amount = w->unexplained_here[t];
				judge_counter_how(f, w, t);
				judge_evidence_how(f, w, t);
				judge_how(f, "; %lld charged here and never uncharged: no live object "
					  "explains it", w->unexplained_here[t]);
				if (judge_stacks_charged(in, f))
					return -ENOMEM;
			} else if (w->unexplained_here[t] < 0 || neg) {
				size_t before;

				f = judge_add_finding(r, JUDGE_DOUBLE_UNCHARGE, w, t);
				if (!f)
					return -ENOMEM;
				f->failing = true;
				f->amount = -w->unexplained_here[t] > -lowest ?
					    -w->unexplained_here[t] : -lowest;
				judge_counter_how(f, w, t);
				judge_evidence_how(f, w, t);
				if (w->unexplained_here[t] < 0)
					judge_how(f, "; %lld more uncharged than was charged since the "
						  "baseline plus what objects from before it released",
						  -w->unexplained_here[t]);
				if (neg)
					judge_how(f, "; an uncharge took it below zero (lowest %lld)",
						  lowest);
				before = f->nstacks;
				if (judge_stacks_from_agg(in, f, UCK_K_UNMATCHED,
							  JUDGE_STACK_UNMATCHED) ||
				    judge_stacks_from_agg(in, f, UCK_K_NEGATIVE,
							  JUDGE_STACK_NEGATIVE))
					return -ENOMEM;
				if (f->nstacks == before &&
				    judge_stacks_from_agg(in, f, UCK_K_UNCHARGE,
							  JUDGE_STACK_UNCHARGE))
					return -ENOMEM;
			}
		}
	}
	return 0;
}
