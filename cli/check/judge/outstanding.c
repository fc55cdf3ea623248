// SPDX-License-Identifier: GPL-2.0
/* outstanding.c - charges legitimately still held when the workload ended */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "judge_internal.h"

int judge_find_outstanding(const struct judge_input *in, struct judge_rows *rs,
			   const struct judge_undecidable *sk, struct judge_result *r)
{
	size_t i;
	int t;

	for (i = 0; i < rs->n; i++) {
		struct judge_row *w = &rs->r[i];

		for (t = 0; t < UCT_NTYPES; t++) {
			long long n;
			struct judge_finding *f;

			if (sk->outstanding[t])
				continue;
			switch (t) {
			case UCT_NPROC:	/* kernel threads are not the workload's */
				n = w->inv_final[UCK_INV_TASK] - w->inv_base[UCK_INV_TASK];
				break;
			case UCT_SIGPENDING:
				n = w->inv_final[UCK_INV_SIGQ] + w->inv_final[UCK_INV_TIMER] -
				    w->inv_base[UCK_INV_SIGQ] - w->inv_base[UCK_INV_TIMER];
				break;
			default:
				n = w->obj_amount[t];
			}
			if (n <= 0 || w->unexplained_here[t] < 0)
				continue;
			f = judge_add_finding(r, JUDGE_OUTSTANDING, w, t);
			if (!f)
				return -ENOMEM;
			f->failing = in->fail_outstanding;
			f->amount = n;
			judge_counter_how(f, w, t);
			judge_evidence_how(f, w, t);
			judge_how(f, "; still held by live objects, a legitimate charge");
			if (judge_stacks_open(in, f, NULL))
				return -ENOMEM;
		}
	}
	return 0;
}
