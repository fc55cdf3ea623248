// SPDX-License-Identifier: GPL-2.0
/*
 * input.c - bound every quantity of check's input once, where it
 * enters the judge. Real counters, tallies and amounts are far below 2^40;
 * a corrupted map, or a counter a double uncharge drove far negative, can
 * hold anything, and the judge adds and subtracts thousands of them. With
 * each clamped to +-2^53 no sum or difference the judge makes can
 * overflow, so no site needs a check of its own.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "judge_internal.h"

#define BOUND (1LL << 53)

long long judge_bound(long long v)
{
	return v > BOUND ? BOUND : v < -BOUND ? -BOUND : v;
}

static unsigned long long bound_u(unsigned long long v)
{
	return v > (unsigned long long)BOUND ? (unsigned long long)BOUND : v;
}

/* A copy of n elements of size sz, or NULL (n == 0 gives a valid NULL). */
static void *dup_arr(const void *p, size_t n, size_t sz, int *err)
{
	void *q;

	if (!n || !p)
		return NULL;
	q = malloc(n * sz);
	if (!q) {
		*err = -ENOMEM;
		return NULL;
	}
	memcpy(q, p, n * sz);
	return q;
}

static void bound_capture(struct judge_capture *c, int *err)
{
	size_t i;
	int t;

	c->recs = dup_arr(c->recs, c->nrecs, sizeof(*c->recs), err);
	c->inv = dup_arr(c->inv, c->ninv, sizeof(*c->inv), err);
	c->tally = dup_arr(c->tally, c->ntally, sizeof(*c->tally), err);
	if (*err)
		return;
	for (i = 0; i < c->nrecs; i++) {
		for (t = 0; t < UCT_NTYPES; t++) {
			c->recs[i].r.value[t] = judge_bound(c->recs[i].r.value[t]);
			c->recs[i].r.ns_max[t] = judge_bound(c->recs[i].r.ns_max[t]);
			c->recs[i].tally[t] = judge_bound(c->recs[i].tally[t]);
		}
	}
	for (i = 0; i < c->ninv; i++)
		c->inv[i].n = bound_u(c->inv[i].n);
	for (i = 0; i < c->ntally; i++)
		for (t = 0; t < UCT_NTYPES; t++)
			c->tally[i].v.net[t] = judge_bound(c->tally[i].v.net[t]);
}

int judge_input_bounded(const struct judge_input *in, struct judge_input *out)
{
	struct judge_agg_kv *agg;
	struct judge_item_kv *items;
	struct judge_over_kv *over;
	struct judge_pend_kv *pend;
	struct judge_free_kv *freed;
	struct judge_obj_kv *objs;
	struct judge_rt_kv *pre, *gone;
	size_t i;
	int t, err = 0;

	*out = *in;
	bound_capture(&out->base, &err);
	bound_capture(&out->fin, &err);
	out->agg = agg = dup_arr(in->agg, in->nagg, sizeof(*agg), &err);
	out->items = items = dup_arr(in->items, in->nitems, sizeof(*items), &err);
	out->over = over = dup_arr(in->over, in->nover, sizeof(*over), &err);
	out->pend = pend = dup_arr(in->pend, in->npend, sizeof(*pend), &err);
	out->freed = freed = dup_arr(in->freed, in->nfreed, sizeof(*freed), &err);
	out->objs = objs = dup_arr(in->objs, in->nobjs, sizeof(*objs), &err);
	out->pre_rel = pre = dup_arr(in->pre_rel, in->npre_rel, sizeof(*pre), &err);
	out->gone = gone = dup_arr(in->gone, in->ngone, sizeof(*gone), &err);
	if (err) {
		judge_input_free(out);
		return err;
	}
	for (i = 0; i < in->nagg; i++) {
		agg[i].v.count = bound_u(agg[i].v.count);
		agg[i].v.total = judge_bound(agg[i].v.total);
		agg[i].v.extreme = judge_bound(agg[i].v.extreme);
	}
	for (i = 0; i < in->nitems; i++)
		items[i].k.f.amount = judge_bound(items[i].k.f.amount);
	for (i = 0; i < in->nover; i++) {
		over[i].v.count = bound_u(over[i].v.count);
		over[i].v.total = judge_bound(over[i].v.total);
		over[i].v.value = judge_bound(over[i].v.value);
		over[i].v.limit = judge_bound(over[i].v.limit);
	}
	for (i = 0; i < in->npend; i++) {
		pend[i].v.amount = judge_bound(pend[i].v.amount);
		pend[i].v.value = judge_bound(pend[i].v.value);
		pend[i].v.limit = judge_bound(pend[i].v.limit);
	}
	for (i = 0; i < in->nfreed; i++) {
		freed[i].v.count = bound_u(freed[i].v.count);
		/* levels are 0 .. UCT_MAX_LEVELS - 1, and the judge names
		 * the parent's as level - 1 */
		if (freed[i].v.level >= UCT_MAX_LEVELS)
			freed[i].v.level = UCT_MAX_LEVELS - 1;
		if (freed[i].v.nanc > UCK_MAX_ANC)
			freed[i].v.nanc = UCK_MAX_ANC;
		for (t = 0; t < UCT_NTYPES; t++)
			freed[i].v.value[t] = judge_bound(freed[i].v.value[t]);
	}
	for (i = 0; i < in->nobjs; i++)
		objs[i].v.amount = judge_bound(objs[i].v.amount);
	for (i = 0; i < in->npre_rel; i++) {
		pre[i].v.count = bound_u(pre[i].v.count);
		pre[i].v.total = judge_bound(pre[i].v.total);
	}
	for (i = 0; i < in->ngone; i++) {
		gone[i].v.count = bound_u(gone[i].v.count);
		gone[i].v.total = judge_bound(gone[i].v.total);
	}
	return 0;
}

void judge_input_free_maps(struct judge_input *in)
{
	free((void *)in->agg);
	free((void *)in->items);
	free((void *)in->over);
	free((void *)in->pend);
	free((void *)in->freed);
	free((void *)in->objs);
	free((void *)in->pre_rel);
	free((void *)in->gone);
	in->agg = NULL;
	in->items = NULL;
	in->over = NULL;
	in->pend = NULL;
	in->freed = NULL;
	in->objs = NULL;
	in->pre_rel = NULL;
	in->gone = NULL;
	in->nagg = in->nitems = in->nover = in->npend = 0;
	in->nfreed = in->nobjs = in->npre_rel = in->ngone = 0;
}

void judge_input_free(struct judge_input *in)
{
	judge_capture_free(&in->base);
	judge_capture_free(&in->fin);
	judge_input_free_maps(in);
	memset(in, 0, sizeof(*in));
}
