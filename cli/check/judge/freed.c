// SPDX-License-Identifier: GPL-2.0
/* freed.c - freed while charged: a struct ucounts freed with a charge on it */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "judge_internal.h"
#include "fmt.h"

int judge_find_freed(const struct judge_input *in, struct judge_rows *rs, struct judge_result *r)
{
	size_t i;
	int t;

	for (i = 0; i < in->nfreed; i++) {
		const struct judge_free_kv *fr = &in->freed[i];
		struct uct_key k = { fr->k.ns_inum, fr->k.uid };
		int idx = judge_rows_find(rs, &k);

		for (t = 0; t < UCT_NTYPES; t++) {
			struct judge_finding *f = NULL;
			size_t j;

			if (!fr->v.value[t])
				continue;
			/* one finding per (row, type): several free stacks merge */
			for (j = 0; j < r->n; j++)
				if (r->f[j].cls == JUDGE_FREED_CHARGED &&
				    r->f[j].ns_inum == k.ns_inum && r->f[j].uid == k.uid &&
				    r->f[j].type == t)
					f = &r->f[j];
			if (!f) {
				f = judge_add_finding(r, JUDGE_FREED_CHARGED,
						      idx >= 0 ? &rs->r[idx] : NULL, t);
				if (!f)
					return -ENOMEM;
				f->ns_inum = k.ns_inum;
				f->uid = k.uid;
				f->level = fr->v.level;
				f->failing = true;
				if (fr->v.nanc) {
					f->at_ns = fr->v.anc[0].ns_inum;
					f->at_uid = fr->v.anc[0].uid;
					f->at_level = fr->v.level ? (int)fr->v.level - 1 : -1;
				}
				if (judge_stacks_charged(in, f))
					return -ENOMEM;
			}
			f->amount += fr->v.value[t];
			f->value = f->amount;
			if (judge_add_stack(f, fr->k.stack_id, JUDGE_STACK_FREE, fr->v.count,
					    fr->v.value[t], fr->v.pid, fr->v.comm))
				return -ENOMEM;
		}
	}
	for (i = 0; i < r->n; i++) {
		struct judge_finding *f = &r->f[i];

		if (f->cls != JUDGE_FREED_CHARGED)
			continue;
		judge_how(f, "the ucounts was freed (ucounts_free) with %s=%lld: that charge can "
			  "no longer be uncharged", uct_type_name(f->type), f->amount);
		if (f->at_level >= 0)
			judge_how(f, ", and the levels above it (from ns %u uid %u up) keep it for "
				  "good", f->at_ns, f->at_uid);
	}
	return 0;
}
