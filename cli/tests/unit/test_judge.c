// SPDX-License-Identifier: GPL-2.0
/*
 * test_check_model.c - `ucounttop check`'s verdicts against synthetic
 * baselines, finals and event aggregates; its reports; its options.
 *
 * Tree (inums small for readability):
 *
 *   ns 1 L0 (init)     uid 0, uid 1000
 *     ns 100 L1        created by (1, 1000): uid 1000, uid 1001
 *
 * A charge to (100, x) also charges (1, 1000).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "judge.h"
#include "judge_scenario.h"
#include "check_report.h"
#include "check_cmd.h"
#include <sys/wait.h>
#include "opts.h"

#define NP UCT_NPROC
#define MQ UCT_MSGQUEUE
#define SP UCT_SIGPENDING
#define ML UCT_MEMLOCK

static void sc_free(struct judge_scenario *s)
{
	judge_result_free(&s->r);
	free(s);
}

static void judge(struct judge_scenario *s)
{
	assert_int_equal(judge_run(&s->in, &s->r), 0);
}

static const struct judge_finding *find(const struct judge_result *r, enum judge_class c,
					__u32 ns, __u32 uid, int type)
{
	size_t i;

	for (i = 0; i < r->n; i++)
		if (r->f[i].cls == c && r->f[i].ns_inum == ns && r->f[i].uid == uid &&
		    r->f[i].type == type)
			return &r->f[i];
	return NULL;
}

static bool has_stack(const struct judge_finding *f, __u32 kind, __s32 sid)
{
	size_t i;

	for (i = 0; i < f->nstacks; i++)
		if (f->stacks[i].kind == kind && f->stacks[i].stack_id == sid)
			return true;
	return false;
}

/* ---- verdicts ------------------------------------------------------------------ */

static void test_clean(void **state)
{
	struct judge_scenario *s = judge_scenario_new();
	int c;

	tree(s, 30, 3, 2, 30, 3, 2, 0, 0, 0);
	tasks(s, 1, 0, 29, 29);
	tasks(s, 1, 1000, 1, 1);
	tasks(s, 100, 1000, 2, 2);
	judge(s);
	assert_int_equal(s->r.n, 0);
	assert_int_equal(s->r.nfail, 0);
	for (c = 0; c < JUDGE_NCLASSES; c++)
		assert_true(s->r.checked[c]);
	assert_true(judge_result_settled(&s->r));
	sc_free(s);
}

/*
 * Namespace inodes are reused: the baseline links (2, 1) below (3, 1),
 * the final capture (3, 1) below (2, 1). The judge must end, cut the
 * circle and say so; counters near the ends of the range must not
 * overflow its sums.
 */
static void test_parent_circle_and_huge_counters(void **state)
{
	struct judge_scenario *s = judge_scenario_new();

	rec(s, &s->in.base, 2, 1, 1, 3, 1, NP, 0x7fffffffffffff00LL, 0);
	rec(s, &s->in.fin, 3, 1, 1, 2, 1, NP, -0x7fffffffffffff00LL, 0);
	rec(s, &s->in.fin, 2, 1, 1, 3, 1, NP, 0x7fffffffffffff00LL, 0x7fffffffffffff00LL);
	judge(s);
	assert_non_null(strstr(s->r.notes, "formed a circle"));
	sc_free(s);
}

/* A failing lost uncharge stands only when the capture before had it
 * too; one seen once is kept, not failing, and says why. */
static void test_confirm_needs_two_captures(void **state)
{
	struct judge_finding f = { .cls = JUDGE_LOST_UNCHARGE, .failing = true, .ns_inum = 1,
				   .uid = 0, .type = NP, .amount = 1 };
	struct judge_result r = { 0 }, prev = { 0 };

	r.f = calloc(1, sizeof(f));
	r.f[0] = f;
	r.n = r.cap = 1;
	r.nfail = 1;
	prev.f = calloc(1, sizeof(f));
	prev.f[0] = f;
	prev.n = prev.cap = 1;
	prev.nfail = 1;
	judge_result_confirm(&r, &prev);
	assert_int_equal(r.nfail, 1);
	assert_true(r.f[0].failing);
	prev.f[0].amount = 2;	/* another amount: not the same finding */
	judge_result_confirm(&r, &prev);
	assert_int_equal(r.nfail, 0);
	assert_false(r.f[0].failing);
	assert_non_null(strstr(r.f[0].how, "the capture before did not show it"));
	judge_result_free(&r);
	judge_result_free(&prev);
}

/* Balanced churn (fork + exit) with tasks matching: still clean. */
static void test_clean_churn(void **state)
{
	struct judge_scenario *s = judge_scenario_new();

	tree(s, 30, 3, 2, 30, 4, 3, 0, 1, 1);
	tasks(s, 1, 0, 29, 29);
	tasks(s, 1, 1000, 1, 1);
	tasks(s, 100, 1000, 2, 3);
	agg(s, 100, 1000, NP, UCK_K_CHARGE, 3, 5, 5, 0);
	agg(s, 100, 1000, NP, UCK_K_UNCHARGE, 4, 4, 4, 0);
	judge(s);
	/* the new task is outstanding, not an error */
	assert_int_equal(s->r.nfail, 0);
	assert_non_null(find(&s->r, JUDGE_OUTSTANDING, 100, 1000, NP));
	assert_null(find(&s->r, JUDGE_LOST_UNCHARGE, 100, 1000, NP));
	sc_free(s);
}

/* A charge never uncharged at (100, 1000): reported there only, with the
 * open charge's stack, not at (1, 1000) which it also reached. */
static void test_lost_uncharge(void **state)
{
	struct judge_scenario *s = judge_scenario_new();
	const struct judge_finding *f;

	tree(s, 30, 3, 2, 30, 6, 5, 0, 3, 3);
	tasks(s, 1, 0, 29, 29);
	tasks(s, 1, 1000, 1, 1);
	tasks(s, 100, 1000, 2, 2);
	item(s, 100, 1000, NP, 3, 0, 11);
	agg(s, 100, 1000, NP, UCK_K_CHARGE, 11, 1, 3, 0);
	judge(s);
	assert_int_equal(s->r.nfail, 1);
	f = find(&s->r, JUDGE_LOST_UNCHARGE, 100, 1000, NP);
	assert_non_null(f);
	assert_int_equal(f->amount, 3);
	assert_int_equal(f->level, 1);
	assert_int_equal(f->baseline, 2);
	assert_int_equal(f->final, 5);
	assert_true(f->failing);
	assert_true(has_stack(f, JUDGE_STACK_OPEN, 11));
	assert_non_null(strstr(f->how, "never uncharged"));
	assert_null(find(&s->r, JUDGE_LOST_UNCHARGE, 1, 1000, NP));
	assert_int_equal(s->r.counts[JUDGE_LOST_UNCHARGE], 1);
	assert_false(judge_result_settled(&s->r));
	sc_free(s);
}

/* The same counters, explained by 3 new live tasks: outstanding. */
static void test_outstanding_tasks(void **state)
{
	struct judge_scenario *s = judge_scenario_new();
	const struct judge_finding *f;

	tree(s, 30, 3, 2, 30, 6, 5, 0, 3, 3);
	tasks(s, 1, 0, 29, 29);
	tasks(s, 1, 1000, 1, 1);
	tasks(s, 100, 1000, 2, 5);
	judge(s);
	assert_int_equal(s->r.nfail, 0);
	f = find(&s->r, JUDGE_OUTSTANDING, 100, 1000, NP);
	assert_non_null(f);
	assert_int_equal(f->amount, 3);
	assert_false(f->failing);
	assert_true(judge_result_settled(&s->r));
	judge_result_free(&s->r);

	s->in.fail_outstanding = true;
	judge(s);
	assert_int_equal(s->r.nfail, 1);
	assert_true(find(&s->r, JUDGE_OUTSTANDING, 100, 1000, NP)->failing);
	sc_free(s);
}

/* Kernel threads started meanwhile explain a charge, but are not the
 * workload's: not outstanding either. */
static void test_kthreads_not_outstanding(void **state)
{
	struct judge_scenario *s = judge_scenario_new();

	tree(s, 30, 3, 2, 32, 3, 2, 2, 0, 0);
	tasks(s, 1, 0, 20, 20);
	inv(&s->in.base, 1, 0, UCK_INV_KTHREAD, 9);
	inv(&s->in.fin, 1, 0, UCK_INV_KTHREAD, 11);
	tasks(s, 1, 1000, 1, 1);
	tasks(s, 100, 1000, 2, 2);
	judge(s);
	assert_int_equal(s->r.n, 0);
	sc_free(s);
}

/* Two uncharged that nothing released: double uncharge, with the
 * uncharge that had no open charge. */
static void test_double_uncharge(void **state)
{
	struct judge_scenario *s = judge_scenario_new();
	const struct judge_finding *f;

	tree(s, 30, 3, 2, 30, 1, 0, 0, -2, -2);
	tasks(s, 1, 0, 29, 29);
	tasks(s, 1, 1000, 1, 1);
	tasks(s, 100, 1000, 2, 2);
	agg(s, 100, 1000, NP, UCK_K_UNCHARGE, 12, 1, 2, 0);
	agg(s, 100, 1000, NP, UCK_K_UNMATCHED, 12, 1, 2, 0);
	judge(s);
	assert_int_equal(s->r.nfail, 1);
	f = find(&s->r, JUDGE_DOUBLE_UNCHARGE, 100, 1000, NP);
	assert_non_null(f);
	assert_int_equal(f->amount, 2);
	assert_true(has_stack(f, JUDGE_STACK_UNMATCHED, 12));
	assert_null(find(&s->r, JUDGE_DOUBLE_UNCHARGE, 1, 1000, NP));
	sc_free(s);
}

/* The same drop, explained by two tasks from before the baseline exiting:
 * their uncharges had no charge since attach, and that is fine. */
static void test_preexisting_release(void **state)
{
	struct judge_scenario *s = judge_scenario_new();

	tree(s, 30, 3, 2, 30, 1, 0, 0, -2, -2);
	tasks(s, 1, 0, 29, 29);
	tasks(s, 1, 1000, 1, 1);
	tasks(s, 100, 1000, 2, 0);
	agg(s, 100, 1000, NP, UCK_K_UNMATCHED, 12, 2, 2, 0);
	judge(s);
	assert_int_equal(s->r.n, 0);
	sc_free(s);
}

/* A counter that went below zero is a double uncharge even if it ends
 * where it began. */
static void test_negative(void **state)
{
	struct judge_scenario *s = judge_scenario_new();
	const struct judge_finding *f;

	tree(s, 30, 3, 2, 30, 3, 2, 0, 0, 0);
	tasks(s, 1, 0, 29, 29);
	tasks(s, 1, 1000, 1, 1);
	tasks(s, 100, 1000, 2, 2);
	agg(s, 100, 1000, NP, UCK_K_NEGATIVE, 13, 1, 1, -1);
	judge(s);
	f = find(&s->r, JUDGE_DOUBLE_UNCHARGE, 100, 1000, NP);
	assert_non_null(f);
	assert_int_equal(f->amount, 1);
	assert_true(has_stack(f, JUDGE_STACK_NEGATIVE, 13));
	assert_non_null(strstr(f->how, "below zero"));
	sc_free(s);
}

/* (100, 1001) charged 2 and freed: class c there, and the 2 its parent
 * keeps are not a lost uncharge of the parent. */
static void test_freed_while_charged(void **state)
{
	struct judge_scenario *s = judge_scenario_new();
	const struct judge_finding *f;
	struct judge_free_kv *fr = &s->freed[s->in.nfreed++];
	struct judge_tally_kv *t = &s->tf[s->in.fin.ntally++];

	tree(s, 30, 3, 2, 30, 5, 2, 0, 2, 0);
	tasks(s, 1, 0, 29, 29);
	tasks(s, 1, 1000, 1, 1);
	tasks(s, 100, 1000, 2, 2);
	memset(fr, 0, sizeof(*fr));
	fr->k.ns_inum = 100;
	fr->k.uid = 1001;
	fr->k.stack_id = 21;
	fr->v.count = 1;
	fr->v.value[NP] = 2;
	fr->v.level = 1;
	fr->v.nanc = 1;
	fr->v.anc[0].ns_inum = 1;
	fr->v.anc[0].uid = 1000;
	memset(t, 0, sizeof(*t));
	t->k.ns_inum = 100;
	t->k.uid = 1001;
	t->v.net[NP] = 2;
	t->v.level = 1;
	t->v.parent.ns_inum = 1;
	t->v.parent.uid = 1000;
	item(s, 100, 1001, NP, 2, 0, 22);
	judge(s);
	assert_int_equal(s->r.nfail, 1);
	f = find(&s->r, JUDGE_FREED_CHARGED, 100, 1001, NP);
	assert_non_null(f);
	assert_int_equal(f->amount, 2);
	assert_int_equal(f->level, 1);
	assert_true(has_stack(f, JUDGE_STACK_FREE, 21));
	assert_true(has_stack(f, JUDGE_STACK_OPEN, 22));
	assert_null(find(&s->r, JUDGE_LOST_UNCHARGE, 1, 1000, NP));
	assert_null(find(&s->r, JUDGE_LOST_UNCHARGE, 100, 1001, NP));
	sc_free(s);
}

static void test_freed_skipped_without_tracepoint(void **state)
{
	struct judge_scenario *s = judge_scenario_new();

	s->in.have_free_tp = false;
	tree(s, 30, 3, 2, 30, 3, 2, 0, 0, 0);
	judge(s);
	assert_false(s->r.checked[JUDGE_FREED_CHARGED]);
	assert_true(s->r.skipped[JUDGE_FREED_CHARGED][0]);
	assert_non_null(strstr(s->r.skipped[JUDGE_FREED_CHARGED], "ucounts_free"));
	assert_true(s->r.checked[JUDGE_LOST_UNCHARGE]);
	sc_free(s);
}

/* +3 written at (100, 1000) with no charge, not reaching (1, 1000). */
static void test_hierarchy_skiplevel(void **state)
{
	struct judge_scenario *s = judge_scenario_new();
	const struct judge_finding *f;

	tree(s, 30, 3, 2, 30, 3, 5, 0, 0, 0);
	tasks(s, 1, 0, 29, 29);
	tasks(s, 1, 1000, 1, 1);
	tasks(s, 100, 1000, 2, 2);
	judge(s);
	assert_int_equal(s->r.nfail, 1);
	f = find(&s->r, JUDGE_HIERARCHY_MISMATCH, 100, 1000, NP);
	assert_non_null(f);
	assert_int_equal(f->amount, 3);
	assert_int_equal(f->at_ns, 1);
	assert_int_equal(f->at_uid, 1000);
	assert_int_equal(f->at_level, 0);
	assert_null(find(&s->r, JUDGE_LOST_UNCHARGE, 100, 1000, NP));
	sc_free(s);
}

/* A direct write that did reach every level is no hierarchy mismatch;
 * with no object behind it, it is a lost uncharge of the leaf. */
static void test_untracked_propagated(void **state)
{
	struct judge_scenario *s = judge_scenario_new();

	tree(s, 30, 3, 2, 30, 5, 4, 0, 0, 0);
	tasks(s, 1, 0, 29, 29);
	tasks(s, 1, 1000, 1, 1);
	tasks(s, 100, 1000, 2, 2);
	judge(s);
	assert_int_equal(s->r.counts[JUDGE_HIERARCHY_MISMATCH], 0);
	assert_non_null(find(&s->r, JUDGE_LOST_UNCHARGE, 100, 1000, NP));
	assert_int_equal(find(&s->r, JUDGE_LOST_UNCHARGE, 100, 1000, NP)->amount, 2);
	sc_free(s);
}

/* A level that drops below the sum of its children's counters: 2 taken
 * from (1, 1000) without an uncharge, which had 1 of its own and 2 of
 * (100, 1000)'s. 1 of them is the shortfall below the children (d), the
 * other 1 its own process's charge, gone with nothing released (b). */
static void test_hierarchy_below_children(void **state)
{
	struct judge_scenario *s = judge_scenario_new();
	const struct judge_finding *f;

	tree(s, 30, 3, 2, 30, 1, 2, 0, 0, 0);
	tasks(s, 1, 0, 29, 29);
	tasks(s, 1, 1000, 1, 1);
	tasks(s, 100, 1000, 2, 2);
	judge(s);
	f = find(&s->r, JUDGE_HIERARCHY_MISMATCH, 1, 1000, NP);
	assert_non_null(f);
	assert_int_equal(f->amount, 1);
	assert_int_equal(f->limit, 2);
	assert_int_equal(find(&s->r, JUDGE_DOUBLE_UNCHARGE, 1, 1000, NP)->amount, 1);
	assert_int_equal(s->r.nfail, 2);
	sc_free(s);
}

/* Shortfalls present at the baseline are not the workload's. */
static void test_hierarchy_preexisting(void **state)
{
	struct judge_scenario *s = judge_scenario_new();

	tree(s, 30, 1, 2, 30, 1, 2, 0, 0, 0);
	judge(s);
	assert_int_equal(s->r.counts[JUDGE_HIERARCHY_MISMATCH], 0);
	sc_free(s);
}

static void test_admitted_said_within(void **state)
{
	struct judge_scenario *s = judge_scenario_new();
	const struct judge_finding *f;
	struct judge_over_kv *o;

	tree(s, 30, 3, 2, 30, 3, 2, 0, 0, 0);
	o = over(s, 1, 1000, NP, UCK_E_CHECKED | UCK_E_SAID_WITHIN, 31, 3, 1);
	o->v.stack2 = 32;
	judge(s);
	assert_int_equal(s->r.nfail, 1);
	f = find(&s->r, JUDGE_ADMITTED_OVER_LIMIT, 1, 1000, NP);
	assert_non_null(f);
	assert_int_equal(f->amount, 2);
	assert_int_equal(f->value, 3);
	assert_int_equal(f->limit, 1);
	assert_true(has_stack(f, JUDGE_STACK_CHECK, 31));
	assert_true(has_stack(f, JUDGE_STACK_OVER, 32));
	/* event-based: settling cannot make it go away */
	assert_true(judge_result_settled(&s->r));
	sc_free(s);
}

/* What the kernel did about over-limit charges decides class e. */
static void test_admitted_flags(void **state)
{
	struct judge_scenario *s = judge_scenario_new();
	struct judge_pend_kv *p = &s->pend[s->in.npend++];

	tree(s, 30, 3, 2, 30, 3, 2, 0, 0, 0);
	/* refused and rolled back by the charging task: fine */
	over(s, 100, 1000, MQ, UCK_E_CALLER_CMP | UCK_E_ROLLED_BACK, 1, 9000, 8000);
	/* a privileged fork over RLIMIT_NPROC: allowed */
	over(s, 1, 0, NP, UCK_E_CHECKED | UCK_E_CHECK_OVER | UCK_E_EXEMPT, 2, 40, 1);
	/* set*uid over RLIMIT_NPROC: not enforced there, by design */
	over(s, 1, 1000, NP, UCK_E_KERNEL_OVER, 3, 4, 3);
	/* a fork refused by the check whose charge stayed */
	over(s, 100, 1001, NP, UCK_E_CHECKED | UCK_E_CHECK_OVER, 4, 5, 4);
	/* a memlock charge over the caller's rlimit, still there at the end */
	memset(p, 0, sizeof(*p));
	p->v.ns_inum = 100;
	p->v.uid = 1000;
	p->v.type = ML;
	p->v.flags = UCK_E_CALLER_CMP;
	p->v.amount = 4;
	p->v.value = 20;
	p->v.limit = 16;
	p->v.stack_id = 5;
	judge(s);
	assert_int_equal(s->r.refused_rolled_back, 1);
	assert_int_equal(s->r.privileged_over, 1);
	assert_int_equal(s->r.deferred_nproc, 1);
	assert_int_equal(s->r.counts[JUDGE_ADMITTED_OVER_LIMIT], 2);
	assert_non_null(find(&s->r, JUDGE_ADMITTED_OVER_LIMIT, 100, 1001, NP));
	assert_int_equal(find(&s->r, JUDGE_ADMITTED_OVER_LIMIT, 100, 1000, ML)->amount, 4);
	assert_non_null(strstr(find(&s->r, JUDGE_ADMITTED_OVER_LIMIT, 100, 1000, ML)->how,
			       "workload ended"));
	sc_free(s);
}

/* A message queue left behind is outstanding; one from before the
 * baseline removed by the workload is no double uncharge. */
static void test_mqueue_evidence(void **state)
{
	struct judge_scenario *s = judge_scenario_new();
	struct judge_obj_kv *o = &s->objs[s->in.nobjs++];
	struct judge_rt_kv *p = &s->pre[s->in.npre_rel++];
	const struct judge_finding *f;

	rec(s, &s->in.base, 1, 0, 0, 0, 0, MQ, 5000, 0);
	rec(s, &s->in.fin, 1, 0, 0, 0, 0, MQ, 6408, 1408);
	memset(o, 0, sizeof(*o));
	o->id = 0xffff888000001000ULL;
	o->v.ns_inum = 1;
	o->v.uid = 0;
	o->v.type = MQ;
	o->v.kind = UCK_OBJ_MQUEUE;
	o->v.amount = 1408 + 1000;
	memset(p, 0, sizeof(*p));
	p->k.ns_inum = 1;
	p->k.uid = 0;
	p->k.type = MQ;
	p->v.count = 1;
	p->v.total = 1000;
	judge(s);
	assert_int_equal(s->r.nfail, 0);
	f = find(&s->r, JUDGE_OUTSTANDING, 1, 0, MQ);
	assert_non_null(f);
	assert_int_equal(f->amount, 2408);
	judge_result_free(&s->r);

	/* without the queue hooks, msgqueue a/b is not judged */
	s->in.have_mq_hooks = false;
	s->in.nobjs = 0;
	judge(s);
	assert_int_equal(s->r.nfail, 0);
	assert_non_null(strstr(s->r.notes, "msgqueue"));
	sc_free(s);
}

/* Signals: pending on live tasks explain SIGPENDING. */
static void test_sigpending_evidence(void **state)
{
	struct judge_scenario *s = judge_scenario_new();

	rec(s, &s->in.base, 1, 0, 1000, 0, 0, SP, 0, 0);
	rec(s, &s->in.fin, 1, 0, 1000, 0, 0, SP, 3, 3);
	inv(&s->in.fin, 1, 1000, UCK_INV_SIGQ, 2);
	inv(&s->in.fin, 1, 1000, UCK_INV_TIMER, 1);
	judge(s);
	assert_int_equal(s->r.nfail, 0);
	assert_int_equal(find(&s->r, JUDGE_OUTSTANDING, 1, 1000, SP)->amount, 3);
	sc_free(s);
}

/* Inventory lost to a full map: no a/b verdict on nproc, and a note. */
static void test_inventory_full(void **state)
{
	struct judge_scenario *s = judge_scenario_new();

	tree(s, 30, 3, 2, 30, 6, 5, 0, 3, 3);
	s->in.counters[UCK_CNT_INV_FULL] = 1;
	judge(s);
	assert_int_equal(s->r.counts[JUDGE_LOST_UNCHARGE], 0);
	assert_non_null(strstr(s->r.notes, "inventory incomplete"));
	sc_free(s);
}

/* Task-iterator snapshots: a row no task shows, known from its tally,
 * still gets the verdict, inferred from its events. */
static void test_incomplete_snapshot(void **state)
{
	struct judge_scenario *s = judge_scenario_new();
	struct judge_tally_kv *t = &s->tf[s->in.fin.ntally++];
	const struct judge_finding *f;

	s->in.complete = false;
	s->in.have_free_tp = false;
	rec(s, &s->in.base, 1, 0, 1000, 0, 0, NP, 3, 0);
	rec(s, &s->in.fin, 1, 0, 1000, 0, 0, NP, 6, 3);
	tasks(s, 1, 1000, 3, 3);
	memset(t, 0, sizeof(*t));
	t->k.ns_inum = 100;
	t->k.uid = 1000;
	t->v.net[NP] = 3;
	t->v.level = 1;
	t->v.parent.ns_inum = 1;
	t->v.parent.uid = 1000;
	judge(s);
	f = find(&s->r, JUDGE_LOST_UNCHARGE, 100, 1000, NP);
	assert_non_null(f);
	assert_int_equal(f->amount, 3);
	assert_true(f->inferred);
	assert_null(find(&s->r, JUDGE_LOST_UNCHARGE, 1, 1000, NP));
	assert_non_null(strstr(s->r.notes, "task iterator"));
	sc_free(s);
}

/*
 * Runs the kernel skipped (debug kernel, 71-stress-nproc): a fork the
 * check refused, whose uncharge - the roll-back - nobody saw. Without
 * misses that is class e; with any charge or limit-check event missing
 * it cannot be told from a missed uncharge, so e is not judged and says
 * why, while the classes that stand on counters and live objects are.
 */
static void test_missed_events_leave_e_unjudged(void **state)
{
	struct judge_scenario *s = judge_scenario_new();
	int m;

	tree(s, 30, 3, 2, 30, 3, 2, 0, 0, 0);
	tasks(s, 1, 0, 29, 29);
	tasks(s, 1, 1000, 1, 1);
	tasks(s, 100, 1000, 2, 2);
	over(s, 100, 1000, NP, UCK_E_CHECKED | UCK_E_CHECK_OVER | UCK_E_LEVEL, 4, 322, 320);
	over(s, 100, 1000, NP, UCK_E_CHECKED | UCK_E_CHECK_OVER | UCK_E_ROLLED_BACK, 4, 321,
	     320);
	judge(s);
	assert_int_equal(s->r.nfail, 1);
	assert_non_null(find(&s->r, JUDGE_ADMITTED_OVER_LIMIT, 100, 1000, NP));
	for (m = JUDGE_MISS_CHARGE; m <= JUDGE_MISS_LIMIT; m++) {
		judge_result_free(&s->r);
		memset(s->in.missed, 0, sizeof(s->in.missed));
		s->in.missed[m] = 3;
		judge(s);
		assert_int_equal(s->r.nfail, 0);
		assert_int_equal(s->r.counts[JUDGE_ADMITTED_OVER_LIMIT], 0);
		assert_false(s->r.checked[JUDGE_ADMITTED_OVER_LIMIT]);
		assert_non_null(strstr(s->r.skipped[JUDGE_ADMITTED_OVER_LIMIT], "recursion guard"));
		assert_non_null(strstr(s->r.skipped[JUDGE_ADMITTED_OVER_LIMIT],
				       m == JUDGE_MISS_CHARGE ?
				       "3 charge/uncharge and 0 limit-check" :
				       "0 charge/uncharge and 3 limit-check"));
		/* the summary still counts what it can */
		assert_int_equal(s->r.refused_rolled_back, 1);
		assert_int_equal(s->r.missed[m], 3);
		/* complete snapshots and frees: a, b and d1 stand on counters */
		assert_true(s->r.checked[JUDGE_LOST_UNCHARGE] &&
			    s->r.checked[JUDGE_DOUBLE_UNCHARGE] &&
			    s->r.checked[JUDGE_HIERARCHY_MISMATCH] &&
			    s->r.checked[JUDGE_FREED_CHARGED]);
		assert_true(judge_result_settled(&s->r));
	}
	sc_free(s);
}

/*
 * A charge nobody saw leaves the tally short: a counter change "no charge
 * made" (d2) proves nothing then. The +3 written at (100, 1000) that
 * never reached (1, 1000) is still wrong by the counters alone - a lost
 * charge at (100, 1000) to a and b, (1, 1000) below its children to d1 -
 * but no longer "changed with no charge reaching it". Rows a snapshot
 * could not show are inferred from the events: without complete
 * snapshots a and b go too, and only d1 is left.
 */
static void test_missed_charges_unjudge_the_tally(void **state)
{
	struct judge_scenario *s = judge_scenario_new();

	tree(s, 30, 3, 2, 30, 3, 5, 0, 0, 0);
	tasks(s, 1, 0, 29, 29);
	tasks(s, 1, 1000, 1, 1);
	tasks(s, 100, 1000, 2, 2);
	judge(s);
	assert_int_equal(find(&s->r, JUDGE_HIERARCHY_MISMATCH, 100, 1000, NP)->amount, 3);
	judge_result_free(&s->r);

	s->in.missed[JUDGE_MISS_CHARGE] = 2;
	judge(s);
	assert_null(find(&s->r, JUDGE_HIERARCHY_MISMATCH, 100, 1000, NP));
	assert_true(s->r.checked[JUDGE_HIERARCHY_MISMATCH]);
	assert_non_null(strstr(s->r.notes, "2 charge/uncharge events skipped by the kernel's "
				"recursion guard"));
	assert_non_null(strstr(s->r.notes, "direct write) not checked"));
	assert_int_equal(find(&s->r, JUDGE_LOST_UNCHARGE, 100, 1000, NP)->amount, 3);
	assert_int_equal(find(&s->r, JUDGE_HIERARCHY_MISMATCH, 1, 1000, NP)->amount, 2);
	judge_result_free(&s->r);

	s->in.complete = false;
	judge(s);
	assert_false(s->r.checked[JUDGE_LOST_UNCHARGE] || s->r.checked[JUDGE_DOUBLE_UNCHARGE]);
	assert_non_null(strstr(s->r.skipped[JUDGE_LOST_UNCHARGE], "inferred from the events"));
	assert_string_equal(s->r.skipped[JUDGE_DOUBLE_UNCHARGE], s->r.skipped[JUDGE_LOST_UNCHARGE]);
	assert_int_equal(s->r.n, 1);
	assert_int_equal(find(&s->r, JUDGE_HIERARCHY_MISMATCH, 1, 1000, NP)->amount, 2);
	sc_free(s);
}

/* A queue whose creation or end nobody saw: msgqueue's evidence is
 * incomplete, so neither a lost uncharge nor an outstanding charge of it
 * is claimed; a free seen charged still is class c. */
static void test_missed_object_events(void **state)
{
	struct judge_scenario *s = judge_scenario_new();
	struct judge_obj_kv *o = &s->objs[s->in.nobjs++];

	rec(s, &s->in.base, 1, 0, 0, 0, 0, MQ, 5000, 0);
	rec(s, &s->in.fin, 1, 0, 0, 0, 0, MQ, 7408, 2408);
	memset(o, 0, sizeof(*o));
	o->v.ns_inum = 1;
	o->v.type = MQ;
	o->v.kind = UCK_OBJ_MQUEUE;
	o->v.amount = 1408;
	s->in.fail_outstanding = true;
	judge(s);
	assert_non_null(find(&s->r, JUDGE_LOST_UNCHARGE, 1, 0, MQ));
	assert_non_null(find(&s->r, JUDGE_OUTSTANDING, 1, 0, MQ));
	judge_result_free(&s->r);

	s->in.missed[JUDGE_MISS_MQ] = 1;
	s->in.missed[JUDGE_MISS_FREE] = 1;
	judge(s);
	assert_int_equal(s->r.n, 0);
	assert_non_null(strstr(s->r.notes, "outstanding charges of msgqueue not checked"));
	assert_non_null(strstr(s->r.notes, "freed-while-charged may miss some"));
	assert_true(s->r.checked[JUDGE_FREED_CHARGED]);
	sc_free(s);
}

/* ---- reports ---------------------------------------------------------------------- */

static size_t fake_frames(void *ctx, __s32 id, const char **out, size_t max)
{
	static const char *const f[] = { "inc_rlimit_ucounts+0x5", "inject_write+0x1d1",
					 "vfs_write+0xa5" };

	if (id != 11 || max < 3)
		return 0;
	memcpy(out, f, sizeof(f));
	return 3;
}

static char *const default_argv[] = { "sh", "-c", "echo \"x\"", NULL };
static char *const *report_argv = default_argv;

static char *report(struct judge_scenario *s, bool json, size_t *len)
{
	char *buf = NULL;
	char *const *argv = report_argv;
	struct check_run_info ri = { .argv = argv, .pid = 51, .status = 0, .duration = 0.5,
				     .settle_waited = 1.0, .settle_limit = 3.0,
				     .snapshot = "iter/ucounts", .hooks = "fexit:inc_rlimit_ucounts",
				     .exit_code = 1 };
	FILE *f = open_memstream(&buf, len);

	ri.counters[UCK_CNT_EVENTS] = 9;
	ri.counters[UCK_CNT_STACK_ERR] = 2;
	ri.counters[UCK_CNT_RACED] = 5;	/* not a drop: a line of its own */
	if (json)
		check_report_json(f, &s->r, &ri, fake_frames, NULL);
	else
		check_report_text(f, &s->r, &ri, fake_frames, NULL);
	fclose(f);
	return buf;
}

static struct judge_scenario *lost_scenario(void)
{
	struct judge_scenario *s = judge_scenario_new();

	tree(s, 30, 3, 2, 30, 6, 5, 0, 3, 3);
	tasks(s, 1, 0, 29, 29);
	tasks(s, 1, 1000, 1, 1);
	tasks(s, 100, 1000, 2, 2);
	item(s, 100, 1000, NP, 3, 0, 11);
	assert_int_equal(judge_run(&s->in, &s->r), 0);
	return s;
}

/* Every line is a KTAP diagnostic, so it nests in kselftest output. */
static void test_report_text(void **state)
{
	struct judge_scenario *s = lost_scenario();
	size_t len;
	char *t = report(s, false, &len), *line;

	assert_non_null(strstr(t, "# ucounttop check: FAIL, 1 finding: 1 lost-uncharge\n"));
	assert_non_null(strstr(t, "# FAIL lost-uncharge: ns 100 level 1 uid 1000 nproc 3 processes\n"));
	assert_non_null(strstr(t, "#       inject_write+0x1d1\n"));
	assert_non_null(strstr(t, "# dropped: stack_errors=2\n"));
	assert_non_null(strstr(t, "# raced: 5 times another charge"));
	assert_non_null(strstr(t, "# exit 1\n"));
	for (line = t; *line; line = strchr(line, '\n') + 1)
		assert_true(line[0] == '#' && (line[1] == ' ' || line[1] == '\n'));
	free(t);
	sc_free(s);
}

/* A finding with more stacks than the text shows: the first
 * CHECK_REPORT_STACKS, then how many more; JSON lists them all. */
static void test_report_stacks_capped(void **state)
{
	struct judge_scenario *s = judge_scenario_new();
	size_t len, n = 0;
	char *t, *j, *p;
	int i;

	tree(s, 30, 3, 2, 30, 11, 10, 0, 8, 8);
	tasks(s, 1, 0, 29, 29);
	tasks(s, 1, 1000, 1, 1);
	tasks(s, 100, 1000, 2, 2);
	for (i = 0; i < 8; i++)
		item(s, 100, 1000, NP, 1, i, 11 + i);
	assert_int_equal(judge_run(&s->in, &s->r), 0);
	t = report(s, false, &len);
	assert_non_null(strstr(t, "# FAIL lost-uncharge: ns 100 level 1 uid 1000 nproc 8 processes\n"));
	for (p = t; (p = strstr(p, "#   charged and never uncharged:")); p++)
		n++;
	assert_int_equal(n, CHECK_REPORT_STACKS);
	assert_non_null(strstr(t, "#   ... 2 more stacks (--json lists them all)\n"));
	j = report(s, true, &len);
	for (n = 0, p = j; (p = strstr(p, "\"kind\":\"open\"")); p++)
		n++;
	assert_int_equal(n, 8);
	free(t);
	free(j);
	sc_free(s);
}

/* A newline in an argument or a comm (PR_SET_NAME) cannot break the
 * every-line-starts-with-# contract: control bytes are escaped. */
static void test_report_text_escapes(void **state)
{
	static char *const argv[] = { "sh", "-c", "echo a\necho b\t\x01", NULL };
	struct judge_scenario *s = lost_scenario();
	size_t len, i;
	char *t, *line;

	for (i = 0; i < s->r.n; i++)
		if (s->r.f[i].nstacks)
			memcpy(s->r.f[i].stacks[0].comm, "evil\n# ok", 10);
	report_argv = argv;
	t = report(s, false, &len);
	report_argv = default_argv;
	assert_non_null(strstr(t, "# command: sh -c echo a\\necho b\\t\\x01 (pid 51)"));
	assert_non_null(strstr(t, "(evil\\n# ok)\n"));
	for (line = t; *line; line = strchr(line, '\n') + 1)
		assert_true(line[0] == '#' && (line[1] == ' ' || line[1] == '\n'));
	free(t);
	sc_free(s);
}

static void test_report_json(void **state)
{
	struct judge_scenario *s = lost_scenario();
	size_t len;
	char *j = report(s, true, &len);

	assert_true(len > 0 && j[len - 1] == '\n');
	assert_ptr_equal(strchr(j, '\n'), j + len - 1);	/* one line */
	assert_non_null(strstr(j, "{\"schema\":\"ucounttop-check/1\",\"result\":\"fail\","
			       "\"exit_code\":1,"));
	assert_non_null(strstr(j, "\"argv\":[\"sh\",\"-c\",\"echo \\\"x\\\"\"],\"pid\":51,"
			       "\"exit_status\":0,"));
	assert_non_null(strstr(j, "{\"class\":\"lost_uncharge\",\"failing\":true,\"ns\":100,"
			       "\"level\":1,\"uid\":1000,\"type\":\"nproc\",\"amount\":3,"));
	assert_non_null(strstr(j, "\"kind\":\"open\",\"count\":1,\"total\":3,"));
	assert_non_null(strstr(j, "\"frames\":[\"inc_rlimit_ucounts+0x5\",\"inject_write+0x1d1\","));
	assert_non_null(strstr(j, "\"freed_while_charged\":{\"checked\":true,\"findings\":0}"));
	assert_non_null(strstr(j, "\"stack_errors\":2"));
	assert_non_null(strstr(j, ",\"recursion_misses\":0},\"missed\":{\"charges\":0,"));
	assert_non_null(strstr(j, "\"undecided\":[],\"notes\":["));
	free(j);
	sc_free(s);
}

/* A final capture that never held still: the classes that compare
 * counters with the tally are skipped, and each row and type that changed
 * is listed as undecided in both reports; the unchanged row is not. */
static void test_torn_lists_undecided(void **state)
{
	struct judge_scenario *s = lost_scenario();
	const char *both = "lost-uncharge, double-uncharge, hierarchy-mismatch not judged";
	size_t len, i;
	char *t, *j;

	judge_result_free(&s->r);
	s->in.fin.torn = true;
	judge(s);
	assert_null(find(&s->r, JUDGE_LOST_UNCHARGE, 100, 1000, NP));
	assert_non_null(strstr(s->r.skipped[JUDGE_LOST_UNCHARGE], "final capture never"));
	assert_int_equal(s->r.nu, 2);
	for (i = 0; i < s->r.nu; i++) {
		assert_int_equal(s->r.u[i].uid, 1000);
		assert_int_equal(s->r.u[i].type, NP);
		assert_int_equal(s->r.u[i].classes, 1u << JUDGE_LOST_UNCHARGE |
				 1u << JUDGE_DOUBLE_UNCHARGE | 1u << JUDGE_HIERARCHY_MISMATCH);
	}
	t = report(s, false, &len);
	assert_non_null(strstr(t, "# undecided: ns 100 level 1 uid 1000 nproc: "));
	assert_non_null(strstr(t, "# undecided: ns 1 level 0 uid 1000 nproc: "));
	assert_non_null(strstr(t, both));
	assert_null(strstr(t, "uid 0 nproc: lost"));
	j = report(s, true, &len);
	assert_non_null(strstr(j, "{\"ns\":100,\"level\":1,\"uid\":1000,\"type\":\"nproc\","
			       "\"classes\":[\"lost_uncharge\",\"double_uncharge\","
			       "\"hierarchy_mismatch\"]}"));
	free(t);
	free(j);
	sc_free(s);
}

/* Skipped runs: counted as dropped, by kind, and the classes they leave
 * unjudged say so in both reports. */
static void test_report_missed(void **state)
{
	struct judge_scenario *s = judge_scenario_new();
	size_t len;
	char *t, *j;

	tree(s, 30, 3, 2, 30, 3, 2, 0, 0, 0);
	s->in.missed[JUDGE_MISS_CHARGE] = 5;
	s->in.missed[JUDGE_MISS_SHM] = 2;
	judge(s);
	t = report(s, false, &len);
	assert_non_null(strstr(t, "# ucounttop check: clean, no imbalance\n"));
	assert_non_null(strstr(t, "# SKIP admitted-over-limit: 5 charge/uncharge and 0 "
			       "limit-check events were skipped by the kernel's recursion guard"));
	assert_non_null(strstr(t, "# missed: 7 runs of check's programs skipped by the kernel's "
			       "recursion guard (a program preempted or interrupted while another "
			       "task on its CPU entered it): charges and uncharges 5, SHM_LOCK "
			       "lifetimes 2\n"));
	assert_non_null(strstr(t, "# dropped: stack_errors=2, recursion_misses=7\n"));
	free(t);
	j = report(s, true, &len);
	assert_non_null(strstr(j, "\"admitted_over_limit\":{\"checked\":false,\"findings\":0,"
			       "\"reason\":\"5 charge/uncharge and 0 limit-check events"));
	assert_non_null(strstr(j, ",\"recursion_misses\":7},\"missed\":{\"charges\":5,"
			       "\"limit_checks\":0,\"frees\":0,\"mqueue\":0,\"shmlock\":2},"));
	free(j);
	sc_free(s);
}

/* --ktap: CMD's result (subtest 1, whose lines check relays), then a
 * test per class (a failing finding not ok, a class not judged a SKIP with
 * its reason), the text report as the subtest's diagnostics, its result */
static void test_report_ktap(void **state)
{
	struct judge_scenario *s = lost_scenario();
	struct judge_scenario *m = judge_scenario_new();
	char *const *argv = report_argv;
	struct check_cmd run = { .pid = 51, .status = 4 << 8 };
	struct check_run_info ri = { .argv = argv, .pid = 51, .status = 4 << 8, .run = &run,
				     .timeout = 30, .snapshot = "iter/ucounts", .hooks = "-" };
	char *buf = NULL;
	size_t len;
	FILE *f = open_memstream(&buf, &len);

	check_report_ktap_start(f);
	check_report_ktap(f, &s->r, &ri, fake_frames, NULL);
	fclose(f);
	assert_true(!strncmp(buf, "KTAP version 1\n1..2\nok 1 ", 24));
	assert_non_null(strstr(buf, " # SKIP\n    KTAP version 1\n    # Subtest: ucounttop-check\n"
				    "    1..5\n    not ok 1 lost-uncharge\n    ok 2 double-uncharge\n"));
	assert_non_null(strstr(buf, "\n    # ucounttop check: FAIL, 1 finding: 1 lost-uncharge\n"));
	assert_true(len > 26 && !strcmp(buf + len - 26, "\nnot ok 2 ucounttop-check\n"));
	free(buf);
	/* clean, a class skipped; CMD timed out */
	tree(m, 30, 3, 2, 30, 3, 2, 0, 0, 0);
	m->in.missed[JUDGE_MISS_CHARGE] = 5;
	judge(m);
	run.timed_out = true;
	run.status = 15;
	ri.status = 15;
	buf = NULL;
	f = open_memstream(&buf, &len);
	check_report_ktap(f, &m->r, &ri, fake_frames, NULL);
	fclose(f);
	assert_non_null(strstr(buf, " # TIMEOUT 30 seconds\n"));
	free(buf);
	/* CMD's own 124: a timeout too, as check's status says, its length
	 * unknown */
	run.timed_out = false;
	run.status = 124 << 8;
	ri.status = 124 << 8;
	buf = NULL;
	f = open_memstream(&buf, &len);
	check_report_ktap(f, &m->r, &ri, fake_frames, NULL);
	fclose(f);
	assert_true(!strncmp(buf, "not ok 1 sh # TIMEOUT\n", 22));
	assert_non_null(strstr(buf, "admitted-over-limit # SKIP 5 charge/uncharge and 0 limit-check"));
	assert_true(len > 22 && !strcmp(buf + len - 22, "\nok 2 ucounttop-check\n"));
	free(buf);
	sc_free(s);
	sc_free(m);
}

/* ---- options ---------------------------------------------------------------------- */

static char errbuf[2048];
static char *argv_keep[32];

static int parse(struct uct_opts *o, ...)
{
	FILE *out = fopen("/dev/null", "w");
	FILE *err = fmemopen(errbuf, sizeof(errbuf), "w");
	int argc = 1, rc;
	va_list ap;
	char *a;

	argv_keep[0] = "ucounttop";
	va_start(ap, o);
	while ((a = va_arg(ap, char *)) && argc < 31)
		argv_keep[argc++] = a;
	va_end(ap);
	argv_keep[argc] = NULL;
	memset(errbuf, 0, sizeof(errbuf));
	rc = uct_parse_opts(argc, argv_keep, o, out, err);
	fclose(out);
	fclose(err);
	return rc;
}

static void test_check_opts(void **state)
{
	struct uct_opts o;

	assert_int_equal(parse(&o, "check", "--", "sh", "-c", "exit 3", NULL), -1);
	assert_int_equal(o.cmd, UCT_CMD_CHECK);
	assert_string_equal(o.cmd_argv[0], "sh");
	assert_string_equal(o.cmd_argv[1], "-c");
	assert_string_equal(o.cmd_argv[2], "exit 3");
	assert_null(o.cmd_argv[3]);
	assert_true(o.settle == 3.0);
	assert_false(o.fail_outstanding);

	/* the command's own options are not check's, even without -- */
	assert_int_equal(parse(&o, "check", "--json", "ls", "-l", "-d", NULL), -1);
	assert_int_equal(o.output, UCT_OUT_JSON);
	assert_string_equal(o.cmd_argv[0], "ls");
	assert_string_equal(o.cmd_argv[2], "-d");

	assert_int_equal(parse(&o, "check", "--settle", "0.5", "--fail-outstanding", "-o",
			       "/tmp/r", "--", "true", NULL), -1);
	assert_true(o.settle == 0.5);
	assert_true(o.fail_outstanding);
	assert_string_equal(o.output_file, "/tmp/r");

	assert_int_equal(parse(&o, "check", NULL), UCT_EXIT_USAGE);
	assert_non_null(strstr(errbuf, "needs a command"));
	assert_int_equal(parse(&o, "check", "-b", "--", "true", NULL), UCT_EXIT_USAGE);
	assert_int_equal(parse(&o, "check", "--events", "--", "true", NULL), UCT_EXIT_USAGE);
	assert_int_equal(parse(&o, "check", "--settle", "x", "--", "true", NULL), UCT_EXIT_USAGE);
	assert_int_equal(parse(&o, "--settle", "1", NULL), UCT_EXIT_USAGE);
	assert_non_null(strstr(errbuf, "--settle applies to 'check' only"));
	assert_int_equal(parse(&o, "--fail-outstanding", NULL), UCT_EXIT_USAGE);
	/* --ktap: KTAP on standard output, nothing else */
	assert_int_equal(parse(&o, "check", "--ktap", "--", "true", NULL), -1);
	assert_int_equal(o.output, UCT_OUT_KTAP);
	assert_int_equal(parse(&o, "check", "--ktap", "--json", "--", "true", NULL), UCT_EXIT_USAGE);
	assert_non_null(strstr(errbuf, "--ktap writes KTAP to standard output"));
	assert_int_equal(parse(&o, "check", "--ktap", "-o", "f", "--", "true", NULL),
			 UCT_EXIT_USAGE);
	assert_non_null(strstr(errbuf, "not with -o FILE"));
	assert_int_equal(parse(&o, "--ktap", NULL), UCT_EXIT_USAGE);
	assert_non_null(strstr(errbuf, "--ktap applies to 'check' only"));
}

/*
 * The baseline's two captures must have seen one state. From a guest run
 * (4 vCPUs, a shell forking a child every few ms beside check): one
 * capture's task iterator missed a child still charged (counter 59, tally
 * 3, 54 tasks); the next, after that child's exit and uncharge, read 58,
 * 2 and 54. Counter minus tally is 56 in both, so they passed for one
 * state, the first became the baseline, and check reported a double
 * uncharge at the end. They differ; two captures of one state do not.
 */
static void test_same_state_compares_counters_and_tallies(void **state)
{
	struct judge_scenario *s = judge_scenario_new();

	(void)state;
	rec(s, &s->in.base, 1, 0, 0, 0, 0, NP, 59, 3);
	inv(&s->in.base, 1, 0, UCK_INV_TASK, 54);
	rec(s, &s->in.fin, 1, 0, 0, 0, 0, NP, 58, 2);
	inv(&s->in.fin, 1, 0, UCK_INV_TASK, 54);
	assert_false(judge_same_state(&s->in.base, &s->in.fin));
	/* the same counter and tally, another inventory: not one state */
	s->fin[0].r.value[NP] = 59;
	s->fin[0].tally[NP] = 3;
	s->inv_f[0].n = 55;
	assert_false(judge_same_state(&s->in.base, &s->in.fin));
	/* all three the same: one state, in any order of rows */
	s->inv_f[0].n = 54;
	rec(s, &s->in.base, 1, 0, 1000, 0, 0, NP, 2, 0);
	rec(s, &s->in.fin, 1, 0, 1000, 0, 0, NP, 2, 0);
	s->fin[2] = s->fin[0];
	s->fin[0] = s->fin[1];
	s->fin[1] = s->fin[2];
	assert_true(judge_same_state(&s->in.base, &s->in.fin));
	sc_free(s);
}

/* An input that owns its arrays (check's, read off the kernel): the event
 * maps' go on their own, between two reads, the captures' with the rest;
 * the sanitizers' leak check tells whether all of it went. */
static void test_input_free_owned(void **state)
{
	struct judge_input in = { 0 };

	in.base.recs = calloc(2, sizeof(*in.base.recs));
	in.base.nrecs = 2;
	in.fin.tally = calloc(1, sizeof(*in.fin.tally));
	in.fin.ntally = 1;
	in.agg = calloc(3, sizeof(*in.agg));
	in.nagg = 3;
	in.gone = calloc(1, sizeof(*in.gone));
	in.ngone = 1;
	in.counters[UCK_CNT_EVENTS] = 5;
	judge_input_free_maps(&in);
	assert_null(in.agg);
	assert_null(in.gone);
	assert_int_equal(in.nagg + in.ngone, 0);
	/* the captures and the counters stay */
	assert_non_null(in.base.recs);
	assert_int_equal(in.base.nrecs, 2);
	assert_int_equal(in.counters[UCK_CNT_EVENTS], 5);
	in.items = calloc(1, sizeof(*in.items));
	in.nitems = 1;
	judge_input_free(&in);
	assert_null(in.base.recs);
	assert_null(in.fin.tally);
	assert_null(in.items);
	assert_int_equal(in.base.nrecs + in.fin.ntally + in.nitems, 0);
	(void)state;
}

/* check's status as kselftest's runner reads a test's: a finding fails;
 * else 0 pass, 4 skip, 124 timeout (CMD's or check's own), other fail */
static void test_exit_codes(void **state)
{
	static const struct { int status; bool timed_out; int interrupted, want; } c[] = {
		{ 0, false, 0, UCT_EXIT_OK },
		{ 4 << 8, false, 0, UCT_EXIT_SKIP },
		{ 124 << 8, false, 0, UCT_EXIT_TIMEOUT },
		{ SIGTERM, true, 0, UCT_EXIT_TIMEOUT },		/* check's --timeout */
		{ SIGKILL, true, 0, UCT_EXIT_TIMEOUT },
		{ 1 << 8, false, 0, UCT_EXIT_CMD_FAILED },
		{ 3 << 8, false, 0, UCT_EXIT_CMD_FAILED },
		{ 125 << 8, false, 0, UCT_EXIT_CMD_FAILED },
		{ SIGSEGV, false, 0, UCT_EXIT_CMD_FAILED },
		{ 0, false, SIGINT, UCT_EXIT_CMD_FAILED },	/* Ctrl-C forwarded */
		{ 4 << 8, false, SIGTERM, UCT_EXIT_CMD_FAILED },
	};
	size_t i;

	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		struct check_cmd r = { .pid = 42, .status = c[i].status, .timed_out = c[i].timed_out,
				       .interrupted = c[i].interrupted };

		assert_int_equal(check_exit_code(false, &r), c[i].want);
		/* a finding fails, however CMD ended */
		assert_int_equal(check_exit_code(true, &r), UCT_EXIT_FAIL);
	}
	{
		struct check_cmd never = { .pid = 0, .status = -1 };

		assert_int_equal(check_exit_code(false, &never), UCT_EXIT_CMD_FAILED);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_clean),
		cmocka_unit_test(test_parent_circle_and_huge_counters),
		cmocka_unit_test(test_confirm_needs_two_captures),
		cmocka_unit_test(test_input_free_owned),
		cmocka_unit_test(test_clean_churn),
		cmocka_unit_test(test_lost_uncharge),
		cmocka_unit_test(test_outstanding_tasks),
		cmocka_unit_test(test_kthreads_not_outstanding),
		cmocka_unit_test(test_double_uncharge),
		cmocka_unit_test(test_preexisting_release),
		cmocka_unit_test(test_negative),
		cmocka_unit_test(test_freed_while_charged),
		cmocka_unit_test(test_freed_skipped_without_tracepoint),
		cmocka_unit_test(test_hierarchy_skiplevel),
		cmocka_unit_test(test_untracked_propagated),
		cmocka_unit_test(test_hierarchy_below_children),
		cmocka_unit_test(test_hierarchy_preexisting),
		cmocka_unit_test(test_admitted_said_within),
		cmocka_unit_test(test_admitted_flags),
		cmocka_unit_test(test_mqueue_evidence),
		cmocka_unit_test(test_sigpending_evidence),
		cmocka_unit_test(test_inventory_full),
		cmocka_unit_test(test_incomplete_snapshot),
		cmocka_unit_test(test_missed_events_leave_e_unjudged),
		cmocka_unit_test(test_missed_charges_unjudge_the_tally),
		cmocka_unit_test(test_missed_object_events),
		cmocka_unit_test(test_report_text),
		cmocka_unit_test(test_report_stacks_capped),
		cmocka_unit_test(test_report_text_escapes),
		cmocka_unit_test(test_report_json),
		cmocka_unit_test(test_torn_lists_undecided),
		cmocka_unit_test(test_report_missed),
		cmocka_unit_test(test_report_ktap),
		cmocka_unit_test(test_check_opts),
		cmocka_unit_test(test_exit_codes),
		cmocka_unit_test(test_same_state_compares_counters_and_tallies),
	};

	return cmocka_run_group_tests_name("check_model", tests, NULL, NULL);
}
