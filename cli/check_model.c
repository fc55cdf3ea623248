// SPDX-License-Identifier: GPL-2.0
/*
 * check_model.c - `ucounttop check`: from a baseline, a final capture and
 * the event aggregates, decide which counter changes are errors and how.
 * See check_model.h for the quantities and cli/README.md for the rules.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "check_model.h"
#include "fmt.h"

#define NT UCT_NTYPES

struct row {
	struct uct_key k;
	struct uct_key pk;		/* parent key */
	bool has_parent;
	bool root;
	bool known;			/* in a snapshot or a free record */
	__u32 level;
	bool in_b, in_f, tb_set, tf_set;
	bool inferred;			/* a snapshot missed it: values inferred */
	long long B[NT], F[NT], tb[NT], tf[NT];
	long long frd[NT];		/* counters when it was freed (class c) */
	long long inv_b[UCK_NINV], inv_f[UCK_NINV];
	long long obj[NT], objn[NT], pre[NT], pren[NT], gone[NT];
	long long charged[NT], uncharged[NT];
	/* derived */
	int par;
	int *kids;
	int nkids, capkids;
	int depth;
	long long D[NT], T[NT], U[NT], W[NT], E[NT], Eown[NT], FR[NT], dd[NT], X[NT], Y[NT];
	long long missing[NT];		/* non-propagated changes that stopped here */
};

struct rows {
	struct row *r;
	size_t n, cap;
	int *hash;			/* open addressing, -1 empty */
	size_t hcap;
};

static unsigned long long key64(const struct uct_key *k)
{
	return (unsigned long long)k->ns_inum << 32 | k->uid;
}

static size_t hslot(unsigned long long x, size_t cap)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	return x & (cap - 1);
}

static int rows_find(const struct rows *rs, const struct uct_key *k)
{
	size_t i;

	if (!rs->hcap)
		return -1;
	for (i = hslot(key64(k), rs->hcap);; i = (i + 1) & (rs->hcap - 1)) {
		int idx = rs->hash[i];

		if (idx < 0)
			return -1;
		if (rs->r[idx].k.ns_inum == k->ns_inum && rs->r[idx].k.uid == k->uid)
			return idx;
	}
}

static int rows_rehash(struct rows *rs, size_t ncap)
{
	int *h = malloc(ncap * sizeof(*h));
	size_t i, j;

	if (!h)
		return -ENOMEM;
	for (i = 0; i < ncap; i++)
		h[i] = -1;
	for (i = 0; i < rs->n; i++) {
		for (j = hslot(key64(&rs->r[i].k), ncap); h[j] >= 0; j = (j + 1) & (ncap - 1))
			;
		h[j] = (int)i;
	}
	free(rs->hash);
	rs->hash = h;
	rs->hcap = ncap;
	return 0;
}

/* The row of k, created when absent. NULL on ENOMEM. */
static struct row *rows_get(struct rows *rs, const struct uct_key *k)
{
	int idx = rows_find(rs, k);
	size_t j;

	if (idx >= 0)
		return &rs->r[idx];
	if (rs->n == rs->cap) {
		size_t ncap = rs->cap ? rs->cap * 2 : 64;
		struct row *p = realloc(rs->r, ncap * sizeof(*p));

		if (!p)
			return NULL;
		rs->r = p;
		rs->cap = ncap;
	}
	if ((rs->n + 1) * 2 > rs->hcap && rows_rehash(rs, rs->hcap ? rs->hcap * 2 : 128))
		return NULL;
	memset(&rs->r[rs->n], 0, sizeof(rs->r[0]));
	rs->r[rs->n].k = *k;
	rs->r[rs->n].par = -1;
	for (j = hslot(key64(k), rs->hcap); rs->hash[j] >= 0; j = (j + 1) & (rs->hcap - 1))
		;
	rs->hash[j] = (int)rs->n;
	return &rs->r[rs->n++];
}

static void rows_free(struct rows *rs)
{
	size_t i;

	for (i = 0; i < rs->n; i++)
		free(rs->r[i].kids);
	free(rs->r);
	free(rs->hash);
}

static int add_kid(struct row *p, int kid)
{
	if (p->nkids == p->capkids) {
		int ncap = p->capkids ? p->capkids * 2 : 4;
		int *k = realloc(p->kids, ncap * sizeof(*k));

		if (!k)
			return -ENOMEM;
		p->kids = k;
		p->capkids = ncap;
	}
	p->kids[p->nkids++] = kid;
	return 0;
}

const char *uck_class_name(enum uck_class c)
{
	static const char *const n[UCK_NCLASSES] = {
		"lost-uncharge", "double-uncharge", "freed-while-charged",
		"hierarchy-mismatch", "admitted-over-limit", "outstanding",
	};

	return c < UCK_NCLASSES ? n[c] : "?";
}

const char *uck_class_key(enum uck_class c)
{
	static const char *const n[UCK_NCLASSES] = {
		"lost_uncharge", "double_uncharge", "freed_while_charged",
		"hierarchy_mismatch", "admitted_over_limit", "outstanding",
	};

	return c < UCK_NCLASSES ? n[c] : "?";
}

/* ---- findings --------------------------------------------------------------- */

static struct uck_finding *add_finding(struct uck_result *r, enum uck_class cls,
				       const struct row *w, int type)
{
	struct uck_finding *f;

	if (r->n == r->cap) {
		size_t ncap = r->cap ? r->cap * 2 : 16;
		struct uck_finding *p = realloc(r->f, ncap * sizeof(*p));

		if (!p)
			return NULL;
		r->f = p;
		r->cap = ncap;
	}
	f = &r->f[r->n++];
	memset(f, 0, sizeof(*f));
	f->cls = cls;
	f->type = type;
	f->at_level = -1;
	if (w) {
		f->ns_inum = w->k.ns_inum;
		f->uid = w->k.uid;
		f->level = w->level;
		f->in_base = w->in_b;
		f->in_final = w->in_f;
		f->inferred = w->inferred;
		f->baseline = w->B[type];
		f->final = w->F[type];
		f->tally = w->T[type];
		f->charged = w->charged[type];
		f->uncharged = w->uncharged[type];
	}
	return f;
}

static void how(struct uck_finding *f, const char *fmt, ...)
{
	size_t used = strlen(f->how);
	va_list ap;

	if (used >= sizeof(f->how) - 1)
		return;
	va_start(ap, fmt);
	vsnprintf(f->how + used, sizeof(f->how) - used, fmt, ap);
	va_end(ap);
}

static int add_stack(struct uck_finding *f, __s32 sid, __u32 kind, unsigned long long count,
		     long long total, __u32 pid, const char *comm)
{
	struct uck_stackref *s;
	size_t i;

	for (i = 0; i < f->nstacks; i++) {
		s = &f->stacks[i];
		if (s->stack_id == sid && s->kind == kind) {
			s->count += count;
			s->total += total;
			return 0;
		}
	}
	s = realloc(f->stacks, (f->nstacks + 1) * sizeof(*s));
	if (!s)
		return -ENOMEM;
	f->stacks = s;
	s = &f->stacks[f->nstacks++];
	memset(s, 0, sizeof(*s));
	s->stack_id = sid;
	s->kind = kind;
	s->count = count;
	s->total = total;
	s->pid = pid;
	if (comm)
		memcpy(s->comm, comm, UCT_COMM_LEN);
	s->comm[UCT_COMM_LEN - 1] = 0;
	return 0;
}

static int stack_cmp(const void *a, const void *b)
{
	const struct uck_stackref *x = a, *y = b;
	long long tx = x->total < 0 ? -x->total : x->total;
	long long ty = y->total < 0 ? -y->total : y->total;

	if (x->kind != y->kind)
		return x->kind < y->kind ? -1 : 1;
	if (tx != ty)
		return tx > ty ? -1 : 1;
	return x->stack_id < y->stack_id ? -1 : x->stack_id > y->stack_id;
}

/* Stacks of agg entries of (row, type) with one of the kinds. */
static int stacks_from_agg(const struct uck_input *in, struct uck_finding *f, __u32 agg_kind,
			   __u32 sr_kind)
{
	size_t i;

	for (i = 0; i < in->nagg; i++) {
		const struct uck_agg_kv *a = &in->agg[i];

		if (a->k.ns_inum != f->ns_inum || a->k.uid != f->uid ||
		    (int)a->k.type != f->type || a->k.kind != agg_kind)
			continue;
		if (add_stack(f, a->k.stack_id, sr_kind, a->v.count, a->v.total, a->v.pid,
			      a->v.comm))
			return -ENOMEM;
	}
	return 0;
}

/* Open (unpaired) charges of (row, type), grouped by stack. */
static int stacks_open(const struct uck_input *in, struct uck_finding *f, size_t *n)
{
	size_t i, before = f->nstacks;

	for (i = 0; i < in->nitems; i++) {
		const struct uck_item_kv *it = &in->items[i];

		if (it->k.f.ns_inum != f->ns_inum || it->k.f.uid != f->uid ||
		    (int)it->k.f.type != f->type)
			continue;
		if (add_stack(f, it->v.stack_id, UCK_SR_OPEN, 1, it->k.f.amount, it->v.pid,
			      it->v.comm))
			return -ENOMEM;
	}
	if (n)
		*n = f->nstacks - before;
	return 0;
}

/* ---- building the rows -------------------------------------------------------- */

static int add_snapshot(struct rows *rs, const struct uck_capture *c, bool fin)
{
	size_t i;
	int t;

	for (i = 0; i < c->nrecs; i++) {
		const struct uck_rec *rec = &c->recs[i];
		struct uct_key k = { rec->r.ns_inum, rec->r.uid };
		struct row *w = rows_get(rs, &k);

		if (!w)
			return -ENOMEM;
		if (fin ? w->in_f : w->in_b)
			continue;	/* duplicate (task iterator) */
		w->known = true;
		w->level = rec->r.level;
		if (rec->r.flags & UCT_REC_ROOT) {
			w->root = true;
		} else {
			w->pk.ns_inum = rec->r.parent_ns_inum;
			w->pk.uid = rec->r.parent_uid;
			w->has_parent = true;
		}
		for (t = 0; t < NT; t++) {
			if (fin) {
				w->F[t] = rec->r.value[t];
				w->tf[t] = rec->tally[t];
			} else {
				w->B[t] = rec->r.value[t];
				w->tb[t] = rec->tally[t];
			}
		}
		if (fin)
			w->in_f = w->tf_set = true;
		else
			w->in_b = w->tb_set = true;
	}
	/* rows not in the snapshot: their tally at that moment, and where
	 * the events placed them in the tree */
	for (i = 0; i < c->ntally; i++) {
		const struct uck_tally_kv *tk = &c->tally[i];
		struct row *w = rows_get(rs, &tk->k);

		if (!w)
			return -ENOMEM;
		if (!w->known) {
			w->known = true;
			w->level = tk->v.level;
		}
		if (!w->has_parent && !w->root) {
			if (tk->v.flags & UCT_REC_ROOT) {
				w->root = true;
			} else {
				w->pk = tk->v.parent;
				w->has_parent = true;
			}
		}
		if (fin && !w->tf_set) {
			memcpy(w->tf, tk->v.net, sizeof(w->tf));
			w->tf_set = true;
		} else if (!fin && !w->tb_set) {
			memcpy(w->tb, tk->v.net, sizeof(w->tb));
			w->tb_set = true;
		}
	}
	return 0;
}

static int add_inventory(struct rows *rs, const struct uck_capture *c, bool fin)
{
	size_t i;

	for (i = 0; i < c->ninv; i++) {
		const struct uck_inv_kv *iv = &c->inv[i];
		struct uct_key k = { iv->k.ns_inum, iv->k.uid };
		struct row *w;

		if (iv->k.kind >= UCK_NINV)
			continue;
		w = rows_get(rs, &k);
		if (!w)
			return -ENOMEM;
		if (fin)
			w->inv_f[iv->k.kind] += iv->n;
		else
			w->inv_b[iv->k.kind] += iv->n;
	}
	return 0;
}

static const struct uck_tally_kv *tally_of(const struct uck_capture *c, const struct uct_key *k)
{
	size_t i;

	for (i = 0; i < c->ntally; i++)
		if (c->tally[i].k.ns_inum == k->ns_inum && c->tally[i].k.uid == k->uid)
			return &c->tally[i];
	return NULL;
}

static int build(const struct uck_input *in, struct rows *rs)
{
	size_t i, j;
	int t, err;

	if ((err = add_snapshot(rs, &in->base, false)) || (err = add_snapshot(rs, &in->fin, true)))
		return err;
	/* frees: the row, its ancestors (for subtree sums) */
	for (i = 0; i < in->nfreed; i++) {
		const struct uck_free_kv *fr = &in->freed[i];
		struct uct_key k = { fr->k.ns_inum, fr->k.uid };
		struct row *w = rows_get(rs, &k);

		if (!w)
			return -ENOMEM;
		for (t = 0; t < NT; t++)
			w->frd[t] += fr->v.value[t];
		if (!w->known) {
			w->known = true;
			w->level = fr->v.level;
		}
		for (j = 0; j < fr->v.nanc && j < UCK_MAX_ANC; j++) {
			if (!w->has_parent && !w->root) {
				w->pk = fr->v.anc[j];
				w->has_parent = true;
			}
			w = rows_get(rs, &fr->v.anc[j]);
			if (!w)
				return -ENOMEM;
			if (!w->known) {
				w->known = true;
				w->level = fr->v.level > j ? fr->v.level - (__u32)j - 1 : 0;
			}
		}
	}
	/* tallies of rows known only from frees */
	for (i = 0; i < rs->n; i++) {
		struct row *w = &rs->r[i];
		const struct uck_tally_kv *tk;

		if (!w->tb_set && (tk = tally_of(&in->base, &w->k))) {
			memcpy(w->tb, tk->v.net, sizeof(w->tb));
			w->tb_set = true;
		}
		if (!w->tf_set && (tk = tally_of(&in->fin, &w->k))) {
			memcpy(w->tf, tk->v.net, sizeof(w->tf));
			w->tf_set = true;
		}
	}
	if ((err = add_inventory(rs, &in->base, false)) || (err = add_inventory(rs, &in->fin, true)))
		return err;
	for (i = 0; i < in->nobjs; i++) {
		const struct uck_obj *o = &in->objs[i].v;
		struct uct_key k = { o->ns_inum, o->uid };
		struct row *w;

		if (o->type >= NT)
			continue;
		if (!(w = rows_get(rs, &k)))
			return -ENOMEM;
		w->obj[o->type] += o->amount;
		w->objn[o->type]++;
	}
	for (i = 0; i < in->npre_rel; i++) {
		const struct uck_rt_kv *p = &in->pre_rel[i];
		struct uct_key k = { p->k.ns_inum, p->k.uid };
		struct row *w;

		if (p->k.type >= NT)
			continue;
		if (!(w = rows_get(rs, &k)))
			return -ENOMEM;
		w->pre[p->k.type] += p->v.total;
		w->pren[p->k.type] += p->v.count;
	}
	for (i = 0; i < in->ngone; i++) {
		const struct uck_rt_kv *p = &in->gone[i];
		struct uct_key k = { p->k.ns_inum, p->k.uid };
		int idx = rows_find(rs, &k);

		if (idx >= 0 && p->k.type < NT)
			rs->r[idx].gone[p->k.type] += p->v.total;
	}
	for (i = 0; i < in->nagg; i++) {
		const struct uck_agg_kv *a = &in->agg[i];
		struct uct_key k = { a->k.ns_inum, a->k.uid };
		int idx = rows_find(rs, &k);

		if (idx < 0 || a->k.type >= NT)
			continue;
		if (a->k.kind == UCK_K_CHARGE)
			rs->r[idx].charged[a->k.type] += a->v.total;
		else if (a->k.kind == UCK_K_UNCHARGE)
			rs->r[idx].uncharged[a->k.type] += a->v.total;
	}
	/* the tree */
	for (i = 0; i < rs->n; i++) {
		struct row *w = &rs->r[i];
		int p;

		if (!w->has_parent)
			continue;
		p = rows_find(rs, &w->pk);
		if (p < 0 || p == (int)i)
			continue;
		w->par = p;
		if (add_kid(&rs->r[p], (int)i))
			return -ENOMEM;
	}
	for (i = 0; i < rs->n; i++) {
		int d = 0, p = rs->r[i].par;

		while (p >= 0 && d <= UCT_MAX_LEVELS) {
			d++;
			p = rs->r[p].par;
		}
		rs->r[i].depth = d;
	}
	return 0;
}

/* Row indexes, deepest first (children before parents). */
static int *by_depth(const struct rows *rs)
{
	int *o = malloc((rs->n ? rs->n : 1) * sizeof(*o));
	size_t i, n = 0;
	int d;

	if (!o)
		return NULL;
	for (d = UCT_MAX_LEVELS + 1; d >= 0; d--)
		for (i = 0; i < rs->n; i++)
			if (rs->r[i].depth == d)
				o[n++] = (int)i;
	return o;
}

/* ---- the classes ------------------------------------------------------------------ */

static const char *evidence_name(int type)
{
	switch (type) {
	case UCT_NPROC: return "tasks";
	case UCT_MSGQUEUE: return "message queues";
	case UCT_SIGPENDING: return "pending signals";
	default: return "SHM_LOCKed segments";
	}
}

/* Evidence objects of row w for type, at the baseline and at the end. */
static void evidence_counts(const struct row *w, int type, long long *eb, long long *ef)
{
	switch (type) {
	case UCT_NPROC:
		*eb = w->inv_b[UCK_INV_TASK] + w->inv_b[UCK_INV_KTHREAD];
		*ef = w->inv_f[UCK_INV_TASK] + w->inv_f[UCK_INV_KTHREAD];
		break;
	case UCT_SIGPENDING:
		*eb = w->inv_b[UCK_INV_SIGQ] + w->inv_b[UCK_INV_TIMER];
		*ef = w->inv_f[UCK_INV_SIGQ] + w->inv_f[UCK_INV_TIMER];
		break;
	default:	/* objects: created since attach vs released from before */
		*eb = w->pren[type];
		*ef = w->objn[type];
		break;
	}
}

static void evidence_how(struct uck_finding *f, const struct row *w, int type)
{
	long long eb, ef;

	evidence_counts(w, type, &eb, &ef);
	f->ev_base = eb;
	f->ev_final = ef;
	if (type == UCT_NPROC || type == UCT_SIGPENDING)
		how(f, "; %s charged to this row: %lld at the baseline, %lld at the end",
		    evidence_name(type), eb, ef);
	else
		how(f, "; %s: %lld created since attach still hold %lld, %lld from before released %lld",
		    evidence_name(type), w->objn[type], w->obj[type], w->pren[type], w->pre[type]);
	if (type == UCT_MEMLOCK && w->gone[type])
		how(f, "; segments destroyed while still locked: %lld pages never unlocked",
		    w->gone[type]);
}

static void counter_how(struct uck_finding *f, const struct row *w, int type)
{
	if (w->inferred)
		how(f, "counter %lld -> %lld as far as the events tell (a snapshot did not "
		    "show this row)", w->B[type], w->F[type]);
	else
		how(f, "counter %lld -> %lld%s", w->B[type], w->F[type],
		    !w->in_b ? " (new)" : !w->in_f ? " (freed)" : "");
	how(f, "; charges and uncharges reaching it net %+lld (at this row: +%lld -%lld)",
	    w->T[type], w->charged[type], w->uncharged[type]);
}

struct skip {
	bool ab[NT];		/* a/b not decidable for this type */
	bool d2;		/* untracked changes not decidable */
};

static int judge_hier(const struct uck_input *in, struct rows *rs, const int *order,
		      const struct skip *sk, struct uck_result *r)
{
	size_t oi;
	int t, k;

	for (t = 0; t < NT; t++) {
		/* d2: a change no charge made, that did not reach every level */
		for (oi = 0; oi < rs->n && !sk->d2; oi++) {
			struct row *s = &rs->r[order[oi]];
			long long left = s->W[t];
			int a;

			if (!left || !s->known)
				continue;
			for (a = s->par; a >= 0 && left; a = rs->r[a].par) {
				struct row *A = &rs->r[a];
				long long m;
				struct uck_finding *f;
				int x;

				if (!A->W[t] || (A->W[t] > 0) == (left > 0))
					continue;
				m = llabs(A->W[t]) < llabs(left) ? llabs(A->W[t]) : llabs(left);
				if (left < 0)
					m = -m;
				/* it is in s .. below A, not in A and above */
				for (x = order[oi]; x >= 0 && x != a; x = rs->r[x].par)
					rs->r[x].dd[t] += m;
				A->missing[t] += llabs(m);
				s->W[t] -= m;
				A->W[t] += m;
				left -= m;
				f = add_finding(r, UCK_HIER, s, t);
				if (!f)
					return -ENOMEM;
				f->failing = true;
				f->amount = llabs(m);
				f->at_ns = A->k.ns_inum;
				f->at_uid = A->k.uid;
				f->at_level = A->level;
				f->value = A->in_f ? A->F[t] : 0;
				how(f, "changed by %+lld with no charge or uncharge reaching it (a direct "
				    "write), and the change did not reach level %u (ns %u uid %u) above "
				    "it; ", m, A->level, A->k.ns_inum, A->k.uid);
				counter_how(f, s, t);
			}
		}
		/* d1: a level below the sum of its children, more than before */
		for (oi = 0; oi < rs->n; oi++) {
			struct row *p = &rs->r[order[oi]];
			long long sb = 0, sf = 0, shb, shf, amount;
			struct uck_finding *f;

			if (!p->nkids || !p->in_f)
				continue;
			for (k = 0; k < p->nkids; k++) {
				const struct row *c = &rs->r[p->kids[k]];

				if (c->in_f)
					sf += c->F[t];
				if (c->in_b)
					sb += c->B[t];
			}
			shf = sf - p->F[t];
			shb = p->in_b ? sb - p->B[t] : 0;
			if (shf <= 0)
				continue;
			amount = shf - (shb > 0 ? shb : 0) - p->missing[t];
			if (amount <= 0)
				continue;
			/* the shortfall is this class's, not a double uncharge's */
			p->dd[t] -= amount;
			f = add_finding(r, UCK_HIER, p, t);
			if (!f)
				return -ENOMEM;
			f->failing = true;
			f->amount = amount;
			f->value = p->F[t];
			f->limit = sf;
			how(f, "%lld, below the %lld of the rows of the namespaces it created "
			    "(every charge there also charged it); short by %lld at the baseline",
			    p->F[t], sf, shb > 0 ? shb : 0);
		}
	}
	(void)in;
	return 0;
}

static int judge_ab(const struct uck_input *in, struct rows *rs, const int *order,
		    const struct skip *sk, struct uck_result *r)
{
	size_t oi, i;
	int t, k;

	for (t = 0; t < NT; t++) {
		if (sk->ab[t])
			continue;
		for (oi = 0; oi < rs->n; oi++) {
			struct row *w = &rs->r[order[oi]];
			long long kids = 0, lowest = 0;
			bool neg = false;
			struct uck_finding *f;

			if (!w->known)
				continue;
			for (k = 0; k < w->nkids; k++)
				kids += rs->r[w->kids[k]].X[t];
			w->Y[t] = w->X[t] - kids;
			for (i = 0; i < in->nagg; i++) {
				const struct uck_agg_kv *a = &in->agg[i];

				if (a->k.kind == UCK_K_NEGATIVE && a->k.ns_inum == w->k.ns_inum &&
				    a->k.uid == w->k.uid && (int)a->k.type == t) {
					neg = true;
					if (a->v.extreme < lowest)
						lowest = a->v.extreme;
				}
			}
			if (w->Y[t] > 0) {
				size_t nopen = 0;

				f = add_finding(r, UCK_LOST, w, t);
				if (!f)
					return -ENOMEM;
				f->failing = true;
				f->amount = w->Y[t];
				counter_how(f, w, t);
				evidence_how(f, w, t);
				how(f, "; %lld charged here and never uncharged: no live object "
				    "explains it", w->Y[t]);
				if (stacks_open(in, f, &nopen))
					return -ENOMEM;
				if (!nopen && stacks_from_agg(in, f, UCK_K_CHARGE, UCK_SR_CHARGE))
					return -ENOMEM;
			} else if (w->Y[t] < 0 || neg) {
				size_t before;

				f = add_finding(r, UCK_DOUBLE, w, t);
				if (!f)
					return -ENOMEM;
				f->failing = true;
				f->amount = -w->Y[t] > -lowest ? -w->Y[t] : -lowest;
				counter_how(f, w, t);
				evidence_how(f, w, t);
				if (w->Y[t] < 0)
					how(f, "; %lld more uncharged than was charged since the "
					    "baseline plus what objects from before it released",
					    -w->Y[t]);
				if (neg)
					how(f, "; an uncharge took it below zero (lowest %lld)", lowest);
				before = f->nstacks;
				if (stacks_from_agg(in, f, UCK_K_UNMATCHED, UCK_SR_UNMATCHED) ||
				    stacks_from_agg(in, f, UCK_K_NEGATIVE, UCK_SR_NEGATIVE))
					return -ENOMEM;
				if (f->nstacks == before &&
				    stacks_from_agg(in, f, UCK_K_UNCHARGE, UCK_SR_UNCHARGE))
					return -ENOMEM;
			}
		}
	}
	return 0;
}

static int judge_outstanding(const struct uck_input *in, struct rows *rs, struct uck_result *r)
{
	size_t i;
	int t;

	for (i = 0; i < rs->n; i++) {
		struct row *w = &rs->r[i];

		for (t = 0; t < NT; t++) {
			long long n;
			struct uck_finding *f;

			switch (t) {
			case UCT_NPROC:	/* kernel threads are not the workload's */
				n = w->inv_f[UCK_INV_TASK] - w->inv_b[UCK_INV_TASK];
				break;
			case UCT_SIGPENDING:
				n = w->inv_f[UCK_INV_SIGQ] + w->inv_f[UCK_INV_TIMER] -
				    w->inv_b[UCK_INV_SIGQ] - w->inv_b[UCK_INV_TIMER];
				break;
			default:
				n = w->obj[t];
			}
			if (n <= 0 || w->Y[t] < 0)
				continue;
			f = add_finding(r, UCK_OUTSTANDING, w, t);
			if (!f)
				return -ENOMEM;
			f->failing = in->fail_outstanding;
			f->amount = n;
			counter_how(f, w, t);
			evidence_how(f, w, t);
			how(f, "; still held by live objects, a legitimate charge");
			if (stacks_open(in, f, NULL))
				return -ENOMEM;
		}
	}
	return 0;
}

static int judge_freed(const struct uck_input *in, struct rows *rs, struct uck_result *r)
{
	size_t i;
	int t;

	for (i = 0; i < in->nfreed; i++) {
		const struct uck_free_kv *fr = &in->freed[i];
		struct uct_key k = { fr->k.ns_inum, fr->k.uid };
		int idx = rows_find(rs, &k);

		for (t = 0; t < NT; t++) {
			struct uck_finding *f = NULL;
			size_t j, nopen = 0;

			if (!fr->v.value[t])
				continue;
			/* one finding per (row, type): several free stacks merge */
			for (j = 0; j < r->n; j++)
				if (r->f[j].cls == UCK_FREED && r->f[j].ns_inum == k.ns_inum &&
				    r->f[j].uid == k.uid && r->f[j].type == t)
					f = &r->f[j];
			if (!f) {
				f = add_finding(r, UCK_FREED, idx >= 0 ? &rs->r[idx] : NULL, t);
				if (!f)
					return -ENOMEM;
				f->ns_inum = k.ns_inum;
				f->uid = k.uid;
				f->level = fr->v.level;
				f->failing = true;
				if (fr->v.nanc) {
					f->at_ns = fr->v.anc[0].ns_inum;
					f->at_uid = fr->v.anc[0].uid;
					f->at_level = fr->v.level ? (int)fr->v.level - 1 : -1;
				}
				if (stacks_open(in, f, &nopen))
					return -ENOMEM;
				if (!nopen && stacks_from_agg(in, f, UCK_K_CHARGE, UCK_SR_CHARGE))
					return -ENOMEM;
			}
			f->amount += fr->v.value[t];
			f->value = f->amount;
			if (add_stack(f, fr->k.stack_id, UCK_SR_FREE, fr->v.count, fr->v.value[t],
				      fr->v.pid, fr->v.comm))
				return -ENOMEM;
		}
	}
	for (i = 0; i < r->n; i++) {
		struct uck_finding *f = &r->f[i];

		if (f->cls != UCK_FREED)
			continue;
		how(f, "the ucounts was freed (ucounts_free) with %s=%lld: that charge can no "
		    "longer be uncharged", uct_type_name(f->type), f->amount);
		if (f->at_level >= 0)
			how(f, ", and the levels above it (from ns %u uid %u up) keep it for good",
			    f->at_ns, f->at_uid);
	}
	return 0;
}

/* Class e from the over-limit records (and those still pending). */
static int judge_admit(const struct uck_input *in, struct uck_result *r)
{
	size_t i, j, n = in->nover + in->npend;

	for (i = 0; i < n; i++) {
		struct uck_over_key ok;
		struct uck_over ov;
		const char *why = NULL;
		struct uck_finding *f = NULL;
		long long excess;

		if (i < in->nover) {
			ok = in->over[i].k;
			ov = in->over[i].v;
		} else {
			const struct uck_pend *p = &in->pend[i - in->nover].v;

			memset(&ok, 0, sizeof(ok));
			memset(&ov, 0, sizeof(ov));
			ok.ns_inum = p->ns_inum;
			ok.uid = p->uid;
			ok.type = p->type;
			ok.flags = p->flags | UCK_E_END;
			ok.stack_id = p->stack_id;
			ov.count = 1;
			ov.total = p->amount;
			ov.value = p->value;
			ov.limit = p->limit;
			ov.at_ns = p->at_ns;
			ov.at_uid = p->at_uid;
			ov.at_level = p->at_level;
			ov.stack2 = -1;
			ov.pid = p->pid;
			memcpy(ov.comm, p->comm, sizeof(ov.comm));
		}
		if (ok.type >= NT)
			continue;
		if (ok.flags & UCK_E_ROLLED_BACK) {
			r->refused_rolled_back += ov.count;
			continue;
		}
		if (ok.flags & UCK_E_EXEMPT) {
			r->privileged_over += ov.count;
			continue;
		}
		if (ok.flags & UCK_E_SAID_WITHIN)
			why = ok.flags & UCK_E_CHECKED ?
			      "the limit check (is_rlimit_overlimit) said within limits" :
			      "the charge function said within limits";
		else if (ok.type == UCT_NPROC && (ok.flags & UCK_E_CHECK_OVER))
			why = "the limit check said over (fork refused), but the charging "
			      "task never uncharged it";
		else if (ok.type == UCT_NPROC && !(ok.flags & UCK_E_CHECKED))
			r->deferred_nproc += ov.count;	/* set*uid, unshare: by design */
		else if (ok.flags & UCK_E_CALLER_CMP)
			why = ok.flags & UCK_E_KERNEL_OVER ?
			      "the charge function said over, but the charging task kept the "
			      "charge (no uncharge of it followed)" :
			      "the caller's own rlimit was exceeded, but the charging task kept "
			      "the charge (no uncharge of it followed)";
		if (!why)
			continue;
		excess = ov.value - ov.limit;
		for (j = 0; j < r->n; j++)
			if (r->f[j].cls == UCK_ADMIT && r->f[j].ns_inum == ok.ns_inum &&
			    r->f[j].uid == ok.uid && r->f[j].type == (int)ok.type)
				f = &r->f[j];
		if (!f) {
			f = add_finding(r, UCK_ADMIT, NULL, (int)ok.type);
			if (!f)
				return -ENOMEM;
			f->ns_inum = ok.ns_inum;
			f->uid = ok.uid;
			f->failing = true;
			f->at_level = -1;
		}
		if (excess > f->amount || f->at_level < 0) {
			f->amount = excess > f->amount ? excess : f->amount;
			f->at_ns = ov.at_ns;
			f->at_uid = ov.at_uid;
			f->at_level = ov.at_level;
			f->value = ov.value;
			f->limit = ov.limit;
			f->how[0] = 0;
			how(f, "%s while level %d (ns %u uid %u) was at %lld, above its limit %lld "
			    "(%s)", why, ov.at_level, ov.at_ns, ov.at_uid, (long long)ov.value,
			    (long long)ov.limit,
			    ok.flags & UCK_E_LEVEL ? "rlimit_max of the namespace below it" :
			    "the caller's own rlimit");
			if (ok.flags & UCK_E_END)
				how(f, "; still pending when the workload ended");
		}
		f->charged += ov.total;
		if (add_stack(f, ok.stack_id, ok.flags & UCK_E_CHECKED && ok.flags & UCK_E_SAID_WITHIN ?
			      UCK_SR_CHECK : UCK_SR_OVER, ov.count, ov.total, ov.pid, ov.comm))
			return -ENOMEM;
		if (ov.stack2 >= 0 && add_stack(f, ov.stack2, UCK_SR_OVER, ov.count, ov.total,
						ov.pid, ov.comm))
			return -ENOMEM;
	}
	return 0;
}

static void note(struct uck_result *r, const char *fmt, ...)
{
	size_t used = strlen(r->notes);
	va_list ap;

	if (used >= sizeof(r->notes) - 2)
		return;
	if (used)
		r->notes[used++] = '\n';
	va_start(ap, fmt);
	vsnprintf(r->notes + used, sizeof(r->notes) - used, fmt, ap);
	va_end(ap);
}

static int finding_cmp(const void *a, const void *b)
{
	const struct uck_finding *x = a, *y = b;

	if (x->cls != y->cls)
		return x->cls < y->cls ? -1 : 1;
	if (x->ns_inum != y->ns_inum)
		return x->ns_inum < y->ns_inum ? -1 : 1;
	if (x->uid != y->uid)
		return x->uid < y->uid ? -1 : 1;
	return x->type - y->type;
}

int uck_judge(const struct uck_input *in, struct uck_result *r)
{
	const unsigned long long *c = in->counters;
	struct rows rs = {};
	struct skip sk = {};
	int *order = NULL;
	size_t i;
	int t, k, err;

	memset(r, 0, sizeof(*r));
	err = build(in, &rs);
	if (err)
		goto out;
	r->rows = rs.n;

	/* What the data lets us decide. */
	if (c[UCK_CNT_TALLY_FULL]) {
		sk.d2 = true;
		note(r, "tally map full (%llu updates lost): changes made without a charge "
		     "not checked; raise --max-entries", c[UCK_CNT_TALLY_FULL]);
	}
	if (c[UCK_CNT_INV_FULL] || c[UCK_CNT_INV_TRUNC]) {
		sk.ab[UCT_NPROC] = sk.ab[UCT_SIGPENDING] = true;
		note(r, "task/signal inventory incomplete (map full %llu, lists cut %llu): "
		     "lost/double uncharges of nproc and sigpending not checked",
		     c[UCK_CNT_INV_FULL], c[UCK_CNT_INV_TRUNC]);
	}
	if (c[UCK_CNT_OBJ_FULL]) {
		sk.ab[UCT_MSGQUEUE] = sk.ab[UCT_MEMLOCK] = true;
		note(r, "object map full (%llu lost): lost/double uncharges of msgqueue and "
		     "memlock not checked; raise --max-entries", c[UCK_CNT_OBJ_FULL]);
	}
	if (!in->have_mq_hooks) {
		sk.ab[UCT_MSGQUEUE] = true;
		note(r, "message queue lifetimes not traceable (mqueue_get_inode/"
		     "mqueue_evict_inode): lost/double uncharges of msgqueue not checked");
	}
	if (!in->have_shm_hooks) {
		sk.ab[UCT_MEMLOCK] = true;
		note(r, "SHM_LOCK lifetimes not traceable (shmem_lock/user_shm_lock/"
		     "user_shm_unlock): lost/double uncharges of memlock not checked");
	}
	if (c[UCK_CNT_FREE_FULL]) {
		for (t = 0; t < NT; t++)
			sk.ab[t] = true;
		note(r, "free map full (%llu lost): lost/double uncharges not checked",
		     c[UCK_CNT_FREE_FULL]);
	}
	if (c[UCK_CNT_OVER_FULL] || c[UCK_CNT_PEND_FULL])
		note(r, "over-limit maps full (%llu, %llu lost): admitted-over-limit may miss "
		     "some", c[UCK_CNT_OVER_FULL], c[UCK_CNT_PEND_FULL]);
	if (c[UCK_CNT_AGG_FULL] || c[UCK_CNT_ITEM_FULL] || c[UCK_CNT_FIFO_FULL])
		note(r, "stack aggregation maps full (%llu, %llu, %llu lost): some stacks missing",
		     c[UCK_CNT_AGG_FULL], c[UCK_CNT_ITEM_FULL], c[UCK_CNT_FIFO_FULL]);
	if (c[UCK_CNT_STACK_ERR])
		note(r, "%llu kernel stacks not recorded (stack map collision or full)",
		     c[UCK_CNT_STACK_ERR]);
	if (c[UCK_CNT_CHAIN_CUT])
		note(r, "%llu chains longer than %d levels cut", c[UCK_CNT_CHAIN_CUT],
		     UCT_MAX_LEVELS);
	if (!in->complete)
		note(r, "snapshots from the task iterator (no iter/ucounts): rows no task "
		     "references are assumed consistent");
	if (!in->have_free_tp)
		note(r, "without the ucounts_free tracepoint, a ucounts freed while charged "
		     "shows as a lost uncharge of the level above it");

	/*
	 * Values where a snapshot could not see the row. Absent from a
	 * complete snapshot means it did not exist (0), at the end only if
	 * frees are traced too (else it may have been freed charged); absent
	 * from the task iterator's means nothing is known: assume the events
	 * tell the whole story.
	 */
	for (i = 0; i < rs.n; i++) {
		struct row *w = &rs.r[i];
		bool kb = w->in_b || in->complete;
		bool kf = w->in_f || (in->complete && in->have_free_tp);

		for (t = 0; t < NT; t++) {
			long long dT = w->tf[t] - w->tb[t];

			if (kb && !kf)
				w->F[t] = w->B[t] + dT - w->frd[t];
			else if (!kb && kf)
				w->B[t] = w->F[t] + w->frd[t] - dT;
			else if (!kb && !kf)
				w->F[t] = dT - w->frd[t];
		}
		w->inferred = !kb || !kf;
	}
	for (i = 0; i < rs.n; i++) {
		struct row *w = &rs.r[i];

		for (t = 0; t < NT; t++) {
			long long eb, ef;

			w->D[t] = w->F[t] + w->frd[t] - w->B[t];
			w->T[t] = w->tf[t] - w->tb[t];
			/* rows only known from a free record or an event map: no
			 * counter was read, nothing to compare */
			w->U[t] = w->D[t] - w->T[t];
			if (t == UCT_NPROC || t == UCT_SIGPENDING) {
				evidence_counts(w, t, &eb, &ef);
				w->Eown[t] = ef - eb;
			} else {
				w->Eown[t] = w->obj[t] - w->pre[t];
			}
		}
	}
	order = by_depth(&rs);
	if (!order) {
		err = -ENOMEM;
		goto out;
	}
	/* subtree sums, children first */
	for (i = 0; i < rs.n; i++) {
		struct row *w = &rs.r[order[i]];

		for (t = 0; t < NT; t++) {
			long long ku = 0;

			w->E[t] += w->Eown[t];
			w->FR[t] += w->frd[t];
			for (k = 0; k < w->nkids; k++)
				ku += rs.r[w->kids[k]].U[t];
			w->W[t] = w->U[t] - ku;
			if (w->par >= 0) {
				rs.r[w->par].E[t] += w->E[t];
				rs.r[w->par].FR[t] += w->FR[t];
			}
		}
	}
	/* a, b and d compare counters with the tally read beside them: a
	 * capture that never held still judges nothing */
	if (in->base.torn || in->fin.torn) {
		r->skipped[UCK_HIER] = r->skipped[UCK_LOST] = r->skipped[UCK_DOUBLE] =
			in->base.torn ? "the baseline capture never became consistent (counters "
					"kept changing while it was read)" :
					"the final capture never became consistent (counters "
					"kept changing while it was read)";
		goto after_state;
	}
	r->checked[UCK_HIER] = true;
	err = judge_hier(in, &rs, order, &sk, r);
	if (err)
		goto out;
	for (i = 0; i < rs.n; i++) {
		struct row *w = &rs.r[i];

		for (t = 0; t < NT; t++)
			w->X[t] = w->D[t] - w->E[t] - w->FR[t] - w->dd[t];
	}
	r->checked[UCK_LOST] = r->checked[UCK_DOUBLE] = true;
	err = judge_ab(in, &rs, order, &sk, r);
	if (err)
		goto out;
after_state:
	if (in->have_free_tp) {
		r->checked[UCK_FREED] = true;
		err = judge_freed(in, &rs, r);
		if (err)
			goto out;
	} else {
		r->skipped[UCK_FREED] = "the kernel has no ucounts_free tracepoint (needs the "
					"ucounts tracepoints patch)";
	}
	r->checked[UCK_ADMIT] = true;
	if (!in->have_overlimit)
		note(r, "is_rlimit_overlimit() not traceable: NPROC limit checks not judged");
	err = judge_admit(in, r);
	if (err)
		goto out;
	r->checked[UCK_OUTSTANDING] = true;
	err = judge_outstanding(in, &rs, r);
	if (err)
		goto out;

	for (i = 0; i < r->n; i++) {
		struct uck_finding *f = &r->f[i];

		if (f->nstacks)
			qsort(f->stacks, f->nstacks, sizeof(*f->stacks), stack_cmp);
		r->counts[f->cls]++;
		if (f->failing)
			r->nfail++;
	}
	if (r->n)
		qsort(r->f, r->n, sizeof(*r->f), finding_cmp);
out:
	free(order);
	rows_free(&rs);
	if (err)
		uck_result_free(r);
	return err;
}

bool uck_result_settled(const struct uck_result *r)
{
	size_t i;

	for (i = 0; i < r->n; i++)
		if (r->f[i].failing && (r->f[i].cls == UCK_LOST || r->f[i].cls == UCK_DOUBLE ||
					r->f[i].cls == UCK_HIER || r->f[i].cls == UCK_OUTSTANDING))
			return false;
	return true;
}

void uck_result_free(struct uck_result *r)
{
	size_t i;

	for (i = 0; i < r->n; i++)
		free(r->f[i].stacks);
	free(r->f);
	r->f = NULL;
	r->n = r->cap = 0;
}
