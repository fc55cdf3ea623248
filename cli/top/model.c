// SPDX-License-Identifier: GPL-2.0
/*
 * model.c - the tree built from one snapshot (see model.h): rows merged
 * by (ns, uid), their namespaces and links, the stats joined by object,
 * what changed since the previous update, and the limits, child sums and
 * flags that follow. The display order is layout.c's, the namespaces'
 * names nsnames.c's.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include "model_internal.h"
#include "proc_limits.h"

const char *uct_flag_name(unsigned flag)
{
	switch (flag) {
	case UCT_F_DENIALS: return "denials";
	case UCT_F_OVER: return "over_limit";
	case UCT_F_IMBALANCED: return "imbalanced";
	case UCT_F_NEW: return "new";
	}
	return "?";
}

/* What a row without a stats entry points at */
static const struct uct_rowstat no_stat;

const struct uct_rowlim uct_no_lim = {
	.limit = { -1, -1, -1, -1 },
	.caller_limit = { -1, -1, -1, -1 },
};

void uct_model_init(struct uct_model *m)
{
	memset(m, 0, sizeof(*m));
	m->type_filter = -1;
	m->uid_filter = -1;
	m->page_shift = 12;
	m->root_ns = -1;
	uct_pwbudget_init(&m->passwd);
}

void uct_model_free(struct uct_model *m)
{
	uct_prune_free(&m->prune);
	uct_cgcache_free(&m->cgroups);
	uct_pwcache_free(&m->users);
	free(m->rows);
	free(m->by_id);
	free(m->stats);
	free(m->prev_stats);
	free(m->lims);
	free(m->deltas);
	free(m->ns);
	free(m->ns_rows);
	free(m->shares);
	free(m->ns_children);
	free(m->names);
	free(m->lines);
	free(m->prev);
	free(m->collapsed);
	free(m->in_perm);
	memset(m, 0, sizeof(*m));
}

static int key_cmp(__u32 ans, __u32 auid, __u32 bns, __u32 buid)
{
	if (ans != bns)
		return ans < bns ? -1 : 1;
	if (auid != buid)
		return auid < buid ? -1 : 1;
	return 0;
}

/* a row keeps what a record has up to its counters */
_Static_assert(sizeof(struct uct_rowrec) == offsetof(struct uct_rec, ns_max) &&
	       offsetof(struct uct_rowrec, value) == offsetof(struct uct_rec, value),
	       "uct_rowrec is the start of uct_rec");

int uct_model_find_row(const struct uct_model *m, __u32 ns_inum, __u32 uid)
{
	size_t lo = 0, hi = m->nrows;

	/* rows[] stays sorted by (ns, uid); display order lives in ns.rows */
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		const struct uct_rowrec *r = &m->rows[mid].rec;
		int c = key_cmp(r->ns_inum, r->uid, ns_inum, uid);

		if (!c)
			return (int)mid;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

int uct_model_find_ns(const struct uct_model *m, __u32 ns_inum)
{
	size_t lo = 0, hi = m->nns;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (m->ns[mid].inum == ns_inum)
			return (int)mid;
		if (m->ns[mid].inum < ns_inum)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

/*
 * Counters beyond +-2^53 are not real (a corrupted read, a counter a bug
 * drove far negative) but deltas, child sums and change sums of them would
 * overflow: bound them as they enter. A limit of LLONG_MAX stays: it means
 * "unlimited" and is only compared.
 */
static long long bound(long long v)
{
	const long long b = 1LL << 53;

	return v > b ? b : v < -b ? -b : v;
}

/* A namespace as its first record in (ns, uid) order describes it */
static void add_ns(struct uct_model *m, const struct uct_rec *r)
{
	struct uct_nsinfo *ns;
	int t;

	/* build_rows() made room for a namespace per record */
	ns = &m->ns[m->nns++];
	memset(ns, 0, sizeof(*ns));
	ns->inum = r->ns_inum;
	ns->level = r->level;
	ns->owner_uid = r->owner_uid;
	ns->owner_ns_uid = r->owner_ns_uid;
	ns->parent_inum = r->parent_ns_inum;
	ns->creator_uid = r->parent_uid;
	ns->root = r->flags & UCT_REC_ROOT;
	if (ns->root && m->root_ns < 0)
		m->root_ns = (int)(m->nns - 1);
	ns->name = &uct_no_nsname;
	/* MEMLOCK's cap is compared with the page counter as it is:
	 * pages with the series' patch 1; a stock kernel copies the
	 * creator's rlimit in bytes there, and so enforces 4096 times
	 * it. Kept as compared, which is what the kernel enforces. */
	for (t = 0; t < UCT_NTYPES; t++)
		ns->max[t] = r->ns_max[t] == 0x7fffffffffffffffLL ? r->ns_max[t] :
			     bound(r->ns_max[t]);
	ns->collapsed = uct_model_collapsed(m, ns->inum);
}

/* recs[x] before recs[y]: by (ns, uid), the first read first */
static int in_cmp(const struct uct_rec *recs, int x, int y)
{
	int c = key_cmp(recs[x].ns_inum, recs[x].uid, recs[y].ns_inum, recs[y].uid);

	return c ? c : x < y ? -1 : x > y;
}

static int in_order(const void *a, const void *b, void *arg)
{
	return in_cmp(arg, *(const int *)a, *(const int *)b);
}

/*
 * The order that sorts recs by (ns, uid) into m->in_perm. The iterator
 * returns an unchanged set of objects in the same order every time, so the
 * last permutation is reused when it still sorts them: a check of n keys
 * instead of a sort, the costliest step of a refresh of many rows. The
 * order is total, so a permutation that sorts them is the one a sort
 * would give.
 */
static int sort_input(struct uct_model *m, const struct uct_rec *recs, size_t nrec)
{
	bool same = nrec == m->n_in;
	size_t i;

	if (uct_grow((void **)&m->in_perm, &m->cap_in_perm, nrec, sizeof(*m->in_perm)))
		return -ENOMEM;
	for (i = 1; same && i < nrec; i++)
		same = in_cmp(recs, m->in_perm[i - 1], m->in_perm[i]) < 0;
	m->n_in = nrec;
	if (same)
		return 0;
	for (i = 0; i < nrec; i++)
		m->in_perm[i] = (int)i;
	qsort_r(m->in_perm, nrec, sizeof(*m->in_perm), in_order, (void *)recs);
	return 0;
}

/* 1. rows: sorted, duplicates merged; their namespaces, in inum order */
static int build_rows(struct uct_model *m, const struct uct_rec *recs, size_t nrec)
{
	size_t i;
	int err, t;

	m->nrows = 0;
	m->nns = 0;
	m->root_ns = -1;
	m->duplicates = 0;
	m->circles = 0;
	if (!nrec) {
		m->n_in = 0;
		return 0;
	}
	err = sort_input(m, recs, nrec);
	if (err)
		return err;
	if (uct_grow((void **)&m->rows, &m->cap_rows, nrec, sizeof(*m->rows)) ||
	    uct_grow((void **)&m->ns, &m->cap_ns, nrec, sizeof(*m->ns)))
		return -ENOMEM;
	for (i = 0; i < nrec; i++) {
		const struct uct_rec *r = &recs[m->in_perm[i]];
		struct uct_row *last = m->nrows ? &m->rows[m->nrows - 1] : NULL, *row;

		if (last && !key_cmp(last->rec.ns_inum, last->rec.uid, r->ns_inum, r->uid)) {
			/* same ucounts seen twice (task iterator): keep the first
			 * read, remember how it was found */
			last->rec.flags |= r->flags;
			m->duplicates++;
			continue;
		}
		if (!last || last->rec.ns_inum != r->ns_inum)
			add_ns(m, r);
		row = &m->rows[m->nrows++];
		memset(row, 0, sizeof(*row));
		memcpy(&row->rec, r, sizeof(row->rec));
		row->stat = &no_stat;
		row->lim = -1;
		row->delta = -1;
		row->ns = (int)m->nns - 1;
		for (t = 0; t < UCT_NTYPES; t++)
			row->rec.value[t] = bound(row->rec.value[t]);
	}
	return 0;
}

static int id_row_cmp(const void *a, const void *b)
{
	__u64 x = ((const struct uct_id_row *)a)->id, y = ((const struct uct_id_row *)b)->id;

	return x < y ? -1 : x > y;
}

/* rows[] by object address, for the stats join; kept when rows[] holds
 * the same objects in the same places as last time (every entry still
 * names its row's object). */
static int index_by_id(struct uct_model *m)
{
	bool same = m->nrows == m->n_by_id;
	size_t i;

	if (uct_grow((void **)&m->by_id, &m->cap_by_id, m->nrows ? m->nrows : 1,
		    sizeof(*m->by_id)))
		return -ENOMEM;
	for (i = 0; same && i < m->nrows; i++)
		same = m->rows[m->by_id[i].row].rec.id == m->by_id[i].id;
	m->n_by_id = m->nrows;
	if (same)
		return 0;
	for (i = 0; i < m->nrows; i++) {
		m->by_id[i].id = m->rows[i].rec.id;
		m->by_id[i].row = (int)i;
	}
	qsort(m->by_id, m->nrows, sizeof(*m->by_id), id_row_cmp);
	return 0;
}

int uct_model_find_row_by_id(const struct uct_model *m, __u64 id)
{
	struct uct_id_row key = { .id = id }, *hit;

	hit = bsearch(&key, m->by_id, m->nrows, sizeof(key), id_row_cmp);
	return hit ? hit->row : -1;
}

/* The growth of a counter since the previous update. A counter below its
 * previous reading was restarted (its stats entry deleted and made anew):
 * all of it is new, and a difference must never wrap. */
static unsigned long long growth(unsigned long long now, unsigned long long before)
{
	return now >= before ? now - before : now;
}

/* for the prune lists: a row of that name in this update */
static bool row_exists(const void *ctx, __u32 ns_inum, __u32 uid)
{
	return uct_model_find_row(ctx, ns_inum, uid) >= 0;
}

/* 2. stats joined by object; 3. changes against the previous update. */
static int join_stats_and_prev(struct uct_model *m, const struct uct_stat_kv *stats,
			       size_t nstats)
{
	size_t i, j;
	int t;

	/* prev.stat indexes prev_stats: these go to the other array */
	m->nstats = 0;
	m->ndeltas = 0;
	m->stats_unmatched = 0;
	m->prune.nunmatched = 0;
	memset(m->total_denials, 0, sizeof(m->total_denials));
	/* at most one per entry: rows point into it, it must not move */
	if (stats && nstats &&
	    uct_grow((void **)&m->stats, &m->cap_stats, nstats, sizeof(*m->stats)))
		return -ENOMEM;
	for (i = 0; stats && i < nstats; i++) {
		const struct uct_stat *st = &stats[i].st;
		int r = uct_model_find_row_by_id(m, stats[i].id);
		struct uct_row *row;

		for (t = 0; t < UCT_NTYPES; t++)
			m->total_denials[t] += st->denials[t];
		/* the same address is not enough when the entry names its
		 * object: a freed one's address may hold another by now */
		if (r < 0 || (st->ns_inum && (m->rows[r].rec.ns_inum != st->ns_inum ||
					      m->rows[r].rec.uid != st->uid))) {
			m->stats_unmatched++;
			if (uct_prune_note(&m->prune, stats[i].id, st->ns_inum, st->uid))
				return -ENOMEM;
			continue;
		}
		row = &m->rows[r];
		/* an id seen twice: the last entry wins */
		if (!row->has_stat) {
			memset(&m->stats[m->nstats], 0, sizeof(m->stats[0]));
			row->stat = &m->stats[m->nstats++];
			row->has_stat = true;
		}
		m->stats[row->stat - m->stats].st = *st;
	}
	/* rows[] and prev[] are both in (ns, uid) order: one walk joins them */
	for (i = 0, j = 0; i < m->nrows; i++) {
		struct uct_row *row = &m->rows[i];
		const struct uct_prev *p = NULL;
		const struct uct_stat *pst = NULL;
		struct uct_rowstat *s;
		long long d[UCT_NTYPES] = { 0 };
		bool changed = false;

		while (j < m->nprev && key_cmp(m->prev[j].ns_inum, m->prev[j].uid,
					       row->rec.ns_inum, row->rec.uid) < 0)
			j++;
		if (j < m->nprev && m->prev[j].ns_inum == row->rec.ns_inum &&
		    m->prev[j].uid == row->rec.uid)
			p = &m->prev[j];
		/* another object under the same name: a new row */
		if (p && p->id != row->rec.id)
			p = NULL;

		row->first_seen = p ? p->first_seen : m->now;
		if (!p && m->iteration > 1)
			row->flags |= UCT_F_NEW;
		for (t = 0; t < UCT_NTYPES; t++) {
			if (p)
				d[t] = row->rec.value[t] - p->value[t];
			else if (m->iteration > 1)
				d[t] = row->rec.value[t];	/* was absent: 0 */
			changed |= d[t] != 0;
		}
		if (changed) {
			if (uct_grow((void **)&m->deltas, &m->cap_deltas, m->ndeltas + 1,
				    sizeof(*m->deltas)))
				return -ENOMEM;
			memcpy(m->deltas[m->ndeltas], d, sizeof(d));
			row->delta = (int)m->ndeltas++;
		}
		/* without an entry nothing was refused or charged: no new
		 * denials, no rate (its counts are 0, below any earlier) */
		if (!row->has_stat)
			continue;
		s = &m->stats[row->stat - m->stats];
		if (p && p->stat >= 0)
			pst = &m->prev_stats[p->stat].st;
		for (t = 0; t < UCT_NTYPES; t++) {
			unsigned long long ev = s->st.charges[t] + s->st.uncharges[t];

			s->new_denials[t] = growth(s->st.denials[t], pst ? pst->denials[t] : 0);
			if (m->interval > 0)
				s->event_rate[t] = growth(ev, pst ? pst->charges[t] + pst->uncharges[t]
							 : 0) / m->interval;
			if (s->st.denials[t])
				row->flags |= UCT_F_DENIALS;
		}
	}
	return 0;
}

/* 4. the namespaces' rows (grouped by ns inum) and links. */
static int build_ns(struct uct_model *m)
{
	size_t i, off;

	/* every namespace's rows and children are slices of one array each:
	 * no allocation per namespace */
	if (uct_grow((void **)&m->ns_rows, &m->cap_ns_rows, m->nrows ? m->nrows : 1,
		    sizeof(*m->ns_rows)))
		return -ENOMEM;
	for (i = 0; i < m->nrows; i++) {
		struct uct_nsinfo *ns = &m->ns[m->rows[i].ns];

		if (!ns->nrows)
			ns->rows = &m->ns_rows[i];
		ns->rows[ns->nrows++] = (int)i;
	}
	/* links: parent namespace, creator row, children (inum order). Most
	 * namespaces share a parent (containers under the host's), and many
	 * a creator: the last lookup is asked first. */
	for (i = 0; i < m->nns; i++) {
		struct uct_nsinfo *ns = &m->ns[i];
		const struct uct_nsinfo *last = i ? &m->ns[i - 1] : NULL;
		bool same_parent;

		if (ns->root) {
			ns->parent = -1;
			ns->creator_row = -1;
			continue;
		}
		same_parent = last && !last->root && last->parent_inum == ns->parent_inum;
		ns->parent = same_parent ? last->parent : uct_model_find_ns(m, ns->parent_inum);
		ns->creator_row = same_parent && last->creator_uid == ns->creator_uid ?
			last->creator_row :
			uct_model_find_row(m, ns->parent_inum, ns->creator_uid);
	}
	/* A task-iterator snapshot taken while an inode number is reused can
	 * link namespaces in a circle (2 below 3, 3 below 2): no root would
	 * lead to them and no view would show them. Cut the closing link;
	 * that namespace is shown as a root. */
	for (i = 0; i < m->nns; i++) {
		int p = m->ns[i].parent;
		size_t d;

		for (d = 0; p >= 0 && d <= m->nns; d++, p = m->ns[p].parent) {
			if (p == (int)i) {
				m->ns[i].parent = -1;
				m->circles++;
				break;
			}
		}
	}
	if (uct_grow((void **)&m->ns_children, &m->cap_ns_children, m->nns ? m->nns : 1,
		    sizeof(*m->ns_children)))
		return -ENOMEM;
	for (i = 0; i < m->nns; i++)
		if (m->ns[i].parent >= 0)
			m->ns[m->ns[i].parent].nchildren++;
	for (i = 0, off = 0; i < m->nns; i++) {
		m->ns[i].children = &m->ns_children[off];
		off += m->ns[i].nchildren;
		m->ns[i].nchildren = 0;
	}
	/* ns[] is in inum order, so each list comes out in inum order */
	for (i = 0; i < m->nns; i++) {
		struct uct_nsinfo *ns = &m->ns[i];

		if (ns->parent >= 0) {
			struct uct_nsinfo *p = &m->ns[ns->parent];

			p->children[p->nchildren++] = (int)i;
		}
	}
	return 0;
}

/* A row's limits and sums, made (as none) when it has none yet; NULL: no
 * memory. Indexes, not pointers: the array grows after the update, as the
 * tasks' limits arrive. */
static struct uct_rowlim *row_lim(struct uct_model *m, struct uct_row *row)
{
	if (row->lim < 0) {
		if (uct_grow((void **)&m->lims, &m->cap_lims, m->nlims + 1, sizeof(*m->lims)))
			return NULL;
		m->lims[m->nlims] = uct_no_lim;
		row->lim = (int)m->nlims++;
	}
	return &m->lims[row->lim];
}

/* 5. per-row limit, child sums and flags from the namespaces it created. */
static int derive(struct uct_model *m)
{
	size_t i;
	int t, k;

	m->nlims = 0;
	/* a limits entry per creator row at most: room for all, once */
	if (uct_grow((void **)&m->lims, &m->cap_lims, m->nns ? m->nns : 1, sizeof(*m->lims)))
		return -ENOMEM;
	for (i = 0; i < m->nns; i++) {
		struct uct_nsinfo *ns = &m->ns[i];
		struct uct_rowlim *l;

		if (ns->creator_row < 0)
			continue;
		l = row_lim(m, &m->rows[ns->creator_row]);
		if (!l)
			return -ENOMEM;
		m->rows[ns->creator_row].nchild_ns++;
		for (t = 0; t < UCT_NTYPES; t++)
			if (l->limit[t] < 0 || ns->max[t] < l->limit[t])
				l->limit[t] = ns->max[t];
		/* row by row, its four counters together */
		for (k = 0; k < ns->nrows; k++) {
			const long long *v = m->rows[ns->rows[k]].rec.value;

			for (t = 0; t < UCT_NTYPES; t++)
				l->child_sum[t] += v[t];
		}
	}
	for (i = 0; i < m->nrows; i++) {
		struct uct_row *row = &m->rows[i];
		const struct uct_rowlim *l = uct_row_lim(m, row);

		for (t = 0; t < UCT_NTYPES; t++) {
			if (l->limit[t] >= 0 && row->rec.value[t] > l->limit[t])
				row->flags |= UCT_F_OVER;
			if (row->nchild_ns && row->rec.value[t] < l->child_sum[t])
				row->flags |= UCT_F_IMBALANCED;
		}
	}
	return 0;
}

/* What the next update compares with. Rewritten in place: rows[] is
 * sorted, so prev is too. */
static int save_prev(struct uct_model *m)
{
	struct uct_rowstat *swap = m->prev_stats;
	size_t i, cap = m->cap_prev_stats;

	m->nprev = 0;
	if (uct_grow((void **)&m->prev, &m->cap_prev, m->nrows, sizeof(*m->prev)))
		return -ENOMEM;
	for (i = 0; i < m->nrows; i++) {
		const struct uct_row *row = &m->rows[i];
		struct uct_prev *p = &m->prev[i];

		p->id = row->rec.id;
		p->ns_inum = row->rec.ns_inum;
		p->uid = row->rec.uid;
		p->first_seen = row->first_seen;
		memcpy(p->value, row->rec.value, sizeof(p->value));
		p->stat = row->has_stat ? (int)(row->stat - m->stats) : -1;
	}
	m->nprev = m->nrows;
	/* this update's entries are the previous ones now; the rows still
	 * point at them, and the next update fills the other array */
	m->prev_stats = m->stats;
	m->cap_prev_stats = m->cap_stats;
	m->stats = swap;
	m->cap_stats = cap;
	return 0;
}

int uct_model_update(struct uct_model *m, const struct uct_rec *recs, size_t nrec,
		     const struct uct_stat_kv *stats, size_t nstats, double now)
{
	int err;

	m->interval = m->iteration ? now - m->now : 0;
	m->now = now;
	m->iteration++;
	uct_pwbudget_refresh(&m->passwd);
	/* names are per update: none until uct_model_set_tasks() */
	m->have_tasks = false;
	err = build_rows(m, recs, nrec);
	if (!err)
		err = index_by_id(m);
	if (err)
		return err;
	err = join_stats_and_prev(m, stats, nstats);
	if (!err && uct_prune_update(&m->prune, row_exists, m))
		err = -ENOMEM;
	if (!err)
		err = build_ns(m);
	if (!err)
		err = derive(m);
	if (err)
		return err;
	err = save_prev(m);
	if (err)
		return err;
	return uct_model_relayout(m);
}

/* A process's soft limits lower its row's leaf limits (the smallest
 * wins). A limit of 0 is left out: a sandbox that must never fork or
 * lock (sshd's pre-authentication child runs with RLIMIT_NPROC 0), not
 * the capacity the row's other processes share. */
static void lower_caller_limits(struct uct_model *m, struct uct_row *row,
				const long long rlim[UCT_NTYPES])
{
	struct uct_rowlim *l = row_lim(m, row);
	int t;

	/* out of memory: the leaf limits stay unknown ("-") */
	if (!l)
		return;
	for (t = 0; t < UCT_NTYPES; t++)
		if (rlim[t] && (l->caller_limit[t] < 0 || rlim[t] < l->caller_limit[t]))
			l->caller_limit[t] = rlim[t];
}

void uct_model_set_caller_limits_by_id(struct uct_model *m, const struct uct_tlim *tl,
				       size_t n)
{
	size_t i;
	int r;

	for (i = 0; i < n; i++) {
		r = uct_model_find_row_by_id(m, tl[i].id);
		if (r >= 0)
			lower_caller_limits(m, &m->rows[r], (const long long *)tl[i].rlim);
	}
}

void uct_model_set_caller_limits(struct uct_model *m, const struct uct_task_limits *tl,
				 size_t n)
{
	size_t i;
	int r;

	for (i = 0; i < n; i++) {
		r = uct_model_find_row(m, tl[i].ns_inum, tl[i].uid);
		if (r >= 0)
			lower_caller_limits(m, &m->rows[r], tl[i].rlim);
	}
}
