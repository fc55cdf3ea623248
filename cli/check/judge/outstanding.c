// SPDX-License-Identifier: GPL-2.0
/* outstanding.c - charges legitimately still held when the workload ended */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "judge_internal.h"

int ck_judge_outstanding(const struct uck_input *in, struct rows *rs, const struct skip *sk,
			 struct uck_result *r)
{
	size_t i;
	int t;

	for (i = 0; i < rs->n; i++) {
		struct row *w = &rs->r[i];

		for (t = 0; t < NT; t++) {
			long long n;
			struct uck_finding *f;

			if (sk->out[t])
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
			f = ck_add_finding(r, UCK_OUTSTANDING, w, t);
			if (!f)
				return -ENOMEM;
			f->failing = in->fail_outstanding;
			f->amount = n;
			ck_counter_how(f, w, t);
			ck_evidence_how(f, w, t);
			ck_how(f, "; still held by live objects, a legitimate charge");
			if (ck_stacks_open(in, f, NULL))
				return -ENOMEM;
		}
	}
	return 0;
}
