/* SPDX-License-Identifier: GPL-2.0 */
/*
 * judge_internal.h - the inside of check's judge, shared by its files (not
 * an API; judge.h is):
 *   judge.c        what the data lets us decide, and the order of it
 *   input.c        every input quantity bounded, once
 *   capture.c      captures: freeing one, whether two saw one state
 *   rows.c         the rows and their quantities, from the captures
 *   findings.c     findings, their stacks and their "how"
 *   lost_double.c  lost and double uncharges
 *   freed.c        freed while charged
 *   hierarchy.c    hierarchy mismatches
 *   admitted.c     admitted over limit
 *   outstanding.c  charges legitimately still held
 */
#ifndef UCT_JUDGE_INTERNAL_H
#define UCT_JUDGE_INTERNAL_H

#include "judge.h"

/* One row (ns, uid): what was read of it, and what follows (judge.h
 * describes the quantities). Per type: [UCT_NTYPES]. */
struct judge_row {
	struct uct_key k;
	struct uct_key parent_key;
	bool has_parent;
	bool root;
	bool known;			/* in a snapshot or a free record */
	__u32 level;
	bool in_base, in_final;		/* in the baseline / final snapshot */
	bool has_tally_base, has_tally_final;
	bool inferred;			/* a snapshot missed it: values inferred */
	/* read */
	long long base[UCT_NTYPES];		/* the counter at the baseline */
	long long final[UCT_NTYPES];		/* ... and at the end */
	long long tally_base[UCT_NTYPES];	/* net charged to it by the baseline */
	long long tally_final[UCT_NTYPES];	/* ... and by the end */
	long long freed_value[UCT_NTYPES];	/* counters when it was freed */
	long long inv_base[UCK_NINV], inv_final[UCK_NINV];	/* tasks, signals, timers */
	long long obj_amount[UCT_NTYPES];	/* queues/segments made since attach */
	long long obj_count[UCT_NTYPES];
	long long pre_released[UCT_NTYPES];	/* ... older ones released */
	long long pre_released_n[UCT_NTYPES];
	long long gone[UCT_NTYPES];		/* segments evicted still locked */
	long long charged[UCT_NTYPES], uncharged[UCT_NTYPES];	/* events at this row itself */
	/* derived */
	int parent;			/* row index, -1 none */
	int *kids;
	size_t nkids, capkids;
	int depth;
	long long change[UCT_NTYPES];		/* final + freed_value - base */
	long long tallied[UCT_NTYPES];		/* net of the charges that reached it */
	long long untallied[UCT_NTYPES];	/* change - tallied: no charge made it */
	long long untallied_here[UCT_NTYPES];	/* untallied minus the children's */
	long long evidence[UCT_NTYPES];		/* held by objects in its subtree */
	long long evidence_own[UCT_NTYPES];	/* ... by its own */
	long long freed_below[UCT_NTYPES];	/* freed while charged in its subtree */
	long long unpropagated[UCT_NTYPES];	/* direct writes reported as mismatches */
	long long unexplained[UCT_NTYPES];	/* change - evidence - freed_below -
						 * unpropagated */
	long long unexplained_here[UCT_NTYPES];	/* unexplained minus the children's */
	long long stopped_here[UCT_NTYPES];	/* unpropagated changes that stopped here */
};

struct judge_rows {
	struct judge_row *r;
	size_t n, cap;
	int *hash;			/* open addressing, -1 empty */
	size_t hcap;
	size_t cycles;			/* parent links refused: they closed a circle */
};

/* What the data does not let the judge decide. */
struct judge_undecidable {
	bool lost_double[UCT_NTYPES];	/* lost and double uncharges of a type */
	bool direct_writes;		/* changes no charge made (hierarchy mismatches) */
	bool outstanding[UCT_NTYPES];	/* the live objects of a type are not known */
};

/* input.c: a copy of in with every quantity within +-2^53 */
int judge_input_bounded(const struct judge_input *in, struct judge_input *out);
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
/* The open charges' stacks, or every charge's when none is open. */
int judge_stacks_charged(const struct judge_input *in, struct judge_finding *f);
const char *judge_evidence_name(int type);
void judge_evidence_counts(const struct judge_row *w, int type, long long *eb, long long *ef);
void judge_evidence_how(struct judge_finding *f, const struct judge_row *w, int type);
void judge_counter_how(struct judge_finding *f, const struct judge_row *w, int type);
void judge_note(struct judge_result *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Class cls is not judged, and why (the first reason given stays). */
void judge_skip(struct judge_result *r, enum judge_class cls, const char *fmt, ...)
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

#endif /* UCT_JUDGE_INTERNAL_H */
