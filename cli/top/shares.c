// SPDX-License-Identifier: GPL-2.0
/*
 * shares.c - each row's processes and refusals by cgroup (struct
 * uct_share, model.h): the task records say which cgroup each process
 * charging a row is in and how many threads it has, the cg_denials map
 * which cgroup's tasks were refused. Containers run as one uid in the
 * host's namespace share its row; this splits the row between them.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "model_internal.h"

void uct_model_set_cg_denials(struct uct_model *m, const struct uct_cgdeny_kv *kv, size_t n)
{
	m->cg_denials = kv;
	m->ncg_denials = n;
}

/* Whether two shares' containers are one: the same id, claimed by the
 * same (0: root's engines; a tenant's id is never one of theirs) */
static bool same_container(const char *a, __u32 ta, const char *b, __u32 tb)
{
	return a && b && !strcmp(a, b) && ta == tb;
}

/* A share being collected: its row, then the share */
struct pending {
	int row;
	struct uct_share s;
};

static int pending_cmp(const void *a, const void *b)
{
	const struct pending *x = a, *y = b;

	if (x->row != y->row)
		return x->row < y->row ? -1 : 1;
	return x->s.cgroup_id < y->s.cgroup_id ? -1 : x->s.cgroup_id > y->s.cgroup_id;
}

/* Containers first, the most processes first, then by cgroup id: the
 * order the views list them in */
static int share_cmp(const void *a, const void *b)
{
	const struct uct_share *x = a, *y = b;

	if (!x->container != !y->container)
		return x->container ? -1 : 1;
	if (x->processes != y->processes)
		return x->processes > y->processes ? -1 : 1;
	return x->cgroup_id < y->cgroup_id ? -1 : x->cgroup_id > y->cgroup_id;
}

/* The share's cgroup path and container, looked up once per cgroup id
 * (the cache's) through one of its processes; after a failure, here or
 * for a namespace's name, again only once its back-off is over */
static void name_share(struct uct_model *m, struct uct_share *s)
{
	struct uct_cgname *e = uct_cgcache_get(&m->cgroups, s->cgroup_id, m->iteration);

	if (!e)
		return;
	if (!e->path && s->pid && uct_cgname_retry_due(e, m->now))
		uct_model_lookup_cgroup(m, e, s->pid);
	s->cgroup = e->path;
	s->container = e->cid;
	s->container_name = e->cname;
	s->container_tenant = e->tenant;
	s->kube = e->kube;
}

/* from's processes and refusals added to to's */
static void share_add(struct uct_share *to, const struct uct_share *from)
{
	int t;

	to->processes += from->processes;
	for (t = 0; t < UCT_NTYPES; t++)
		to->denials[t] += from->denials[t];
}

int uct_model_build_shares(struct uct_model *m, const struct uct_tlim *tl, size_t n)
{
	struct pending *p;
	size_t np = 0, i, k, cap = n + m->ncg_denials;
	int r;

	m->nshares = 0;
	for (i = 0; i < m->nrows; i++) {
		m->rows[i].share = 0;
		m->rows[i].nshares = 0;
		m->rows[i].ncontainers = 0;
		m->rows[i].shares_named = false;
		m->rows[i].shared = false;
	}
	if (!cap)
		return 0;
	p = malloc(cap * sizeof(*p));
	if (!p)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		r = uct_model_find_row_by_id(m, tl[i].id);
		if (r < 0 || !tl[i].pid)
			continue;
		memset(&p[np], 0, sizeof(p[np]));
		p[np].row = r;
		p[np].s.cgroup_id = tl[i].cgroup_id;
		/* a leader whose threads all exited has none left to count
		 * but itself, still charged until it is reaped */
		p[np].s.processes = tl[i].threads ? tl[i].threads : 1;
		p[np].s.pid = tl[i].pid;
		np++;
	}
	for (i = 0; i < m->ncg_denials; i++) {
		const struct uct_cgdeny_kv *d = &m->cg_denials[i];

		r = uct_model_find_row(m, d->key.ns_inum, d->key.uid);
		if (r < 0)
			continue;
		memset(&p[np], 0, sizeof(p[np]));
		p[np].row = r;
		p[np].s.cgroup_id = d->key.cgroup_id;
		memcpy(p[np].s.denials, d->d.denials, sizeof(p[np].s.denials));
		np++;
	}
	qsort(p, np, sizeof(*p), pending_cmp);
	/* one share per (row, cgroup): processes and refusals added */
	for (i = 0, k = 0; i < np; i++) {
		if (k && p[k - 1].row == p[i].row && p[k - 1].s.cgroup_id == p[i].s.cgroup_id) {
			share_add(&p[k - 1].s, &p[i].s);
			if (!p[k - 1].s.pid)
				p[k - 1].s.pid = p[i].s.pid;
			continue;
		}
		p[k++] = p[i];
	}
	np = k;
	if (uct_grow((void **)&m->shares, &m->cap_shares, np, sizeof(*m->shares))) {
		free(p);
		return -ENOMEM;
	}
	for (i = 0; i < np; i++) {
		struct uct_row *row = &m->rows[p[i].row];
		struct uct_cgname *e;

		if (!row->nshares)
			row->share = (int)i;
		row->nshares++;
		m->shares[i] = p[i].s;
		/* in use this update, so that the sweep keeps it; looked up
		 * only when the row is shown (uct_model_name_shares()) */
		e = uct_cgcache_get(&m->cgroups, p[i].s.cgroup_id, m->iteration);
		if (e) {
			m->shares[i].cgroup = e->path;
			m->shares[i].container = e->cid;
			m->shares[i].container_name = e->cname;
			m->shares[i].container_tenant = e->tenant;
			m->shares[i].kube = e->kube;
		}
	}
	m->nshares = np;
	free(p);
	return 0;
}

/* By container (none last) and who claims it (root's engines first, a
 * tenant's id never one of theirs), then by the shortest cgroup path:
 * the container's own cgroup before its sub-cgroups */
static int container_cmp(const void *a, const void *b)
{
	const struct uct_share *x = a, *y = b;
	int c;

	if (!x->container || !y->container)
		return !x->container - !y->container;
	c = strcmp(x->container, y->container);
	if (c)
		return c;
	if (x->container_tenant != y->container_tenant)
		return x->container_tenant < y->container_tenant ? -1 : 1;
	return (x->cgroup ? strlen(x->cgroup) : 0) < (y->cgroup ? strlen(y->cgroup) : 0) ? -1 : 1;
}

/* One share per container: its sub-cgroups' (a container's init
 * cgroup, say) added to its own */
static void merge_containers(struct uct_model *m, struct uct_row *r)
{
	struct uct_share *s = &m->shares[r->share];
	int i, k;

	qsort(s, (size_t)r->nshares, sizeof(*s), container_cmp);
	for (i = 0, k = 0; i < r->nshares; i++) {
		if (k && same_container(s[i].container, s[i].container_tenant, s[k - 1].container,
					s[k - 1].container_tenant)) {
			share_add(&s[k - 1], &s[i]);
			continue;
		}
		s[k++] = s[i];
	}
	r->nshares = k;
}

void uct_model_name_shares(struct uct_model *m, struct uct_row *r)
{
	const struct uct_nsname *nm = m->ns[r->ns].name;
	const char *own = m->have_tasks ? nm->container : NULL;
	int k, containers = 0;

	if (r->shares_named)
		return;
	r->shares_named = true;
	r->shared = false;
	for (k = 0; k < r->nshares; k++) {
		struct uct_share *s = &m->shares[r->share + k];

		name_share(m, s);
		containers += s->container != NULL;
		/* a namespace of a container's own holds its processes: its
		 * line says which; a row is shared when another's are in it */
		r->shared |= s->container &&
			      !same_container(own, nm->container_tenant, s->container,
					      s->container_tenant);
	}
	if (containers > 1)
		merge_containers(m, r);
	r->ncontainers = 0;
	for (k = 0; k < r->nshares; k++)
		r->ncontainers += m->shares[r->share + k].container != NULL;
	if (r->nshares > 1)
		qsort(&m->shares[r->share], (size_t)r->nshares, sizeof(*m->shares), share_cmp);
}

void uct_row_other_share(const struct uct_model *m, const struct uct_row *r,
			 struct uct_share *other)
{
	int k;

	memset(other, 0, sizeof(*other));
	for (k = 0; k < r->nshares; k++)
		if (!m->shares[r->share + k].container)
			share_add(other, &m->shares[r->share + k]);
}
