// SPDX-License-Identifier: GPL-2.0
/* admitted.c - admitted over limit: a charge the limit should have refused */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "judge_internal.h"

/* Admitted-over-limit from the over-limit records (and those still pending). */
int judge_find_admitted(const struct judge_input *in, bool findings, struct judge_result *r)
{
	size_t i, j, n = in->nover + in->npend;

	for (i = 0; i < n; i++) {
		struct uck_over_key ok;
		struct uck_over ov;
		const char *why = NULL;
		struct judge_finding *f = NULL;
		long long excess;

		if (i < in->nover) {
			ok = in->over[i].k;
			ov = in->over[i].v;
		} else {
			const struct uck_pend *p = &in->pend[i - in->nover].v;

			memset(&ok, 0, sizeof(ok));
			memset(&ov, 0, sizeof(ov));
			ok.ns_inum = p->ns_inum;
			ok.uid = p->uid;
			ok.type = p->type;
			ok.flags = p->flags | UCK_E_END;
			ok.stack_id = p->stack_id;
			ov.count = 1;
			ov.total = p->amount;
			ov.value = p->value;
			ov.limit = p->limit;
			ov.at_ns = p->at_ns;
			ov.at_uid = p->at_uid;
			ov.at_level = p->at_level;
			ov.stack2 = -1;
			ov.pid = p->pid;
			memcpy(ov.comm, p->comm, sizeof(ov.comm));
		}
		if (ok.type >= UCT_NTYPES)
			continue;
		if (ok.flags & UCK_E_ROLLED_BACK) {
			r->refused_rolled_back += ov.count;
			continue;
		}
		if (ok.flags & UCK_E_EXEMPT) {
			r->privileged_over += ov.count;
			continue;
		}
		if (ok.flags & UCK_E_SAID_WITHIN)
			why = ok.flags & UCK_E_CHECKED ?
			      "the limit check (is_rlimit_overlimit) said within limits" :
			      "the charge function said within limits";
		else if (ok.type == UCT_NPROC && (ok.flags & UCK_E_CHECK_OVER))
			why = "the limit check said over (fork refused), but the charging "
			      "task never uncharged it";
		else if (ok.type == UCT_NPROC && !(ok.flags & UCK_E_CHECKED))
			r->deferred_nproc += ov.count;	/* set*uid, unshare: by design */
		else if (ok.flags & UCK_E_CALLER_CMP)
			why = ok.flags & UCK_E_KERNEL_OVER ?
			      "the charge function said over, but the charging task kept the "
			      "charge (no uncharge of it followed)" :
			      "the caller's own rlimit was exceeded, but the charging task kept "
			      "the charge (no uncharge of it followed)";
		if (!why || !findings)
			continue;
		excess = ov.value - ov.limit;
		for (j = 0; j < r->n; j++)
			if (r->f[j].cls == JUDGE_ADMITTED_OVER_LIMIT &&
			    r->f[j].ns_inum == ok.ns_inum && r->f[j].uid == ok.uid &&
			    r->f[j].type == (int)ok.type)
				f = &r->f[j];
		if (!f) {
			f = judge_add_finding(r, JUDGE_ADMITTED_OVER_LIMIT, NULL, (int)ok.type);
			if (!f)
				return -ENOMEM;
			f->ns_inum = ok.ns_inum;
			f->uid = ok.uid;
			f->failing = true;
			f->at_level = -1;
		}
		if (excess > f->amount || f->at_level < 0) {
			f->amount = excess > f->amount ? excess : f->amount;
			f->at_ns = ov.at_ns;
			f->at_uid = ov.at_uid;
			f->at_level = ov.at_level;
			f->value = ov.value;
			f->limit = ov.limit;
			f->how[0] = 0;
			judge_how(f, "%s while level %d (ns %u uid %u) was at %lld, above its limit "
				  "%lld (%s)", why, ov.at_level, ov.at_ns, ov.at_uid,
				  (long long)ov.value, (long long)ov.limit,
				  ok.flags & UCK_E_LEVEL ? "rlimit_max of the namespace below it" :
				  "the caller's own rlimit");
			if (ok.flags & UCK_E_END)
				judge_how(f, "; still pending when the workload ended");
		}
		f->charged += ov.total;
		if (judge_add_stack(f, ok.stack_id,
				    ok.flags & UCK_E_CHECKED && ok.flags & UCK_E_SAID_WITHIN ?
				    JUDGE_STACK_CHECK : JUDGE_STACK_OVER, ov.count, ov.total, ov.pid,
				    ov.comm))
			return -ENOMEM;
		if (ov.stack2 >= 0 && judge_add_stack(f, ov.stack2, JUDGE_STACK_OVER, ov.count,
						      ov.total, ov.pid, ov.comm))
			return -ENOMEM;
	}
	return 0;
}
