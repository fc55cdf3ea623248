// SPDX-License-Identifier: GPL-2.0
/* hierarchy.c - hierarchy mismatches: a change that did not reach every level above */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "judge_internal.h"

int judge_find_hierarchy(const struct judge_input *in, struct judge_rows *rs, const int *order,
			 const struct judge_undecidable *sk, struct judge_result *r)
{
	size_t oi, k;
	int t;

	for (t = 0; t < UCT_NTYPES; t++) {
		/* a direct write: a change no charge made, that did not reach
		 * every level */
		for (oi = 0; oi < rs->n && !sk->direct_writes; oi++) {
			struct judge_row *s = &rs->r[order[oi]];
			long long left = s->untallied_here[t];
			int a;

			if (!left || !s->known)
				continue;
			for (a = s->parent; a >= 0 && left; a = rs->r[a].parent) {
				struct judge_row *A = &rs->r[a];
				long long m;
				struct judge_finding *f;
				int x;

				if (!A->untallied_here[t] ||
				    (A->untallied_here[t] > 0) == (left > 0))
					continue;
				m = llabs(A->untallied_here[t]) < llabs(left) ?
				    llabs(A->untallied_here[t]) : llabs(left);
				if (left < 0)
					m = -m;
				/* it is in s .. below A, not in A and above */
				for (x = order[oi]; x >= 0 && x != a; x = rs->r[x].parent)
					rs->r[x].unpropagated[t] += m;
				A->stopped_here[t] += llabs(m);
				s->untallied_here[t] -= m;
				A->untallied_here[t] += m;
				left -= m;
				f = judge_add_finding(r, JUDGE_HIERARCHY_MISMATCH, s, t);
				if (!f)
					return -ENOMEM;
				f->failing = true;
				f->amount = llabs(m);
				f->at_ns = A->k.ns_inum;
				f->at_uid = A->k.uid;
				f->at_level = A->level;
				f->value = A->in_final ? A->final[t] : 0;
				judge_how(f, "changed by %+lld with no charge or uncharge reaching it "
					  "(a direct write), and the change did not reach level %u "
					  "(ns %u uid %u) above it; ", m, A->level, A->k.ns_inum,
					  A->k.uid);
				judge_counter_how(f, s, t);
			}
		}
		/* short of its children: a level below the sum of its
		 * children, more than at the baseline */
		for (oi = 0; oi < rs->n; oi++) {
			struct judge_row *p = &rs->r[order[oi]];
			long long sb = 0, sf = 0, shb, shf, amount;
			struct judge_finding *f;

			if (!p->nkids || !p->in_final)
				continue;
			for (k = 0; k < p->nkids; k++) {
				const struct judge_row *c = &rs->r[p->kids[k]];

				if (c->in_final)
					sf += c->final[t];
				if (c->in_base)
					sb += c->base[t];
			}
			shf = sf - p->final[t];
			shb = p->in_base ? sb - p->base[t] : 0;
			if (shf <= 0)
				continue;
			amount = shf - (shb > 0 ? shb : 0) - p->stopped_here[t];
			if (amount <= 0)
				continue;
			/* the shortfall is this class's, not a double uncharge's */
			p->unpropagated[t] -= amount;
			f = judge_add_finding(r, JUDGE_HIERARCHY_MISMATCH, p, t);
			if (!f)
				return -ENOMEM;
			f->failing = true;
			f->amount = amount;
			f->value = p->final[t];
			f->limit = sf;
			judge_how(f, "%lld, below the %lld of the rows of the namespaces it "
				  "created (every charge there also charged it); short by %lld at "
				  "the baseline", p->final[t], sf, shb > 0 ? shb : 0);
		}
	}
	(void)in;
	return 0;
}
