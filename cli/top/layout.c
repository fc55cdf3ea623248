// SPDX-License-Identifier: GPL-2.0
/*
 * layout.c - the model's display order (see model.h): each namespace's
 * rows sorted by the sort key, the filters (--ns, --uid, --type, --pid,
 * --container, the search) marking what is visible, the namespaces the
 * tty collapsed, and the resulting list of lines.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "model_internal.h"

static const char *const sort_names[UCT_SORT_COUNT] = {
	"uid", "nproc", "msgqueue", "sigpending", "memlock", "denials", "change",
};

const char *uct_sort_name(enum uct_sort s)
{
	return s < UCT_SORT_COUNT ? sort_names[s] : "?";
}

int uct_sort_parse(const char *s)
{
	int i;

	for (i = 0; i < UCT_SORT_COUNT; i++)
		if (!strcasecmp(s, sort_names[i]))
			return i;
	return -1;
}

/* ---- collapsed namespaces (tty) ---- */

bool uct_model_collapsed(const struct uct_model *m, __u32 inum)
{
	size_t i;

	for (i = 0; i < m->ncollapsed; i++)
		if (m->collapsed[i] == inum)
			return true;
	return false;
}

void uct_model_toggle_collapse(struct uct_model *m, __u32 inum)
{
	size_t i;
	int n;

	for (i = 0; i < m->ncollapsed; i++) {
		if (m->collapsed[i] == inum) {
			m->collapsed[i] = m->collapsed[--m->ncollapsed];
			goto apply;
		}
	}
	{
		__u32 *p = realloc(m->collapsed, (m->ncollapsed + 1) * sizeof(*p));

		if (!p)
			return;
		m->collapsed = p;
		m->collapsed[m->ncollapsed++] = inum;
	}
apply:
	n = uct_model_find_ns(m, inum);
	if (n >= 0)
		m->ns[n].collapsed = uct_model_collapsed(m, inum);
	uct_model_relayout(m);
}

/* ---- sorting ---- */

static long long change_sum(const struct uct_model *m, const struct uct_row *r)
{
	long long s = 0, d;
	int t;

	if (r->delta < 0)
		return 0;
	for (t = 0; t < UCT_NTYPES; t++) {
		d = m->deltas[r->delta][t];
		s += d < 0 ? -d : d;
	}
	return s;
}

static unsigned long long denial_sum(const struct uct_row *r)
{
	unsigned long long s = 0;
	int t;

	for (t = 0; t < UCT_NTYPES; t++)
		s += r->stat->st.denials[t];
	return s;
}

static int row_order(const void *a, const void *b, void *arg)
{
	const struct uct_model *m = arg;
	const struct uct_row *x = &m->rows[*(const int *)a];
	const struct uct_row *y = &m->rows[*(const int *)b];
	long long kx = 0, ky = 0;

	switch (m->sort) {
	case UCT_SORT_NPROC:
	case UCT_SORT_MSGQUEUE:
	case UCT_SORT_SIGPENDING:
	case UCT_SORT_MEMLOCK:
		kx = x->rec.value[m->sort - UCT_SORT_NPROC];
		ky = y->rec.value[m->sort - UCT_SORT_NPROC];
		break;
	case UCT_SORT_DENIALS:
		kx = (long long)denial_sum(x);
		ky = (long long)denial_sum(y);
		break;
	case UCT_SORT_CHANGE:
		kx = change_sum(m, x);
		ky = change_sum(m, y);
		break;
	default:
		break;
	}
	if (kx != ky)
		return kx > ky ? -1 : 1;	/* biggest first */
	/* ties, and the uid key: by the uid shown (unmapped ones last),
	 * then by kuid, which tells unmapped ones apart */
	if (uct_row_uid(m, x) != uct_row_uid(m, y))
		return uct_row_uid(m, x) < uct_row_uid(m, y) ? -1 : 1;
	return x->rec.uid < y->rec.uid ? -1 : x->rec.uid > y->rec.uid;
}

static bool in_row_order(struct uct_model *m, const int *rows, size_t n)
{
	size_t k;

	for (k = 1; k < n; k++)
		if (row_order(&rows[k - 1], &rows[k], m) > 0)
			return false;
	return true;
}

/* ---- filters ---- */

bool uct_model_name_filter_on(const struct uct_model *m)
{
	return m->container_filter[0] || m->search[0];
}

static bool share_matches(const struct uct_model *m, const struct uct_row *r);

bool uct_model_name_matched(const struct uct_model *m)
{
	size_t i;

	for (i = 0; i < m->nns; i++)
		if (m->ns[i].name_match)
			return true;
	for (i = 0; m->have_tasks && i < m->nrows; i++)
		if (m->rows[i].ncontainers && share_matches(m, &m->rows[i]))
			return true;
	return false;
}

/* --container: an id that starts with the filter (only root's engines':
 * a tenant's claim is matched by its user:name), a name that is it, or
 * the containers of the pod namespace/pod it names */
static bool container_matches(const struct uct_model *m, const char *id, const char *name,
			      __u32 tenant)
{
	const char *f = m->container_filter;
	size_t n = strlen(f);

	return (id && !tenant && !strncmp(id, f, n)) ||
	       (name && (!strcmp(name, f) ||
			 (strchr(f, '/') && !strncmp(name, f, n) && name[n] == '/')));
}

static bool name_matches(const struct uct_model *m, const struct uct_nsname *nm)
{
	const char *q = m->search;

	if (m->container_filter[0] && !container_matches(m, nm->container, nm->container_name,
						     nm->container_tenant))
		return false;
	if (q[0] && !(nm->container && strcasestr(nm->container, q)) &&
	    !(nm->container_name && strcasestr(nm->container_name, q)) &&
	    !(nm->pid && (strcasestr(nm->hostname, q) || strcasestr(nm->comm, q))))
		return false;
	return true;
}

/* A row some of whose processes are in a matching container: containers
 * in the host's namespace share their uid's row there */
static bool share_matches(const struct uct_model *m, const struct uct_row *r)
{
	int k;

	for (k = 0; k < r->nshares; k++) {
		const struct uct_share *s = &m->shares[r->share + k];

		if (!s->container)
			continue;
		if (m->container_filter[0] && !container_matches(m, s->container, s->container_name,
						     s->container_tenant))
			continue;
		if (m->search[0] && !strcasestr(s->container, m->search) &&
		    !(s->container_name && strcasestr(s->container_name, m->search)))
			continue;
		return true;
	}
	return false;
}

/*
 * --container and the search: a matching namespace, everything below it
 * (a container's own nested namespaces), and the rows its charges reach
 * on the way up (as --pid shows a process's); and a row whose processes
 * are partly in a matching container, with the rows above it.
 */
static void mark_names(struct uct_model *m)
{
	size_t i;
	int p, r, d;

	if (!uct_model_name_filter_on(m))
		return;
	for (i = 0; i < m->nrows; i++)
		m->rows[i].name_chain = false;
	for (i = 0; i < m->nns; i++)
		m->ns[i].name_match = m->have_tasks && name_matches(m, m->ns[i].name);
	for (i = 0; i < m->nns; i++) {
		struct uct_nsinfo *ns = &m->ns[i];

		ns->name_in = false;
		for (p = (int)i, d = 0; p >= 0 && d <= UCT_MAX_LEVELS; p = m->ns[p].parent, d++) {
			if (m->ns[p].name_match) {
				ns->name_in = true;
				break;
			}
		}
		if (!ns->name_match)
			continue;
		r = ns->creator_row;
		for (d = 0; r >= 0 && d <= UCT_MAX_LEVELS; d++) {
			m->rows[r].name_chain = true;
			r = m->ns[m->rows[r].ns].creator_row;
		}
	}
	for (i = 0; m->have_tasks && i < m->nrows; i++) {
		if (!m->rows[i].ncontainers || !share_matches(m, &m->rows[i]))
			continue;
		r = (int)i;
		for (d = 0; r >= 0 && d <= UCT_MAX_LEVELS; d++) {
			m->rows[r].name_chain = true;
			r = m->ns[m->rows[r].ns].creator_row;
		}
	}
}

static bool in_filtered_subtree(const struct uct_model *m, int n)
{
	int depth = 0;

	if (!m->ns_filter)
		return true;
	for (; n >= 0 && depth <= UCT_MAX_LEVELS; n = m->ns[n].parent, depth++)
		if (m->ns[n].inum == (__u32)m->ns_filter)
			return true;
	return false;
}

static bool row_passes(const struct uct_model *m, const struct uct_row *r)
{
	if (m->pid_filter && !r->on_chain)
		return false;
	if (uct_model_name_filter_on(m) && !m->ns[r->ns].name_in && !r->name_chain)
		return false;
	if (m->uid_filter >= 0 && r->rec.uid != (__u32)m->uid_filter)
		return false;
	if (m->type_filter >= 0 && m->type_filter < UCT_NTYPES &&
	    !r->rec.value[m->type_filter] && !uct_row_delta(m, r, m->type_filter))
		return false;
	return in_filtered_subtree(m, r->ns);
}

/* Visible when in the --ns subtree and, with a row filter active, when it
 * or a descendant has a visible row. Returns visibility. */
static bool mark_visible(struct uct_model *m, int n, int depth, bool row_filter)
{
	struct uct_nsinfo *ns = &m->ns[n];
	bool any = false;
	int k;

	for (k = 0; k < ns->nrows; k++) {
		struct uct_row *r = &m->rows[ns->rows[k]];

		r->visible = row_passes(m, r);
		any |= r->visible;
	}
	for (k = 0; k < ns->nchildren && depth < UCT_MAX_LEVELS; k++)
		any |= mark_visible(m, ns->children[k], depth + 1, row_filter);
	ns->visible = in_filtered_subtree(m, n) && (any || !row_filter);
	return ns->visible;
}

/*
 * --pid: the process's own row, then the row that created its namespace,
 * and so on up to the initial namespace: every level a charge of the
 * process reaches (the kernel walks ucounts->ns->ucounts the same way).
 */
static void mark_chain(struct uct_model *m)
{
	size_t i;
	int r, depth;

	for (i = 0; i < m->nrows; i++)
		m->rows[i].on_chain = false;
	if (!m->pid_filter || !m->pid_ns)
		return;
	r = uct_model_find_row(m, m->pid_ns, m->pid_uid);
	for (depth = 0; r >= 0 && depth <= UCT_MAX_LEVELS; depth++) {
		m->rows[r].on_chain = true;
		r = m->ns[m->rows[r].ns].creator_row;
	}
}

/* ---- the lines ---- */

/* lines[] has room for every namespace and row (uct_model_relayout()) */
static void add_line(struct uct_model *m, bool is_ns, int index, int depth)
{
	m->lines[m->nlines++] = (struct uct_line){ .is_ns = is_ns, .index = index,
						   .depth = depth };
}

static void add_ns_lines(struct uct_model *m, int n, int depth)
{
	struct uct_nsinfo *ns = &m->ns[n];
	int k;

	if (!ns->visible || depth > UCT_MAX_LEVELS)
		return;
	add_line(m, true, n, depth);
	if (ns->collapsed)
		return;
	for (k = 0; k < ns->nrows; k++)
		if (m->rows[ns->rows[k]].visible)
			add_line(m, false, ns->rows[k], depth + 1);
	for (k = 0; k < ns->nchildren; k++)
		add_ns_lines(m, ns->children[k], depth + 1);
}

int uct_model_relayout(struct uct_model *m)
{
	bool row_filter;
	size_t i;

	for (i = 0; i < m->nns; i++) {
		struct uct_nsinfo *ns = &m->ns[i];

		/* qsort_r()'s base must not be NULL, even for 0 elements; rows
		 * come in (ns, uid) order, which often is the display order
		 * already (the uid sort): a pass to check costs less than a
		 * sort */
		if (ns->nrows > 1 && !in_row_order(m, ns->rows, ns->nrows))
			qsort_r(ns->rows, ns->nrows, sizeof(int), row_order, m);
		/* children come in inum order from build_ns() (model.c) and stay */
	}
	mark_chain(m);
	mark_names(m);
	/* roots: namespaces whose parent is not in the snapshot */
	row_filter = m->uid_filter >= 0 || m->type_filter >= 0 || m->pid_filter ||
		     uct_model_name_filter_on(m);
	for (i = 0; i < m->nns; i++)
		if (m->ns[i].parent < 0)
			mark_visible(m, (int)i, 0, row_filter);
	m->nlines = 0;
	/* a line per namespace and row at most: room for all, once */
	if (uct_grow((void **)&m->lines, &m->cap_lines, m->nns + m->nrows + 1, sizeof(*m->lines)))
		return -ENOMEM;
	for (i = 0; i < m->nns; i++) {
		const struct uct_nsinfo *ns = &m->ns[i];

		/* with --ns, the filtered namespace is the displayed root */
		if (m->ns_filter ? ns->inum != (__u32)m->ns_filter : ns->parent >= 0)
			continue;
		add_ns_lines(m, (int)i, 0);
	}
	return 0;
}
