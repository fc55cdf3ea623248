// SPDX-License-Identifier: GPL-2.0
/*
 * view_openmetrics.c - OpenMetrics text exposition, one exposition per
 * iteration ending in "# EOF". Also valid for node_exporter's textfile
 * collector (write it with -o FILE.prom, which replaces the file
 * atomically). Unlimited limits are +Inf. --listen also serves the same
 * samples in the Prometheus text format 0.0.4, to scrapers that do not
 * ask for OpenMetrics.
 */
#include <stdio.h>
#include <string.h>
#include "fmt.h"
#include "views.h"

/* {ns="..",level="..",uid="..",type=".."}: built without printf, as
 * every row gets several lines per type (see struct uct_sb) */
static void row_labels(struct uct_sb *b, const struct uct_row *r, int type)
{
	uct_sb_str(b, "{ns=\"");
	uct_sb_u64(b, r->rec.ns_inum);
	uct_sb_str(b, "\",level=\"");
	uct_sb_u64(b, r->rec.level);
	uct_sb_str(b, "\",uid=\"");
	uct_sb_u64(b, r->rec.uid);
	uct_sb_str(b, "\",type=\"");
	uct_sb_str(b, uct_type_name(type));
	uct_sb_str(b, "\"}");
}

static void value(struct uct_sb *b, long long v)
{
	if (uct_is_unlimited(v)) {
		uct_sb_str(b, " +Inf\n");
	} else {
		uct_sb_char(b, ' ');
		uct_sb_i64(b, v);
		uct_sb_char(b, '\n');
	}
}

/*
 * Where the two formats differ: OpenMetrics names a family
 * ("ucounttop_denials") and its counter samples add "_total"; text 0.0.4
 * has no families, TYPE and HELP name the samples themselves, or a parser
 * sees a counter without samples beside untyped ones. (Every family here
 * is a gauge, a counter or an info: neither format's type for the untyped,
 * "unknown" and "untyped", is needed. The help texts hold no backslash,
 * quote or newline, which the two would escape differently.)
 */
static void family(FILE *f, enum uct_metrics_fmt fmt, const char *name, const char *type,
		   const char *help)
{
	const char *sfx = "";

	/* text 0.0.4 has no info type: a gauge named as the sample, value 1 */
	if (fmt == UCT_METRICS_TEXT && !strcmp(type, "counter")) {
		sfx = "_total";
	} else if (fmt == UCT_METRICS_TEXT && !strcmp(type, "info")) {
		sfx = "_info";
		type = "gauge";
	}
	fprintf(f, "# TYPE %s%s %s\n# HELP %s%s %s\n", name, sfx, type, name, sfx, help);
}

/* The per-row, per-type metrics: gauges, then counters */
enum row_metric {
	ROW_VALUE, ROW_LIMIT,
	ROW_DENIALS, ROW_LIMIT_HITS, ROW_CHARGES, ROW_UNCHARGES,
};

/* The samples of one per-row, per-type metric. */
static void per_row(FILE *f, const struct uct_model *m, const char *sample, enum row_metric which)
{
	char buf[2048];
	struct uct_sb b = UCT_SB_INIT(buf);
	size_t i;
	int t;

	for (i = 0; i < m->nrows; i++) {
		const struct uct_row *r = &m->rows[i];

		if (!r->visible || !m->ns[r->ns].visible)
			continue;
		b.n = 0;
		for (t = 0; t < UCT_NTYPES; t++) {
			unsigned long long n;

			if (which == ROW_LIMIT && uct_row_lim(m, r)->limit[t] < 0)
				continue;
			uct_sb_str(&b, sample);
			row_labels(&b, r, t);
			switch (which) {
			case ROW_VALUE: value(&b, r->rec.value[t]); continue;
			case ROW_LIMIT: value(&b, uct_row_lim(m, r)->limit[t]); continue;
			case ROW_DENIALS: n = r->stat->st.denials[t]; break;
			case ROW_LIMIT_HITS: n = r->stat->st.limit_hits[t]; break;
			case ROW_CHARGES: n = r->stat->st.charges[t]; break;
			default: n = r->stat->st.uncharges[t]; break;
			}
			/* a counter is a count: never negative, never +Inf */
			uct_sb_char(&b, ' ');
			uct_sb_u64(&b, n);
			uct_sb_char(&b, '\n');
		}
		fwrite_unlocked(b.p, 1, b.n, f);
	}
}

/* A per-row family: its TYPE and HELP, then its samples (a counter's
 * named with "_total" in either format). */
static void row_family(FILE *f, const struct uct_model *m, enum uct_metrics_fmt fmt,
		       const char *name, const char *type, const char *help,
		       enum row_metric which)
{
	char sample[64];

	family(f, fmt, name, type, help);
	snprintf(sample, sizeof(sample), "%s%s", name, strcmp(type, "counter") ? "" : "_total");
	per_row(f, m, sample, which);
}

/*
 * User names as an info metric, joined on (ns, uid): not a label of the
 * counters, whose series would then change with a container's passwd
 * file and multiply with every name. Only rows with a name; no family
 * when none has one.
 */
static void users_info(FILE *f, const struct uct_model *m, enum uct_metrics_fmt fmt)
{
	char buf[512];
	struct uct_sb b = UCT_SB_INIT(buf);
	bool any = false;
	size_t i;

	for (i = 0; i < m->nrows; i++) {
		const struct uct_row *r = &m->rows[i];
		const char *user;

		if (!r->visible || !m->ns[r->ns].visible || !(user = uct_row_ns_user(m, r)))
			continue;
		if (!any)
			family(f, fmt, "ucounttop_user", "info",
			       "The user name of a row's uid as its user namespace maps it (ns_uid), "
			       "from the passwd file in the root of the namespace's oldest process "
			       "(the initial namespace: /etc/passwd); join on ns and uid.");
		any = true;
		b.n = 0;
		uct_sb_str(&b, "ucounttop_user_info{ns=\"");
		uct_sb_u64(&b, r->rec.ns_inum);
		uct_sb_str(&b, "\",uid=\"");
		uct_sb_u64(&b, r->rec.uid);
		uct_sb_str(&b, "\",user=\"");
		uct_sb_label(&b, user, UCT_USER_MAX);
		uct_sb_str(&b, "\"} 1\n");
		fwrite_unlocked(b.p, 1, b.n, f);
	}
}

void uct_view_metrics(FILE *f, const struct uct_model *m, const struct uct_view_ctx *c,
		      enum uct_metrics_fmt fmt)
{
	static const char *const drop_kinds[UCT_NCOUNTERS] = {
		"stats_full", "ringbuf", "dedup_full", "chain_cut", NULL, "recursion_misses",
	};
	size_t i;
	int t;

	row_family(f, m, fmt, "ucounttop_rlimit_value", "gauge",
		   "Current struct ucounts rlimit counter per user namespace and uid "
		   "(nproc: processes, msgqueue: bytes, sigpending: signals, memlock: pages).",
		   ROW_VALUE);
	row_family(f, m, fmt, "ucounttop_rlimit_limit", "gauge",
		   "Limit enforced at this level: smallest rlimit_max of the namespaces this row "
		   "created (in the value's unit, memlock in pages).", ROW_LIMIT);
	/* as the kernel compares it with the counter: memlock in pages; a
	 * kernel without the series' patch 1 stores the rlimit's bytes there */
	family(f, fmt, "ucounttop_namespace_rlimit_max", "gauge",
	       "Per-namespace maximum ns->rlimit_max[] as the kernel compares it with the counter "
	       "(nproc: processes, msgqueue: bytes, sigpending: signals, memlock: pages; a kernel "
	       "without the ucounttop series copies the creator's RLIMIT_MEMLOCK in bytes, "
	       "so that the cap it enforces is as many pages).");
	for (i = 0; i < m->nns; i++) {
		const struct uct_nsinfo *ns = &m->ns[i];

		if (!ns->visible)
			continue;
		for (t = 0; t < UCT_NTYPES; t++) {
			char buf[256];
			struct uct_sb b = UCT_SB_INIT(buf);

			snprintf(buf, sizeof(buf),
				 "ucounttop_namespace_rlimit_max{ns=\"%u\",level=\"%u\",owner_uid=\"%u\",type=\"%s\"}",
				 ns->inum, ns->level, ns->owner_uid, uct_type_name(t));
			b.n = strlen(buf);
			value(&b, ns->max[t]);
			fputs(buf, f);
		}
	}
	/* the names tenants choose, unless the exporter's operator said so */
	if (m->have_tasks && !c->no_tenant_labels) {
		/* an info metric, joined on ns: the names change more often than
		 * the counters' series should (a namespace outlives its
		 * processes), and a pid is no label at all */
		family(f, fmt, "ucounttop_namespace", "info",
		       "What runs in a user namespace: the container id in its oldest process's cgroup "
		       "and that process's hostname (empty when unknown or no process runs in it); "
		       "join on ns.");
		for (i = 0; i < m->nns; i++) {
			const struct uct_nsinfo *ns = &m->ns[i];
			char buf[512];
			struct uct_sb b = UCT_SB_INIT(buf);

			if (!ns->visible)
				continue;
			uct_sb_str(&b, "ucounttop_namespace_info{ns=\"");
			uct_sb_u64(&b, ns->inum);
			uct_sb_str(&b, "\",level=\"");
			uct_sb_u64(&b, ns->level);
			uct_sb_str(&b, "\",container_id=\"");
			if (ns->name->pid && ns->name->container)
				uct_sb_label(&b, ns->name->container, UCT_CID_LEN);
			uct_sb_str(&b, "\",hostname=\"");
			if (ns->name->pid)
				uct_sb_label(&b, ns->name->hostname, sizeof(ns->name->hostname));
			uct_sb_str(&b, "\"} 1\n");
			fwrite_unlocked(b.p, 1, b.n, f);
		}
	}
	if (!c->no_tenant_labels)
		users_info(f, m, fmt);
	row_family(f, m, fmt, "ucounttop_denials", "counter",
		   "Refused charges from this row since ucounttop attached.", ROW_DENIALS);
	row_family(f, m, fmt, "ucounttop_limit_hits", "counter",
		   "Times this row was the level found over its limit since attach.",
		   ROW_LIMIT_HITS);
	if (c->events) {
		row_family(f, m, fmt, "ucounttop_charges", "counter",
			   "Charge calls since attach (--events).", ROW_CHARGES);
		row_family(f, m, fmt, "ucounttop_uncharges", "counter",
			   "Uncharge calls since attach (--events).", ROW_UNCHARGES);
	}
	family(f, fmt, "ucounttop_row_flag", "gauge",
	       "1 for each flag set on a row: denials, over_limit, imbalanced, new.");
	for (i = 0; i < m->nrows; i++) {
		static const unsigned all[] = { UCT_F_DENIALS, UCT_F_OVER, UCT_F_IMBALANCED,
						UCT_F_NEW };
		const struct uct_row *r = &m->rows[i];
		size_t k;

		if (!r->visible || !m->ns[r->ns].visible)
			continue;
		for (k = 0; k < ARRAY_SIZE(all); k++)
			if (r->flags & all[k])
				fprintf(f, "ucounttop_row_flag{ns=\"%u\",level=\"%u\",uid=\"%u\",flag=\"%s\"} 1\n",
					r->rec.ns_inum, r->rec.level, r->rec.uid,
					uct_flag_name(all[k]));
	}
	family(f, fmt, "ucounttop_drops", "counter",
	       "Data ucounttop lost: full maps, ring-buffer overruns, cut chains, "
	       "(recursion_misses) program runs the kernel skipped because the program was "
	       "already running on that CPU (preempted or interrupted inside it), and passwd "
	       "files put off past a refresh's budget (passwd_deferred) or not kept past the "
	       "memory bound (passwd_dropped).");
	for (t = 0; t < UCT_NCOUNTERS; t++)
		if (drop_kinds[t])
			fprintf(f, "ucounttop_drops_total{kind=\"%s\"} %llu\n", drop_kinds[t],
				m->counters[t]);
	fprintf(f, "ucounttop_drops_total{kind=\"passwd_deferred\"} %lu\n"
		"ucounttop_drops_total{kind=\"passwd_dropped\"} %lu\n", m->passwd.deferred,
		m->passwd.dropped);
	/* text 0.0.4 ends where the text ends */
	if (fmt == UCT_METRICS_OPENMETRICS)
		fputs("# EOF\n", f);
	fflush(f);
}

void uct_view_openmetrics(FILE *f, const struct uct_model *m, const struct uct_view_ctx *c)
{
	uct_view_metrics(f, m, c, UCT_METRICS_OPENMETRICS);
}
