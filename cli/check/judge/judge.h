/* SPDX-License-Identifier: GPL-2.0 */
/*
 * judge.h - `ucounttop check`'s judge: which counter changes of a
 * workload are errors, and of which class. Pure: no libbpf, no kernel;
 * check's driver (check_capture.c) fills a judge_input from the BPF maps
 * and iterators, the unit tests and the fuzzer fill it with synthetic
 * baselines, finals and event aggregates.
 *
 * Quantities, per row R = (ns, uid) and rlimit type, each a field of
 * struct judge_row (judge_internal.h); docs/architecture.md writes them D, T, U,
 * E, X and Y:
 *
 *   change            the counter from the baseline to the final
 *                     snapshot, plus what a free of R itself took away
 *                     (see freed-while-charged);
 *   tallied           net of the charges and uncharges that reached R
 *                     (the BPF tally, walked up the chain like the kernel
 *                     does);
 *   untallied         change - tallied: what no charge or uncharge made
 *                     (a direct write);
 *   evidence          change of the objects that hold charges in R's
 *                     subtree: tasks (NPROC), pending signals and POSIX
 *                     timers (SIGPENDING), message queues (MSGQUEUE),
 *                     SHM_LOCKed segments (MEMLOCK);
 *   unexplained       change - evidence - freed_below - unpropagated:
 *                     what nothing explains (freed_below: freed while
 *                     charged in the subtree; unpropagated: direct writes
 *                     already reported as hierarchy mismatches);
 *   unexplained_here  unexplained minus that of R's child rows: the part
 *                     that originates at R. Above 0 a lost uncharge,
 *                     below 0 a double uncharge.
 */
#ifndef UCT_JUDGE_H
#define UCT_JUDGE_H

#include <stdbool.h>
#include <stddef.h>
#include "common.h"
#include "ucounttop_check.h"

/* What a finding is (docs/architecture.md, "check and its judge"). */
enum judge_class {
	JUDGE_LOST_UNCHARGE,		/* charged, never uncharged */
	JUDGE_DOUBLE_UNCHARGE,		/* uncharged more than charged */
	JUDGE_FREED_CHARGED,		/* a ucounts freed while charged */
	JUDGE_HIERARCHY_MISMATCH,	/* a change that missed a level above */
	JUDGE_ADMITTED_OVER_LIMIT,	/* a charge the limit should have refused */
	JUDGE_OUTSTANDING,		/* legitimately outstanding (not an error) */
	JUDGE_NCLASSES
};

/*
 * Runs of check's programs the kernel skipped (recursion_misses; see
 * uct_prog_misses()), by what the skipped events would have fed. No
 * trace of a skipped event is left, so what depends on it is not judged.
 */
enum judge_miss {
	JUDGE_MISS_CHARGE,	/* charges and uncharges: the tally, open charges,
				 * the fate of an over-limit charge */
	JUDGE_MISS_LIMIT,		/* limit checks, and the entry and return marks
				 * of every change (the re-read's race guard) */
	JUDGE_MISS_FREE,		/* ucounts_free */
	JUDGE_MISS_MQ,		/* message queue lifetimes */
	JUDGE_MISS_SHM,		/* SHM_LOCK lifetimes */
	JUDGE_NMISS
};

/* Map contents as read by user space. */
struct judge_inv_kv { struct uck_inv_key k; __u64 n; };	/* n: value */
struct judge_agg_kv { struct uck_agg_key k; struct uck_agg v; };
struct judge_item_kv { struct uck_item_key k; struct uck_item v; };
struct judge_over_kv { struct uck_over_key k; struct uck_over v; };
struct judge_pend_kv { __u32 tid; struct uck_pend v; };
struct judge_free_kv { struct uck_free_key k; struct uck_free v; };
struct judge_obj_kv { __u64 id; struct uck_obj v; };
struct judge_rt_kv { struct uck_rt_key k; struct uck_sum v; };
struct judge_tally_kv { struct uct_key k; struct uck_tally v; };

/* One consistent capture: snapshot, inventory, tally map. */
struct judge_capture {
	struct uck_rec *recs;
	size_t nrecs;
	struct judge_inv_kv *inv;
	size_t ninv;
	struct judge_tally_kv *tally;
	size_t ntally;
	/* counters kept changing while every try was read: the classes that
	 * compare counters with the tally (lost and double uncharges,
	 * hierarchy mismatches) are not judged */
	bool torn;
};

/*
 * Whether captures a and b saw one state of the kernel: the same rows with
 * the same counters and the same tallies (nothing charged or uncharged in
 * between), and the same inventory. Sorts both. check's baseline is two
 * captures in a row for which this holds. Counters and tallies are
 * compared each, not as counter minus tally: that difference stays the
 * same across every change the hooks see, so a capture whose task
 * iterator missed a task still charged (a child being forked: charged in
 * copy_creds(), listed only once attach_pid() links it) would match a
 * later, sound one taken after an uncharge and make a false double
 * uncharge; a task already uncharged but still listed (release_task()
 * uncharges before it unhashes) a false lost uncharge the same way.
 */
bool judge_same_state(struct judge_capture *a, struct judge_capture *b);
/* Free the arrays a capture owns (check's, read off the kernel), and
 * zero it. */
void judge_capture_free(struct judge_capture *c);

struct judge_input {
	struct judge_capture base, fin;
	bool complete;			/* iter/ucounts: every live ucounts */
	const struct judge_agg_kv *agg;
	size_t nagg;
	const struct judge_item_kv *items;	/* open charges */
	size_t nitems;
	const struct judge_over_kv *over;
	size_t nover;
	const struct judge_pend_kv *pend;	/* still pending at the end */
	size_t npend;
	const struct judge_free_kv *freed;
	size_t nfreed;
	const struct judge_obj_kv *objs;
	size_t nobjs;
	const struct judge_rt_kv *pre_rel;
	size_t npre_rel;
	const struct judge_rt_kv *gone;
	size_t ngone;
	unsigned long long counters[UCK_NCOUNTERS];
	unsigned long long missed[JUDGE_NMISS];	/* runs the kernel skipped */
	/* what the kernel let us hook */
	bool have_free_tp;		/* freed-while-charged */
	bool have_overlimit;		/* is_rlimit_overlimit (admitted-over-limit, NPROC) */
	bool have_mq_hooks;		/* MSGQUEUE evidence */
	bool have_shm_hooks;		/* MEMLOCK evidence */
	bool fail_outstanding;
};

/* What a kernel stack responsible for (part of) a finding did. */
enum judge_stack_kind {
	JUDGE_STACK_OPEN,	/* charges never paired with an uncharge */
	JUDGE_STACK_CHARGE,	/* charges (all) */
	JUDGE_STACK_UNCHARGE,	/* uncharges (all) */
	JUDGE_STACK_UNMATCHED,	/* uncharges with no open charge */
	JUDGE_STACK_NEGATIVE,	/* uncharges that left the level below zero */
	JUDGE_STACK_FREE,	/* the put_ucounts() that freed it */
	JUDGE_STACK_CHECK,	/* the limit check that said "within" */
	JUDGE_STACK_OVER,	/* the charge that went over */
	JUDGE_STACK_NKINDS
};

struct judge_stackref {
	__s32 stack_id;
	__u32 kind;			/* enum judge_stack_kind */
	unsigned long long count;	/* events */
	long long total;		/* amount */
	__u32 pid;
	char comm[UCT_COMM_LEN];
};

struct judge_finding {
	enum judge_class cls;
	bool failing;			/* makes check exit 1 */
	__u32 ns_inum, uid, level;
	int type;			/* UCT_NPROC.. */
	long long amount;		/* ucounttop(8), CHECK, per class */
	/* the row's counter, and the events that reached it */
	bool in_base, in_final;		/* the snapshots showed the row */
	bool inferred;			/* values inferred from the events */
	long long baseline, final;
	long long tally;		/* net charged at this level since baseline */
	long long charged, uncharged;	/* at this row itself (leaf events) */
	long long ev_base, ev_final;	/* evidence objects, this row only */
	/* hierarchy-mismatch, admitted-over-limit: the level concerned */
	__u32 at_ns, at_uid;
	int at_level;
	long long value, limit;
	char how[640];			/* how the verdict was reached */
	struct judge_stackref *stacks;
	size_t nstacks;
};

/* A row whose changes a state-based class that was skipped (its reason in
 * judge_result.skipped) could not judge: said per row, never dropped */
struct judge_undecided {
	__u32 ns_inum, uid, level;
	int type;			/* UCT_NPROC.. */
	unsigned int classes;		/* 1 << enum judge_class, each not judged */
};

struct judge_result {
	struct judge_finding *f;
	size_t n, cap;
	struct judge_undecided *u;	/* rows that changed, by type */
	size_t nu, capu;
	bool checked[JUDGE_NCLASSES];
	char skipped[JUDGE_NCLASSES][320];	/* why a class was not checked, or "" */
	size_t nfail;			/* failing findings */
	size_t counts[JUDGE_NCLASSES];	/* findings per class */
	/* statistics for the summary */
	unsigned long long refused_rolled_back;	/* over-limit charges undone */
	unsigned long long privileged_over;	/* allowed: privileged callers */
	unsigned long long deferred_nproc;	/* set*uid/unshare: not enforced */
	size_t rows;			/* rows judged */
	unsigned long long missed[JUDGE_NMISS];	/* the input's, for the reports */
	char notes[2048];		/* incomplete data, degraded checks */
};

/*
 * Free the arrays of an input that owns them (check's, read off the
 * kernel; the unit tests' own nothing): those read from the event maps,
 * all but the captures; or all of them, zeroing it.
 */
void judge_input_free_maps(struct judge_input *in);
void judge_input_free(struct judge_input *in);

/* Judge. r is overwritten. 0 or -ENOMEM. */
int judge_run(const struct judge_input *in, struct judge_result *r);
void judge_result_free(struct judge_result *r);
/*
 * A failing state-based finding (lost or double uncharge, hierarchy
 * mismatch, outstanding with --fail-outstanding) of r stands only if prev - the capture judged just
 * before - has it too, same class, row, type and amount. One capture can
 * catch a task between its NPROC uncharge and its unhashing, or a signal
 * between its queueing and its charge, while the rest of the system
 * moves: such a finding is kept, not failing, with a note in its how.
 */
void judge_result_confirm(struct judge_result *r, const struct judge_result *prev);

/* True when the state-based classes (see judge_result_confirm()) found
 * nothing failing: nothing a later capture could make go away. */
bool judge_result_settled(const struct judge_result *r);

/* "charges", "limit checks", ...: what a miss group's events are */
const char *judge_miss_name(enum judge_miss m);
/* The same as a JSON key. */
const char *judge_miss_key(enum judge_miss m);
/* All of them, summed. */
unsigned long long judge_missed_total(const unsigned long long missed[JUDGE_NMISS]);

/* "lost-uncharge", "double-uncharge", "freed-while-charged",
 * "hierarchy-mismatch", "admitted-over-limit", "outstanding" */
const char *judge_class_name(enum judge_class c);
/* The same with underscores, for JSON keys. */
const char *judge_class_key(enum judge_class c);

#endif /* UCT_JUDGE_H */
