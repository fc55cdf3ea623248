// SPDX-License-Identifier: GPL-2.0
/*
 * rows.c - the rows of check's judge and their quantities, from the
 * baseline and final captures, the frees, the objects and the event
 * aggregates
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "grow.h"
#include "judge_internal.h"

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

int judge_rows_find(const struct judge_rows *rs, const struct uct_key *k)
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

/* Put row idx of key k in the first free slot of h from its own. */
static void hash_insert(int *h, size_t cap, const struct uct_key *k, int idx)
{
	size_t j;

	for (j = hslot(key64(k), cap); h[j] >= 0; j = (j + 1) & (cap - 1))
		;
	h[j] = idx;
}

static int rows_rehash(struct judge_rows *rs, size_t ncap)
{
	int *h = malloc(ncap * sizeof(*h));
	size_t i;

	if (!h)
		return -ENOMEM;
	for (i = 0; i < ncap; i++)
		h[i] = -1;
	for (i = 0; i < rs->n; i++)
		hash_insert(h, ncap, &rs->r[i].k, (int)i);
	free(rs->hash);
	rs->hash = h;
	rs->hcap = ncap;
	return 0;
}

/* The row of k, created when absent. NULL on ENOMEM. */
struct judge_row *judge_rows_get(struct judge_rows *rs, const struct uct_key *k)
{
	int idx = judge_rows_find(rs, k);
	struct judge_row *r;

	if (idx >= 0)
		return &rs->r[idx];
	if (uct_grow((void **)&rs->r, &rs->cap, rs->n + 1, sizeof(*rs->r)))
		return NULL;
	if ((rs->n + 1) * 2 > rs->hcap && rows_rehash(rs, rs->hcap ? rs->hcap * 2 : 128))
		return NULL;
	r = &rs->r[rs->n];
	memset(r, 0, sizeof(*r));
	r->k = *k;
	r->parent = -1;
	hash_insert(rs->hash, rs->hcap, k, (int)rs->n++);
	return r;
}

void judge_rows_free(struct judge_rows *rs)
{
	size_t i;

	for (i = 0; i < rs->n; i++)
		free(rs->r[i].kids);
	free(rs->r);
	free(rs->hash);
}

static int add_kid(struct judge_row *p, int kid)
{
	if (uct_grow((void **)&p->kids, &p->capkids, p->nkids + 1, sizeof(*p->kids)))
		return -ENOMEM;
	p->kids[p->nkids++] = kid;
	return 0;
}

/* The row of (ns, uid), created when absent. NULL on ENOMEM. */
static struct judge_row *row_at(struct judge_rows *rs, __u32 ns, __u32 uid)
{
	struct uct_key k = { ns, uid };

	return judge_rows_get(rs, &k);
}

/* A row no snapshot showed is at the level its first record says. */
static void first_seen(struct judge_row *w, __u32 level)
{
	if (!w->known) {
		w->known = true;
		w->level = level;
	}
}

/* The tally of w at the baseline or the end, unless it has one. */
static void set_tally(struct judge_row *w, bool fin, const __s64 net[UCT_NTYPES])
{
	bool *has = fin ? &w->has_tally_final : &w->has_tally_base;

	if (*has)
		return;
	memcpy(fin ? w->tally_final : w->tally_base, net, sizeof(w->tally_base));
	*has = true;
}

static int add_snapshot(struct judge_rows *rs, const struct judge_capture *c, bool fin)
{
	size_t i;
	int t;

	for (i = 0; i < c->nrecs; i++) {
		const struct uck_rec *rec = &c->recs[i];
		struct judge_row *w = row_at(rs, rec->r.ns_inum, rec->r.uid);

		if (!w)
			return -ENOMEM;
		if (fin ? w->in_final : w->in_base)
			continue;	/* duplicate (task iterator) */
		w->known = true;
		w->level = rec->r.level;
		if (rec->r.flags & UCT_REC_ROOT) {
			w->root = true;
		} else {
			w->parent_key.ns_inum = rec->r.parent_ns_inum;
			w->parent_key.uid = rec->r.parent_uid;
			w->has_parent = true;
		}
		for (t = 0; t < UCT_NTYPES; t++) {
			if (fin) {
				w->final[t] = rec->r.value[t];
				w->tally_final[t] = rec->tally[t];
			} else {
				w->base[t] = rec->r.value[t];
				w->tally_base[t] = rec->tally[t];
			}
		}
		if (fin)
			w->in_final = w->has_tally_final = true;
		else
			w->in_base = w->has_tally_base = true;
	}
	/* rows not in the snapshot: their tally at that moment, and where
	 * the events placed them in the tree */
	for (i = 0; i < c->ntally; i++) {
		const struct judge_tally_kv *tk = &c->tally[i];
		struct judge_row *w = judge_rows_get(rs, &tk->k);

		if (!w)
			return -ENOMEM;
		first_seen(w, tk->v.level);
		if (!w->has_parent && !w->root) {
			if (tk->v.flags & UCT_REC_ROOT) {
				w->root = true;
			} else {
				w->parent_key = tk->v.parent;
				w->has_parent = true;
			}
		}
		set_tally(w, fin, tk->v.net);
	}
	return 0;
}

static int add_inventory(struct judge_rows *rs, const struct judge_capture *c, bool fin)
{
	size_t i;

	for (i = 0; i < c->ninv; i++) {
		const struct judge_inv_kv *iv = &c->inv[i];
		struct judge_row *w;

		if (iv->k.kind >= UCK_NINV)
			continue;
		w = row_at(rs, iv->k.ns_inum, iv->k.uid);
		if (!w)
			return -ENOMEM;
		if (fin)
			w->inv_final[iv->k.kind] += iv->n;
		else
			w->inv_base[iv->k.kind] += iv->n;
	}
	return 0;
}

static const struct judge_tally_kv *tally_of(const struct judge_capture *c,
					     const struct uct_key *k)
{
	size_t i;

	for (i = 0; i < c->ntally; i++)
		if (c->tally[i].k.ns_inum == k->ns_inum && c->tally[i].k.uid == k->uid)
			return &c->tally[i];
	return NULL;
}

/* Would linking i below p close a circle? (p's chain reaches i) */
static bool closes_cycle(const struct judge_rows *rs, int p, int i)
{
	int d;

	for (d = 0; p >= 0 && d <= (int)rs->n; d++, p = rs->r[p].parent)
		if (p == i)
			return true;
	return false;
}

int judge_rows_build(const struct judge_input *in, struct judge_rows *rs)
{
	size_t i, j;
	int t, err;

	if ((err = add_snapshot(rs, &in->base, false)) ||
	    (err = add_snapshot(rs, &in->fin, true)))
		return err;
	/* frees: the row, its ancestors (for subtree sums) */
	for (i = 0; i < in->nfreed; i++) {
		const struct judge_free_kv *fr = &in->freed[i];
		struct judge_row *w = row_at(rs, fr->k.ns_inum, fr->k.uid);

		if (!w)
			return -ENOMEM;
		for (t = 0; t < UCT_NTYPES; t++)
			w->freed_value[t] += fr->v.value[t];
		first_seen(w, fr->v.level);
		for (j = 0; j < fr->v.nanc && j < UCK_MAX_ANC; j++) {
			if (!w->has_parent && !w->root) {
				w->parent_key = fr->v.anc[j];
				w->has_parent = true;
			}
			w = judge_rows_get(rs, &fr->v.anc[j]);
			if (!w)
				return -ENOMEM;
			first_seen(w, fr->v.level > j ? fr->v.level - (__u32)j - 1 : 0);
		}
	}
	/* tallies of rows known only from frees */
	for (i = 0; i < rs->n; i++) {
		struct judge_row *w = &rs->r[i];
		const struct judge_tally_kv *tk;

		if (!w->has_tally_base && (tk = tally_of(&in->base, &w->k)))
			set_tally(w, false, tk->v.net);
		if (!w->has_tally_final && (tk = tally_of(&in->fin, &w->k)))
			set_tally(w, true, tk->v.net);
	}
	if ((err = add_inventory(rs, &in->base, false)) ||
	    (err = add_inventory(rs, &in->fin, true)))
		return err;
	for (i = 0; i < in->nobjs; i++) {
		const struct uck_obj *o = &in->objs[i].v;
		struct judge_row *w;

		if (o->type >= UCT_NTYPES)
			continue;
		if (!(w = row_at(rs, o->ns_inum, o->uid)))
			return -ENOMEM;
		w->obj_amount[o->type] += o->amount;
		w->obj_count[o->type]++;
	}
	for (i = 0; i < in->npre_rel; i++) {
		const struct judge_rt_kv *p = &in->pre_rel[i];
		struct judge_row *w;

		if (p->k.type >= UCT_NTYPES)
			continue;
		if (!(w = row_at(rs, p->k.ns_inum, p->k.uid)))
			return -ENOMEM;
		w->pre_released[p->k.type] += p->v.total;
		w->pre_released_n[p->k.type] += p->v.count;
	}
	for (i = 0; i < in->ngone; i++) {
		const struct judge_rt_kv *p = &in->gone[i];
		struct uct_key k = { p->k.ns_inum, p->k.uid };
		int idx = judge_rows_find(rs, &k);

		if (idx >= 0 && p->k.type < UCT_NTYPES)
			rs->r[idx].gone[p->k.type] += p->v.total;
	}
	for (i = 0; i < in->nagg; i++) {
		const struct judge_agg_kv *a = &in->agg[i];
		struct uct_key k = { a->k.ns_inum, a->k.uid };
		int idx = judge_rows_find(rs, &k);

		if (idx < 0 || a->k.type >= UCT_NTYPES)
			continue;
		if (a->k.kind == UCK_K_CHARGE)
			rs->r[idx].charged[a->k.type] += a->v.total;
		else if (a->k.kind == UCK_K_UNCHARGE)
			rs->r[idx].uncharged[a->k.type] += a->v.total;
	}
	/* the tree */
	for (i = 0; i < rs->n; i++) {
		struct judge_row *w = &rs->r[i];
		int p;

		if (!w->has_parent)
			continue;
		p = judge_rows_find(rs, &w->parent_key);
		if (p < 0 || p == (int)i)
			continue;
		/* inode numbers are reused: two captures (or a free record)
		 * may link rows in a circle; a forest keeps every walk finite */
		if (closes_cycle(rs, p, (int)i)) {
			rs->cycles++;
			continue;
		}
		w->parent = p;
		if (add_kid(&rs->r[p], (int)i))
			return -ENOMEM;
	}
	for (i = 0; i < rs->n; i++) {
		int d = 0, p = rs->r[i].parent;

		while (p >= 0 && d <= UCT_MAX_LEVELS) {
			d++;
			p = rs->r[p].parent;
		}
		rs->r[i].depth = d;
	}
	return 0;
}

/* Row indexes, deepest first (children before parents). */
int *judge_rows_by_depth(const struct judge_rows *rs)
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

void judge_rows_derive(const struct judge_input *in, struct judge_rows *rs, const int *order)
{
	size_t i, k;
	int t;

	/*
	 * Values where a snapshot could not see the row. Absent from a
	 * complete snapshot means it did not exist (0), at the end only if
	 * frees are traced too (else it may have been freed charged); absent
	 * from the task iterator's means nothing is known: assume the events
	 * tell the whole story.
	 */
	for (i = 0; i < rs->n; i++) {
		struct judge_row *w = &rs->r[i];
		bool kb = w->in_base || in->complete;
		bool kf = w->in_final || (in->complete && in->have_free_tp);

		for (t = 0; t < UCT_NTYPES; t++) {
			long long dT = w->tally_final[t] - w->tally_base[t];

			if (kb && !kf)
				w->final[t] = w->base[t] + dT - w->freed_value[t];
			else if (!kb && kf)
				w->base[t] = w->final[t] + w->freed_value[t] - dT;
			else if (!kb && !kf)
				w->final[t] = dT - w->freed_value[t];
		}
		w->inferred = !kb || !kf;
	}
	for (i = 0; i < rs->n; i++) {
		struct judge_row *w = &rs->r[i];

		for (t = 0; t < UCT_NTYPES; t++) {
			long long eb, ef;

			w->change[t] = w->final[t] + w->freed_value[t] - w->base[t];
			w->tallied[t] = w->tally_final[t] - w->tally_base[t];
			/* rows only known from a free record or an event map: no
			 * counter was read, nothing to compare */
			w->untallied[t] = w->change[t] - w->tallied[t];
			if (t == UCT_NPROC || t == UCT_SIGPENDING) {
				judge_evidence_counts(w, t, &eb, &ef);
				w->evidence_own[t] = ef - eb;
			} else {
				w->evidence_own[t] = w->obj_amount[t] - w->pre_released[t];
			}
		}
	}
	/* subtree sums, children first */
	for (i = 0; i < rs->n; i++) {
		struct judge_row *w = &rs->r[order[i]];

		for (t = 0; t < UCT_NTYPES; t++) {
			long long ku = 0;

			w->evidence[t] += w->evidence_own[t];
			w->freed_below[t] += w->freed_value[t];
			for (k = 0; k < w->nkids; k++)
				ku += rs->r[w->kids[k]].untallied[t];
			w->untallied_here[t] = w->untallied[t] - ku;
			if (w->parent >= 0) {
				rs->r[w->parent].evidence[t] += w->evidence[t];
				rs->r[w->parent].freed_below[t] += w->freed_below[t];
			}
		}
	}
}
