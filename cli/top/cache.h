/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cache.h - the open-addressing table under the layer's caches (cgroup
 * paths by cgroup id, cgroups.h; passwd files by root, users.h), which
 * keep what one refresh looked up for the next ones and forget what no
 * namespace uses any more.
 *
 * A table of fixed-size slots, each empty or holding one entry; the
 * owner says through struct uct_cache_ops what a slot holds. Entries
 * carry the generation of their last use: a sweep forgets those not
 * used since a given one. Slots move when the table grows or is swept,
 * so an entry that must stay put is a pointer in its slot.
 */
#ifndef UCT_CACHE_H
#define UCT_CACHE_H

#include <stdbool.h>
#include <stddef.h>
#include "common.h"

struct uct_cache {
	void *v;		/* cap slots of uct_cache_ops.size bytes */
	size_t cap, n;		/* cap: a power of two, or 0; n: entries */
};

struct uct_cache_ops {
	size_t size;		/* of a slot */
	size_t first_cap;	/* slots of the first table: a power of two */
	/* a key's hash; the table spreads it over the slots */
	__u64 (*hash)(const void *key);
	/* the key of the entry in slot, NULL when the slot is empty (all
	 * bytes zero is empty) */
	const void *(*key)(const void *slot);
	bool (*same)(const void *a, const void *b);	/* two keys */
	/* fill the empty slot with a new entry of key; false: no memory
	 * (the slot stays empty) */
	bool (*make)(void *slot, const void *key);
	unsigned long (*used)(const void *slot);	/* its generation */
	void (*drop)(void *slot);	/* free what the entry holds */
};

/*
 * The slot of key's entry, made when absent; NULL without memory. The
 * table is at most half full: it doubles before it would be more.
 */
void *uct_cache_get(struct uct_cache *c, const struct uct_cache_ops *ops, const void *key);
/* Drop the entries not used since generation gen; without memory for
 * the new table they stay */
void uct_cache_sweep(struct uct_cache *c, const struct uct_cache_ops *ops, unsigned long gen);
/* Drop every entry and the table */
void uct_cache_free(struct uct_cache *c, const struct uct_cache_ops *ops);

#endif /* UCT_CACHE_H */
