// SPDX-License-Identifier: GPL-2.0
/* model.c - the ucounts tree built from one snapshot (see model.h). */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "model.h"
#include "proc_limits.h"

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

long long uct_pages_to_bytes(const struct uct_model *m, long long pages)
{
	int shift = uct_page_shift(m);
	long long most = (LLONG_MAX - 1) >> shift;

	if (pages == LLONG_MAX)
		return pages;
	if (pages > most)
		return LLONG_MAX - 1;
	if (pages < -most)
		return -(LLONG_MAX - 1);
	/* a left shift of a negative value is undefined */
	return pages * (1LL << shift);
}

/* What a row without a stats entry points at */
static const struct uct_rowstat no_stat;

const struct uct_rowlim uct_no_lim = {
	.limit = { -1, -1, -1, -1 },
	.caller_limit = { -1, -1, -1, -1 },
};

/* The name of a namespace no process is in */
static const struct uct_nsname no_name;

void uct_model_init(struct uct_model *m)
{
	memset(m, 0, sizeof(*m));
	m->type_filter = -1;
	m->uid_filter = -1;
	m->page_shift = 12;
	m->root_ns = -1;
}

void uct_model_free(struct uct_model *m)
{
	uct_cg_free(&m->cgroups);
	uct_pw_free(&m->users);
	free(m->rows);
	free(m->by_id);
	free(m->stats);
	free(m->prev_stats);
	free(m->lims);
	free(m->deltas);
	free(m->ns);
	free(m->ns_rows);
	free(m->ns_children);
	free(m->names);
	free(m->lines);
	free(m->prev);
	free(m->collapsed);
	free(m->in_perm);
	memset(m, 0, sizeof(*m));
}

/* Grow *buf (of *cap elements of size sz) to hold n; 0 or -ENOMEM. */
static int reserve(void **buf, size_t *cap, size_t n, size_t sz)
{
	size_t ncap;
	void *p;

	if (n <= *cap)
		return 0;
	ncap = *cap ? *cap : 16;
	while (ncap < n)
		ncap *= 2;
	p = realloc(*buf, ncap * sz);
	if (!p)
		return -ENOMEM;
	*buf = p;
	*cap = ncap;
	return 0;
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

static const struct uct_prev *find_prev(const struct uct_model *m, __u32 ns, __u32 uid)
{
	size_t lo = 0, hi = m->nprev;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		const struct uct_prev *p = &m->prev[mid];
		int c = key_cmp(p->ns_inum, p->uid, ns, uid);

		if (!c)
			return p;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

static bool is_collapsed(const struct uct_model *m, __u32 inum)
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
		m->ns[n].collapsed = is_collapsed(m, inum);
	uct_model_relayout(m);
}

/*
 * Counters beyond +-2^53 are not real (a corrupted read, a counter a bug
 * drove far negative) but deltas, child sums and change sums of them would
 * overflow: bound them as they enter (found by fuzz_model). LONG_MAX stays:
 * it means "unlimited" and is only compared.
 */
static long long bound(long long v)
{
	const long long b = 1LL << 53;

	return v > b ? b : v < -b ? -b : v;
}

/* A namespace as its first record in (ns, uid) order describes it */
static int add_ns(struct uct_model *m, const struct uct_rec *r)
{
	struct uct_nsinfo *ns;
	int t;

	if (reserve((void **)&m->ns, &m->cap_ns, m->nns + 1, sizeof(*m->ns)))
		return -ENOMEM;
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
	ns->name = &no_name;
	/* MEMLOCK's cap is compared with the page counter as it is:
	 * pages with the series' patch 1; a stock kernel copies the
	 * creator's rlimit in bytes there, and so enforces 4096 times
	 * it. Kept as compared, which is what the kernel enforces. */
	for (t = 0; t < UCT_NTYPES; t++)
		ns->max[t] = r->ns_max[t] == 0x7fffffffffffffffLL ? r->ns_max[t] :
			     bound(r->ns_max[t]);
	ns->collapsed = is_collapsed(m, ns->inum);
	return 0;
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
 * instead of a sort (most of a refresh's cost at 10,000 rows). The order
 * is total, so a permutation that sorts them is the one a sort would give.
 */
static int sort_input(struct uct_model *m, const struct uct_rec *recs, size_t nrec)
{
	bool same = nrec == m->n_in;
	size_t i;

	if (reserve((void **)&m->in_perm, &m->cap_in_perm, nrec, sizeof(*m->in_perm)))
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
	if (reserve((void **)&m->rows, &m->cap_rows, nrec, sizeof(*m->rows)))
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
		if ((!last || last->rec.ns_inum != r->ns_inum) && add_ns(m, r))
			return -ENOMEM;
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

	if (reserve((void **)&m->by_id, &m->cap_by_id, m->nrows ? m->nrows : 1,
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

static int find_row_by_id(const struct uct_model *m, __u64 id)
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

/* 2. stats joined by object; 3. changes against the previous update. */
static int join_stats_and_prev(struct uct_model *m, const struct uct_stat_kv *stats,
			       size_t nstats)
{
	size_t i;
	int t;

	/* prev.stat indexes prev_stats: these go to the other array */
	m->nstats = 0;
	m->ndeltas = 0;
	m->stats_unmatched = 0;
	memset(m->total_denials, 0, sizeof(m->total_denials));
	/* at most one per entry: rows point into it, it must not move */
	if (stats && nstats &&
	    reserve((void **)&m->stats, &m->cap_stats, nstats, sizeof(*m->stats)))
		return -ENOMEM;
	for (i = 0; stats && i < nstats; i++) {
		const struct uct_stat *st = &stats[i].st;
		int r = find_row_by_id(m, stats[i].id);
		struct uct_row *row;

		for (t = 0; t < UCT_NTYPES; t++)
			m->total_denials[t] += st->denials[t];
		/* the same address is not enough when the entry names its
		 * object: a freed one's address may hold another by now */
		if (r < 0 || (st->ns_inum && (m->rows[r].rec.ns_inum != st->ns_inum ||
					      m->rows[r].rec.uid != st->uid))) {
			m->stats_unmatched++;
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
	for (i = 0; i < m->nrows; i++) {
		struct uct_row *row = &m->rows[i];
		const struct uct_prev *p = find_prev(m, row->rec.ns_inum, row->rec.uid);
		const struct uct_stat *pst = NULL;
		struct uct_rowstat *s;
		long long d[UCT_NTYPES] = { 0 };
		bool changed = false;

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
			if (reserve((void **)&m->deltas, &m->cap_deltas, m->ndeltas + 1,
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
	if (reserve((void **)&m->ns_rows, &m->cap_ns_rows, m->nrows ? m->nrows : 1,
		    sizeof(*m->ns_rows)))
		return -ENOMEM;
	for (i = 0; i < m->nrows; i++) {
		struct uct_nsinfo *ns = &m->ns[m->rows[i].ns];

		if (!ns->nrows)
			ns->rows = &m->ns_rows[i];
		ns->rows[ns->nrows++] = (int)i;
	}
	/* links: parent namespace, creator row, children (inum order) */
	for (i = 0; i < m->nns; i++) {
		struct uct_nsinfo *ns = &m->ns[i];

		ns->parent = ns->root ? -1 : uct_model_find_ns(m, ns->parent_inum);
		ns->creator_row = ns->root ? -1 :
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
	if (reserve((void **)&m->ns_children, &m->cap_ns_children, m->nns ? m->nns : 1,
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
		if (reserve((void **)&m->lims, &m->cap_lims, m->nlims + 1, sizeof(*m->lims)))
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
	for (i = 0; i < m->nns; i++) {
		struct uct_nsinfo *ns = &m->ns[i];
		struct uct_rowlim *l;

		if (ns->creator_row < 0)
			continue;
		l = row_lim(m, &m->rows[ns->creator_row]);
		if (!l)
			return -ENOMEM;
		m->rows[ns->creator_row].nchild_ns++;
		for (t = 0; t < UCT_NTYPES; t++) {
			if (l->limit[t] < 0 || ns->max[t] < l->limit[t])
				l->limit[t] = ns->max[t];
			for (k = 0; k < ns->nrows; k++)
				l->child_sum[t] += m->rows[ns->rows[k]].rec.value[t];
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
	if (reserve((void **)&m->prev, &m->cap_prev, m->nrows, sizeof(*m->prev)))
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
	/* names are per update: none until uct_model_set_tasks() */
	m->have_tasks = false;
	err = build_rows(m, recs, nrec);
	if (!err)
		err = index_by_id(m);
	if (err)
		return err;
	err = join_stats_and_prev(m, stats, nstats);
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

/* ---- sorting, filtering, display order ---------------------------------- */

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
	if (uct_model_name_filter(m) && !m->ns[r->ns].name_in && !r->name_chain)
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
static bool mark_visible(struct uct_model *m, int n, int depth)
{
	struct uct_nsinfo *ns = &m->ns[n];
	bool any = false,
	     row_filter = m->uid_filter >= 0 || m->type_filter >= 0 || m->pid_filter ||
			  uct_model_name_filter(m);
	int k;

	for (k = 0; k < ns->nrows; k++) {
		struct uct_row *r = &m->rows[ns->rows[k]];

		r->visible = row_passes(m, r);
		any |= r->visible;
	}
	for (k = 0; k < ns->nchildren && depth < UCT_MAX_LEVELS; k++)
		any |= mark_visible(m, ns->children[k], depth + 1);
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

/* ---- names: what runs in each namespace -------------------------------- */

bool uct_model_name_filter(const struct uct_model *m)
{
	return m->container_filter[0] || m->search[0];
}

bool uct_model_name_matched(const struct uct_model *m)
{
	size_t i;

	for (i = 0; i < m->nns; i++)
		if (m->ns[i].name_match)
			return true;
	return false;
}

static bool name_matches(const struct uct_model *m, const struct uct_nsname *nm)
{
	const char *q = m->search;

	if (m->container_filter[0] && (!nm->container ||
	    strncmp(nm->container, m->container_filter, strlen(m->container_filter))))
		return false;
	if (q[0] && !(nm->container && strcasestr(nm->container, q)) &&
	    !(nm->pid && (strcasestr(nm->hostname, q) || strcasestr(nm->comm, q))))
		return false;
	return true;
}

/*
 * --container and the search: a matching namespace, everything below it
 * (a container's own nested namespaces), and the rows its charges reach
 * on the way up (as --pid shows a process's).
 */
static void mark_names(struct uct_model *m)
{
	size_t i;
	int p, r, d;

	if (!uct_model_name_filter(m))
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
}

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
	struct uct_cgname *e = uct_cg_get(&m->cgroups, nm->cgroup_id, m->iteration);

	if (!e)
		return;
	if (e->path) {
		nm->cgroup = e->path;
		nm->container = e->cid;
	} else if (e->failed_pid != nm->pid) {
		nm->pending = true;
	}
}

/* A namespace's own name, to write: NULL when it has none (no process) */
static struct uct_nsname *own_name(struct uct_model *m, const struct uct_nsinfo *ns)
{
	return ns->name == &no_name ? NULL : &m->names[ns->name - m->names];
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
	ns->pwfile = uct_pw_get(&m->users, &key, m->iteration);
}

int uct_model_set_tasks(struct uct_model *m, const struct uct_tlim *tl, size_t n)
{
	size_t i;
	int k;

	m->have_tasks = true;
	m->nnames = 0;
	for (i = 0; i < m->nns; i++) {
		m->ns[i].name = &no_name;
		m->ns[i].held = 0;
	}
	/* one name per namespace a process is in, at most: none moves */
	if (reserve((void **)&m->names, &m->cap_names, n < m->nns ? n : m->nns,
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
	/* the cgroups and passwd files no namespace uses any more */
	uct_cg_sweep(&m->cgroups, m->iteration);
	uct_pw_sweep(&m->users, m->iteration);
	if (!uct_model_name_filter(m))
		return 0;
	uct_model_resolve_names(m, -1, 0);
	return uct_model_relayout(m);
}

static void resolve_ns(struct uct_model *m, struct uct_nsinfo *ns)
{
	struct uct_nsname *nm = own_name(m, ns);
	struct uct_cgname *e;
	char path[4096];

	if (!nm || !nm->pending)
		return;
	nm->pending = false;
	e = uct_cg_get(&m->cgroups, nm->cgroup_id, m->iteration);
	if (!e)
		return;
	if (!e->path && e->failed_pid != nm->pid) {
		m->cgroup_lookups++;
		path[0] = 0;
		path[sizeof(path) - 1] = 0;
		/* a lookup that fails is not repeated for the same process:
		 * the next refresh's oldest process may fare better */
		if (!m->cgroup_fn ||
		    m->cgroup_fn(m->cgroup_arg, nm->pid, nm->cgroup_id, path, sizeof(path) - 1) ||
		    !uct_cg_set(e, path))
			e->failed_pid = nm->pid;
	}
	nm->cgroup = e->path;
	nm->container = e->cid;
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
 * when it changed) through the process that names the namespace */
static void resolve_users(struct uct_model *m, struct uct_nsinfo *ns)
{
	struct uct_pwsrc src = { 0 };
	int k;

	if (ns->users_done)
		return;
	ns->users_done = true;
	/* without the task iterator, the initial namespace still has one */
	if (ns->root && !ns->pwfile)
		attach_users(m, ns);
	if (!ns->pwfile)
		return;
	if (!ns->root)
		src = (struct uct_pwsrc){ ns->name->pid, ns->inum, ns->name->mnt_ns };
	m->passwd_reads += uct_pw_check(ns->pwfile, m->passwd_fn, m->passwd_arg, &src,
					m->iteration);
	/* looked up once here, not by every view and the width */
	for (k = 0; k < ns->nrows; k++) {
		struct uct_row *r = &m->rows[ns->rows[k]];

		r->user = users_name(ns, r->rec.ns_uid);
	}
}

void uct_model_resolve_names(struct uct_model *m, int first, int count)
{
	size_t i;

	/* --kuid names every row from the initial namespace's file */
	if (m->root_ns >= 0)
		resolve_users(m, &m->ns[m->root_ns]);
	if (first < 0) {
		for (i = 0; i < m->nns; i++) {
			if (m->have_tasks)
				resolve_ns(m, &m->ns[i]);
			resolve_users(m, &m->ns[i]);
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

static int add_line(struct uct_model *m, bool is_ns, int index, int depth)
{
	if (reserve((void **)&m->lines, &m->cap_lines, m->nlines + 1, sizeof(*m->lines)))
		return -ENOMEM;
	m->lines[m->nlines++] = (struct uct_line){ .is_ns = is_ns, .index = index,
						   .depth = depth };
	return 0;
}

static int add_ns_lines(struct uct_model *m, int n, int depth)
{
	struct uct_nsinfo *ns = &m->ns[n];
	int k, err;

	if (!ns->visible || depth > UCT_MAX_LEVELS)
		return 0;
	err = add_line(m, true, n, depth);
	if (err || ns->collapsed)
		return err;
	for (k = 0; k < ns->nrows; k++)
		if (m->rows[ns->rows[k]].visible && (err = add_line(m, false, ns->rows[k], depth + 1)))
			return err;
	for (k = 0; k < ns->nchildren; k++)
		if ((err = add_ns_lines(m, ns->children[k], depth + 1)))
			return err;
	return 0;
}

static bool in_row_order(struct uct_model *m, const int *rows, size_t n)
{
	size_t k;

	for (k = 1; k < n; k++)
		if (row_order(&rows[k - 1], &rows[k], m) > 0)
			return false;
	return true;
}

int uct_model_relayout(struct uct_model *m)
{
	size_t i;
	int err;

	for (i = 0; i < m->nns; i++) {
		struct uct_nsinfo *ns = &m->ns[i];

		/* qsort_r()'s base must not be NULL, even for 0 elements; rows
		 * come in (ns, uid) order, which often is the display order
		 * already (the uid sort): a pass to check costs less than a
		 * sort */
		if (ns->nrows > 1 && !in_row_order(m, ns->rows, ns->nrows))
			qsort_r(ns->rows, ns->nrows, sizeof(int), row_order, m);
		/* children come in inum order from build_ns() and stay */
	}
	mark_chain(m);
	mark_names(m);
	/* roots: namespaces whose parent is not in the snapshot */
	for (i = 0; i < m->nns; i++)
		if (m->ns[i].parent < 0)
			mark_visible(m, (int)i, 0);
	m->nlines = 0;
	for (i = 0; i < m->nns; i++) {
		const struct uct_nsinfo *ns = &m->ns[i];

		/* with --ns, the filtered namespace is the displayed root */
		if (m->ns_filter ? ns->inum != (__u32)m->ns_filter : ns->parent >= 0)
			continue;
		err = add_ns_lines(m, (int)i, 0);
		if (err)
			return err;
	}
	return 0;
}

/* A process's soft limits lower its row's leaf limits (the smallest wins) */
static void lower_caller_limits(struct uct_model *m, struct uct_row *row,
				const long long rlim[UCT_NTYPES])
{
	struct uct_rowlim *l = row_lim(m, row);
	int t;

	/* out of memory: the leaf limits stay unknown ("-") */
	if (!l)
		return;
	for (t = 0; t < UCT_NTYPES; t++)
		if (l->caller_limit[t] < 0 || rlim[t] < l->caller_limit[t])
			l->caller_limit[t] = rlim[t];
}

void uct_model_set_caller_limits_by_id(struct uct_model *m, const struct uct_tlim *tl,
				       size_t n)
{
	size_t i;
	int r;

	for (i = 0; i < n; i++) {
		r = find_row_by_id(m, tl[i].id);
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
