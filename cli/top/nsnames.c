// SPDX-License-Identifier: GPL-2.0
/*
 * nsnames.c - each namespace named after what runs in it (see model.h):
 * its oldest process from the task iterator's records, what holds a
 * namespace without one, its cgroup path and container id (cgroups.h) and
 * the passwd file that names its uids (users.h), looked up only for what
 * is shown.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "model_internal.h"

const struct uct_nsname uct_no_nsname;

/* Whether a process of t is older than the namespace's name so far: the
 * first to start, the lower pid among equals (one clock tick apart) */
static bool older(const struct uct_tlim *t, const struct uct_nsname *nm)
{
	if (!nm->pid)
		return true;
	if (t->start_time != nm->start_time)
		return t->start_time < nm->start_time;
	return t->pid < nm->pid;
}

/* What keeps a namespace without a process alive: its rows' own charges
 * (the part of a row's value its child namespaces do not explain) and
 * the namespaces they created */
static unsigned held_of(const struct uct_model *m, const struct uct_nsinfo *ns)
{
	static const struct { int type; unsigned held; } by_type[] = {
		{ UCT_MSGQUEUE, UCT_HELD_QUEUE },
		{ UCT_MEMLOCK, UCT_HELD_LOCKED },
		{ UCT_SIGPENDING, UCT_HELD_SIGNAL },
	};
	unsigned held = ns->nchildren ? UCT_HELD_CHILD_NS : 0;
	size_t t;
	int k;

	for (k = 0; k < ns->nrows; k++) {
		const struct uct_row *r = &m->rows[ns->rows[k]];

		if (r->rec.flags & UCT_REC_USERNS)
			held |= UCT_HELD_CHILD_NS;
		for (t = 0; t < ARRAY_SIZE(by_type); t++) {
			int type = by_type[t].type;

			if (r->rec.value[type] - uct_row_lim(m, r)->child_sum[type] > 0)
				held |= by_type[t].held;
		}
	}
	return held;
}

/* The hostname is worth showing when the nearest ancestor with a process
 * (the parent, usually) has another one: the namespace's processes set
 * up a UTS namespace of their own. Never for the initial namespace. */
static bool own_host(const struct uct_model *m, const struct uct_nsinfo *ns)
{
	int p = ns->parent, d;

	if (ns->root || !ns->name->pid || !ns->name->hostname[0])
		return false;
	for (d = 0; p >= 0 && !m->ns[p].name->pid && d <= UCT_MAX_LEVELS; d++)
		p = m->ns[p].parent;
	return p < 0 || strcmp(m->ns[p].name->hostname, ns->name->hostname) != 0;
}

/* The cgroup path of a namespace's process, when an earlier lookup knows
 * it; otherwise pending */
static void attach_cgroup(struct uct_model *m, struct uct_nsname *nm)
{
	struct uct_cgname *e = uct_cgcache_get(&m->cgroups, nm->cgroup_id, m->iteration);

	if (!e)
		return;
	if (e->path) {
		nm->cgroup = e->path;
		nm->container = e->cid;
		nm->container_name = e->cname;
		nm->container_tenant = e->tenant;
		nm->kube = e->kube;
	} else if (e->failed_pid != nm->pid || uct_cgname_retry_due(e, m->now)) {
		nm->pending = true;
	}
}

/* A namespace's own name, to write: NULL when it has none (no process) */
static struct uct_nsname *own_name(struct uct_model *m, const struct uct_nsinfo *ns)
{
	return ns->name == &uct_no_nsname ? NULL : &m->names[ns->name - m->names];
}

/*
 * Which passwd file names a namespace's uids: the one in its oldest
 * process's root, as that process sees it (its mount namespace and root
 * directory, which the tasks sharing them share); the initial
 * namespace's, ucounttop's own /etc/passwd. None without a process, or
 * when the kernel did not say where its root is.
 */
static void attach_users(struct uct_model *m, struct uct_nsinfo *ns)
{
	struct uct_pwkey key = { .own = true };

	if (!ns->root) {
		if (!ns->name->pid || (!ns->name->mnt_ns && !ns->name->root_ino))
			return;
		key = (struct uct_pwkey){ .root_ino = ns->name->root_ino,
					  .root_dev = ns->name->root_dev,
					  .mnt_ns = ns->name->mnt_ns };
	}
	ns->pwfile = uct_pwcache_get(&m->users, &key, m->iteration);
}

int uct_model_set_tasks(struct uct_model *m, const struct uct_tlim *tl, size_t n)
{
	size_t i;
	int k;

	m->have_tasks = true;
	m->nnames = 0;
	for (i = 0; i < m->nns; i++) {
		m->ns[i].name = &uct_no_nsname;
		m->ns[i].held = 0;
	}
	/* one name per namespace a process is in, at most: none moves */
	if (uct_grow((void **)&m->names, &m->cap_names, n < m->nns ? n : m->nns,
		    sizeof(*m->names)))
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		struct uct_nsname *nm;

		k = uct_model_find_ns(m, tl[i].ns_inum);
		if (k < 0 || !tl[i].pid)
			continue;
		nm = own_name(m, &m->ns[k]);
		if (!nm) {
			nm = &m->names[m->nnames++];
			memset(nm, 0, sizeof(*nm));
			m->ns[k].name = nm;
		}
		nm->ntasks++;
		if (!older(&tl[i], nm))
			continue;
		nm->pid = tl[i].pid;
		nm->start_time = tl[i].start_time;
		nm->cgroup_id = tl[i].cgroup_id;
		nm->root_ino = tl[i].root_ino;
		nm->root_dev = tl[i].root_dev;
		nm->mnt_ns = tl[i].mnt_ns;
		/* the kernel's strings, but never trust a terminator */
		memcpy(nm->comm, tl[i].comm, sizeof(nm->comm) - 1);
		memcpy(nm->hostname, tl[i].hostname, sizeof(nm->hostname) - 1);
	}
	for (i = 0; i < m->nns; i++) {
		struct uct_nsinfo *ns = &m->ns[i];
		struct uct_nsname *nm = own_name(m, ns);

		if (!nm) {
			ns->held = held_of(m, ns);
			continue;
		}
		nm->own_host = own_host(m, ns);
		attach_cgroup(m, nm);
	}
	for (i = 0; i < m->nns; i++) {
		struct uct_nsinfo *ns = &m->ns[i];

		/* namespaces in a row often share a root: no lookup then */
		if (i && !ns->root && !m->ns[i - 1].root && m->ns[i - 1].pwfile &&
		    ns->name->pid && ns->name->root_ino == m->ns[i - 1].name->root_ino &&
		    ns->name->root_dev == m->ns[i - 1].name->root_dev &&
		    ns->name->mnt_ns == m->ns[i - 1].name->mnt_ns)
			ns->pwfile = m->ns[i - 1].pwfile;
		else
			attach_users(m, ns);
	}
	if (uct_model_build_shares(m, tl, n))
		return -ENOMEM;
	/* the cgroups and passwd files no namespace or share uses any more */
	uct_cgcache_sweep(&m->cgroups, m->iteration);
	uct_pwcache_sweep(&m->users, m->iteration);
	if (!uct_model_name_filter_on(m))
		return 0;
	uct_model_resolve_names(m, -1, 0);
	return uct_model_relayout(m);
}

/* A pod's container: who the runtime says it is, else the pod UID its
 * cgroup path carries */
static void name_pod(struct uct_model *m, struct uct_cgname *e, size_t trusted)
{
	char name[UCT_CFILTER_MAX + 1], uid[UCT_POD_UID_LEN + 1];
	bool in_pod = uct_pod_uid(e->path, trusted, uid);
	struct uct_kube k;

	if (!in_pod && !uct_container_is_cri(e->path, e->cid))
		return;
	if (!m->cri_fn || m->cri_fn(m->cri_arg, e->cid, &k)) {
		if (!in_pod)
			return;
		memset(&k, 0, sizeof(k));
	}
	/* the path's, which root made, over the bundle's */
	if (in_pod)
		memcpy(k.pod_uid, uid, sizeof(uid));
	e->kube = malloc(sizeof(k));
	if (!e->kube)
		return;
	*e->kube = k;
	if (k.pod[0]) {
		uct_kube_display(&k, name, sizeof(name));
		e->cname = strdup(name);
	}
}

/* A rootless Podman's container: named by its user's own Podman, as
 * user:name, or not at all (the id is the tenant's claim) */
static void name_rootless(struct uct_model *m, struct uct_cgname *e)
{
	char name[UCT_TENANT_CNAME_MAX + 1];

	if (m->podman_name_fn && !m->podman_name_fn(m->podman_name_arg, e->tenant, e->cid, name))
		e->cname = strdup(name);
	if (!e->cname) {
		e->cid = NULL;
		e->tenant = 0;
	}
}

void uct_model_lookup_cgroup(struct uct_model *m, struct uct_cgname *e, __u32 pid)
{
	char path[4096];
	size_t trusted = 0;
	__u32 tenant = UCT_NO_UID;

	m->cgroup_lookups++;
	path[0] = 0;
	path[sizeof(path) - 1] = 0;
	if (!m->cgroup_fn ||
	    m->cgroup_fn(m->cgroup_arg, pid, e->id, path, sizeof(path) - 1, &trusted, &tenant) ||
	    !uct_cgname_set(e, path, trusted, tenant)) {
		uct_cgname_failed(e, pid, m->now);
		return;
	}
	/* the engine's name, once per cgroup: a container is not renamed
	 * often, and a new cgroup is looked up again */
	if (e->tenant) {
		name_rootless(m, e);
	} else if (e->cid && m->docker_name_fn && uct_container_is_docker(e->path, e->cid)) {
		char name[UCT_CNAME_MAX + 1];

		if (!m->docker_name_fn(m->docker_name_arg, e->cid, name))
			e->cname = strdup(name);
	} else if (e->cid) {
		name_pod(m, e, trusted);
	}
}

static void resolve_ns(struct uct_model *m, struct uct_nsinfo *ns)
{
	struct uct_nsname *nm = own_name(m, ns);
	struct uct_cgname *e;

	if (!nm || !nm->pending)
		return;
	nm->pending = false;
	e = uct_cgcache_get(&m->cgroups, nm->cgroup_id, m->iteration);
	if (!e)
		return;
	/* a lookup that fails is not repeated for the same process before
	 * its back-off: the next refresh's oldest process may fare better */
	if (!e->path && (e->failed_pid != nm->pid || uct_cgname_retry_due(e, m->now)))
		uct_model_lookup_cgroup(m, e, nm->pid);
	nm->cgroup = e->path;
	nm->container = e->cid;
	nm->container_name = e->cname;
	nm->container_tenant = e->tenant;
	nm->kube = e->kube;
}

/* uid's name in the namespace's file, once resolved; never an unmapped
 * uid's */
static const char *users_name(const struct uct_nsinfo *ns, __u32 uid)
{
	if (!ns->users_done || !ns->pwfile || !ns->pwfile->have || uid == UCT_NO_UID)
		return NULL;
	return uct_passwd_name(&ns->pwfile->pw, uid);
}

/* The namespace's passwd file, checked once per update (read again only
 * when it changed) through the process that names the namespace, within
 * the update's budget: false when that is spent (the check waits for a
 * later update; the names read before are shown meanwhile) */
static bool resolve_users(struct uct_model *m, struct uct_nsinfo *ns)
{
	struct uct_pwsrc src = { 0 };
	bool done;
	int k;

	if (ns->users_done)
		return true;
	/* without the task iterator, the initial namespace still has one */
	if (ns->root && !ns->pwfile)
		attach_users(m, ns);
	ns->users_done = true;
	/* its rows' shares by cgroup (shares.c), resolved with it; after
	 * its own container, which they are compared with (a tty may show a
	 * row's line without its namespace's) */
	if (m->have_tasks)
		resolve_ns(m, ns);
	for (k = 0; k < ns->nrows; k++)
		uct_model_name_shares(m, &m->rows[ns->rows[k]]);
	if (!ns->pwfile)
		return true;
	if (!ns->root)
		src = (struct uct_pwsrc){ ns->name->pid, ns->inum, ns->name->mnt_ns };
	done = uct_pwfile_check(ns->pwfile, m->passwd_fn, m->passwd_arg, &src, m->iteration,
				&m->passwd) >= 0;
	/* looked up once here, not by every view and the width */
	for (k = 0; k < ns->nrows; k++) {
		struct uct_row *r = &m->rows[ns->rows[k]];

		r->user = users_name(ns, r->rec.ns_uid);
	}
	return done;
}

void uct_model_resolve_names(struct uct_model *m, int first, int count)
{
	size_t i;

	/* --kuid names every row from the initial namespace's file */
	if (m->root_ns >= 0)
		resolve_users(m, &m->ns[m->root_ns]);
	if (first < 0) {
		size_t start = m->passwd_cursor < m->nns ? m->passwd_cursor : 0, k;
		bool put_off = false;

		/* from where the last one's budget ran out: every namespace
		 * gets its turn, however many come before it */
		for (k = 0; k < m->nns; k++) {
			i = (start + k) % m->nns;
			if (m->have_tasks)
				resolve_ns(m, &m->ns[i]);
			if (!resolve_users(m, &m->ns[i]) && !put_off) {
				put_off = true;
				m->passwd_cursor = i;
			}
		}
		return;
	}
	for (i = (size_t)first; i < m->nlines && i < (size_t)first + (size_t)count; i++) {
		const struct uct_line *ln = &m->lines[i];
		int k = ln->is_ns ? ln->index : m->rows[ln->index].ns;

		if (ln->is_ns && m->have_tasks)
			resolve_ns(m, &m->ns[k]);
		resolve_users(m, &m->ns[k]);
	}
}

const char *uct_row_ns_user(const struct uct_model *m, const struct uct_row *r)
{
	return r->user;
}

const char *uct_row_user(const struct uct_model *m, const struct uct_row *r)
{
	if (!m->show_kuid)
		return uct_row_ns_user(m, r);
	return m->root_ns >= 0 ? users_name(&m->ns[m->root_ns], r->rec.uid) : NULL;
}
