/* SPDX-License-Identifier: GPL-2.0 */
/*
 * judge_scenario.h - synthetic inputs for check's judge: a struct
 * judge_input over fixed arrays, and builders for its rows, inventory
 * and events. The unit tests (test_judge.c) judge them; the seed
 * writer (fuzz_seeds.c) writes them in fuzz_check's input format.
 *
 * The standard tree (inums small for readability):
 *
 *   ns 1 L0 (init)     uid 0, uid 1000
 *     ns 100 L1        created by (1, 1000): uid 1000
 *
 * A charge to (100, 1000) also charges (1, 1000).
 */
#ifndef UCT_TEST_JUDGE_SCENARIO_H
#define UCT_TEST_JUDGE_SCENARIO_H

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include "judge.h"

/* A scenario under construction: fixed-size arrays, plenty for both. */
struct judge_scenario {
	struct judge_input in;		/* points into the arrays below */
	struct uck_rec base[8], fin[8];
	struct judge_inv_kv inv_b[16], inv_f[16];
	struct judge_tally_kv tb[8], tf[8];
	struct judge_agg_kv agg[16];
	struct judge_item_kv items[16];
	struct judge_over_kv over[8];
	struct judge_pend_kv pend[4];
	struct judge_free_kv freed[4];
	struct judge_obj_kv objs[8];
	struct judge_rt_kv pre[8], gone[8];
	struct judge_result r;		/* what the judge made of it */
	/*
	 * What the builders fill in that no verdict looks at (the comms
	 * show in the reports): the unit tests' choice by default; the
	 * seeds, committed, keep their own (see fuzz_seeds.c).
	 */
	unsigned int id_shift;		/* a row's address: ... | ns << id_shift | uid */
	__u32 refcount;			/* every row's */
	const char *agg_comm, *item_comm;	/* the task of every aggregate,
						 * every open charge */
};

/* Empty again, complete snapshots, every hook; the names above kept. */
static inline void judge_scenario_clear(struct judge_scenario *s)
{
	unsigned int id_shift = s->id_shift;
	__u32 refcount = s->refcount;
	const char *agg_comm = s->agg_comm, *item_comm = s->item_comm;

	memset(s, 0, sizeof(*s));
	s->id_shift = id_shift;
	s->refcount = refcount;
	s->agg_comm = agg_comm;
	s->item_comm = item_comm;
	s->in.base.recs = s->base;
	s->in.fin.recs = s->fin;
	s->in.base.inv = s->inv_b;
	s->in.fin.inv = s->inv_f;
	s->in.base.tally = s->tb;
	s->in.fin.tally = s->tf;
	s->in.agg = s->agg;
	s->in.items = s->items;
	s->in.over = s->over;
	s->in.pend = s->pend;
	s->in.freed = s->freed;
	s->in.objs = s->objs;
	s->in.pre_rel = s->pre;
	s->in.gone = s->gone;
	s->in.complete = true;
	s->in.have_free_tp = true;
	s->in.have_overlimit = true;
	s->in.have_mq_hooks = true;
	s->in.have_shm_hooks = true;
}

static inline struct judge_scenario *judge_scenario_new(void)
{
	struct judge_scenario *s = calloc(1, sizeof(*s));

	if (!s)
		abort();
	s->id_shift = 20;
	s->agg_comm = "test";
	s->item_comm = "leaker";
	judge_scenario_clear(s);
	return s;
}

/* A row in capture c of s; values and tally for one type (others 0). */
static inline struct uck_rec *rec(struct judge_scenario *s, struct judge_capture *c, __u32 ns,
				  __u32 level, __u32 uid, __u32 pns, __u32 puid, int type,
				  long long value, long long tally)
{
	struct uck_rec *r = &c->recs[c->nrecs++];

	memset(r, 0, sizeof(*r));
	r->r.id = 0xffff888000000000ULL | ((__u64)ns << s->id_shift | uid);
	r->r.ns_inum = ns;
	r->r.level = level;
	r->r.uid = uid;
	r->r.parent_ns_inum = pns;
	r->r.parent_uid = puid;
	r->r.owner_uid = 1000;
	r->r.refcount = s->refcount;
	r->r.flags = UCT_REC_ITER | (pns ? 0 : UCT_REC_ROOT);
	r->r.value[type] = value;
	r->tally[type] = tally;
	return r;
}

/* The standard tree with NPROC values (baseline, final) and final tallies. */
static inline void tree(struct judge_scenario *s, long long b0, long long b1000,
			long long b100_1000, long long f0, long long f1000, long long f100_1000,
			long long t0, long long t1000, long long t100_1000)
{
	rec(s, &s->in.base, 1, 0, 0, 0, 0, UCT_NPROC, b0, 0);
	rec(s, &s->in.base, 1, 0, 1000, 0, 0, UCT_NPROC, b1000, 0);
	rec(s, &s->in.base, 100, 1, 1000, 1, 1000, UCT_NPROC, b100_1000, 0);
	rec(s, &s->in.fin, 1, 0, 0, 0, 0, UCT_NPROC, f0, t0);
	rec(s, &s->in.fin, 1, 0, 1000, 0, 0, UCT_NPROC, f1000, t1000);
	rec(s, &s->in.fin, 100, 1, 1000, 1, 1000, UCT_NPROC, f100_1000, t100_1000);
}

static inline void inv(struct judge_capture *c, __u32 ns, __u32 uid, __u32 kind, __u64 n)
{
	struct judge_inv_kv *v = &c->inv[c->ninv++];

	memset(v, 0, sizeof(*v));
	v->k.ns_inum = ns;
	v->k.uid = uid;
	v->k.kind = kind;
	v->n = n;
}

/* The task counts of (ns, uid) in both captures. */
static inline void tasks(struct judge_scenario *s, __u32 ns, __u32 uid, __u64 before,
			 __u64 after)
{
	inv(&s->in.base, ns, uid, UCK_INV_TASK, before);
	inv(&s->in.fin, ns, uid, UCK_INV_TASK, after);
}

static inline void agg(struct judge_scenario *s, __u32 ns, __u32 uid, int type, __u32 kind,
		       __s32 sid, __u64 count, long long total, long long extreme)
{
	struct judge_agg_kv *a = &s->agg[s->in.nagg++];

	memset(a, 0, sizeof(*a));
	a->k.ns_inum = ns;
	a->k.uid = uid;
	a->k.type = type;
	a->k.kind = kind;
	a->k.stack_id = sid;
	a->v.count = count;
	a->v.total = total;
	a->v.extreme = extreme;
	a->v.pid = 42;
	strncpy(a->v.comm, s->agg_comm, sizeof(a->v.comm) - 1);
}

/* An open charge. */
static inline void item(struct judge_scenario *s, __u32 ns, __u32 uid, int type,
			long long amount, __u64 idx, __s32 sid)
{
	struct judge_item_kv *it = &s->items[s->in.nitems++];

	memset(it, 0, sizeof(*it));
	it->k.f.ns_inum = ns;
	it->k.f.uid = uid;
	it->k.f.type = type;
	it->k.f.amount = amount;
	it->k.idx = idx;
	it->v.stack_id = sid;
	it->v.pid = 7;
	strncpy(it->v.comm, s->item_comm, sizeof(it->v.comm) - 1);
}

/* A charge over the limit at (ns, uid) itself, seen once. */
static inline struct judge_over_kv *over(struct judge_scenario *s, __u32 ns, __u32 uid,
					 int type, __u32 flags, __s32 sid, long long value,
					 long long limit)
{
	struct judge_over_kv *o = &s->over[s->in.nover++];

	memset(o, 0, sizeof(*o));
	o->k.ns_inum = ns;
	o->k.uid = uid;
	o->k.type = type;
	o->k.flags = flags;
	o->k.stack_id = sid;
	o->v.count = 1;
	o->v.total = 1;
	o->v.value = value;
	o->v.limit = limit;
	o->v.at_ns = ns;
	o->v.at_uid = uid;
	o->v.at_level = 0;
	o->v.stack2 = -1;
	return o;
}

#endif /* UCT_TEST_JUDGE_SCENARIO_H */
