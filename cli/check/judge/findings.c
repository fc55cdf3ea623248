// SPDX-License-Identifier: GPL-2.0
/* findings.c - findings of check's judge: records, kernel stacks, the "how" text */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "grow.h"
#include "judge_internal.h"

const char *judge_class_name(enum judge_class c)
{
	static const char *const n[JUDGE_NCLASSES] = {
		"lost-uncharge", "double-uncharge", "freed-while-charged",
		"hierarchy-mismatch", "admitted-over-limit", "outstanding",
	};

	return c < JUDGE_NCLASSES ? n[c] : "?";
}

const char *judge_class_key(enum judge_class c)
{
	static const char *const n[JUDGE_NCLASSES] = {
		"lost_uncharge", "double_uncharge", "freed_while_charged",
		"hierarchy_mismatch", "admitted_over_limit", "outstanding",
	};

	return c < JUDGE_NCLASSES ? n[c] : "?";
}

const char *judge_miss_name(enum judge_miss m)
{
	static const char *const n[JUDGE_NMISS] = {
		"charges and uncharges", "limit checks and change marks", "frees",
		"message queue lifetimes", "SHM_LOCK lifetimes",
	};

	return m < JUDGE_NMISS ? n[m] : "?";
}

const char *judge_miss_key(enum judge_miss m)
{
	static const char *const n[JUDGE_NMISS] = {
		"charges", "limit_checks", "frees", "mqueue", "shmlock",
	};

	return m < JUDGE_NMISS ? n[m] : "?";
}

unsigned long long judge_missed_total(const unsigned long long missed[JUDGE_NMISS])
{
	unsigned long long sum = 0;
	int i;

	/* saturating: the fuzzer feeds anything */
	for (i = 0; i < JUDGE_NMISS; i++)
		sum = missed[i] > ~0ULL - sum ? ~0ULL : sum + missed[i];
	return sum;
}

struct judge_finding *judge_add_finding(struct judge_result *r, enum judge_class cls,
					const struct judge_row *w, int type)
{
	struct judge_finding *f;

	if (uct_grow((void **)&r->f, &r->cap, r->n + 1, sizeof(*r->f)))
		return NULL;
	f = &r->f[r->n++];
	memset(f, 0, sizeof(*f));
	f->cls = cls;
	f->type = type;
	f->at_level = -1;
	if (w) {
		f->ns_inum = w->k.ns_inum;
		f->uid = w->k.uid;
		f->level = w->level;
		f->in_base = w->in_base;
		f->in_final = w->in_final;
		f->inferred = w->inferred;
		f->baseline = w->base[type];
		f->final = w->final[type];
		f->tally = w->tallied[type];
		f->charged = w->charged[type];
		f->uncharged = w->uncharged[type];
	}
	return f;
}

void judge_how(struct judge_finding *f, const char *fmt, ...)
{
	size_t used = strlen(f->how);
	va_list ap;

	if (used >= sizeof(f->how) - 1)
		return;
	va_start(ap, fmt);
	vsnprintf(f->how + used, sizeof(f->how) - used, fmt, ap);
	va_end(ap);
}

int judge_add_stack(struct judge_finding *f, __s32 sid, __u32 kind, unsigned long long count,
		    long long total, __u32 pid, const char *comm)
{
	struct judge_stackref *s;
	size_t i;

	for (i = 0; i < f->nstacks; i++) {
		s = &f->stacks[i];
		if (s->stack_id == sid && s->kind == kind) {
			/* thousands of bounded amounts: saturate, never wrap */
			if (__builtin_add_overflow(s->count, count, &s->count))
				s->count = ~0ULL;
			if (__builtin_add_overflow(s->total, total, &s->total))
				s->total = total < 0 ? LLONG_MIN : LLONG_MAX;
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

int judge_stack_cmp(const void *a, const void *b)
{
	const struct judge_stackref *x = a, *y = b;
	long long tx = x->total < 0 ? -x->total : x->total;
	long long ty = y->total < 0 ? -y->total : y->total;

	if (x->kind != y->kind)
		return x->kind < y->kind ? -1 : 1;
	if (tx != ty)
		return tx > ty ? -1 : 1;
	return x->stack_id < y->stack_id ? -1 : x->stack_id > y->stack_id;
}

/* Stacks of agg entries of (row, type) with one of the kinds. */
int judge_stacks_from_agg(const struct judge_input *in, struct judge_finding *f, __u32 agg_kind,
			  __u32 sr_kind)
{
	size_t i;

	for (i = 0; i < in->nagg; i++) {
		const struct judge_agg_kv *a = &in->agg[i];

		if (a->k.ns_inum != f->ns_inum || a->k.uid != f->uid ||
		    (int)a->k.type != f->type || a->k.kind != agg_kind)
			continue;
		if (judge_add_stack(f, a->k.stack_id, sr_kind, a->v.count, a->v.total, a->v.pid,
				    a->v.comm))
			return -ENOMEM;
	}
	return 0;
}

/* Open (unpaired) charges of (row, type), grouped by stack. */
int judge_stacks_open(const struct judge_input *in, struct judge_finding *f, size_t *n)
{
	size_t i, before = f->nstacks;

	for (i = 0; i < in->nitems; i++) {
		const struct judge_item_kv *it = &in->items[i];

		if (it->k.f.ns_inum != f->ns_inum || it->k.f.uid != f->uid ||
		    (int)it->k.f.type != f->type)
			continue;
		if (judge_add_stack(f, it->v.stack_id, JUDGE_STACK_OPEN, 1, it->k.f.amount,
				    it->v.pid, it->v.comm))
			return -ENOMEM;
	}
	if (n)
		*n = f->nstacks - before;
	return 0;
}

int judge_stacks_charged(const struct judge_input *in, struct judge_finding *f)
{
	size_t nopen = 0;

	if (judge_stacks_open(in, f, &nopen))
		return -ENOMEM;
	if (!nopen && judge_stacks_from_agg(in, f, UCK_K_CHARGE, JUDGE_STACK_CHARGE))
		return -ENOMEM;
	return 0;
}

const char *judge_evidence_name(int type)
{
	switch (type) {
	case UCT_NPROC: return "tasks";
	case UCT_MSGQUEUE: return "message queues";
	case UCT_SIGPENDING: return "pending signals";
	default: return "SHM_LOCKed segments";
	}
}

/* Evidence objects of row w for type, at the baseline and at the end. */
void judge_evidence_counts(const struct judge_row *w, int type, long long *eb, long long *ef)
{
	switch (type) {
	case UCT_NPROC:
		*eb = w->inv_base[UCK_INV_TASK] + w->inv_base[UCK_INV_KTHREAD];
		*ef = w->inv_final[UCK_INV_TASK] + w->inv_final[UCK_INV_KTHREAD];
		break;
	case UCT_SIGPENDING:
		*eb = w->inv_base[UCK_INV_SIGQ] + w->inv_base[UCK_INV_TIMER];
		*ef = w->inv_final[UCK_INV_SIGQ] + w->inv_final[UCK_INV_TIMER];
		break;
	default:	/* objects: created since attach vs released from before */
		*eb = w->pre_released_n[type];
		*ef = w->obj_count[type];
		break;
	}
}

void judge_evidence_how(struct judge_finding *f, const struct judge_row *w, int type)
{
	long long eb, ef;

	judge_evidence_counts(w, type, &eb, &ef);
	f->ev_base = eb;
	f->ev_final = ef;
	if (type == UCT_NPROC || type == UCT_SIGPENDING)
		judge_how(f, "; %s charged to this row: %lld at the baseline, %lld at the end",
			  judge_evidence_name(type), eb, ef);
	else
		judge_how(f, "; %s: %lld created since attach still hold %lld, %lld from before "
			  "released %lld", judge_evidence_name(type), w->obj_count[type],
			  w->obj_amount[type], w->pre_released_n[type], w->pre_released[type]);
	if (type == UCT_MEMLOCK && w->gone[type])
		judge_how(f, "; segments destroyed while still locked: %lld pages never unlocked",
			  w->gone[type]);
}

void judge_counter_how(struct judge_finding *f, const struct judge_row *w, int type)
{
	if (w->inferred)
		judge_how(f, "counter %lld -> %lld as far as the events tell (a snapshot did not "
			  "show this row)", w->base[type], w->final[type]);
	else
		judge_how(f, "counter %lld -> %lld%s", w->base[type], w->final[type],
			  !w->in_base ? " (new)" : !w->in_final ? " (freed)" : "");
	judge_how(f, "; charges and uncharges reaching it net %+lld (at this row: +%lld -%lld)",
		  w->tallied[type], w->charged[type], w->uncharged[type]);
}

void judge_note(struct judge_result *r, const char *fmt, ...)
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

void judge_skip(struct judge_result *r, enum judge_class cls, const char *fmt, ...)
{
	va_list ap;

	if (r->skipped[cls][0])
		return;
	va_start(ap, fmt);
	vsnprintf(r->skipped[cls], sizeof(r->skipped[cls]), fmt, ap);
	va_end(ap);
}

int judge_finding_cmp(const void *a, const void *b)
{
	const struct judge_finding *x = a, *y = b;

	if (x->cls != y->cls)
		return x->cls < y->cls ? -1 : 1;
	if (x->ns_inum != y->ns_inum)
		return x->ns_inum < y->ns_inum ? -1 : 1;
	if (x->uid != y->uid)
		return x->uid < y->uid ? -1 : 1;
	return x->type - y->type;
}
