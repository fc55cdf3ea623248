/* SPDX-License-Identifier: GPL-2.0 */
/*
 * judge_internal.h - the inside of check's judge, shared by its files (not an
 * API; judge.h is):
 *   input.c     every input quantity bounded, once
 *   rows.c      the rows and their quantities, from the captures
 *   findings.c  findings, their stacks and their "how"
 *   lost_double.c      a and b: lost and double uncharges
 *   freed.c     c: freed while charged
 *   hierarchy.c      d: hierarchy mismatch
 *   admitted.c     e: admitted over limit
 *   outstanding.c  charges legitimately still held
 *   judge.c     what the data lets us decide, and the order of it
 */
#ifndef UCT_CHECK_JUDGE_H
#define UCT_CHECK_JUDGE_H

#include "judge.h"


/* One row (ns, uid): what was read of it, and what follows (see
 * judge.h for the quantities D, T, U, E, X, Y by their letters). */
struct judge_row {
	struct uct_key k;
	struct uct_key pk;		/* parent key */
	bool has_parent;
	bool root;
	bool known;			/* in a snapshot or a free record */
	__u32 level;
	bool in_b, in_f;		/* in the baseline / final snapshot */
	bool has_tally_base, has_tally_final;
	bool inferred;			/* a snapshot missed it: values inferred */
	/* read */
	long long base[UCT_NTYPES], final[UCT_NTYPES];	/* the counter at baseline and end */
	long long tally_base[UCT_NTYPES], tally_final[UCT_NTYPES];	/* net charged to it by then */
	long long freed_value[UCT_NTYPES];	/* counters when it was freed (class c) */
	long long inv_base[UCK_NINV], inv_final[UCK_NINV];	/* tasks, signals, timers */
	long long obj_amount[UCT_NTYPES], obj_count[UCT_NTYPES];	/* queues/segments made since */
	long long pre_released[UCT_NTYPES], pre_released_n[UCT_NTYPES];	/* ... older ones released */
	long long gone[UCT_NTYPES];		/* segments evicted still locked */
	long long charged[UCT_NTYPES], uncharged[UCT_NTYPES];	/* events at this row itself */
	/* derived */
	int par;
	int *kids;
	int nkids, capkids;
	int depth;
	long long change[UCT_NTYPES];		/* D: final + freed_value - base */
	long long tallied[UCT_NTYPES];		/* T: net of the charges that reached it */
	long long untallied[UCT_NTYPES];	/* U = D - T: change no charge made */
	long long untallied_here[UCT_NTYPES];	/* U minus the children's U */
	long long evidence[UCT_NTYPES];		/* E: held by objects in its subtree */
	long long evidence_own[UCT_NTYPES];	/* ... by its own */
	long long freed_below[UCT_NTYPES];	/* freed while charged in its subtree */
	long long unpropagated[UCT_NTYPES];	/* direct writes that did not propagate (d) */
	long long unexplained[UCT_NTYPES];	/* X = D - E - freed_below - unpropagated */
	long long unexplained_here[UCT_NTYPES];	/* Y = X minus the children's X */
	long long stopped_here[UCT_NTYPES];	/* unpropagated changes that stopped here */
};

struct judge_rows {
	struct judge_row *r;
	size_t n, cap;
	int *hash;			/* open addressing, -1 empty */
	size_t hcap;
	size_t cycles;			/* parent links refused: they closed a circle */
};

/* Classes a and b cannot be decided for these types, d2 at all. */
struct judge_undecidable {
	bool ab[UCT_NTYPES];		/* a/b not decidable for this type */
	bool d2;		/* untracked changes not decidable */
	bool out[UCT_NTYPES];		/* the live objects of this type not known */
};


/* input.c: a copy of in with every quantity within +-2^53 */
int judge_input_bounded(const struct judge_input *in, struct judge_input *out);
void judge_input_free(struct judge_input *b);
long long judge_bound(long long v);

/* rows.c */
int judge_rows_find(const struct judge_rows *rs, const struct uct_key *k);
struct judge_row *judge_rows_get(struct judge_rows *rs, const struct uct_key *k);
void judge_rows_free(struct judge_rows *rs);
int judge_rows_build(const struct judge_input *in, struct judge_rows *rs);
/* Row indexes, deepest first (children before parents). */
int *judge_rows_by_depth(const struct judge_rows *rs);
/* Values a snapshot could not show, then D, T, U, the evidence, and the
 * subtree sums in order (children first). */
void judge_rows_derive(const struct judge_input *in, struct judge_rows *rs, const int *order);

/* findings.c */
struct judge_finding *judge_add_finding(struct judge_result *r, enum judge_class cls,
					const struct judge_row *w, int type);
void judge_how(struct judge_finding *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int judge_add_stack(struct judge_finding *f, __s32 sid, __u32 kind, unsigned long long count,
		    long long total, __u32 pid, const char *comm);
int judge_stack_cmp(const void *a, const void *b);
int judge_stacks_from_agg(const struct judge_input *in, struct judge_finding *f, __u32 agg_kind,
			  __u32 sr_kind);
int judge_stacks_open(const struct judge_input *in, struct judge_finding *f, size_t *n);
const char *judge_evidence_name(int type);
void judge_evidence_counts(const struct judge_row *w, int type, long long *eb, long long *ef);
void judge_evidence_how(struct judge_finding *f, const struct judge_row *w, int type);
void judge_counter_how(struct judge_finding *f, const struct judge_row *w, int type);
void judge_note(struct judge_result *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Class c is not judged, and why (the first reason given stays). */
void judge_skip(struct judge_result *r, enum judge_class c, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
int judge_finding_cmp(const void *a, const void *b);

/* the classes */
int judge_find_lost_double(const struct judge_input *in, struct judge_rows *rs, const int *order,
			   const struct judge_undecidable *sk, struct judge_result *r);
int judge_find_freed(const struct judge_input *in, struct judge_rows *rs, struct judge_result *r);
int judge_find_hierarchy(const struct judge_input *in, struct judge_rows *rs, const int *order,
			 const struct judge_undecidable *sk, struct judge_result *r);
/* findings false: only the summary's counts (the class is not judged) */
int judge_find_admitted(const struct judge_input *in, bool findings, struct judge_result *r);
int judge_find_outstanding(const struct judge_input *in, struct judge_rows *rs,
			   const struct judge_undecidable *sk, struct judge_result *r);

#endif /* UCT_CHECK_JUDGE_H */
