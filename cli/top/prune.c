// SPDX-License-Identifier: GPL-2.0
/*
 * prune.c - the stats entries of objects gone from the snapshots. Without
 * the ucounts_free tracepoint nothing deletes a freed object's entries
 * (the stats map, --events' counts, the refusals by cgroup): they fill
 * the maps (stats_full) and an address or name reused by a new object
 * finds the old one's. An entry that matched no row in UCT_PRUNE_AFTER
 * updates in a row is listed for the tool to delete (uct_loader_prune());
 * the totals keep its refusals.
 */
#include <stdlib.h>
#include <string.h>
#include "grow.h"
#include "model_internal.h"

static int absent_cmp(const void *a, const void *b)
{
	__u64 x = ((const struct uct_absent *)a)->id, y = ((const struct uct_absent *)b)->id;

	return x < y ? -1 : x > y;
}

void uct_model_prune_free(struct uct_model *m)
{
	free(m->absent);
	free(m->unmatched);
	free(m->prune_ids);
	free(m->prune_rows);
}

int uct_model_note_unmatched(struct uct_model *m, __u64 id, __u32 ns_inum, __u32 uid)
{
	if (uct_grow((void **)&m->unmatched, &m->cap_unmatched, m->nunmatched + 1,
		     sizeof(*m->unmatched)))
		return -1;
	m->unmatched[m->nunmatched++] = (struct uct_absent){
		.id = id, .k = { .ns_inum = ns_inum, .uid = uid }, .refreshes = 1,
	};
	return 0;
}

/*
 * This update's unmatched entries become the absent list, each counting
 * the updates in a row it has been absent (an entry that matched drops
 * out); those absent long enough go to the prune lists, with their row's
 * name when no row of the snapshot has it (the refusals by cgroup are kept
 * by name).
 */
int uct_model_update_absent(struct uct_model *m)
{
	size_t i, keep = 0;

	m->nprune = m->nprune_rows = 0;
	if (m->nunmatched)
		qsort(m->unmatched, m->nunmatched, sizeof(*m->unmatched), absent_cmp);
	for (i = 0; i < m->nunmatched; i++) {
		struct uct_absent *u = &m->unmatched[i];
		const struct uct_absent *was = m->nabsent ?
			bsearch(u, m->absent, m->nabsent, sizeof(*u), absent_cmp) : NULL;

		if (was)
			u->refreshes = was->refreshes + 1;
		if (u->refreshes < UCT_PRUNE_AFTER) {
			m->unmatched[keep++] = *u;
			continue;
		}
		if (uct_grow((void **)&m->prune_ids, &m->cap_prune, m->nprune + 1,
			     sizeof(*m->prune_ids)))
			return -1;
		m->prune_ids[m->nprune++] = u->id;
		if (!u->k.ns_inum || uct_model_find_row(m, u->k.ns_inum, u->k.uid) >= 0)
			continue;
		if (uct_grow((void **)&m->prune_rows, &m->cap_prune_rows, m->nprune_rows + 1,
			     sizeof(*m->prune_rows)))
			return -1;
		m->prune_rows[m->nprune_rows++] = u->k;
	}
	/* the survivors, sorted, are the next update's absent list */
	if (uct_grow((void **)&m->absent, &m->cap_absent, keep ? keep : 1, sizeof(*m->absent)))
		return -1;
	if (keep)
		memcpy(m->absent, m->unmatched, keep * sizeof(*m->absent));
	m->nabsent = keep;
	m->nunmatched = 0;
	return 0;
}
