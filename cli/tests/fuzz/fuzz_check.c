// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_check.c - libFuzzer target: check's judge (judge_run) and both
 * reports fed an arbitrary struct judge_input.
 *
 * Input: a struct fuzz_check_hdr (fuzz_input.h: array lengths, flags,
 * drop counters, runs the kernel skipped, the wait status), then the arrays in its order, each as
 * the raw map records check.c would have read (a short input leaves the
 * last ones short). With FC_SMALL_IDS, inode numbers and uids are folded to a
 * few values so that rows meet: parents, ancestors, duplicates and cycles.
 *
 * Oracle, besides the sanitizers and a time limit per input (a loop that
 * never ends is a finding too): judge_run() returns 0, its counts add up,
 * every finding names a class and a type; the text report is KTAP
 * diagnostics only ("#" lines of printable ASCII) and the JSON report one
 * valid document on one line.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "judge.h"
#include "check_report.h"
#include "fuzz_input.h"
#include "json_check.h"

#define CHECK(cond) do { if (!(cond)) { \
	fprintf(stderr, "fuzz_check: %s:%d: %s\n", __FILE__, __LINE__, #cond); \
	abort(); } } while (0)

static const size_t elem_size[FC_NARRAYS] = {
	[FC_BASE_RECS] = sizeof(struct uck_rec),
	[FC_BASE_INV] = sizeof(struct judge_inv_kv),
	[FC_BASE_TALLY] = sizeof(struct judge_tally_kv),
	[FC_FIN_RECS] = sizeof(struct uck_rec),
	[FC_FIN_INV] = sizeof(struct judge_inv_kv),
	[FC_FIN_TALLY] = sizeof(struct judge_tally_kv),
	[FC_AGG] = sizeof(struct judge_agg_kv),
	[FC_ITEMS] = sizeof(struct judge_item_kv),
	[FC_OVER] = sizeof(struct judge_over_kv),
	[FC_PEND] = sizeof(struct judge_pend_kv),
	[FC_FREED] = sizeof(struct judge_free_kv),
	[FC_OBJS] = sizeof(struct judge_obj_kv),
	[FC_PRE_REL] = sizeof(struct judge_rt_kv),
	[FC_GONE] = sizeof(struct judge_rt_kv),
};

/* 64-bit quantities into realistic magnitudes (fuzz_input.h) */
static void tame_all(void *arr[FC_NARRAYS], const size_t n[FC_NARRAYS])
{
	size_t j;

	for (j = 0; j < n[FC_BASE_RECS] + n[FC_FIN_RECS]; j++) {
		struct uck_rec *r = j < n[FC_BASE_RECS] ? (struct uck_rec *)arr[FC_BASE_RECS] + j :
				    (struct uck_rec *)arr[FC_FIN_RECS] + j - n[FC_BASE_RECS];

		TAME_ALL(r->r.value);
		TAME_LIMITS(r->r.ns_max);
		TAME_ALL(r->tally);
	}
	for (j = 0; j < n[FC_BASE_INV] + n[FC_FIN_INV]; j++)
		TAME((j < n[FC_BASE_INV] ? (struct judge_inv_kv *)arr[FC_BASE_INV] + j :
		      (struct judge_inv_kv *)arr[FC_FIN_INV] + j - n[FC_BASE_INV])->n);
	for (j = 0; j < n[FC_BASE_TALLY] + n[FC_FIN_TALLY]; j++)
		TAME_ALL((j < n[FC_BASE_TALLY] ?
			  (struct judge_tally_kv *)arr[FC_BASE_TALLY] + j :
			  (struct judge_tally_kv *)arr[FC_FIN_TALLY] + j - n[FC_BASE_TALLY])->v.net);
	for (j = 0; j < n[FC_AGG]; j++) {
		struct judge_agg_kv *a = (struct judge_agg_kv *)arr[FC_AGG] + j;

		TAME(a->v.count);
		TAME(a->v.total);
		TAME(a->v.extreme);
	}
	for (j = 0; j < n[FC_ITEMS]; j++) {
		struct judge_item_kv *it = (struct judge_item_kv *)arr[FC_ITEMS] + j;

		TAME(it->k.f.amount);
		TAME(it->k.idx);
		TAME(it->v.ts_ns);
	}
	for (j = 0; j < n[FC_OVER]; j++) {
		struct judge_over_kv *o = (struct judge_over_kv *)arr[FC_OVER] + j;

		TAME(o->v.count);
		TAME(o->v.total);
		TAME(o->v.value);
		tame_limit(&o->v.limit);
	}
	for (j = 0; j < n[FC_PEND]; j++) {
		struct judge_pend_kv *p = (struct judge_pend_kv *)arr[FC_PEND] + j;

		TAME(p->v.amount);
		TAME(p->v.value);
		tame_limit(&p->v.limit);
	}
	for (j = 0; j < n[FC_FREED]; j++) {
		struct judge_free_kv *f = (struct judge_free_kv *)arr[FC_FREED] + j;

		TAME(f->v.count);
		TAME_ALL(f->v.value);
	}
	for (j = 0; j < n[FC_OBJS]; j++)
		TAME(((struct judge_obj_kv *)arr[FC_OBJS] + j)->v.amount);
	for (j = 0; j < n[FC_PRE_REL] + n[FC_GONE]; j++) {
		struct judge_rt_kv *r = j < n[FC_PRE_REL] ?
					(struct judge_rt_kv *)arr[FC_PRE_REL] + j :
					(struct judge_rt_kv *)arr[FC_GONE] + j - n[FC_PRE_REL];

		TAME(r->v.count);
		TAME(r->v.total);
	}
}

/*
 * Parent links that never close a cycle: a parent's inode number is
 * below its child's. Only without -DFUZZ_CYCLES (on by default): with
 * it, circles reach the judge, which must cut them.
 */
static void acyclic(void *arr[FC_NARRAYS], const size_t n[FC_NARRAYS])
{
#ifndef FUZZ_CYCLES
	size_t j, a;

	for (j = 0; j < n[FC_BASE_RECS] + n[FC_FIN_RECS]; j++) {
		struct uck_rec *r = j < n[FC_BASE_RECS] ? (struct uck_rec *)arr[FC_BASE_RECS] + j :
				    (struct uck_rec *)arr[FC_FIN_RECS] + j - n[FC_BASE_RECS];

		if (r->r.flags & UCT_REC_ROOT)
			continue;
		if (!r->r.ns_inum)
			r->r.flags |= UCT_REC_ROOT;
		else if (r->r.parent_ns_inum >= r->r.ns_inum)
			r->r.parent_ns_inum %= r->r.ns_inum;
	}
	for (j = 0; j < n[FC_BASE_TALLY] + n[FC_FIN_TALLY]; j++) {
		struct judge_tally_kv *t = j < n[FC_BASE_TALLY] ?
			(struct judge_tally_kv *)arr[FC_BASE_TALLY] + j :
			(struct judge_tally_kv *)arr[FC_FIN_TALLY] + j - n[FC_BASE_TALLY];

		if (t->v.flags & UCT_REC_ROOT)
			continue;
		if (!t->k.ns_inum)
			t->v.flags |= UCT_REC_ROOT;
		else if (t->v.parent.ns_inum >= t->k.ns_inum)
			t->v.parent.ns_inum %= t->k.ns_inum;
	}
	for (j = 0; j < n[FC_FREED]; j++) {
		struct judge_free_kv *f = (struct judge_free_kv *)arr[FC_FREED] + j;
		__u32 below = f->k.ns_inum;

		for (a = 0; a < f->v.nanc && a < UCK_MAX_ANC; a++) {
			if (!below) {
				f->v.nanc = (__u32)a;
				break;
			}
			if (f->v.anc[a].ns_inum >= below)
				f->v.anc[a].ns_inum %= below;
			below = f->v.anc[a].ns_inum;
		}
	}
#endif
}

#define NS(x) ((x) %= 9)	/* 0 included */
#define UID(x) ((x) %= 4)

static void fold_key(struct uct_key *k)
{
	NS(k->ns_inum);
	UID(k->uid);
}

static void fold(void *arr[FC_NARRAYS], const size_t n[FC_NARRAYS])
{
	size_t i, j;

	for (i = 0; i < FC_NARRAYS; i++) {
		for (j = 0; j < n[i]; j++) {
			switch (i) {
			case FC_BASE_RECS:
			case FC_FIN_RECS: {
				struct uck_rec *r = (struct uck_rec *)arr[i] + j;

				NS(r->r.ns_inum);
				UID(r->r.uid);
				NS(r->r.parent_ns_inum);
				UID(r->r.parent_uid);
				UID(r->r.owner_uid);
				r->r.level %= UCT_MAX_LEVELS + 3;
				break;
			}
			case FC_BASE_INV:
			case FC_FIN_INV: {
				struct judge_inv_kv *v = (struct judge_inv_kv *)arr[i] + j;

				NS(v->k.ns_inum);
				UID(v->k.uid);
				v->k.kind %= UCK_NINV + 1;
				break;
			}
			case FC_BASE_TALLY:
			case FC_FIN_TALLY: {
				struct judge_tally_kv *t = (struct judge_tally_kv *)arr[i] + j;

				fold_key(&t->k);
				fold_key(&t->v.parent);
				t->v.level %= UCT_MAX_LEVELS + 3;
				break;
			}
			case FC_AGG: {
				struct judge_agg_kv *a = (struct judge_agg_kv *)arr[i] + j;

				NS(a->k.ns_inum);
				UID(a->k.uid);
				a->k.type %= UCT_NTYPES + 1;
				a->k.kind %= UCK_NKINDS + 1;
				a->k.stack_id %= 16;
				break;
			}
			case FC_ITEMS: {
				struct judge_item_kv *it = (struct judge_item_kv *)arr[i] + j;

				NS(it->k.f.ns_inum);
				UID(it->k.f.uid);
				it->k.f.type %= UCT_NTYPES + 1;
				it->v.stack_id %= 16;
				break;
			}
			case FC_OVER: {
				struct judge_over_kv *o = (struct judge_over_kv *)arr[i] + j;

				NS(o->k.ns_inum);
				UID(o->k.uid);
				o->k.type %= UCT_NTYPES + 1;
				NS(o->v.at_ns);
				UID(o->v.at_uid);
				o->k.stack_id %= 16;
				o->v.stack2 %= 16;
				break;
			}
			case FC_PEND: {
				struct judge_pend_kv *p = (struct judge_pend_kv *)arr[i] + j;

				NS(p->v.ns_inum);
				UID(p->v.uid);
				p->v.type %= UCT_NTYPES + 1;
				NS(p->v.at_ns);
				UID(p->v.at_uid);
				p->v.stack_id %= 16;
				break;
			}
			case FC_FREED: {
				struct judge_free_kv *f = (struct judge_free_kv *)arr[i] + j;
				size_t k;

				NS(f->k.ns_inum);
				UID(f->k.uid);
				f->k.stack_id %= 16;
				f->v.level %= UCT_MAX_LEVELS + 3;
				f->v.nanc %= UCK_MAX_ANC + 2;
				for (k = 0; k < UCK_MAX_ANC; k++)
					fold_key(&f->v.anc[k]);
				break;
			}
			case FC_OBJS: {
				struct judge_obj_kv *o = (struct judge_obj_kv *)arr[i] + j;

				NS(o->v.ns_inum);
				UID(o->v.uid);
				o->v.type %= UCT_NTYPES + 1;
				break;
			}
			default: {	/* FC_PRE_REL, FC_GONE */
				struct judge_rt_kv *r = (struct judge_rt_kv *)arr[i] + j;

				NS(r->k.ns_inum);
				UID(r->k.uid);
				r->k.type %= UCT_NTYPES + 1;
				break;
			}
			}
		}
	}
}

/* Every stack id below 16 has two frames; others none (not recorded). */
static size_t frames(void *ctx, __s32 id, const char **out, size_t max)
{
	static const char *const f[] = { "inc_rlimit_ucounts+0x5", "copy_process+0x6ed" };

	if (id >= 16 || max < 2)
		return 0;
	out[0] = f[0];
	out[1] = f[1];
	return 2;
}

static char *report(const struct judge_result *r, const struct check_run_info *ri, bool json,
		    size_t *len)
{
	char *buf = NULL;
	FILE *f = open_memstream(&buf, len);

	CHECK(f);
	if (json)
		check_report_json(f, r, ri, frames, NULL);
	else
		check_report_text(f, r, ri, frames, NULL);
	fclose(f);
	CHECK(buf && *len && !memchr(buf, 0, *len));
	return buf;
}

static void check_text(const char *s, size_t n)
{
	size_t i;

	CHECK(s[n - 1] == '\n');
	for (i = 0; i < n; i++) {
		unsigned char ch = (unsigned char)s[i];

		if (i == 0 || s[i - 1] == '\n')
			CHECK(ch == '#');
		CHECK(ch == '\n' || (ch >= 0x20 && ch < 0x7f));
	}
}

static void check_result(const struct judge_input *in, const struct judge_result *r)
{
	size_t i, counts[JUDGE_NCLASSES] = { 0 }, nfail = 0;
	int c;

	for (i = 0; i < r->n; i++) {
		const struct judge_finding *f = &r->f[i];

		CHECK(f->cls < JUDGE_NCLASSES);
		CHECK(f->type >= 0 && f->type < UCT_NTYPES);
		CHECK(memchr(f->how, 0, sizeof(f->how)));
		CHECK(!f->nstacks || f->stacks);
		counts[f->cls]++;
		nfail += f->failing;
		/* outstanding charges fail only when asked to */
		if (f->cls != JUDGE_OUTSTANDING)
			CHECK(f->failing);
	}
	for (c = 0; c < JUDGE_NCLASSES; c++) {
		CHECK(counts[c] == r->counts[c]);
		/* a class not judged says why and has no finding */
		CHECK(memchr(r->skipped[c], 0, sizeof(r->skipped[c])));
		if (r->skipped[c][0])
			CHECK(!r->checked[c] && !counts[c]);
	}
	/* what followed an over-limit charge is never guessed */
	if (in->missed[JUDGE_MISS_CHARGE] || in->missed[JUDGE_MISS_LIMIT])
		CHECK(r->skipped[JUDGE_ADMITTED_OVER_LIMIT][0] &&
		      !counts[JUDGE_ADMITTED_OVER_LIMIT]);
	CHECK(nfail == r->nfail);
	CHECK(memchr(r->notes, 0, sizeof(r->notes)));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	void *arr[FC_NARRAYS];
	size_t n[FC_NARRAYS], i;
	struct judge_input in;
	struct judge_result r;
	struct fuzz_check_hdr h;
	char *const argv[] = { "sh", "-c", "echo \"\x1b[2J\"\n#", NULL };
	struct check_run_info ri = { .argv = argv, .pid = 4242, .duration = 0.25,
				     .settle_waited = 1.0, .settle_limit = 3.0,
				     .snapshot = "iter/ucounts",
				     .hooks = "fexit:inc_rlimit_ucounts" };
	char *text, *json;
	size_t tlen, jlen;

	if (size < sizeof(h))
		return 0;
	memcpy(&h, data, sizeof(h));
	data += sizeof(h);
	size -= sizeof(h);
	/* aligned copies, as check.c reads them into arrays */
	for (i = 0; i < FC_NARRAYS; i++) {
		n[i] = h.n[i];
		if (n[i] > size / elem_size[i])
			n[i] = size / elem_size[i];
		arr[i] = calloc(n[i] + 1, elem_size[i]);
		CHECK(arr[i]);
		memcpy(arr[i], data, n[i] * elem_size[i]);
		data += n[i] * elem_size[i];
		size -= n[i] * elem_size[i];
	}
	tame_all(arr, n);
	if (h.flags & FC_SMALL_IDS)
		fold(arr, n);
	acyclic(arr, n);

	memset(&in, 0, sizeof(in));
	in.base.recs = arr[FC_BASE_RECS];
	in.base.nrecs = n[FC_BASE_RECS];
	in.base.inv = arr[FC_BASE_INV];
	in.base.ninv = n[FC_BASE_INV];
	in.base.tally = arr[FC_BASE_TALLY];
	in.base.ntally = n[FC_BASE_TALLY];
	in.fin.recs = arr[FC_FIN_RECS];
	in.fin.nrecs = n[FC_FIN_RECS];
	in.fin.inv = arr[FC_FIN_INV];
	in.fin.ninv = n[FC_FIN_INV];
	in.fin.tally = arr[FC_FIN_TALLY];
	in.fin.ntally = n[FC_FIN_TALLY];
	in.agg = arr[FC_AGG];
	in.nagg = n[FC_AGG];
	in.items = arr[FC_ITEMS];
	in.nitems = n[FC_ITEMS];
	in.over = arr[FC_OVER];
	in.nover = n[FC_OVER];
	in.pend = arr[FC_PEND];
	in.npend = n[FC_PEND];
	in.freed = arr[FC_FREED];
	in.nfreed = n[FC_FREED];
	in.objs = arr[FC_OBJS];
	in.nobjs = n[FC_OBJS];
	in.pre_rel = arr[FC_PRE_REL];
	in.npre_rel = n[FC_PRE_REL];
	in.gone = arr[FC_GONE];
	in.ngone = n[FC_GONE];
	for (i = 0; i < UCK_NCOUNTERS; i++)
		in.counters[i] = ri.counters[i] = h.counters[i];
	for (i = 0; i < JUDGE_NMISS; i++)
		in.missed[i] = h.missed[i];
	in.complete = h.flags & FC_COMPLETE;
	in.have_free_tp = h.flags & FC_FREE_TP;
	in.have_overlimit = h.flags & FC_OVERLIMIT;
	in.have_mq_hooks = h.flags & FC_MQ;
	in.have_shm_hooks = h.flags & FC_SHM;
	in.fail_outstanding = h.flags & FC_FAIL_OUT;
	in.base.torn = h.torn & FC_TORN_BASE;
	in.fin.torn = h.torn & FC_TORN_FIN;

	CHECK(judge_run(&in, &r) == 0);
	check_result(&in, &r);
	(void)judge_result_settled(&r);
	ri.status = h.status;
	ri.exit_code = r.nfail ? 1 : 0;
	text = report(&r, &ri, false, &tlen);
	check_text(text, tlen);
	json = report(&r, &ri, true, &jlen);
	CHECK(json[jlen - 1] == '\n' && memchr(json, '\n', jlen) == json + jlen - 1);
	CHECK(json_valid(json));
	free(text);
	free(json);
	judge_result_free(&r);
	for (i = 0; i < FC_NARRAYS; i++)
		free(arr[i]);
	return 0;
}
