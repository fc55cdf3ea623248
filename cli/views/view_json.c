// SPDX-License-Identifier: GPL-2.0
/*
 * view_json.c - one JSON document per iteration, on a single line
 * (JSON Lines), schema "ucounttop/1" documented in ucounttop(8).
 * Only visible rows/namespaces (after --ns/--uid/type filters) are listed.
 * Integers are exact; 9223372036854775807 (LONG_MAX) means unlimited.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include "fmt.h"
#include "views.h"

static const char *const counter_keys[UCT_NCOUNTERS] = {
	[UCT_CNT_STATS_FULL] = "stats_full",
	[UCT_CNT_RB_DROPS] = "ringbuf_drops",
	[UCT_CNT_SEEN_FULL] = "dedup_full",
	[UCT_CNT_CHAIN_CUT] = "chain_cut",
	[UCT_CNT_EVENTS] = "events",
	[UCT_CNT_MISSED] = "recursion_misses",
	[UCT_CNT_SIG_UNDECIDED] = "sig_undecided",
	[UCT_CNT_EVCOUNTS_FULL] = "evcounts_full",
	[UCT_CNT_CG_FULL] = "cg_denials_full",
	[UCT_CNT_SIG_NOMEM] = "sig_nomem",
};

/* "KEY" then the number. Each namespace and row is built in a buffer and
 * written at once: they are most of a document (see struct uct_sb). */
static void key_u64(struct uct_sb *b, const char *key, unsigned long long v)
{
	uct_sb_str(b, key);
	uct_sb_u64(b, v);
}

static void key_i64(struct uct_sb *b, const char *key, long long v)
{
	uct_sb_str(b, key);
	uct_sb_i64(b, v);
}

/* ,"KEY":V or ,"KEY":null when v < 0 (no such limit) */
static void key_opt(struct uct_sb *b, const char *key, long long v)
{
	uct_sb_str(b, key);
	if (v >= 0)
		uct_sb_i64(b, v);
	else
		uct_sb_str(b, "null");
}

/* ,"KEY":UID or ,"KEY":null for a uid the namespace does not map */
static void key_uid(struct uct_sb *b, const char *key, __u32 uid)
{
	uct_sb_str(b, key);
	if (uid != UCT_NO_UID)
		uct_sb_u64(b, uid);
	else
		uct_sb_str(b, "null");
}

static void flags_json(struct uct_sb *b, unsigned flags)
{
	static const unsigned all[] = { UCT_F_DENIALS, UCT_F_OVER, UCT_F_IMBALANCED, UCT_F_NEW };
	bool first = true;
	size_t i;

	uct_sb_char(b, '[');
	for (i = 0; i < ARRAY_SIZE(all); i++) {
		if (!(flags & all[i]))
			continue;
		if (!first)
			uct_sb_char(b, ',');
		uct_sb_char(b, '"');
		uct_sb_str(b, uct_flag_name(all[i]));
		uct_sb_char(b, '"');
		first = false;
	}
	uct_sb_char(b, ']');
}

/* {"nproc":V,"msgqueue":V,...} */
static void per_type(struct uct_sb *b, const long long v[UCT_NTYPES])
{
	int t;

	for (t = 0; t < UCT_NTYPES; t++) {
		uct_sb_str(b, t ? ",\"" : "{\"");
		uct_sb_str(b, uct_type_name(t));
		key_i64(b, "\":", v[t]);
	}
	uct_sb_char(b, '}');
}

/* ,"KEY":"s" or ,"KEY":null for NULL or "" */
static void key_str(struct uct_sb *b, const char *key, const char *s)
{
	uct_sb_str(b, key);
	if (s && *s)
		uct_sb_json_str(b, s);
	else
		uct_sb_str(b, "null");
}

/* ,"pod":{namespace, name, uid, container} of a Kubernetes container (a
 * member null when not known; container null for the sandbox), or null */
static void pod_json(struct uct_sb *b, const struct uct_kube *k)
{
	if (!k) {
		uct_sb_str(b, ",\"pod\":null");
		return;
	}
	key_str(b, ",\"pod\":{\"namespace\":", k->ns);
	key_str(b, ",\"name\":", k->pod);
	key_str(b, ",\"uid\":", k->pod_uid);
	key_str(b, ",\"container\":", k->container);
	uct_sb_char(b, '}');
}

/* A rootless Podman's container: the uid whose cgroup subtree claims
 * it; null for an engine root runs */
static void owner_json(struct uct_sb *b, __u32 tenant)
{
	if (tenant)
		key_u64(b, ",\"container_owner_uid\":", tenant);
	else
		uct_sb_str(b, ",\"container_owner_uid\":null");
}

/*
 * What runs in the namespace (struct uct_nsname): its oldest process, the
 * hostname it sees, its cgroup, the container id in that and the
 * engine's name for it (Docker's, a pod's namespace/pod/container, a
 * rootless Podman's user:name and its uid), its pod (Kubernetes'); the number
 * of its processes; without one, what holds the namespace. All null when
 * the names are unknown (no task iterator).
 */
static void names_json(struct uct_sb *b, const struct uct_model *m, const struct uct_nsinfo *ns)
{
	const struct uct_nsname *nm = ns->name;

	if (!m->have_tasks) {
		uct_sb_str(b, ",\"pid\":null,\"comm\":null,\"hostname\":null,\"cgroup\":null,"
			   "\"container_id\":null,\"container_name\":null,\"container_owner_uid\":null,"
			   "\"pod\":null,\"tasks\":null,\"held_by\":null");
		return;
	}
	if (nm->pid) {
		key_u64(b, ",\"pid\":", nm->pid);
		key_str(b, ",\"comm\":", nm->comm);
		key_str(b, ",\"hostname\":", nm->hostname);
		key_str(b, ",\"cgroup\":", nm->cgroup);
		key_str(b, ",\"container_id\":", nm->container);
		key_str(b, ",\"container_name\":", nm->container_name);
		owner_json(b, nm->container_tenant);
		pod_json(b, nm->kube);
	} else {
		uct_sb_str(b, ",\"pid\":null,\"comm\":null,\"hostname\":null,\"cgroup\":null,"
			   "\"container_id\":null,\"container_name\":null,\"container_owner_uid\":null,"
			   "\"pod\":null");
	}
	key_u64(b, ",\"tasks\":", nm->ntasks);
	uct_sb_str(b, ",\"held_by\":[");
	if (!nm->pid)
		uct_sb_held_by(b, ns->held, true);
	uct_sb_char(b, ']');
}

static void ns_json(struct uct_sb *b, const struct uct_model *m, const struct uct_nsinfo *ns)
{
	const struct uct_row *cr = ns->creator_row >= 0 ? &m->rows[ns->creator_row] : NULL;
	long long v[UCT_NTYPES];
	int t;

	key_u64(b, "{\"ns\":", ns->inum);
	key_u64(b, ",\"level\":", ns->level);
	key_u64(b, ",\"owner_uid\":", ns->owner_uid);
	if (ns->root) {
		uct_sb_str(b, ",\"parent_ns\":null,\"creator_uid\":null");
	} else {
		key_u64(b, ",\"parent_ns\":", ns->parent_inum);
		key_u64(b, ",\"creator_uid\":", ns->creator_uid);
	}
	/* the owner as the parent namespace maps it (owner_uid is the kuid) */
	key_uid(b, ",\"owner_ns_uid\":", ns->owner_ns_uid);
	uct_sb_str(b, ",\"max\":");
	for (t = 0; t < UCT_NTYPES; t++)
		v[t] = ns->max[t];
	per_type(b, v);
	/* used: the creator row's values, compared with max on every charge */
	uct_sb_str(b, ",\"used\":");
	if (cr) {
		for (t = 0; t < UCT_NTYPES; t++)
			v[t] = (long long)cr->rec.value[t];
		per_type(b, v);
	} else {
		uct_sb_str(b, "null");
	}
	key_i64(b, ",\"rows\":", ns->nrows);
	names_json(b, m, ns);
	uct_sb_char(b, '}');
}

/*
 * The row's processes and refusals by container (shares.c): "shared"
 * when another container's processes than its namespace's own are in
 * it, "containers" each container's share (the most processes first),
 * "other" what is in no container's cgroup
 */
static void shares_json(struct uct_sb *b, const struct uct_model *m, const struct uct_row *r)
{
	long long den[UCT_NTYPES];
	struct uct_share other;
	bool first = true;
	int k, t;

	uct_sb_str(b, r->shared ? ",\"shared\":true,\"containers\":[" :
				 ",\"shared\":false,\"containers\":[");
	/* containers first (shares.c) */
	for (k = 0; k < r->nshares && m->shares[r->share + k].container; k++) {
		const struct uct_share *s = &m->shares[r->share + k];

		for (t = 0; t < UCT_NTYPES; t++)
			den[t] = (long long)s->denials[t];
		uct_sb_str(b, first ? "{\"container_id\":" : ",{\"container_id\":");
		first = false;
		uct_sb_json_str(b, s->container);
		key_str(b, ",\"container_name\":", s->container_name);
		owner_json(b, s->container_tenant);
		pod_json(b, s->kube);
		key_str(b, ",\"cgroup\":", s->cgroup);
		key_u64(b, ",\"processes\":", s->processes);
		uct_sb_str(b, ",\"denials\":");
		per_type(b, den);
		uct_sb_char(b, '}');
	}
	uct_row_other_share(m, r, &other);
	for (t = 0; t < UCT_NTYPES; t++)
		den[t] = (long long)other.denials[t];
	key_u64(b, "],\"other\":{\"processes\":", other.processes);
	uct_sb_str(b, ",\"denials\":");
	per_type(b, den);
	uct_sb_char(b, '}');
}

static void row_json(struct uct_sb *b, const struct uct_model *m, const struct uct_row *r,
		     const struct uct_view_ctx *c)
{
	const struct uct_rowrec *rec = &r->rec;
	int t;

	key_u64(b, "{\"ns\":", rec->ns_inum);
	key_u64(b, ",\"level\":", rec->level);
	key_u64(b, ",\"uid\":", rec->uid);
	if (rec->flags & UCT_REC_ROOT) {
		uct_sb_str(b, ",\"parent_ns\":null,\"parent_uid\":null");
	} else {
		key_u64(b, ",\"parent_ns\":", rec->parent_ns_inum);
		key_u64(b, ",\"parent_uid\":", rec->parent_uid);
	}
	/* "uid" stays the kuid (scripts match it); this is the uid the
	 * row's processes see in their namespace */
	key_uid(b, ",\"ns_uid\":", rec->ns_uid);
	/* ns_uid's name in the row's namespace (its own passwd file) */
	key_str(b, ",\"user\":", uct_row_ns_user(m, r));
	key_u64(b, ",\"refcount\":", rec->refcount);
	for (t = 0; t < UCT_NTYPES; t++) {
		uct_sb_str(b, ",\"");
		uct_sb_str(b, uct_type_name(t));
		key_i64(b, "\":{\"value\":", (long long)rec->value[t]);
		key_opt(b, ",\"limit\":", uct_row_lim(m, r)->limit[t]);
		key_i64(b, ",\"delta\":", uct_row_delta(m, r, t));
		key_i64(b, ",\"child_sum\":", uct_row_lim(m, r)->child_sum[t]);
		key_u64(b, ",\"denials\":", (unsigned long long)r->stat->st.denials[t]);
		key_u64(b, ",\"new_denials\":", r->stat->new_denials[t]);
		key_u64(b, ",\"limit_hits\":", (unsigned long long)r->stat->st.limit_hits[t]);
		/* the leaf check's limit: the smallest rlimit of the row's live tasks */
		key_opt(b, ",\"caller_limit\":", uct_row_lim(m, r)->caller_limit[t]);
		if (c->events) {
			key_u64(b, ",\"charges\":", (unsigned long long)r->stat->st.charges[t]);
			key_u64(b, ",\"uncharges\":", (unsigned long long)r->stat->st.uncharges[t]);
			key_i64(b, ",\"charged\":", (long long)r->stat->st.charged[t]);
			key_i64(b, ",\"uncharged\":", (long long)r->stat->st.uncharged[t]);
			char rate[48];

			snprintf(rate, sizeof(rate), ",\"event_rate\":%.2f", r->stat->event_rate[t]);
			uct_sb_str(b, rate);
		}
		uct_sb_char(b, '}');
	}
	uct_sb_str(b, ",\"flags\":");
	flags_json(b, r->flags);
	if (r->has_stat && r->stat->st.last_pid) {
		key_u64(b, ",\"last_pid\":", r->stat->st.last_pid);
		uct_sb_str(b, ",\"last_comm\":");
		uct_sb_json_str(b, r->stat->st.last_comm);
	} else {
		uct_sb_str(b, ",\"last_pid\":null,\"last_comm\":null");
	}
	shares_json(b, m, r);
	uct_sb_str(b, ",\"first_seen\":");
	uct_sb_milli(b, r->first_seen);
	uct_sb_char(b, '}');
}

/* Write out what b holds and empty it */
static void flush_sb(FILE *f, struct uct_sb *b)
{
	fwrite_unlocked(b->p, 1, b->n, f);
	b->n = 0;
	b->lost = 0;
}

/* A namespace or a row, to be rendered by rec_json() */
struct json_rec {
	const struct uct_model *m;
	const struct uct_nsinfo *ns;	/* a namespace, or */
	const struct uct_row *r;	/* a row */
	const struct uct_view_ctx *c;
};

static void rec_json(struct uct_sb *b, const struct json_rec *j)
{
	if (j->ns)
		ns_json(b, j->m, j->ns);
	else
		row_json(b, j->m, j->r, j->c);
}

/*
 * One record, never cut: a record longer than b (names a tenant controls,
 * e.g. a cgroup path of 4 KiB of control bytes escaped six times over, are
 * in it) is rendered again in a buffer as large as it needs, which is what
 * b lost more than b holds. Should that allocation fail, the record is
 * replaced by one that says so, and standard error too: the document
 * stays valid either way.
 */
static void emit_whole(FILE *f, struct uct_sb *b, const struct json_rec *j)
{
	struct uct_sb big;
	size_t need;

	rec_json(b, j);
	if (!b->lost) {
		flush_sb(f, b);
		return;
	}
	need = b->n + b->lost + 1;
	b->n = 0;
	b->lost = 0;
	big = (struct uct_sb){ malloc(need), need, 0, 0 };
	if (big.p) {
		rec_json(&big, j);
		if (!big.lost) {
			fwrite_unlocked(big.p, 1, big.n, f);
			free(big.p);
			return;
		}
		free(big.p);
	}
	fprintf(stderr, "ucounttop: a record of %zu bytes could not be formatted (out of memory)\n",
		need);
	if (j->ns)
		fprintf(f, "{\"ns\":%u,\"error\":\"not formatted: out of memory\"}", j->ns->inum);
	else
		fprintf(f, "{\"ns\":%u,\"uid\":%u,\"error\":\"not formatted: out of memory\"}",
			j->r->rec.ns_inum, j->r->rec.uid);
}

void uct_view_json(FILE *f, const struct uct_model *m, const struct uct_view_ctx *c)
{
	/* most records fit: a row is under 2 KiB (four types of ten numbers,
	 * a 16-byte comm escaped: at most 96 bytes); a namespace with a long
	 * cgroup path goes through emit_whole()'s larger buffer */
	char buf[8192];
	struct uct_sb sb = UCT_SB_INIT(buf);
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
	fprintf(f, "\"duplicates\":%zu,\"stats_unmatched\":%zu,\"circles\":%zu,"
		"\"passwd_deferred\":%lu,\"passwd_dropped\":%lu,\"passwd_timeouts\":%lu,"
		"\"passwd_later\":%lu,\"passwd_quarantined\":%zu,\"passwd_readers_stuck\":%zu},"
		"\"denials\":{",
		m->duplicates, m->stats_unmatched, m->circles, m->passwd.deferred,
		m->passwd.dropped, m->passwd.timeouts, m->passwd.later, m->passwd.quarantined,
		m->passwd.stuck);
	for (t = 0; t < UCT_NTYPES; t++)
		fprintf(f, "%s\"%s\":%llu", t ? "," : "", uct_type_name(t), m->total_denials[t]);
	fputs("},\"namespaces\":[", f);
	first = true;
	for (i = 0; i < m->nns; i++) {
		if (!m->ns[i].visible)
			continue;
		if (!first)
			fputc(',', f);
		emit_whole(f, &sb, &(struct json_rec){ .m = m, .ns = &m->ns[i] });
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
			emit_whole(f, &sb, &(struct json_rec){ .m = m, .r = r, .c = c });
			first = false;
		}
	}
	fputs("]}\n", f);
	fflush(f);
}
