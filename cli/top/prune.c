// SPDX-License-Identifier: GPL-2.0
/* prune.c - the entries of rows gone from the snapshots (see prune.h). */
#include <stdlib.h>
#include <string.h>
#include "grow.h"
#include "prune.h"

static int absent_cmp(const void *a, const void *b)
{
	__u64 x = ((const struct uct_absent *)a)->id, y = ((const struct uct_absent *)b)->id;

	return x < y ? -1 : x > y;
}

void uct_prune_free(struct uct_prune *p)
{
	free(p->absent);
	free(p->unmatched);
	free(p->ids);
	free(p->rows);
	*p = (struct uct_prune){};
}

int uct_prune_note(struct uct_prune *p, __u64 id, __u32 ns_inum, __u32 uid)
{
	if (uct_grow((void **)&p->unmatched, &p->cap_unmatched, p->nunmatched + 1,
		     sizeof(*p->unmatched)))
		return -1;
	p->unmatched[p->nunmatched++] = (struct uct_absent){
		.id = id, .k = { .ns_inum = ns_inum, .uid = uid }, .refreshes = 1,
	};
	return 0;
}

/*
 * This update's unmatched entries become the absent list, each counting
 * the updates in a row it has been absent (an entry that matched drops
 * out); those absent long enough go to the lists to delete, with their
 * row's name when no row of the snapshot has it (the refusals by cgroup
 * are kept by name).
 */
int uct_prune_update(struct uct_prune *p, uct_row_exists_fn exists, const void *ctx)
{
	size_t i, keep = 0;

	p->nids = p->nrows = 0;
	if (p->nunmatched)
		qsort(p->unmatched, p->nunmatched, sizeof(*p->unmatched), absent_cmp);
	for (i = 0; i < p->nunmatched; i++) {
		struct uct_absent *u = &p->unmatched[i];
		const struct uct_absent *was = p->nabsent ?
			bsearch(u, p->absent, p->nabsent, sizeof(*u), absent_cmp) : NULL;

		if (was)
			u->refreshes = was->refreshes + 1;
		if (u->refreshes < UCT_PRUNE_AFTER) {
			p->unmatched[keep++] = *u;
			continue;
		}
		if (uct_grow((void **)&p->ids, &p->cap_ids, p->nids + 1, sizeof(*p->ids)))
			return -1;
		p->ids[p->nids++] = u->id;
		if (!u->k.ns_inum || exists(ctx, u->k.ns_inum, u->k.uid))
			continue;
		if (uct_grow((void **)&p->rows, &p->cap_rows, p->nrows + 1, sizeof(*p->rows)))
			return -1;
		p->rows[p->nrows++] = u->k;
	}
	/* the survivors, sorted, are the next update's absent list */
	if (uct_grow((void **)&p->absent, &p->cap_absent, keep ? keep : 1, sizeof(*p->absent)))
		return -1;
	if (keep)
		memcpy(p->absent, p->unmatched, keep * sizeof(*p->absent));
	p->nabsent = keep;
	p->nunmatched = 0;
	return 0;
}
