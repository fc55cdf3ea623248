// SPDX-License-Identifier: GPL-2.0
/* names.c - container ids from cgroup paths, cgroup paths by id (names.h). */
#include <stdlib.h>
#include <string.h>
#include "names.h"

static bool all_hex(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
			return false;
	return true;
}

/* The id in one path component (n bytes), or NULL */
static const char *component_id(const char *s, size_t n)
{
	/* what runtimes put before the id; "" last: a bare id */
	static const char *const prefix[] = { "docker-", "libpod-", "cri-containerd-", "crio-",
					      "" };
	static const char scope[] = ".scope";
	size_t i;

	/* ".scope" is what systemd names a unit's cgroup after */
	if (n > sizeof(scope) - 1 && !memcmp(s + n - (sizeof(scope) - 1), scope, sizeof(scope) - 1))
		n -= sizeof(scope) - 1;
	for (i = 0; i < sizeof(prefix) / sizeof(prefix[0]); i++) {
		size_t p = strlen(prefix[i]);

		if (n == p + UCT_CID_LEN && !memcmp(s, prefix[i], p) &&
		    all_hex(s + p, UCT_CID_LEN))
			return s + p;
	}
	return NULL;
}

bool uct_container_id(const char *path, char id[UCT_CID_LEN + 1])
{
	const char *found = NULL, *s = path, *end;

	id[0] = 0;
	if (!path)
		return false;
	/* every component; the deepest one with an id wins. One pass over
	 * the path (a loop, not strchrnul(): ASan's strict string checks
	 * measure the whole rest of the string on every call) */
	for (; *s; s = *end ? end + 1 : end) {
		const char *hit;

		for (end = s; *end && *end != '/'; end++)
			;
		hit = component_id(s, (size_t)(end - s));
		if (hit)
			found = hit;
	}
	if (!found)
		return false;
	memcpy(id, found, UCT_CID_LEN);
	id[UCT_CID_LEN] = 0;
	return true;
}

/* ---- cgroup id -> name cache ---- */

static size_t slot_of(const struct uct_cgcache *c, __u64 id)
{
	return (size_t)((id * 0x9E3779B97F4A7C15ULL) >> 32) & (c->cap - 1);
}

static struct uct_cgname *find_slot(struct uct_cgcache *c, __u64 id)
{
	size_t i = slot_of(c, id);

	/* the table is never full (load <= 1/2): an empty slot ends it */
	while (c->v[i].id && c->v[i].id != id)
		i = (i + 1) & (c->cap - 1);
	return &c->v[i];
}

/* Rebuild the table with cap slots; with sweep, without the entries not
 * used since generation gen */
static bool rebuild(struct uct_cgcache *c, size_t cap, unsigned long gen, bool sweep)
{
	struct uct_cgcache nc = { calloc(cap, sizeof(*c->v)), cap, 0 };
	size_t i;

	if (!nc.v)
		return false;
	for (i = 0; i < c->cap; i++) {
		struct uct_cgname *e = &c->v[i];

		if (!e->id)
			continue;
		if (sweep && e->used < gen) {
			free(e->path);
			continue;
		}
		*find_slot(&nc, e->id) = *e;
		nc.n++;
	}
	free(c->v);
	*c = nc;
	return true;
}

struct uct_cgname *uct_cg_get(struct uct_cgcache *c, __u64 id, unsigned long gen)
{
	struct uct_cgname *e;

	if (!id)
		return NULL;
	if ((c->n + 1) * 2 > c->cap && !rebuild(c, c->cap ? c->cap * 2 : 64, 0, false))
		return NULL;
	e = find_slot(c, id);
	if (!e->id) {
		memset(e, 0, sizeof(*e));
		e->id = id;
		c->n++;
	}
	e->used = gen;
	return e;
}

bool uct_cg_set(struct uct_cgname *e, const char *path)
{
	char id[UCT_CID_LEN + 1];
	size_t n = strlen(path);
	bool has = uct_container_id(path, id);
	/* one allocation: the path, then the id */
	char *s = malloc(n + 1 + (has ? sizeof(id) : 0));

	if (!s)
		return false;
	memcpy(s, path, n + 1);
	if (has)
		memcpy(s + n + 1, id, sizeof(id));
	free(e->path);
	e->path = s;
	e->cid = has ? s + n + 1 : NULL;
	e->failed_pid = 0;
	return true;
}

void uct_cg_sweep(struct uct_cgcache *c, unsigned long gen)
{
	size_t i, stale = 0;

	for (i = 0; i < c->cap; i++)
		stale += c->v[i].id && c->v[i].used < gen;
	/* without memory for a new table the stale entries just stay */
	if (stale)
		rebuild(c, c->cap, gen, true);
}

void uct_cg_free(struct uct_cgcache *c)
{
	size_t i;

	for (i = 0; i < c->cap; i++)
		if (c->v[i].id)
			free(c->v[i].path);
	free(c->v);
	memset(c, 0, sizeof(*c));
}
