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

#define NT UCT_NTYPES

/* One row (ns, uid): what was read of it, and what follows (see
 * judge.h for the quantities D, T, U, E, X, Y by their letters). */
struct row {
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
	long long base[NT], final[NT];	/* the counter at baseline and end */
	long long tally_base[NT], tally_final[NT];	/* net charged to it by then */
	long long freed_value[NT];	/* counters when it was freed (class c) */
	long long inv_base[UCK_NINV], inv_final[UCK_NINV];	/* tasks, signals, timers */
	long long obj_amount[NT], obj_count[NT];	/* queues/segments made since */
	long long pre_released[NT], pre_released_n[NT];	/* ... older ones released */
	long long gone[NT];		/* segments evicted still locked */
	long long charged[NT], uncharged[NT];	/* events at this row itself */
	/* derived */
	int par;
	int *kids;
	int nkids, capkids;
	int depth;
	long long change[NT];		/* D: final + freed_value - base */
	long long tallied[NT];		/* T: net of the charges that reached it */
	long long untallied[NT];	/* U = D - T: change no charge made */
	long long untallied_here[NT];	/* U minus the children's U */
	long long evidence[NT];		/* E: held by objects in its subtree */
	long long evidence_own[NT];	/* ... by its own */
	long long freed_below[NT];	/* freed while charged in its subtree */
	long long unpropagated[NT];	/* direct writes that did not propagate (d) */
	long long unexplained[NT];	/* X = D - E - freed_below - unpropagated */
	long long unexplained_here[NT];	/* Y = X minus the children's X */
	long long stopped_here[NT];	/* unpropagated changes that stopped here */
};

struct rows {
	struct row *r;
	size_t n, cap;
	int *hash;			/* open addressing, -1 empty */
	size_t hcap;
	size_t cycles;			/* parent links refused: they closed a circle */
};

/* Classes a and b cannot be decided for these types, d2 at all. */
struct skip {
	bool ab[NT];		/* a/b not decidable for this type */
	bool d2;		/* untracked changes not decidable */
	bool out[NT];		/* the live objects of this type not known */
};


/* input.c: a copy of in with every quantity within +-2^53 */
int ck_input_bounded(const struct uck_input *in, struct uck_input *out);
void ck_input_free(struct uck_input *b);
long long ck_bound(long long v);

/* rows.c */
int ck_rows_find(const struct rows *rs, const struct uct_key *k);
struct row *ck_rows_get(struct rows *rs, const struct uct_key *k);
void ck_rows_free(struct rows *rs);
int ck_rows_build(const struct uck_input *in, struct rows *rs);
/* Row indexes, deepest first (children before parents). */
int *ck_rows_by_depth(const struct rows *rs);
/* Values a snapshot could not show, then D, T, U, the evidence, and the
 * subtree sums in order (children first). */
void ck_rows_derive(const struct uck_input *in, struct rows *rs, const int *order);

/* findings.c */
struct uck_finding *ck_add_finding(struct uck_result *r, enum uck_class cls,
				   const struct row *w, int type);
void ck_how(struct uck_finding *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int ck_add_stack(struct uck_finding *f, __s32 sid, __u32 kind, unsigned long long count,
		 long long total, __u32 pid, const char *comm);
int ck_stack_cmp(const void *a, const void *b);
int ck_stacks_from_agg(const struct uck_input *in, struct uck_finding *f, __u32 agg_kind,
		       __u32 sr_kind);
int ck_stacks_open(const struct uck_input *in, struct uck_finding *f, size_t *n);
const char *ck_evidence_name(int type);
void ck_evidence_counts(const struct row *w, int type, long long *eb, long long *ef);
void ck_evidence_how(struct uck_finding *f, const struct row *w, int type);
void ck_counter_how(struct uck_finding *f, const struct row *w, int type);
void ck_note(struct uck_result *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Class c is not judged, and why (the first reason given stays). */
void ck_skip(struct uck_result *r, enum uck_class c, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
int ck_finding_cmp(const void *a, const void *b);

/* the classes */
int ck_judge_lost_double(const struct uck_input *in, struct rows *rs, const int *order,
			 const struct skip *sk, struct uck_result *r);
int ck_judge_freed(const struct uck_input *in, struct rows *rs, struct uck_result *r);
int ck_judge_hier(const struct uck_input *in, struct rows *rs, const int *order,
		  const struct skip *sk, struct uck_result *r);
/* findings false: only the summary's counts (the class is not judged) */
int ck_judge_admit(const struct uck_input *in, bool findings, struct uck_result *r);
int ck_judge_outstanding(const struct uck_input *in, struct rows *rs, const struct skip *sk,
			 struct uck_result *r);

#endif /* UCT_CHECK_JUDGE_H */
