/* SPDX-License-Identifier: GPL-2.0 */
/*
 * prune.h - the stats entries of objects gone from the snapshots. Without
 * the ucounts_free tracepoint nothing deletes a freed object's entries
 * (the stats map, --events' counts, the refusals by cgroup): they fill
 * the maps, and an address reused by a new object finds the old one's. An
 * entry that matched no row in UCT_PRUNE_AFTER updates in a row is listed
 * for the tool to delete (uct_loader_prune()); the totals keep its
 * refusals.
 */
#ifndef UCT_PRUNE_H
#define UCT_PRUNE_H

#include <stdbool.h>
#include <stddef.h>
#include "common.h"

#define UCT_PRUNE_AFTER	5	/* updates in a row */

/* A stats entry that matched no row */
struct uct_absent {
	__u64 id;
	struct uct_key k;		/* the row it was made for (0, 0: none) */
	unsigned int refreshes;		/* updates in a row without a match */
};

struct uct_prune {
	struct uct_absent *absent;	/* absent so far, by id */
	size_t nabsent, cap_absent;
	struct uct_absent *unmatched;	/* this update's */
	size_t nunmatched, cap_unmatched;
	__u64 *ids;			/* to delete: stats and --events entries */
	size_t nids, cap_ids;
	struct uct_key *rows;		/* to delete: refusals by cgroup, by row name */
	size_t nrows, cap_rows;
};

/* is there a row of that name in this update's snapshot? */
typedef bool (*uct_row_exists_fn)(const void *ctx, __u32 ns_inum, __u32 uid);

/* An entry of this update that matched no row. 0, or -1 out of memory. */
int uct_prune_note(struct uct_prune *p, __u64 id, __u32 ns_inum, __u32 uid);
/* The update is done: its unmatched entries become the absent list, and
 * those absent UCT_PRUNE_AFTER updates in a row go to ids (and their row
 * name to rows, unless exists says a row still has it). 0, or -1. */
int uct_prune_update(struct uct_prune *p, uct_row_exists_fn exists, const void *ctx);
void uct_prune_free(struct uct_prune *p);

#endif /* UCT_PRUNE_H */
