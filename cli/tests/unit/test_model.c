// SPDX-License-Identifier: GPL-2.0
/* test_model.c - the ucounts tree model against synthetic snapshots. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "model.h"
#include <limits.h>
#include "proc_limits.h"
#include <stdio.h>
#include "snapshots.h"
#include "views.h"

static struct uct_model *setup_model(size_t *nrec, struct uct_rec *recs)
{
	struct uct_model *m = calloc(1, sizeof(*m));

	uct_model_init(m);
	*nrec = base_snapshot(recs);
	assert_int_equal(uct_model_update(m, recs, *nrec, NULL, 0, 100.0), 0);
	return m;
}

static void teardown_model(struct uct_model *m)
{
	uct_model_free(m);
	free(m);
}

static const struct uct_row *row(const struct uct_model *m, __u32 ns, __u32 uid)
{
	int i = uct_model_find_row(m, ns, uid);

	assert_true(i >= 0);
	return &m->rows[i];
}

static void test_tree_shape(void **state)
{
	struct uct_rec recs[16];
	size_t n;
	struct uct_model *m = setup_model(&n, recs);
	int a, b, root;

	assert_int_equal(m->nrows, 6);
	assert_int_equal(m->nns, 3);
	root = uct_model_find_ns(m, 1);
	a = uct_model_find_ns(m, 100);
	b = uct_model_find_ns(m, 200);
	assert_true(root >= 0 && a >= 0 && b >= 0);
	assert_true(m->ns[root].root);
	assert_int_equal(m->ns[root].parent, -1);
	assert_int_equal(m->ns[a].parent, root);
	assert_int_equal(m->ns[b].parent, a);
	assert_int_equal(m->ns[a].creator_row, uct_model_find_row(m, 1, 1001));
	assert_int_equal(m->ns[b].creator_row, uct_model_find_row(m, 100, 1002));
	assert_int_equal(m->ns[root].nrows, 3);
	assert_int_equal(m->ns[a].nchildren, 1);
	assert_int_equal(m->ns[a].max[UCT_NPROC], 5);
	teardown_model(m);
}

static void test_display_order(void **state)
{
	struct uct_rec recs[16];
	size_t n;
	struct uct_model *m = setup_model(&n, recs);
	/* ns1, its 3 rows (uid order), ns100, its 2 rows, ns200, its row */
	static const struct { bool is_ns; __u32 id; int depth; } want[] = {
		{ true, 1, 0 }, { false, 0, 1 }, { false, 1001, 1 }, { false, 1002, 1 },
		{ true, 100, 1 }, { false, 1001, 2 }, { false, 1002, 2 },
		{ true, 200, 2 }, { false, 1002, 3 },
	};
	size_t i;

	assert_int_equal(m->nlines, ARRAY_SIZE(want));
	for (i = 0; i < ARRAY_SIZE(want); i++) {
		const struct uct_line *ln = &m->lines[i];

		assert_int_equal(ln->is_ns, want[i].is_ns);
		assert_int_equal(ln->depth, want[i].depth);
		if (ln->is_ns)
			assert_int_equal(m->ns[ln->index].inum, want[i].id);
		else
			assert_int_equal(m->rows[ln->index].rec.uid, want[i].id);
	}
	teardown_model(m);
}

static void test_limits_and_child_sums(void **state)
{
	struct uct_rec recs[16];
	size_t n;
	struct uct_model *m = setup_model(&n, recs);
	const struct uct_row *r;

	r = row(m, 1, 1001);
	assert_int_equal(uct_row_lim(m, r)->limit[UCT_NPROC], 5);
	assert_int_equal(uct_row_lim(m, r)->child_sum[UCT_NPROC], 6);
	assert_int_equal(uct_row_lim(m, r)->child_sum[UCT_MSGQUEUE], 2048);
	assert_int_equal(uct_row_lim(m, r)->child_sum[UCT_SIGPENDING], 4);
	assert_int_equal(r->nchild_ns, 1);
	assert_true(r->flags & UCT_F_OVER);		/* 6 > 5 */
	assert_false(r->flags & UCT_F_IMBALANCED);	/* 6 >= 6 */

	r = row(m, 100, 1002);
	assert_int_equal(uct_row_lim(m, r)->limit[UCT_NPROC], 4);
	assert_int_equal(uct_row_lim(m, r)->child_sum[UCT_NPROC], 2);
	assert_false(r->flags & (UCT_F_OVER | UCT_F_IMBALANCED));

	/* rows that created no namespace: only the caller's rlimit applies */
	r = row(m, 200, 1002);
	assert_int_equal(uct_row_lim(m, r)->limit[UCT_NPROC], -1);
	assert_int_equal(r->nchild_ns, 0);
	assert_int_equal(r->flags, 0);
	teardown_model(m);
}

static void test_smallest_max_is_the_limit(void **state)
{
	struct uct_rec recs[16];
	struct uct_model m;
	size_t n = base_snapshot(recs);

	/* a second namespace created by (1,1001), with a smaller max */
	recs[n++] = mkrec(300, 1, 1001, 1, 1001, 1001, 0, 0, 0, 0, 2);
	uct_model_init(&m);
	assert_int_equal(uct_model_update(&m, recs, n, NULL, 0, 1.0), 0);
	assert_int_equal(uct_row_lim(&m, row(&m, 1, 1001))->limit[UCT_NPROC], 2);
	assert_int_equal(row(&m, 1, 1001)->nchild_ns, 2);
	assert_int_equal(uct_row_lim(&m, row(&m, 1, 1001))->limit[UCT_MSGQUEUE], 819200);
	uct_model_free(&m);
}

static void test_imbalanced(void **state)
{
	struct uct_rec recs[16];
	struct uct_model m;
	size_t n = base_snapshot(recs), i;

	/* a lost charge at (100,1002): parent 1 < child sum 2 */
	for (i = 0; i < n; i++)
		if (recs[i].ns_inum == 100 && recs[i].uid == 1002)
			recs[i].value[UCT_NPROC] = 1;
	uct_model_init(&m);
	assert_int_equal(uct_model_update(&m, recs, n, NULL, 0, 1.0), 0);
	assert_true(row(&m, 100, 1002)->flags & UCT_F_IMBALANCED);
	/* and (1,1001) now has 6 >= 3+1: fine */
	assert_false(row(&m, 1, 1001)->flags & UCT_F_IMBALANCED);
	uct_model_free(&m);
}

static void test_duplicates_merged(void **state)
{
	struct uct_rec recs[32];
	struct uct_model m;
	size_t n = base_snapshot(recs), i, k = n;

	/* the task iterator may emit a ucounts more than once */
	for (i = 0; i < n; i++) {
		recs[k] = recs[i];
		recs[k].flags = UCT_REC_TASK;
		k++;
	}
	uct_model_init(&m);
	assert_int_equal(uct_model_update(&m, recs, k, NULL, 0, 1.0), 0);
	assert_int_equal(m.nrows, 6);
	assert_int_equal(m.duplicates, 6);
	assert_true(row(&m, 200, 1002)->rec.flags & UCT_REC_TASK);
	assert_true(row(&m, 200, 1002)->rec.flags & UCT_REC_ITER);
	uct_model_free(&m);
}

static void test_deltas_and_new(void **state)
{
	struct uct_rec recs[16];
	struct uct_model m;
	size_t n = base_snapshot(recs), i;

	uct_model_init(&m);
	assert_int_equal(uct_model_update(&m, recs, n, NULL, 0, 10.0), 0);
	/* first update: no change, nothing new */
	assert_int_equal(uct_row_delta(&m, row(&m, 1, 0), UCT_NPROC), 0);
	assert_false(row(&m, 1, 0)->flags & UCT_F_NEW);

	for (i = 0; i < n; i++)
		if (recs[i].ns_inum == 1 && recs[i].uid == 0)
			recs[i].value[UCT_NPROC] = 7;
	recs[n++] = mkrec(1, 0, 1003, 0, 0, 0, 1, 0, 0, 0, INF);
	assert_int_equal(uct_model_update(&m, recs, n, NULL, 0, 12.0), 0);
	assert_int_equal(m.iteration, 2);
	assert_true(m.interval > 1.99 && m.interval < 2.01);
	assert_int_equal(uct_row_delta(&m, row(&m, 1, 0), UCT_NPROC), -3);
	assert_int_equal(uct_row_delta(&m, row(&m, 1, 1003), UCT_NPROC), 1);
	assert_true(row(&m, 1, 1003)->flags & UCT_F_NEW);
	assert_true(row(&m, 1, 1003)->first_seen > 11.9);
	assert_true(row(&m, 1, 0)->first_seen < 10.1);
	uct_model_free(&m);
}

static void test_stats_join(void **state)
{
	struct uct_rec recs[16];
	struct uct_stat_kv kv[2];
	struct uct_model m;
	size_t n = base_snapshot(recs);
	const struct uct_row *r;

	mkstat(&kv[0], 200, 1002);
	kv[0].st.denials[UCT_NPROC] = 3;
	kv[0].st.charges[UCT_NPROC] = 10;
	kv[0].st.last_pid = 42;
	strcpy(kv[0].st.last_comm, "forker");
	mkstat(&kv[1], 999, 5);	/* not in snapshot */
	kv[1].st.denials[UCT_MEMLOCK] = 1;

	uct_model_init(&m);
	assert_int_equal(uct_model_update(&m, recs, n, kv, 2, 1.0), 0);
	r = row(&m, 200, 1002);
	assert_true(r->has_stat);
	assert_true(r->flags & UCT_F_DENIALS);
	assert_int_equal(r->stat->new_denials[UCT_NPROC], 3);
	assert_int_equal(m.stats_unmatched, 1);
	assert_int_equal(m.total_denials[UCT_NPROC], 3);
	assert_int_equal(m.total_denials[UCT_MEMLOCK], 1);
	assert_false(row(&m, 1, 0)->has_stat);

	/* second update: 2 more denials, 30 more events in 2 s */
	kv[0].st.denials[UCT_NPROC] = 5;
	kv[0].st.charges[UCT_NPROC] = 25;
	kv[0].st.uncharges[UCT_NPROC] = 15;
	assert_int_equal(uct_model_update(&m, recs, n, kv, 2, 3.0), 0);
	r = row(&m, 200, 1002);
	assert_int_equal(r->stat->new_denials[UCT_NPROC], 2);
	assert_true(r->stat->event_rate[UCT_NPROC] > 14.99 && r->stat->event_rate[UCT_NPROC] < 15.01);
	uct_model_free(&m);
}

/* Without ucounts_free, an entry that matches no row in UCT_PRUNE_AFTER
 * updates in a row is listed for deletion, and its row's name with it
 * unless a row of the snapshot has that name; a matched entry never is,
 * and one that matches again starts counting over. */
static void test_prune_absent_entries(void **state)
{
	struct uct_rec recs[16];
	struct uct_stat_kv kv[3];
	struct uct_model m;
	size_t n = base_snapshot(recs);
	int i;

	mkstat(&kv[0], 200, 1002);		/* a row of the snapshot */
	mkstat(&kv[1], 999, 5);			/* gone */
	mkstat(&kv[2], 200, 1002);		/* its name, another address */
	kv[2].id += 0x1000;
	uct_model_init(&m);
	for (i = 1; i < UCT_PRUNE_AFTER; i++) {
		assert_int_equal(uct_model_update(&m, recs, n, kv, 3, i), 0);
		assert_int_equal(m.prune.nids, 0);
	}
	assert_int_equal(uct_model_update(&m, recs, n, kv, 3, i), 0);
	assert_int_equal(m.prune.nids, 2);
	assert_true((m.prune.ids[0] == kv[1].id && m.prune.ids[1] == kv[2].id) ||
		    (m.prune.ids[1] == kv[1].id && m.prune.ids[0] == kv[2].id));
	/* (200, 1002) is still a row: its refusals by cgroup stay */
	assert_int_equal(m.prune.nrows, 1);
	assert_int_equal(m.prune.rows[0].ns_inum, 999);
	assert_int_equal(m.prune.rows[0].uid, 5);
	/* listed once: the tool deletes them; gone from the next update */
	assert_int_equal(uct_model_update(&m, recs, n, kv, 1, i + 1), 0);
	assert_int_equal(m.prune.nids, 0);
	assert_int_equal(m.prune.nabsent, 0);
	/* absent, then matched again: counting starts over */
	assert_int_equal(uct_model_update(&m, recs, n, &kv[1], 1, i + 2), 0);
	assert_int_equal(m.prune.nabsent, 1);
	assert_int_equal(uct_model_update(&m, recs, n, NULL, 0, i + 3), 0);
	assert_int_equal(m.prune.nabsent, 0);
	uct_model_free(&m);
}

/*
 * A row's stats entry is the model's copy, in an array that holds this
 * update's entries only, and each is compared with the previous update's
 * entry of the same row wherever that one was: entries come and go and
 * change places between updates.
 */
static void test_stats_entries_move(void **state)
{
	struct uct_rec recs[16];
	struct uct_stat_kv kv[3];
	struct uct_model m;
	size_t n = base_snapshot(recs);
	const struct uct_row *a, *b;

	mkstat(&kv[0], 1, 0);
	kv[0].st.denials[UCT_NPROC] = 10;
	kv[0].st.charges[UCT_NPROC] = 100;
	mkstat(&kv[1], 100, 1001);
	kv[1].st.denials[UCT_SIGPENDING] = 4;
	kv[1].st.charges[UCT_SIGPENDING] = 40;
	uct_model_init(&m);
	assert_int_equal(uct_model_update(&m, recs, n, kv, 2, 1.0), 0);

	/* (100,1001) first now, (1,0) gone, a third one new */
	kv[2] = kv[0];
	kv[0] = kv[1];
	kv[0].st.denials[UCT_SIGPENDING] = 7;
	kv[0].st.charges[UCT_SIGPENDING] = 50;
	mkstat(&kv[1], 200, 1002);
	kv[1].st.denials[UCT_NPROC] = 1;
	assert_int_equal(uct_model_update(&m, recs, n, kv, 2, 3.0), 0);
	a = row(&m, 1, 0);
	b = row(&m, 100, 1001);
	assert_false(a->has_stat);
	assert_int_equal(a->stat->st.denials[UCT_NPROC], 0);
	assert_true(b->has_stat);
	assert_int_equal(b->stat->st.denials[UCT_SIGPENDING], 7);
	assert_int_equal(b->stat->new_denials[UCT_SIGPENDING], 3);
	assert_true(b->stat->event_rate[UCT_SIGPENDING] > 4.99 &&
		    b->stat->event_rate[UCT_SIGPENDING] < 5.01);
	assert_int_equal(row(&m, 200, 1002)->stat->new_denials[UCT_NPROC], 1);

	/* (1,0) back after an update without it: all of it is new */
	kv[1] = kv[2];
	kv[1].st.denials[UCT_NPROC] = 12;
	kv[1].st.charges[UCT_NPROC] = 130;
	assert_int_equal(uct_model_update(&m, recs, n, kv, 2, 4.0), 0);
	a = row(&m, 1, 0);
	b = row(&m, 100, 1001);
	assert_int_equal(a->stat->new_denials[UCT_NPROC], 12);
	assert_true(a->stat->event_rate[UCT_NPROC] > 129.99 &&
		    a->stat->event_rate[UCT_NPROC] < 130.01);
	assert_int_equal(b->stat->new_denials[UCT_SIGPENDING], 0);
	assert_true(b->stat->event_rate[UCT_SIGPENDING] == 0);
	assert_false(row(&m, 200, 1002)->has_stat);
	uct_model_free(&m);
}

/*
 * Changes are kept for the rows that changed only, and at the widest a
 * counter allows: values are bounded to +-2^53, so a change needs 55 bits.
 */
static void test_delta_extremes(void **state)
{
	const long long b = 1LL << 53;
	struct uct_rec recs[16];
	struct uct_model m;
	size_t n = base_snapshot(recs), i;

	for (i = 0; i < n; i++) {
		if (recs[i].ns_inum == 1 && recs[i].uid == 1002) {
			recs[i].value[UCT_MSGQUEUE] = -b;
			recs[i].value[UCT_MEMLOCK] = b;
		}
	}
	uct_model_init(&m);
	assert_int_equal(uct_model_update(&m, recs, n, NULL, 0, 1.0), 0);
	assert_int_equal(m.ndeltas, 0);
	for (i = 0; i < n; i++) {
		if (recs[i].ns_inum == 1 && recs[i].uid == 1002) {
			recs[i].value[UCT_MSGQUEUE] = LLONG_MAX;	/* bounded: 2^53 */
			recs[i].value[UCT_MEMLOCK] = -b;
		}
	}
	assert_int_equal(uct_model_update(&m, recs, n, NULL, 0, 2.0), 0);
	assert_int_equal(m.ndeltas, 1);
	assert_true(uct_row_delta(&m, row(&m, 1, 1002), UCT_MSGQUEUE) == 2 * b);
	assert_true(uct_row_delta(&m, row(&m, 1, 1002), UCT_MEMLOCK) == -2 * b);
	assert_int_equal(uct_row_delta(&m, row(&m, 1, 1002), UCT_NPROC), 0);
	assert_int_equal(row(&m, 1, 0)->delta, -1);
	assert_int_equal(uct_row_delta(&m, row(&m, 1, 0), UCT_NPROC), 0);
	/* the change sort sees it: first of its namespace, not last */
	m.sort = UCT_SORT_CHANGE;
	assert_int_equal(uct_model_relayout(&m), 0);
	assert_int_equal(m.rows[m.ns[uct_model_find_ns(&m, 1)].rows[0]].rec.uid, 1002);
	uct_model_free(&m);
}

/*
 * 50,000 ucounts in at most 32 MiB, with room left under that for the
 * process itself (libraries, libbpf's load). A ucounts in a namespace of
 * its own, the costlier shape, costs its row, its namespace, two display
 * lines, the last refresh's values, its record as read, its place in the
 * sort permutation, the index by address and the namespaces' row and
 * child arrays; 512 bytes of those is the budget that leaves that room.
 * Measure before growing these (docs/performance.md, "Refresh at scale").
 */
static void test_row_sizes(void **state)
{
	size_t per_row = sizeof(struct uct_row) + sizeof(struct uct_nsinfo) +
			 2 * sizeof(struct uct_line) + sizeof(struct uct_prev) +
			 sizeof(struct uct_rec) + sizeof(int) + sizeof(struct uct_id_row) +
			 2 * sizeof(int);

	print_message("# bytes per ucounts in a namespace of its own: %zu\n", per_row);
	assert_true(per_row <= 512);
}

/*
 * A namespace freed and replaced by a new one that reuses its inode: the
 * row (ns, uid) is another object (another id). It inherits nothing: not
 * the old stats entry (left over on a kernel without ucounts_free), not
 * the previous reading.
 */
static void test_reused_name_is_a_new_row(void **state)
{
	struct uct_rec recs[16];
	struct uct_stat_kv kv;
	struct uct_model m;
	size_t n = base_snapshot(recs), i;
	const struct uct_row *r;

	mkstat(&kv, 200, 1002);
	kv.st.denials[UCT_NPROC] = 3;
	uct_model_init(&m);
	assert_int_equal(uct_model_update(&m, recs, n, &kv, 1, 1.0), 0);
	assert_true(row(&m, 200, 1002)->flags & UCT_F_DENIALS);

	/* same name, new object: value 7 instead of 2 */
	for (i = 0; i < n; i++) {
		if (recs[i].ns_inum == 200 && recs[i].uid == 1002) {
			recs[i].id += 0x1000;
			recs[i].value[UCT_NPROC] = 7;
		}
	}
	assert_int_equal(uct_model_update(&m, recs, n, &kv, 1, 2.0), 0);
	r = row(&m, 200, 1002);
	assert_false(r->has_stat);
	assert_false(r->flags & UCT_F_DENIALS);
	assert_true(r->flags & UCT_F_NEW);
	assert_int_equal(r->stat->new_denials[UCT_NPROC], 0);
	assert_int_equal(uct_row_delta(&m, r, UCT_NPROC), 7);	/* from nothing, not from 2 */
	assert_int_equal(m.stats_unmatched, 1);

	/* the new object's own entry joins; no "new" on the next update */
	kv.id = test_id(200, 1002) + 0x1000;
	kv.st.denials[UCT_NPROC] = 1;
	assert_int_equal(uct_model_update(&m, recs, n, &kv, 1, 3.0), 0);
	r = row(&m, 200, 1002);
	assert_true(r->has_stat);
	assert_false(r->flags & UCT_F_NEW);
	assert_int_equal(r->stat->new_denials[UCT_NPROC], 1);
	uct_model_free(&m);
}

/*
 * The model reuses the last sort when the snapshot's keys arrive as
 * before; the same objects in another order, or one key changed, must
 * still come out sorted, each row with its own values.
 */
static void test_arrival_order(void **state)
{
	struct uct_rec recs[16], rev[16];
	struct uct_model m;
	size_t n = base_snapshot(recs), i;

	uct_model_init(&m);
	assert_int_equal(uct_model_update(&m, recs, n, NULL, 0, 1.0), 0);
	for (i = 0; i < n; i++)
		rev[i] = recs[n - 1 - i];
	rev[0].value[UCT_SIGPENDING] = 77;
	assert_int_equal(uct_model_update(&m, rev, n, NULL, 0, 2.0), 0);
	assert_int_equal(m.nrows, n);
	for (i = 1; i < m.nrows; i++)
		assert_true(m.rows[i - 1].rec.ns_inum < m.rows[i].rec.ns_inum ||
			    (m.rows[i - 1].rec.ns_inum == m.rows[i].rec.ns_inum &&
			     m.rows[i - 1].rec.uid < m.rows[i].rec.uid));
	assert_int_equal(row(&m, rev[0].ns_inum, rev[0].uid)->rec.value[UCT_SIGPENDING], 77);
	/* same order again, one key changed: (100, 1001) becomes (100, 1003) */
	for (i = 0; i < n; i++)
		if (rev[i].ns_inum == 100 && rev[i].uid == 1001)
			rev[i].uid = 1003;
	assert_int_equal(uct_model_update(&m, rev, n, NULL, 0, 3.0), 0);
	assert_true(uct_model_find_row(&m, 100, 1001) < 0);
	assert_true(uct_model_find_row(&m, 100, 1003) >= 0);
	for (i = 1; i < m.nrows; i++)
		assert_true(m.rows[i - 1].rec.ns_inum < m.rows[i].rec.ns_inum ||
			    (m.rows[i - 1].rec.ns_inum == m.rows[i].rec.ns_inum &&
			     m.rows[i - 1].rec.uid < m.rows[i].rec.uid));
	uct_model_free(&m);
}

/* Two namespaces linked in a circle (an inode reused while a task
 * iterator read): the closing link is cut and both are shown. */
static void test_parent_circle_shown(void **state)
{
	struct uct_rec recs[2];
	struct uct_model m;
	size_t i, rows = 0;

	recs[0] = mkrec(2, 1, 1, 3, 1, 1, 1, 0, 0, 0, 5);
	recs[1] = mkrec(3, 1, 1, 2, 1, 1, 1, 0, 0, 0, 5);
	uct_model_init(&m);
	assert_int_equal(uct_model_update(&m, recs, 2, NULL, 0, 1.0), 0);
	assert_int_equal(m.circles, 1);
	for (i = 0; i < m.nlines; i++)
		rows += !m.lines[i].is_ns;
	assert_int_equal(rows, 2);
	uct_model_free(&m);
}

/* --events' per-CPU counts name their object by address only: they join
 * the row of that address, and nothing else. */
static void test_address_only_entries(void **state)
{
	struct uct_rec recs[16];
	struct uct_stat_kv kv[2];
	struct uct_model m;
	size_t n = base_snapshot(recs);

	memset(kv, 0, sizeof(kv));
	kv[0].id = test_id(100, 1002);
	kv[0].st.charges[UCT_NPROC] = 7;
	kv[1].id = test_id(100, 1002) + 8;	/* an address no row has */
	kv[1].st.charges[UCT_NPROC] = 1;
	uct_model_init(&m);
	assert_int_equal(uct_model_update(&m, recs, n, kv, 2, 1.0), 0);
	assert_true(row(&m, 100, 1002)->has_stat);
	assert_int_equal(row(&m, 100, 1002)->stat->st.charges[UCT_NPROC], 7);
	assert_int_equal(m.stats_unmatched, 1);
	uct_model_free(&m);
}

/* An entry deleted and made anew for the same address between two
 * refreshes restarts from zero: the growth is what it holds, never a
 * wrapped difference. */
static void test_restarted_counters_never_wrap(void **state)
{
	struct uct_rec recs[16];
	struct uct_stat_kv kv;
	struct uct_model m;
	size_t n = base_snapshot(recs);
	const struct uct_row *r;

	mkstat(&kv, 100, 1001);
	kv.st.denials[UCT_SIGPENDING] = 5;
	kv.st.charges[UCT_SIGPENDING] = 100;
	uct_model_init(&m);
	assert_int_equal(uct_model_update(&m, recs, n, &kv, 1, 1.0), 0);
	kv.st.denials[UCT_SIGPENDING] = 2;
	kv.st.charges[UCT_SIGPENDING] = 4;
	assert_int_equal(uct_model_update(&m, recs, n, &kv, 1, 3.0), 0);
	r = row(&m, 100, 1001);
	assert_int_equal(r->stat->new_denials[UCT_SIGPENDING], 2);
	assert_true(r->stat->event_rate[UCT_SIGPENDING] > 1.99 && r->stat->event_rate[UCT_SIGPENDING] < 2.01);
	uct_model_free(&m);
}

static void test_filters(void **state)
{
	struct uct_rec recs[16];
	size_t n, i, rows = 0;
	struct uct_model *m = setup_model(&n, recs);

	/* --uid 1002: its rows, and the namespaces leading to them */
	m->uid_filter = 1002;
	assert_int_equal(uct_model_relayout(m), 0);
	for (i = 0; i < m->nlines; i++) {
		if (!m->lines[i].is_ns) {
			assert_int_equal(m->rows[m->lines[i].index].rec.uid, 1002);
			rows++;
		}
	}
	assert_int_equal(rows, 3);

	/* --ns 100: that namespace is the root of the display */
	m->uid_filter = -1;
	m->ns_filter = 100;
	assert_int_equal(uct_model_relayout(m), 0);
	assert_true(m->lines[0].is_ns);
	assert_int_equal(m->ns[m->lines[0].index].inum, 100);
	assert_int_equal(m->lines[0].depth, 0);
	assert_int_equal(m->nlines, 5);	/* ns100, 2 rows, ns200, 1 row */
	assert_false(m->ns[uct_model_find_ns(m, 1)].visible);

	/* -t msgqueue: rows with a non-zero msgqueue counter */
	m->ns_filter = 0;
	m->type_filter = UCT_MSGQUEUE;
	assert_int_equal(uct_model_relayout(m), 0);
	rows = 0;
	for (i = 0; i < m->nlines; i++)
		if (!m->lines[i].is_ns) {
			assert_true(m->rows[m->lines[i].index].rec.value[UCT_MSGQUEUE] > 0);
			rows++;
		}
	assert_int_equal(rows, 3);	/* (1,1001), (100,1002), (200,1002) */
	teardown_model(m);
}

/* The display order in got: "ns1 1001 ns100 1002 ..." (namespaces by inode,
 * rows by kuid) */
static void lines_of(const struct uct_model *m, char *got, size_t len)
{
	size_t i;

	got[0] = 0;
	for (i = 0; i < m->nlines; i++) {
		char one[24];

		if (m->lines[i].is_ns)
			snprintf(one, sizeof(one), "ns%u ", m->ns[m->lines[i].index].inum);
		else
			snprintf(one, sizeof(one), "%u ", m->rows[m->lines[i].index].rec.uid);
		strncat(got, one, len - strlen(got) - 1);
	}
}

/* --pid: a process of (200, 1002) charges its row, the row that created
 * namespace 200 (100, 1002) and the one that created 100 (1, 1001);
 * nothing else shows. A process that is gone (pid_ns 0) shows nothing. */
static void test_pid_chain(void **state)
{
	struct uct_rec recs[16];
	size_t n;
	struct uct_model *m = setup_model(&n, recs);
	char got[64] = "";

	m->pid_filter = 4242;
	m->pid_ns = 200;
	m->pid_uid = 1002;
	assert_int_equal(uct_model_relayout(m), 0);
	lines_of(m, got, sizeof(got));
	assert_string_equal(got, "ns1 1001 ns100 1002 ns200 1002 ");

	/* a process of the initial namespace: its row alone */
	m->pid_ns = 1;
	m->pid_uid = 0;
	assert_int_equal(uct_model_relayout(m), 0);
	assert_int_equal(m->nlines, 2);
	assert_int_equal(m->rows[m->lines[1].index].rec.uid, 0);

	m->pid_ns = 0;
	assert_int_equal(uct_model_relayout(m), 0);
	assert_int_equal(m->nlines, 0);
	teardown_model(m);
}

/* uids as namespaces map them: --uid still means the kuid; rows sort by
 * the uid shown, unmapped ones last; the owner is kept as its parent maps
 * it. */
static void test_ns_uids(void **state)
{
	struct uct_rec recs[16];
	struct uct_model m;
	size_t n = names_snapshot(recs), i, rows = 0;
	int ns20;

	uct_model_init(&m);
	assert_int_equal(uct_model_update(&m, recs, n, NULL, 0, 1.0), 0);
	ns20 = uct_model_find_ns(&m, 20);
	assert_true(ns20 >= 0);
	assert_int_equal(m.ns[ns20].owner_uid, 1000);
	assert_int_equal(m.ns[ns20].owner_ns_uid, 2000);
	assert_int_equal(uct_ns_owner(&m, &m.ns[ns20]), 2000);
	/* ns 20: uid 3000 (kuid 1000) before the unmapped kuid 1500 */
	assert_int_equal(m.rows[m.ns[ns20].rows[0]].rec.ns_uid, 3000);
	assert_int_equal(m.rows[m.ns[ns20].rows[1]].rec.ns_uid, UCT_NO_UID);
	assert_int_equal(uct_row_uid(&m, &m.rows[m.ns[ns20].rows[1]]), UCT_NO_UID);
	/* ns 10: uid 0 (kuid 900) before uid 2000 (kuid 1000) */
	assert_int_equal(m.rows[m.ns[uct_model_find_ns(&m, 10)].rows[0]].rec.uid, 900);

	/* --kuid: by kuid, the owner as the kernel names it */
	m.show_kuid = true;
	assert_int_equal(uct_model_relayout(&m), 0);
	assert_int_equal(uct_ns_owner(&m, &m.ns[ns20]), 1000);
	assert_int_equal(m.rows[m.ns[ns20].rows[0]].rec.uid, 1000);
	assert_int_equal(uct_row_uid(&m, &m.rows[m.ns[ns20].rows[1]]), 1500);

	/* --uid 1000 is the kuid: the three rows of the chain, not "uid 0" */
	m.show_kuid = false;
	m.uid_filter = 1000;
	assert_int_equal(uct_model_relayout(&m), 0);
	for (i = 0; i < m.nlines; i++) {
		if (!m.lines[i].is_ns) {
			assert_int_equal(m.rows[m.lines[i].index].rec.uid, 1000);
			rows++;
		}
	}
	assert_int_equal(rows, 3);
	/* an ns uid is not a kuid: nothing of kuid 2000 */
	m.uid_filter = 2000;
	assert_int_equal(uct_model_relayout(&m), 0);
	assert_int_equal(m.nlines, 0);
	uct_model_free(&m);
}

static void test_sort_and_collapse(void **state)
{
	struct uct_rec recs[16];
	size_t n;
	struct uct_model *m = setup_model(&n, recs);

	m->sort = UCT_SORT_NPROC;
	assert_int_equal(uct_model_relayout(m), 0);
	/* in ns 1: 10 (uid 0), 6 (1001), 2 (1002) */
	assert_int_equal(m->rows[m->lines[1].index].rec.uid, 0);
	assert_int_equal(m->rows[m->lines[2].index].rec.uid, 1001);
	m->sort = UCT_SORT_SIGPENDING;
	assert_int_equal(uct_model_relayout(m), 0);
	assert_int_equal(m->rows[m->lines[1].index].rec.uid, 1001);

	/* collapsing ns 100 hides its rows and ns 200; survives an update */
	uct_model_toggle_collapse(m, 100);
	assert_int_equal(m->nlines, 5);
	assert_int_equal(uct_model_update(m, recs, n, NULL, 0, 101.0), 0);
	assert_int_equal(m->nlines, 5);
	uct_model_toggle_collapse(m, 100);
	assert_int_equal(m->nlines, 9);
	teardown_model(m);
}

static void test_orphan_namespace(void **state)
{
	struct uct_rec recs[4];
	struct uct_model m;

	/* parent namespace not in the snapshot (e.g. filtered kernel side) */
	recs[0] = mkrec(500, 3, 7, 400, 7, 7, 1, 0, 0, 0, 10);
	uct_model_init(&m);
	assert_int_equal(uct_model_update(&m, recs, 1, NULL, 0, 1.0), 0);
	assert_int_equal(m.nns, 1);
	assert_int_equal(m.ns[0].parent, -1);
	assert_int_equal(m.ns[0].creator_row, -1);
	assert_int_equal(m.nlines, 2);
	uct_model_free(&m);
}

static void test_empty(void **state)
{
	struct uct_model m;

	uct_model_init(&m);
	assert_int_equal(uct_model_update(&m, NULL, 0, NULL, 0, 1.0), 0);
	assert_int_equal(m.nrows, 0);
	assert_int_equal(m.nlines, 0);
	uct_model_free(&m);
}

static void test_sort_names(void **state)
{
	assert_int_equal(uct_sort_parse("uid"), UCT_SORT_UID);
	assert_int_equal(uct_sort_parse("CHANGE"), UCT_SORT_CHANGE);
	assert_int_equal(uct_sort_parse("bogus"), -1);
	assert_string_equal(uct_sort_name(UCT_SORT_DENIALS), "denials");
	assert_string_equal(uct_flag_name(UCT_F_IMBALANCED), "imbalanced");
}

/* The leaf check uses the charging task's rlimit: the smallest of a row's
 * live tasks is shown; rows without tasks keep -1; others are untouched. */
static void test_caller_limits(void **state)
{
	struct uct_rec recs[8];
	size_t n;
	struct uct_model *m = setup_model(&n, recs);
	struct uct_task_limits tl[] = {
		{ 200, 1002, { 3, 1000, 50, 16 } },
		{ 200, 1002, { 7, 500, 60, 2 } },	/* smaller msgqueue/memlock */
		{ 100, 1001, { LLONG_MAX, LLONG_MAX, 40, 8 } },
		{ 999, 1002, { 1, 1, 1, 1 } },		/* no such row: ignored */
	};

	uct_model_set_caller_limits(m, tl, 4);
	assert_int_equal(uct_row_lim(m, row(m, 200, 1002))->caller_limit[UCT_NPROC], 3);
	assert_int_equal(uct_row_lim(m, row(m, 200, 1002))->caller_limit[UCT_MSGQUEUE], 500);
	assert_int_equal(uct_row_lim(m, row(m, 200, 1002))->caller_limit[UCT_SIGPENDING], 50);
	assert_int_equal(uct_row_lim(m, row(m, 200, 1002))->caller_limit[UCT_MEMLOCK], 2);
	assert_true(uct_row_lim(m, row(m, 100, 1001))->caller_limit[UCT_NPROC] == LLONG_MAX);
	assert_int_equal(uct_row_lim(m, row(m, 1, 0))->caller_limit[UCT_NPROC], -1);
	/* the per-level limit from rlimit_max is not affected */
	assert_int_equal(uct_row_lim(m, row(m, 100, 1002))->limit[UCT_NPROC], 4);
	teardown_model(m);
}

/* The same from the task_limits iterator, whose records name the row by
 * its ucounts address: a record of a freed-and-reused name or of an
 * unknown address touches nothing. */
static void test_caller_limits_by_id(void **state)
{
	struct uct_rec recs[8];
	size_t n;
	struct uct_model *m = setup_model(&n, recs);
	struct uct_tlim tl[] = {
		{ test_id(200, 1002), { 3, 1000, 50, 16 } },
		{ test_id(200, 1002), { 7, 500, 60, 2 } },
		{ test_id(100, 1001), { INF, INF, 40, 8 } },
		{ test_id(999, 1002), { 1, 1, 1, 1 } },	/* no such object */
	};

	uct_model_set_caller_limits_by_id(m, tl, 4);
	assert_int_equal(uct_row_lim(m, row(m, 200, 1002))->caller_limit[UCT_NPROC], 3);
	assert_int_equal(uct_row_lim(m, row(m, 200, 1002))->caller_limit[UCT_MSGQUEUE], 500);
	assert_int_equal(uct_row_lim(m, row(m, 200, 1002))->caller_limit[UCT_SIGPENDING], 50);
	assert_int_equal(uct_row_lim(m, row(m, 200, 1002))->caller_limit[UCT_MEMLOCK], 2);
	assert_true(uct_row_lim(m, row(m, 100, 1001))->caller_limit[UCT_NPROC] == INF);
	assert_int_equal(uct_row_lim(m, row(m, 100, 1001))->caller_limit[UCT_MEMLOCK], 8);
	assert_int_equal(uct_row_lim(m, row(m, 1, 0))->caller_limit[UCT_NPROC], -1);
	assert_int_equal(uct_row_lim(m, row(m, 100, 1002))->limit[UCT_NPROC], 4);
	teardown_model(m);
}

/* The model with base_tasks() and the fake cgroup lookup */
static struct uct_model *setup_names(size_t *nrec, struct uct_rec *recs, int *lookups)
{
	struct uct_model *m = setup_model(nrec, recs);
	struct uct_tlim tl[16];
	size_t nt = base_tasks(tl);

	m->cgroup_fn = test_cgroup_fn;
	m->cgroup_arg = lookups;
	assert_int_equal(uct_model_set_tasks(m, tl, nt), 0);
	return m;
}

static const struct uct_nsname *nsname(const struct uct_model *m, __u32 inum)
{
	int i = uct_model_find_ns(m, inum);

	assert_true(i >= 0);
	return m->ns[i].name;
}

static unsigned nsheld(const struct uct_model *m, __u32 inum)
{
	int i = uct_model_find_ns(m, inum);

	assert_true(i >= 0);
	return m->ns[i].held;
}

/* ---- shares: containers that share a uid in one namespace ---- */

#define CID_A "aaaa1111aaaa1111aaaa1111aaaa1111aaaa1111aaaa1111aaaa1111aaaa1111"
#define CID_B "bbbb2222bbbb2222bbbb2222bbbb2222bbbb2222bbbb2222bbbb2222bbbb2222"

/* cgroups 201 (docker A), 202 (containerd B), 203 (a user's session,
 * no container), 204 (docker A again: a sub-cgroup), all made by root */
static int share_cgroup_fn(void *arg, __u32 pid, __u64 id, char *path, size_t len,
			   size_t *trusted, __u32 *tenant)
{
	const char *p = id == 201 ? "/system.slice/docker-" CID_A ".scope" :
			id == 202 ? "/kubepods.slice/cri-containerd-" CID_B ".scope" :
			id == 203 ? "/user.slice/session-1.scope" :
			id == 204 ? "/system.slice/docker-" CID_A ".scope/init" : NULL;

	if (arg)
		(*(int *)arg)++;
	if (!p)
		return -1;
	snprintf(path, len, "%s", p);
	*trusted = strlen(p);
	return 0;
}

/*
 * Uid 9000 in the initial namespace (row 5/5): A's 3 processes (one with
 * 2 threads) in two cgroups of A, B's 1, one in a session; B refused
 * twice, a cgroup with no process left once
 */
static void shares_update_at(struct uct_model *m, int *lookups, double now)
{
	struct uct_rec recs[4];
	struct uct_tlim tl[8];
	struct uct_cgdeny_kv d[3];
	size_t nt = 0;

	recs[0] = mkrec(1, 0, 0, 0, 0, 0, 3, 0, 0, 0, INF);
	recs[1] = mkrec(1, 0, 9000, 0, 0, 0, 5, 0, 0, 0, INF);
	tl[nt++] = mktask(1, 0, 1, 1, 1, "init", "h");
	tl[nt++] = mktask(1, 9000, 100, 10, 201, "a", "h");
	tl[nt] = mktask(1, 9000, 101, 11, 201, "a", "h");
	tl[nt++].threads = 2;
	tl[nt++] = mktask(1, 9000, 102, 12, 204, "a-init", "h");
	tl[nt++] = mktask(1, 9000, 110, 20, 202, "b", "h");
	tl[nt++] = mktask(1, 9000, 120, 30, 203, "sh", "h");
	memset(d, 0, sizeof(d));
	d[0].key = (struct uct_cgkey){ 1, 9000, 202 };
	d[0].d.denials[UCT_NPROC] = 2;
	d[1].key = (struct uct_cgkey){ 1, 9000, 205 };
	d[1].d.denials[UCT_NPROC] = 1;
	d[2].key = (struct uct_cgkey){ 77, 9000, 202 };	/* no such row */
	d[2].d.denials[UCT_NPROC] = 9;
	m->cgroup_fn = share_cgroup_fn;
	m->cgroup_arg = lookups;
	assert_int_equal(uct_model_update(m, recs, 2, NULL, 0, now), 0);
	uct_model_set_cg_denials(m, d, 3);
	assert_int_equal(uct_model_set_tasks(m, tl, nt), 0);
}

static void shares_update(struct uct_model *m, int *lookups)
{
	shares_update_at(m, lookups, 100.0);
}

/* Docker's name for container A (docker-<A>.scope): "web" */
static int fake_docker_name(void *arg, const char *cid, char name[UCT_CNAME_MAX + 1])
{
	(*(int *)arg)++;
	if (strcmp(cid, CID_A))
		return -1;
	strcpy(name, "web");
	return 0;
}

/* containerd's CRI plugin's bundle for container B (cri-containerd-<B>)
 * names pod shop/web-1 and its container nginx */
static int fake_cri(void *arg, const char *cid, struct uct_kube *k)
{
	(*(int *)arg)++;
	memset(k, 0, sizeof(*k));
	if (strcmp(cid, CID_B))
		return -1;
	strcpy(k->ns, "shop");
	strcpy(k->pod, "web-1");
	strcpy(k->container, "nginx");
	strcpy(k->pod_uid, "0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0");
	return 0;
}

/* A Kubernetes container is namespace/pod/container on the row's line,
 * its pod an object in JSON; --container takes the pod or the container;
 * Docker's cgroups are not asked about pods */
static void test_share_pod_names(void **state)
{
	struct uct_model m;
	struct uct_view_ctx c = { .snapshot_src = "iter/ucounts", .hooks = "-", .degraded = "" };
	int lookups = 0, pods = 0;
	const char *filters[] = { "shop/web-1", "shop/web-1/nginx", "shop/web", "shop/web-1/ngin" };
	char *out = NULL;
	size_t len = 0, i;
	FILE *f;

	uct_model_init(&m);
	m.cri_fn = fake_cri;
	m.cri_arg = &pods;
	shares_update(&m, &lookups);
	uct_model_resolve_names(&m, -1, 0);
	assert_int_equal(pods, 1);
	f = open_memstream(&out, &len);
	assert_non_null(f);
	uct_view_batch(f, &m, &c);
	uct_view_json(f, &m, &c);
	fclose(f);
	assert_non_null(strstr(out, " in aaaa1111aaaa 4, shop/web-1/nginx 1 (refused 2), "));
	assert_non_null(strstr(out, "{\"container_id\":\"" CID_B "\",\"container_name\":"
				    "\"shop/web-1/nginx\",\"container_owner_uid\":null,"
				    "\"pod\":{\"namespace\":\"shop\","
				    "\"name\":\"web-1\",\"uid\":\"0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0\","
				    "\"container\":\"nginx\"},"));
	assert_non_null(strstr(out, "{\"container_id\":\"" CID_A "\",\"container_name\":null,"
				    "\"container_owner_uid\":null,\"pod\":null,"));
	free(out);
	uct_model_free(&m);
	/* the pod, the container: the shared row; a part of a name: nothing */
	for (i = 0; i < ARRAY_SIZE(filters); i++) {
		uct_model_init(&m);
		m.cri_fn = fake_cri;
		m.cri_arg = &pods;
		snprintf(m.container_filter, sizeof(m.container_filter), "%s", filters[i]);
		shares_update(&m, &lookups);
		if (uct_model_name_matched(&m) != (i < 2))
			fail_msg("--container %s: want %s", filters[i], i < 2 ? "a match" : "none");
		uct_model_free(&m);
	}
}

#define CID_C "cccc3333cccc3333cccc3333cccc3333cccc3333cccc3333cccc3333cccc3333"

/* 201: Docker's container A, root's; 301: uid 1000's delegated subtree,
 * its rootless Podman claiming A's id; 302, 303: the same claiming B's
 * and C's */
static int rootless_cgroup_fn(void *arg, __u32 pid, __u64 id, char *path, size_t len,
			      size_t *trusted, __u32 *tenant)
{
	static const char deleg[] = "/user.slice/user-1000.slice/user@1000.service";
	const char *p = id == 201 ? "/system.slice/docker-" CID_A ".scope" :
			id == 301 ? "/user.slice/user-1000.slice/user@1000.service/user.slice/"
				    "libpod-" CID_A ".scope" :
			id == 302 ? "/user.slice/user-1000.slice/user@1000.service/user.slice/"
				    "libpod-" CID_B ".scope" :
			id == 303 ? "/user.slice/user-1000.slice/user@1000.service/user.slice/"
				    "libpod-" CID_C ".scope" : NULL;

	if (!p)
		return -1;
	snprintf(path, len, "%s", p);
	*trusted = id == 201 ? strlen(p) : strlen(deleg) - strlen("/user@1000.service");
	*tenant = id == 201 ? UCT_NO_UID : 1000;
	return 0;
}

/* uid 1000's Podman names its A "web", its C "cache"; it knows no B */
static int fake_podman_name(void *arg, __u32 tenant, const char *cid,
			    char name[UCT_TENANT_CNAME_MAX + 1])
{
	(*(int *)arg)++;
	if (tenant != 1000 || (strcmp(cid, CID_A) && strcmp(cid, CID_C)))
		return -1;
	strcpy(name, strcmp(cid, CID_A) ? "alice:cache" : "alice:web");
	return 0;
}

/* A rootless Podman's containers share its user's row: each is named
 * user:name by that user's Podman, never merged with root's container
 * of the same id, never selected by that id, never a series' label; a
 * claim without a name is no container */
static void test_share_rootless_names(void **state)
{
	static const struct { const char *filter; bool match; } filters[] = {
		{ "alice:web", true }, { "aaaa1111", true }, { "alice:db", false },
		{ "bbbb2222", false }, { "alice:cache", true }, { "cccc3333", false },
	};
	struct uct_model m;
	struct uct_view_ctx c = { .snapshot_src = "iter/ucounts", .hooks = "-", .degraded = "" };
	struct uct_rec recs[2];
	struct uct_tlim tl[6];
	int names = 0, dockers, r;
	char *out = NULL;
	size_t len = 0, i;
	FILE *f;

	recs[0] = mkrec(1, 0, 0, 0, 0, 0, 1, 0, 0, 0, INF);
	recs[1] = mkrec(1, 0, 1000, 0, 0, 0, 5, 0, 0, 0, INF);
	tl[0] = mktask(1, 0, 1, 1, 1, "init", "h");
	tl[1] = mktask(1, 1000, 100, 10, 201, "a", "h");
	tl[2] = mktask(1, 1000, 101, 11, 201, "a", "h");
	tl[3] = mktask(1, 1000, 110, 20, 301, "httpd", "h");
	tl[4] = mktask(1, 1000, 120, 30, 302, "db", "h");
	tl[5] = mktask(1, 1000, 130, 40, 303, "redis", "h");
	for (i = 0; i <= ARRAY_SIZE(filters); i++) {
		dockers = 0;
		uct_model_init(&m);
		m.cgroup_fn = rootless_cgroup_fn;
		m.docker_name_fn = fake_docker_name;
		m.docker_name_arg = &dockers;
		m.podman_name_fn = fake_podman_name;
		m.podman_name_arg = &names;
		if (i < ARRAY_SIZE(filters))
			snprintf(m.container_filter, sizeof(m.container_filter), "%s",
				 filters[i].filter);
		assert_int_equal(uct_model_update(&m, recs, 2, NULL, 0, 100.0), 0);
		assert_int_equal(uct_model_set_tasks(&m, tl, 6), 0);
		if (i < ARRAY_SIZE(filters)) {
			if (uct_model_name_matched(&m) != filters[i].match)
				fail_msg("--container %s: want %s", filters[i].filter,
					 filters[i].match ? "a match" : "none");
			/* a tenant's claim never asks root's engines */
			assert_true(dockers <= 1);
			uct_model_free(&m);
			continue;
		}
		uct_model_resolve_names(&m, -1, 0);
		f = open_memstream(&out, &len);
		assert_non_null(f);
		uct_view_batch(f, &m, &c);
		uct_view_json(f, &m, &c);
		uct_view_openmetrics(f, &m, &c);
		fclose(f);
		assert_non_null(strstr(out, " in web 2, alice:web 1, alice:cache 1, other 1\n"));
		/* root's container has its series; a tenant's claim has none */
		assert_non_null(strstr(out, "ucounttop_container_nproc_processes{ns=\"1\",kuid=\"1000\","
					    "container_id=\"" CID_A "\"} 2\n"));
		assert_null(strstr(out, "container_id=\"" CID_C));
		assert_non_null(strstr(out, "{\"container_id\":\"" CID_A "\",\"container_name\":"
					    "\"alice:web\",\"container_owner_uid\":1000,"));
		assert_non_null(strstr(out, "{\"container_id\":\"" CID_A "\",\"container_name\":"
					    "\"web\",\"container_owner_uid\":null,"));
		assert_null(strstr(out, CID_B));
		r = uct_model_find_row(&m, 1, 1000);
		assert_int_equal(m.rows[r].ncontainers, 3);
		assert_int_equal(dockers, 1);
		free(out);
		out = NULL;
		uct_model_free(&m);
	}
}

/* A shared uid's row has the limit its processes run under as its
 * limit series (the smallest of their rlimits), so that its usage ratio
 * and alerts exist; root's row has no RLIMIT_NPROC limit series (the
 * kernel never refuses kuid 0's forks), its other rlimits do */
static void test_shared_row_limits(void **state)
{
	struct uct_model m;
	struct uct_view_ctx c = { .snapshot_src = "iter/ucounts", .hooks = "-", .degraded = "" };
	struct uct_tlim tl[3];
	int lookups = 0;
	char *out = NULL;
	size_t len = 0;
	FILE *f;

	uct_model_init(&m);
	shares_update(&m, &lookups);
	tl[0] = mktask(1, 9000, 100, 10, 201, "a", "h");
	tl[1] = mktask(1, 9000, 110, 20, 202, "b", "h");
	tl[2] = mktask(1, 0, 1, 1, 1, "init", "h");
	tl[0].rlim[UCT_NPROC] = 7;
	tl[1].rlim[UCT_NPROC] = 5;		/* the smallest wins */
	tl[1].rlim[UCT_MSGQUEUE] = 819200;
	tl[0].rlim[UCT_SIGPENDING] = 0;		/* a sandbox's: left out */
	tl[1].rlim[UCT_SIGPENDING] = 100;
	tl[2].rlim[UCT_NPROC] = 3;		/* root: never refused */
	tl[2].rlim[UCT_MSGQUEUE] = 4096;
	uct_model_set_caller_limits_by_id(&m, tl, 3);
	f = open_memstream(&out, &len);
	assert_non_null(f);
	uct_view_openmetrics(f, &m, &c);
	fclose(f);
	assert_non_null(strstr(out, "\nucounttop_nproc_limit_processes{ns=\"1\",level=\"0\","
				    "kuid=\"9000\"} 5\n"));
	assert_non_null(strstr(out, "\nucounttop_msgqueue_limit_bytes{ns=\"1\",level=\"0\","
				    "kuid=\"9000\"} 819200\n"));
	assert_non_null(strstr(out, "\nucounttop_sigpending_limit_signals{ns=\"1\",level=\"0\","
				    "kuid=\"9000\"} 100\n"));
	assert_null(strstr(out, "\nucounttop_nproc_limit_processes{ns=\"1\",level=\"0\","
				 "kuid=\"0\"}"));
	assert_non_null(strstr(out, "\nucounttop_msgqueue_limit_bytes{ns=\"1\",level=\"0\","
				    "kuid=\"0\"} 4096\n"));
	free(out);
	uct_model_free(&m);
}

/* A Docker container's name stands for its id on the row's line, and
 * joins it in JSON; each cgroup's name is asked for once */
static void test_share_names(void **state)
{
	struct uct_model m;
	struct uct_view_ctx c = { .snapshot_src = "iter/ucounts", .hooks = "-", .degraded = "" };
	int lookups = 0, names = 0;
	char *out = NULL;
	size_t len = 0;
	FILE *f;

	uct_model_init(&m);
	m.docker_name_fn = fake_docker_name;
	m.docker_name_arg = &names;
	shares_update(&m, &lookups);
	uct_model_resolve_names(&m, -1, 0);
	/* A's two cgroups (docker-<A>.scope and one below); B's is
	 * containerd's, not asked */
	assert_int_equal(names, 2);
	f = open_memstream(&out, &len);
	assert_non_null(f);
	uct_view_batch(f, &m, &c);
	uct_view_json(f, &m, &c);
	fclose(f);
	assert_non_null(strstr(out, " in web 4, bbbb2222bbbb 1 (refused 2), other 1 (refused 1)\n"));
	assert_non_null(strstr(out, "{\"container_id\":\"" CID_A "\",\"container_name\":\"web\","));
	assert_non_null(strstr(out, "{\"container_id\":\"" CID_B "\",\"container_name\":null,"));
	free(out);
	uct_model_free(&m);
	/* --container web: the shared row, by A's name; a name is whole */
	uct_model_init(&m);
	m.docker_name_fn = fake_docker_name;
	m.docker_name_arg = &names;
	memcpy(m.container_filter, "web", 4);
	shares_update(&m, &lookups);
	assert_true(uct_model_name_matched(&m));
	assert_true(m.rows[uct_model_find_row(&m, 1, 9000)].visible);
	assert_false(m.rows[uct_model_find_row(&m, 1, 0)].visible);
	memcpy(m.container_filter, "we", 3);
	shares_update(&m, &lookups);
	assert_false(uct_model_name_matched(&m));
	uct_model_free(&m);
}

/* share_cgroup_fn, failing while *arg (a deadline missed on a busy
 * machine) */
static int flaky_cgroup_fn(void *arg, __u32 pid, __u64 id, char *path, size_t len,
			   size_t *trusted, __u32 *tenant)
{
	if (*(int *)arg)
		return -1;
	return share_cgroup_fn(NULL, pid, id, path, len, trusted, tenant);
}

/* The table's line of uid 9000's row, after the model's update at now,
 * with lookups failing while fail */
static char *shares_line_at(struct uct_model *m, double now, int fail)
{
	struct uct_view_ctx c = { .snapshot_src = "iter/ucounts", .hooks = "-", .degraded = "" };
	static int flag;
	char *out = NULL;
	size_t len = 0;
	FILE *f;

	shares_update_at(m, NULL, now);
	flag = fail;
	m->cgroup_fn = flaky_cgroup_fn;
	m->cgroup_arg = &flag;
	uct_model_resolve_names(m, -1, 0);
	f = open_memstream(&out, &len);
	assert_non_null(f);
	uct_view_batch(f, m, &c);
	fclose(f);
	return out;
}

/* A cgroup whose lookup failed is looked up again once its back-off is
 * over (2 s, then 4, 8 ..), not hidden as "other" for good; before
 * that, not at every refresh */
static void test_share_lookup_retried(void **state)
{
	static const char named[] = " in aaaa1111aaaa 4, bbbb2222bbbb 1 (refused 2), other 1 (refused 1)\n";
	/* each update: its time, whether lookups fail, whether named after */
	static const struct { double now; int fail; bool named; } steps[] = {
		{ 100.0, 1, false },	/* fails: nothing known, no split shown */
		{ 101.5, 0, false },	/* answers, but the back-off (2 s) is on */
		{ 102.0, 1, false },	/* over, fails again: 4 s now */
		{ 105.5, 0, false },
		{ 106.0, 0, true },
	};
	struct uct_model m;
	size_t i;
	char *out;

	uct_model_init(&m);
	for (i = 0; i < ARRAY_SIZE(steps); i++) {
		out = shares_line_at(&m, steps[i].now, steps[i].fail);
		assert_non_null(strstr(out, "  uid 9000 "));
		if (!strstr(out, named) != !steps[i].named ||
		    (!steps[i].named && strstr(out, " in ")))
			fail_msg("at %.1f s: want the row %s", steps[i].now,
				 steps[i].named ? "split by name" : "not split");
		free(out);
	}
	uct_model_free(&m);
}

static void test_shares(void **state)
{
	struct uct_model m;
	const struct uct_row *r;
	const struct uct_share *s;
	int lookups = 0, i;

	uct_model_init(&m);
	shares_update(&m, &lookups);
	i = uct_model_find_row(&m, 1, 9000);
	assert_true(i >= 0);
	r = &m.rows[i];
	/* one share per cgroup, with the row's refusals; none looked up yet */
	assert_int_equal(r->nshares, 5);
	assert_int_equal(lookups, 0);
	uct_model_resolve_names(&m, -1, 0);
	/* each cgroup once: 201..204 (205 has no process to look it up),
	 * and cgroup 1, the initial namespace's name, which fails */
	assert_int_equal(lookups, 5);
	assert_true(r->shared);
	/* one share per container: A's two cgroups are one, its own path */
	assert_int_equal(r->nshares, 4);
	assert_int_equal(r->ncontainers, 2);
	/* containers first, the most processes first */
	s = &m.shares[r->share];
	assert_string_equal(s[0].container, CID_A);
	assert_int_equal(s[0].processes, 4);	/* 1 + 2 threads, + 1 in init */
	assert_string_equal(s[0].cgroup, "/system.slice/docker-" CID_A ".scope");
	assert_string_equal(s[1].container, CID_B);
	assert_int_equal(s[1].processes, 1);
	assert_int_equal(s[1].denials[UCT_NPROC], 2);
	assert_null(s[2].container);
	assert_null(s[3].container);
	assert_int_equal(s[2].processes + s[3].processes, 1);
	assert_int_equal(s[2].denials[UCT_NPROC] + s[3].denials[UCT_NPROC], 1);
	/* the table's line of the row, and JSON's */
	{
		struct uct_view_ctx c = { .snapshot_src = "iter/ucounts", .hooks = "-",
					  .degraded = "" };
		char *out = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&out, &len);

		assert_non_null(f);
		uct_view_batch(f, &m, &c);
		uct_view_json(f, &m, &c);
		uct_view_openmetrics(f, &m, &c);
		fclose(f);
		assert_non_null(strstr(out, " in aaaa1111aaaa 4, bbbb2222bbbb 1 (refused 2), "
					    "other 1 (refused 1)\n"));
		assert_non_null(strstr(out, "\"shared\":true,\"containers\":[{\"container_id\":\""
					    CID_A "\",\"container_name\":null,\"container_owner_uid\":null,\"pod\":null,\"cgroup\":\"/system.slice/docker-" CID_A
					    ".scope\",\"processes\":4,\"denials\":{\"nproc\":0,"));
		assert_non_null(strstr(out, "\"other\":{\"processes\":1,\"denials\":{\"nproc\":1,"));
		/* a series per container, none for "other" */
		assert_non_null(strstr(out, "\nucounttop_container_nproc_processes{ns=\"1\",kuid=\"9000\","
					    "container_id=\"" CID_A "\"} 4\n"
					    "ucounttop_container_nproc_processes{ns=\"1\",kuid=\"9000\","
					    "container_id=\"" CID_B "\"} 1\n# TYPE"));
		assert_non_null(strstr(out, "\nucounttop_container_denials_total{ns=\"1\",kuid=\"9000\","
					    "container_id=\"" CID_B "\",type=\"nproc\"} 2\n"));
		assert_non_null(strstr(out, "\nucounttop_container_denials_total{ns=\"1\",kuid=\"9000\","
					    "container_id=\"" CID_A "\",type=\"nproc\"} 0\n"));
		free(out);
	}
	/* root's row has init only, in no container: not shared */
	i = uct_model_find_row(&m, 1, 0);
	assert_false(m.rows[i].shared);
	assert_int_equal(m.rows[i].ncontainers, 0);
	/* the next update: known, no lookup */
	shares_update(&m, &lookups);
	uct_model_resolve_names(&m, -1, 0);
	assert_int_equal(lookups, 5);
	uct_model_free(&m);
}

/* A container with a user namespace of its own: its rows' processes are
 * its own, not shared, also when a tty resolves a row's line without its
 * namespace's line (scrolled off) */
static void test_shares_own_namespace(void **state)
{
	struct uct_rec recs[3];
	struct uct_tlim tl[3];
	struct uct_model m;
	size_t i;
	int lookups = 0, r;

	uct_model_init(&m);
	recs[0] = mkrec(1, 0, 0, 0, 0, 0, 3, 0, 0, 0, INF);
	recs[1] = mkrec(10, 1, 1000, 1, 0, 0, 2, 0, 0, 0, 50);
	tl[0] = mktask(1, 0, 1, 1, 1, "init", "h");
	tl[1] = mktask(10, 1000, 100, 10, 201, "a", "h");
	tl[2] = mktask(10, 1000, 101, 11, 201, "a", "h");
	m.cgroup_fn = share_cgroup_fn;
	m.cgroup_arg = &lookups;
	assert_int_equal(uct_model_update(&m, recs, 2, NULL, 0, 100.0), 0);
	assert_int_equal(uct_model_set_tasks(&m, tl, 3), 0);
	r = uct_model_find_row(&m, 10, 1000);
	for (i = 0; i < m.nlines; i++)
		if (!m.lines[i].is_ns && m.lines[i].index == r)
			break;
	assert_true(i < m.nlines);
	/* that row's line alone, as a tty showing it last */
	uct_model_resolve_names(&m, (int)i, 1);
	assert_int_equal(m.rows[r].ncontainers, 1);
	assert_false(m.rows[r].shared);
	uct_model_free(&m);
}

/* --container selects a row some of whose processes are in it */
static void test_shares_filter(void **state)
{
	struct uct_model m;
	int lookups = 0, i;

	uct_model_init(&m);
	memcpy(m.container_filter, "bbbb22", 7);
	shares_update(&m, &lookups);
	assert_true(uct_model_name_matched(&m));
	i = uct_model_find_row(&m, 1, 9000);
	assert_true(m.rows[i].visible);
	i = uct_model_find_row(&m, 1, 0);
	assert_false(m.rows[i].visible);
	memcpy(m.container_filter, "cccc", 5);
	shares_update(&m, &lookups);
	assert_false(uct_model_name_matched(&m));
	uct_model_free(&m);
}

/* Each namespace is named by its oldest process (start time, then pid);
 * records of other namespaces or without a pid change nothing */
static void test_names_oldest_process(void **state)
{
	struct uct_rec recs[16];
	size_t n;
	int lookups = 0;
	struct uct_model *m = setup_names(&n, recs, &lookups);
	const struct uct_nsname *n1 = nsname(m, 1), *n100 = nsname(m, 100);

	assert_true(m->have_tasks);
	assert_int_equal(n1->pid, 1);
	assert_string_equal(n1->comm, "init");
	assert_string_equal(n1->hostname, "uct-guest");
	assert_int_equal(n1->ntasks, 2);
	assert_int_equal(n100->pid, 300);		/* 300 and 301 tie: the lower pid */
	assert_string_equal(n100->comm, "nginx");
	assert_string_equal(n100->hostname, "web-1");
	assert_int_equal(n100->ntasks, 3);
	assert_int_equal(n100->cgroup_id, 77);
	assert_int_equal(nsname(m, 200)->pid, 0);
	assert_int_equal(nsname(m, 200)->ntasks, 0);
	/* only the namespaces with a process have a name of their own */
	assert_int_equal(m->nnames, 2);
	assert_true(nsname(m, 200) < m->names || nsname(m, 200) >= m->names + m->nnames);
	/* no lookup until asked; then one per cgroup */
	assert_int_equal(lookups, 0);
	assert_true(n100->pending);
	uct_model_resolve_names(m, -1, 0);
	assert_int_equal(lookups, 2);
	assert_string_equal(n100->cgroup, TEST_CGROUP);
	assert_string_equal(n100->container, TEST_CID);
	assert_string_equal(n1->cgroup, "/");
	assert_null(n1->container);

	/* a full-width comm and hostname from the kernel: cut, terminated */
	{
		struct uct_tlim t = mktask(1, 0, 1, 1, 1, "0123456789abcdefXX",
					   "0123456789012345678901234567890123456789"
					   "0123456789012345678901234567890123456789");

		assert_int_equal(uct_model_set_tasks(m, &t, 1), 0);
		assert_int_equal(strlen(nsname(m, 1)->comm), UCT_COMM_LEN - 1);
		assert_int_equal(strlen(nsname(m, 1)->hostname), UCT_HOST_LEN - 1);
	}
	teardown_model(m);
}

/* A namespace with no process says what holds it: its rows' own charges
 * (beyond what their child namespaces explain), the namespaces they
 * created. */
static void test_names_held(void **state)
{
	struct uct_rec recs[16];
	size_t n;
	struct uct_model *m = setup_model(&n, recs);
	struct uct_tlim t = mktask(1, 0, 1, 10, 0, "init", "h");

	assert_int_equal(uct_model_set_tasks(m, &t, 1), 0);
	/* 200: (200,1002) holds 2048 bytes of queues of its own */
	assert_int_equal(nsheld(m, 200), UCT_HELD_QUEUE);
	/* 100: (100,1002) created 200; its queue bytes are 200's, but
	 * (100,1001) has signals of its own */
	assert_int_equal(nsheld(m, 100), UCT_HELD_CHILD_NS | UCT_HELD_SIGNAL);
	assert_int_equal(nsheld(m, 1), 0);	/* it has a process */

	/* a child namespace with no rows of its own shows in the counter
	 * (UCT_REC_USERNS) only; a locked segment */
	recs[0].flags |= UCT_REC_USERNS;	/* (200,1002) */
	recs[0].value[UCT_MSGQUEUE] = 0;
	recs[0].value[UCT_MEMLOCK] = 3;
	assert_int_equal(uct_model_update(m, recs, n, NULL, 0, 101.0), 0);
	assert_int_equal(uct_model_set_tasks(m, &t, 1), 0);
	assert_int_equal(nsheld(m, 200), UCT_HELD_CHILD_NS | UCT_HELD_LOCKED);
	/* an update without task records: names unknown */
	assert_int_equal(uct_model_update(m, recs, n, NULL, 0, 102.0), 0);
	assert_false(m->have_tasks);
	assert_int_equal(nsheld(m, 200), 0);
	teardown_model(m);
}

/* The hostname counts when it differs from the nearest ancestor's that
 * has a process; never for the initial namespace */
static void test_names_own_host(void **state)
{
	struct uct_rec recs[16];
	size_t n;
	struct uct_model *m = setup_model(&n, recs);
	struct uct_tlim t[3] = {
		mktask(1, 0, 1, 10, 0, "init", "host"),
		mktask(100, 1001, 5, 20, 0, "a", "host"),
		mktask(200, 1002, 6, 30, 0, "b", "inner"),
	};

	assert_int_equal(uct_model_set_tasks(m, t, 3), 0);
	assert_false(nsname(m, 1)->own_host);
	assert_false(nsname(m, 100)->own_host);
	assert_true(nsname(m, 200)->own_host);
	/* 100 without a process: 200 is compared with 1 */
	assert_int_equal(uct_model_set_tasks(m, (struct uct_tlim[]){ t[0], t[2] }, 2), 0);
	assert_true(nsname(m, 200)->own_host);
	t[2] = mktask(200, 1002, 6, 30, 0, "b", "host");
	assert_int_equal(uct_model_set_tasks(m, (struct uct_tlim[]){ t[0], t[2] }, 2), 0);
	assert_false(nsname(m, 200)->own_host);
	teardown_model(m);
}

/* Cgroup paths: looked up once per cgroup, kept across updates while a
 * namespace is in it; a failed lookup is not repeated for the same
 * process; a tty resolves the namespaces of the lines it shows */
static void test_names_cgroup_cache(void **state)
{
	struct uct_rec recs[16];
	size_t n, nt;
	int lookups = 0;
	struct uct_model *m = setup_names(&n, recs, &lookups);
	struct uct_tlim tl[16];

	/* lines: ns1, its 3 rows, ns100 ...: only ns 1 on "screen" */
	uct_model_resolve_names(m, 0, 4);
	assert_int_equal(lookups, 1);
	assert_string_equal(nsname(m, 1)->cgroup, "/");
	assert_true(nsname(m, 100)->pending);
	uct_model_resolve_names(m, -1, 0);
	assert_int_equal(lookups, 2);
	/* the next update: known, no lookup */
	nt = base_tasks(tl);
	assert_int_equal(uct_model_update(m, recs, n, NULL, 0, 101.0), 0);
	assert_int_equal(uct_model_set_tasks(m, tl, nt), 0);
	assert_false(nsname(m, 100)->pending);
	assert_string_equal(nsname(m, 100)->container, TEST_CID);
	uct_model_resolve_names(m, -1, 0);
	assert_int_equal(lookups, 2);
	/* nginx moved to a cgroup the lookup cannot find: unknown, asked once */
	tl[0].cgroup_id = tl[2].cgroup_id = tl[4].cgroup_id = 99;
	assert_int_equal(uct_model_update(m, recs, n, NULL, 0, 102.0), 0);
	assert_int_equal(uct_model_set_tasks(m, tl, nt), 0);
	uct_model_resolve_names(m, -1, 0);
	assert_int_equal(lookups, 3);
	assert_null(nsname(m, 100)->cgroup);
	assert_null(nsname(m, 100)->container);
	assert_int_equal(uct_model_update(m, recs, n, NULL, 0, 103.0), 0);
	assert_int_equal(uct_model_set_tasks(m, tl, nt), 0);
	uct_model_resolve_names(m, -1, 0);
	assert_int_equal(lookups, 3);
	/* cgroup 77 was swept when nothing was in it: a lookup again */
	nt = base_tasks(tl);
	assert_int_equal(uct_model_update(m, recs, n, NULL, 0, 104.0), 0);
	assert_int_equal(uct_model_set_tasks(m, tl, nt), 0);
	uct_model_resolve_names(m, -1, 0);
	assert_int_equal(lookups, 4);
	assert_int_equal(m->cgroup_lookups, 4);
	/* no lookup function: nothing known, nothing breaks */
	m->cgroup_fn = NULL;
	tl[0].cgroup_id = tl[2].cgroup_id = tl[4].cgroup_id = 88;
	assert_int_equal(uct_model_update(m, recs, n, NULL, 0, 105.0), 0);
	assert_int_equal(uct_model_set_tasks(m, tl, nt), 0);
	uct_model_resolve_names(m, -1, 0);
	assert_null(nsname(m, 100)->cgroup);
	teardown_model(m);
}

/* --container: the matching namespace, all below it, and the rows its
 * charges reach upwards; the search: container id, hostname or comm */
static void test_names_filters(void **state)
{
	struct uct_rec recs[16];
	size_t n;
	int lookups = 0;
	struct uct_model *m = setup_names(&n, recs, &lookups);
	char got[128];

	strcpy(m->container_filter, "3f2a");
	assert_int_equal(uct_model_relayout(m), 0);
	/* relayout alone does not look anything up: still pending */
	assert_false(uct_model_name_matched(m));
	uct_model_resolve_names(m, -1, 0);
	assert_int_equal(uct_model_relayout(m), 0);
	assert_true(uct_model_name_matched(m));
	lines_of(m, got, sizeof(got));
	assert_string_equal(got, "ns1 1001 ns100 1001 1002 ns200 1002 ");
	/* the next update resolves and lays out by itself */
	{
		struct uct_tlim tl[16];
		size_t nt = base_tasks(tl);

		assert_int_equal(uct_model_update(m, recs, n, NULL, 0, 101.0), 0);
		assert_int_equal(uct_model_set_tasks(m, tl, nt), 0);
		lines_of(m, got, sizeof(got));
		assert_string_equal(got, "ns1 1001 ns100 1001 1002 ns200 1002 ");
	}
	strcpy(m->container_filter, "3f2b");
	assert_int_equal(uct_model_relayout(m), 0);
	assert_false(uct_model_name_matched(m));
	assert_int_equal(m->nlines, 0);

	/* the search, any case: hostname, comm, a piece of the id */
	m->container_filter[0] = 0;
	strcpy(m->search, "WEB");
	assert_int_equal(uct_model_relayout(m), 0);
	lines_of(m, got, sizeof(got));
	assert_string_equal(got, "ns1 1001 ns100 1001 1002 ns200 1002 ");
	strcpy(m->search, "init");
	assert_int_equal(uct_model_relayout(m), 0);
	assert_int_equal(m->nlines, 9);			/* the root: everything */
	strcpy(m->search, "c4d5e6f708");
	assert_int_equal(uct_model_relayout(m), 0);
	assert_true(uct_model_name_matched(m));
	assert_false(m->ns[uct_model_find_ns(m, 1)].name_match);
	strcpy(m->search, "nobody");
	assert_int_equal(uct_model_relayout(m), 0);
	assert_int_equal(m->nlines, 0);
	/* with --pid: both must hold */
	strcpy(m->search, "nginx");
	m->pid_filter = 1;
	m->pid_ns = 1;
	m->pid_uid = 1001;
	assert_int_equal(uct_model_relayout(m), 0);
	lines_of(m, got, sizeof(got));
	assert_string_equal(got, "ns1 1001 ");
	teardown_model(m);
}

static void test_parse_limits(void **state)
{
	const char *text =
		"Limit                     Soft Limit           Hard Limit           Units\n"
		"Max processes             1                    1                    processes\n"
		"Max locked memory         8388608              8388608              bytes\n"
		"Max pending signals       3903                 3903                 signals\n"
		"Max msgqueue size         unlimited            unlimited            bytes\n";
	long long rlim[UCT_NTYPES];

	assert_int_equal(uct_parse_limits(text, rlim), 0);
	assert_int_equal(rlim[UCT_NPROC], 1);
	assert_int_equal(rlim[UCT_SIGPENDING], 3903);
	assert_true(rlim[UCT_MSGQUEUE] == LLONG_MAX);
	assert_int_equal(rlim[UCT_MEMLOCK], 2048);	/* bytes -> pages */
	assert_int_equal(uct_parse_limits("Max processes 1\n", rlim), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tree_shape),
		cmocka_unit_test(test_display_order),
		cmocka_unit_test(test_limits_and_child_sums),
		cmocka_unit_test(test_stats_entries_move),
		cmocka_unit_test(test_delta_extremes),
		cmocka_unit_test(test_row_sizes),
		cmocka_unit_test(test_smallest_max_is_the_limit),
		cmocka_unit_test(test_imbalanced),
		cmocka_unit_test(test_duplicates_merged),
		cmocka_unit_test(test_deltas_and_new),
		cmocka_unit_test(test_stats_join),
		cmocka_unit_test(test_prune_absent_entries),
		cmocka_unit_test(test_reused_name_is_a_new_row),
		cmocka_unit_test(test_arrival_order),
		cmocka_unit_test(test_restarted_counters_never_wrap),
		cmocka_unit_test(test_address_only_entries),
		cmocka_unit_test(test_parent_circle_shown),
		cmocka_unit_test(test_filters),
		cmocka_unit_test(test_pid_chain),
		cmocka_unit_test(test_ns_uids),
		cmocka_unit_test(test_sort_and_collapse),
		cmocka_unit_test(test_orphan_namespace),
		cmocka_unit_test(test_empty),
		cmocka_unit_test(test_sort_names),
		cmocka_unit_test(test_caller_limits),
		cmocka_unit_test(test_caller_limits_by_id),
		cmocka_unit_test(test_parse_limits),
		cmocka_unit_test(test_names_oldest_process),
		cmocka_unit_test(test_names_held),
		cmocka_unit_test(test_names_own_host),
		cmocka_unit_test(test_names_cgroup_cache),
		cmocka_unit_test(test_shares),
		cmocka_unit_test(test_share_names),
		cmocka_unit_test(test_share_lookup_retried),
		cmocka_unit_test(test_shared_row_limits),
		cmocka_unit_test(test_share_rootless_names),
		cmocka_unit_test(test_share_pod_names),
		cmocka_unit_test(test_shares_own_namespace),
		cmocka_unit_test(test_shares_filter),
		cmocka_unit_test(test_names_filters),
	};

	return cmocka_run_group_tests_name("model", tests, NULL, NULL);
}
