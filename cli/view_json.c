// SPDX-License-Identifier: GPL-2.0
/*
 * view_json.c - one JSON document per iteration, on a single line
 * (JSON Lines), schema "ucounttop/1" documented in cli/README.md.
 * Only visible rows/namespaces (after --ns/--uid/type filters) are listed.
 * Integers are exact; 9223372036854775807 (LONG_MAX) means unlimited.
 */
#include <stdio.h>
#include <time.h>
#include "fmt.h"
#include "views.h"

static const char *const counter_keys[UCT_NCOUNTERS] = {
	[UCT_CNT_STATS_FULL] = "stats_full",
	[UCT_CNT_RB_DROPS] = "ringbuf_drops",
	[UCT_CNT_SEEN_FULL] = "dedup_full",
	[UCT_CNT_CHAIN_CUT] = "chain_cut",
	[UCT_CNT_EVENTS] = "events",
};

static void flags_json(FILE *f, unsigned flags)
{
	static const unsigned all[] = { UCT_F_DENIALS, UCT_F_OVER, UCT_F_IMBALANCED, UCT_F_NEW };
	bool first = true;
	size_t i;

	fputc('[', f);
	for (i = 0; i < ARRAY_SIZE(all); i++) {
		if (!(flags & all[i]))
			continue;
		fprintf(f, "%s\"%s\"", first ? "" : ",", uct_flag_name(all[i]));
		first = false;
	}
	fputc(']', f);
}

static void ns_json(FILE *f, const struct uct_model *m, const struct uct_nsinfo *ns)
{
	const struct uct_row *cr = ns->creator_row >= 0 ? &m->rows[ns->creator_row] : NULL;
	int t;

	fprintf(f, "{\"ns\":%u,\"level\":%u,\"owner_uid\":%u,", ns->inum, ns->level,
		ns->owner_uid);
	if (ns->root)
		fputs("\"parent_ns\":null,\"creator_uid\":null,", f);
	else
		fprintf(f, "\"parent_ns\":%u,\"creator_uid\":%u,", ns->parent_inum,
			ns->creator_uid);
	fputs("\"max\":{", f);
	for (t = 0; t < UCT_NTYPES; t++)
		fprintf(f, "%s\"%s\":%lld", t ? "," : "", uct_type_name(t), ns->max[t]);
	/* used: the creator row's values, compared with max on every charge */
	fputs("},\"used\":", f);
	if (cr) {
		fputc('{', f);
		for (t = 0; t < UCT_NTYPES; t++)
			fprintf(f, "%s\"%s\":%lld", t ? "," : "", uct_type_name(t),
				(long long)cr->rec.value[t]);
		fputc('}', f);
	} else {
		fputs("null", f);
	}
	fprintf(f, ",\"rows\":%d}", ns->nrows);
}

static void row_json(FILE *f, const struct uct_model *m, const struct uct_row *r,
		     const struct uct_view_ctx *c)
{
	const struct uct_rec *rec = &r->rec;
	int t;

	fprintf(f, "{\"ns\":%u,\"level\":%u,\"uid\":%u,", rec->ns_inum, rec->level, rec->uid);
	if (rec->flags & UCT_REC_ROOT)
		fputs("\"parent_ns\":null,\"parent_uid\":null,", f);
	else
		fprintf(f, "\"parent_ns\":%u,\"parent_uid\":%u,", rec->parent_ns_inum,
			rec->parent_uid);
	fprintf(f, "\"refcount\":%u", rec->refcount);
	for (t = 0; t < UCT_NTYPES; t++) {
		fprintf(f, ",\"%s\":{\"value\":%lld,\"limit\":", uct_type_name(t),
			(long long)rec->value[t]);
		if (r->limit[t] >= 0)
			fprintf(f, "%lld", r->limit[t]);
		else
			fputs("null", f);
		fprintf(f, ",\"delta\":%lld,\"child_sum\":%lld,\"denials\":%llu,"
			"\"new_denials\":%llu,\"limit_hits\":%llu",
			r->delta[t], r->nchild_ns ? r->child_sum[t] : 0,
			(unsigned long long)r->st.denials[t], r->new_denials[t],
			(unsigned long long)r->st.limit_hits[t]);
		/* the leaf check's limit: the smallest rlimit of the row's live tasks */
		fputs(",\"caller_limit\":", f);
		if (r->caller_limit[t] >= 0)
			fprintf(f, "%lld", r->caller_limit[t]);
		else
			fputs("null", f);
		if (c->events)
			fprintf(f, ",\"charges\":%llu,\"uncharges\":%llu,\"charged\":%lld,"
				"\"uncharged\":%lld,\"event_rate\":%.2f",
				(unsigned long long)r->st.charges[t],
				(unsigned long long)r->st.uncharges[t],
				(long long)r->st.charged[t], (long long)r->st.uncharged[t],
				r->event_rate[t]);
		fputc('}', f);
	}
	fputs(",\"flags\":", f);
	flags_json(f, r->flags);
	if (r->has_stat && r->st.last_pid) {
		fprintf(f, ",\"last_pid\":%u,\"last_comm\":", r->st.last_pid);
		uct_json_str(f, r->st.last_comm);
	} else {
		fputs(",\"last_pid\":null,\"last_comm\":null", f);
	}
	fprintf(f, ",\"first_seen\":%.3f}", r->first_seen);
}

void uct_view_json(FILE *f, const struct uct_model *m, const struct uct_view_ctx *c)
{
	char tbuf[40];
	struct tm tm;
	bool first;
	size_t i;
	int t;

	gmtime_r(&c->wall.tv_sec, &tm);
	strftime(tbuf, sizeof(tbuf), "%Y-%m-%dT%H:%M:%SZ", &tm);
	fprintf(f, "{\"schema\":\"ucounttop/1\",\"iteration\":%lu,\"time\":\"%s\","
		"\"timestamp\":%lld.%03ld,\"interval\":%.3f,\"snapshot\":",
		m->iteration, tbuf, (long long)c->wall.tv_sec, c->wall.tv_nsec / 1000000,
		m->interval);
	uct_json_str(f, c->snapshot_src ? c->snapshot_src : "");
	fprintf(f, ",\"events\":%s,\"hooks\":", c->events ? "true" : "false");
	uct_json_str(f, c->hooks ? c->hooks : "");
	fputs(",\"degraded\":", f);
	uct_json_str(f, c->degraded ? c->degraded : "");
	fputs(",\"counters\":{", f);
	for (t = 0; t < UCT_NCOUNTERS; t++)
		fprintf(f, "\"%s\":%llu,", counter_keys[t], m->counters[t]);
	fprintf(f, "\"duplicates\":%zu,\"stats_unmatched\":%zu,\"circles\":%zu},\"denials\":{",
		m->duplicates, m->stats_unmatched, m->circles);
	for (t = 0; t < UCT_NTYPES; t++)
		fprintf(f, "%s\"%s\":%llu", t ? "," : "", uct_type_name(t), m->total_denials[t]);
	fputs("},\"namespaces\":[", f);
	first = true;
	for (i = 0; i < m->nns; i++) {
		if (!m->ns[i].visible)
			continue;
		if (!first)
			fputc(',', f);
		ns_json(f, m, &m->ns[i]);
		first = false;
	}
	/* rows in display order (tree order, sorted within a namespace), but
	 * also the rows of collapsed namespaces: JSON has no collapse */
	fputs("],\"rows\":[", f);
	first = true;
	for (i = 0; i < m->nns; i++) {
		const struct uct_nsinfo *ns = &m->ns[i];
		int k;

		if (!ns->visible)
			continue;
		for (k = 0; k < ns->nrows; k++) {
			const struct uct_row *r = &m->rows[ns->rows[k]];

			if (!r->visible)
				continue;
			if (!first)
				fputc(',', f);
			row_json(f, m, r, c);
			first = false;
		}
	}
	fputs("]}\n", f);
	fflush(f);
}
