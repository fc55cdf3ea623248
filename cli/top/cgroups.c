// SPDX-License-Identifier: GPL-2.0
/* cgroups.c - container ids from cgroup paths, cgroup paths by id (cgroups.h). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "cgroups.h"
#include "jsonscan.h"

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

/*
 * The id of the first component of s on (components end at '/') that has
 * one, by component_id(): only a component ending within the first
 * limit bytes of s, only one with prefix only (NULL: any). A loop, not strchrnul():
 * ASan's strict string checks measure the whole rest of the string on
 * every call. NULL when there is none.
 */
static const char *first_id(const char *s, size_t limit, const char *only)
{
	size_t k = only ? strlen(only) : 0;
	const char *from = s, *end, *found;

	for (; *s; s = *end ? end + 1 : end) {
		for (end = s; *end && *end != '/'; end++)
			;
		if ((size_t)(end - from) > limit)
			break;
		found = component_id(s, (size_t)(end - s));
		if (found && (!only || ((size_t)(found - s) == k && !memcmp(s, only, k))))
			return found;
	}
	return NULL;
}

/* id (NUL-terminated) from found, or "" and false */
static bool copy_id(const char *found, char id[UCT_CID_LEN + 1])
{
	id[0] = 0;
	if (!found)
		return false;
	memcpy(id, found, UCT_CID_LEN);
	id[UCT_CID_LEN] = 0;
	return true;
}

bool uct_container_id(const char *path, size_t trusted, char id[UCT_CID_LEN + 1])
{
	/* the first component with an id wins: what the engine made; below
	 * it, the container's own root may make directories (root-owned,
	 * so trusted) named after another container */
	return copy_id(path ? first_id(path, trusted, NULL) : NULL, id);
}

bool uct_podman_claim(const char *path, size_t trusted, char id[UCT_CID_LEN + 1])
{
	return copy_id(path && strlen(path) > trusted ? first_id(path + trusted, SIZE_MAX, "libpod-") :
		       NULL, id);
}

/* Whether container id cid stands in path right after prefix */
static bool id_after(const char *path, const char *cid, const char *prefix)
{
	const char *at = path && cid ? strstr(path, cid) : NULL;
	size_t k = strlen(prefix);

	return at && (size_t)(at - path) >= k && !memcmp(at - k, prefix, k);
}

bool uct_container_is_docker(const char *path, const char *cid)
{
	/* a bare id: its parent directory is docker */
	return id_after(path, cid, "docker-") || id_after(path, cid, "/docker/");
}

bool uct_container_is_cri(const char *path, const char *cid)
{
	return id_after(path, cid, "cri-containerd-") || id_after(path, cid, "crio-");
}

bool uct_container_name_ok(const char *s, size_t n)
{
	size_t i;

	if (!n || n > UCT_CNAME_MAX)
		return false;
	for (i = 0; i < n; i++) {
		char c = s[i];

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		      (i && (c == '_' || c == '.' || c == '-'))))
			return false;
	}
	return true;
}

bool uct_docker_name(const char *json, size_t n, char out[UCT_CNAME_MAX + 1])
{
	const char *v, *name;
	size_t vlen, len;

	out[0] = 0;
	/* the top-level member: a label or an image's, deeper, is not it */
	if (!uct_json_get(json, n, "Name", &v, &vlen) ||
	    !uct_json_plain_string(v, vlen, &name, &len) || !len || name[0] != '/' ||
	    !uct_container_name_ok(name + 1, len - 1))
		return false;
	memcpy(out, name + 1, len - 1);
	out[len - 1] = 0;
	return true;
}

bool uct_podman_name(const char *json, size_t n, const char *cid, char out[UCT_CNAME_MAX + 1])
{
	const char *obj, *v, *id, *names, *name;
	size_t pos = 0, olen, vlen, idlen, nlen, len, npos = 0;

	out[0] = 0;
	while (uct_json_elem(json, n, &pos, &obj, &olen) == 1) {
		if (!uct_json_get(obj, olen, "id", &v, &vlen) ||
		    !uct_json_plain_string(v, vlen, &id, &idlen) || idlen != UCT_CID_LEN ||
		    memcmp(id, cid, UCT_CID_LEN))
			continue;
		/* its first name: what podman ps shows */
		if (!uct_json_get(obj, olen, "names", &names, &nlen) ||
		    uct_json_elem(names, nlen, &npos, &v, &vlen) != 1 ||
		    !uct_json_plain_string(v, vlen, &name, &len) ||
		    !uct_container_name_ok(name, len))
			return false;
		memcpy(out, name, len);
		out[len] = 0;
		return true;
	}
	return false;
}

bool uct_tenant_cname_ok(const char *s, size_t n)
{
	const char *colon = memchr(s, ':', n);
	size_t u = colon ? (size_t)(colon - s) : 0, i;

	if (!u || u > UCT_TENANT_NAME_MAX || s[0] == '-' || s[0] == '.')
		return false;
	for (i = 0; i < u; i++) {
		char c = s[i];

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		      c == '_' || c == '.' || c == '-'))
			return false;
	}
	return uct_container_name_ok(s + u + 1, n - u - 1);
}

/* ---- cgroup id -> name cache ---- */

static __u64 cg_hash(const void *key)
{
	return *(const __u64 *)key;
}

static const void *cg_key(const void *slot)
{
	const struct uct_cgname *e = slot;

	return e->id ? &e->id : NULL;
}

static bool cg_same(const void *a, const void *b)
{
	return *(const __u64 *)a == *(const __u64 *)b;
}

static bool cg_make(void *slot, const void *key)
{
	struct uct_cgname *e = slot;

	memset(e, 0, sizeof(*e));
	e->id = *(const __u64 *)key;
	return true;
}

static unsigned long cg_used(const void *slot)
{
	return ((const struct uct_cgname *)slot)->used;
}

static void cg_drop(void *slot)
{
	free(((struct uct_cgname *)slot)->path);
	free(((struct uct_cgname *)slot)->cname);
	free(((struct uct_cgname *)slot)->kube);
}

/* the entries in their slots: id 0, no cgroup, marks an empty one */
static const struct uct_cache_ops cg_ops = {
	.size = sizeof(struct uct_cgname),
	.first_cap = 64,
	.hash = cg_hash,
	.key = cg_key,
	.same = cg_same,
	.make = cg_make,
	.used = cg_used,
	.drop = cg_drop,
};

struct uct_cgname *uct_cgcache_get(struct uct_cache *c, __u64 id, unsigned long gen)
{
	struct uct_cgname *e;

	if (!id)
		return NULL;
	e = uct_cache_get(c, &cg_ops, &id);
	if (e)
		e->used = gen;
	return e;
}

bool uct_cgname_set(struct uct_cgname *e, const char *path, size_t trusted, __u32 tenant)
{
	char id[UCT_CID_LEN + 1];
	size_t n = strlen(path);
	bool has = uct_container_id(path, trusted, id);
	bool claimed = !has && tenant && tenant != UCT_NO_UID &&
		       uct_podman_claim(path, trusted, id);
	/* one allocation: the path, then the id */
	char *s;

	has |= claimed;
	s = malloc(n + 1 + (has ? sizeof(id) : 0));

	if (!s)
		return false;
	memcpy(s, path, n + 1);
	if (has)
		memcpy(s + n + 1, id, sizeof(id));
	free(e->path);
	free(e->cname);
	free(e->kube);
	e->cname = NULL;
	e->kube = NULL;
	e->path = s;
	e->cid = has ? s + n + 1 : NULL;
	e->tenant = claimed ? tenant : 0;
	e->failed_pid = 0;
	e->failures = 0;
	return true;
}

void uct_cgname_failed(struct uct_cgname *e, __u32 pid, double now)
{
	e->failed_pid = pid;
	e->retry_s = now + (double)(2u << (e->failures < 5 ? e->failures : 5));
	e->failures++;
}

void uct_cgcache_sweep(struct uct_cache *c, unsigned long gen)
{
	uct_cache_sweep(c, &cg_ops, gen);
}

void uct_cgcache_free(struct uct_cache *c)
{
	uct_cache_free(c, &cg_ops);
}
