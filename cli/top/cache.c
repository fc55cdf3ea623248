// SPDX-License-Identifier: GPL-2.0
/* cache.c - the open-addressing table of the layer's caches (cache.h). */
#include <stdlib.h>
#include <string.h>
#include "cache.h"

static void *slot_at(const struct uct_cache *c, const struct uct_cache_ops *ops, size_t i)
{
	return (char *)c->v + i * ops->size;
}

/* Where key's probe starts: a multiplicative hash, whose high bits mix
 * all of the key's */
static size_t home_of(const struct uct_cache *c, const struct uct_cache_ops *ops,
		      const void *key)
{
	return (size_t)((ops->hash(key) * 0x9E3779B97F4A7C15ULL) >> 32) & (c->cap - 1);
}

/* key's slot, or the empty one where it would go */
static void *find_slot(struct uct_cache *c, const struct uct_cache_ops *ops, const void *key)
{
	size_t i = home_of(c, ops, key);
	const void *k;

	/* load <= 1/2: an empty slot ends every probe */
	while ((k = ops->key(slot_at(c, ops, i))) && !ops->same(k, key))
		i = (i + 1) & (c->cap - 1);
	return slot_at(c, ops, i);
}

/* The table again with cap slots; with sweep, without the entries not
 * used since generation gen */
static bool rebuild(struct uct_cache *c, const struct uct_cache_ops *ops, size_t cap,
		    unsigned long gen, bool sweep)
{
	struct uct_cache nc = { calloc(cap, ops->size), cap, 0 };
	size_t i;

	if (!nc.v)
		return false;
	for (i = 0; i < c->cap; i++) {
		void *e = slot_at(c, ops, i);
		const void *k = ops->key(e);

		if (!k)
			continue;
		if (sweep && ops->used(e) < gen) {
			ops->drop(e);
			continue;
		}
		memcpy(find_slot(&nc, ops, k), e, ops->size);
		nc.n++;
	}
	free(c->v);
	*c = nc;
	return true;
}

void *uct_cache_get(struct uct_cache *c, const struct uct_cache_ops *ops, const void *key)
{
	void *e;

	if ((c->n + 1) * 2 > c->cap &&
	    !rebuild(c, ops, c->cap ? c->cap * 2 : ops->first_cap, 0, false))
		return NULL;
	e = find_slot(c, ops, key);
	if (!ops->key(e)) {
		if (!ops->make(e, key))
			return NULL;
		c->n++;
	}
	return e;
}

void uct_cache_sweep(struct uct_cache *c, const struct uct_cache_ops *ops, unsigned long gen)
{
	size_t i, stale = 0;

	for (i = 0; i < c->cap; i++) {
		const void *e = slot_at(c, ops, i);

		stale += ops->key(e) && ops->used(e) < gen;
	}
	if (stale)
		rebuild(c, ops, c->cap, gen, true);
}

void uct_cache_free(struct uct_cache *c, const struct uct_cache_ops *ops)
{
	size_t i;

	for (i = 0; i < c->cap; i++) {
		void *e = slot_at(c, ops, i);

		if (ops->key(e))
			ops->drop(e);
	}
	free(c->v);
	memset(c, 0, sizeof(*c));
}
