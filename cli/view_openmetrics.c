// SPDX-License-Identifier: GPL-2.0
/*
 * view_openmetrics.c - OpenMetrics text exposition, one exposition per
 * iteration ending in "# EOF". Also valid for node_exporter's textfile
 * collector (write it with -o FILE.prom, which replaces the file
 * atomically). Unlimited limits are +Inf.
 */
#include <stdio.h>
#include "fmt.h"
#include "views.h"

static void row_labels(FILE *f, const struct uct_row *r, int type)
{
	fprintf(f, "{ns=\"%u\",level=\"%u\",uid=\"%u\",type=\"%s\"}", r->rec.ns_inum,
		r->rec.level, r->rec.uid, uct_type_name(type));
}

static void value(FILE *f, long long v)
{
	if (uct_is_unlimited(v))
		fputs(" +Inf\n", f);
	else
		fprintf(f, " %lld\n", v);
}

static void family(FILE *f, const char *name, const char *type, const char *help)
{
	fprintf(f, "# TYPE %s %s\n# HELP %s %s\n", name, type, name, help);
}

/* Emit one per-row, per-type metric; which: 0 value, 1 limit (gauges),
 * 2 denials, 3 limit_hits, 4 charges, 5 uncharges (counters). */
static void per_row(FILE *f, const struct uct_model *m, const char *sample, int which)
{
	size_t i;
	int t;

	for (i = 0; i < m->nrows; i++) {
		const struct uct_row *r = &m->rows[i];

		if (!r->visible || !m->ns[r->ns].visible)
			continue;
		for (t = 0; t < UCT_NTYPES; t++) {
			unsigned long long n;

			if (which == 1 && r->limit[t] < 0)
				continue;
			fputs(sample, f);
			row_labels(f, r, t);
			switch (which) {
			case 0: value(f, r->rec.value[t]); continue;
			case 1: value(f, r->limit[t]); continue;
			case 2: n = r->st.denials[t]; break;
			case 3: n = r->st.limit_hits[t]; break;
			case 4: n = r->st.charges[t]; break;
			default: n = r->st.uncharges[t]; break;
			}
			/* a counter is a count: never negative, never +Inf */
			fprintf(f, " %llu\n", n);
		}
	}
}

void uct_view_openmetrics(FILE *f, const struct uct_model *m, const struct uct_view_ctx *c)
{
	static const char *const drop_kinds[UCT_NCOUNTERS] = {
		"stats_full", "ringbuf", "dedup_full", "chain_cut", NULL,
	};
	size_t i;
	int t;

	family(f, "ucounttop_rlimit_value", "gauge",
	       "Current struct ucounts rlimit counter per user namespace and uid "
	       "(nproc: processes, msgqueue: bytes, sigpending: signals, memlock: pages).");
	per_row(f, m, "ucounttop_rlimit_value", 0);
	family(f, "ucounttop_rlimit_limit", "gauge",
	       "Limit enforced at this level: smallest rlimit_max of the namespaces this row created.");
	per_row(f, m, "ucounttop_rlimit_limit", 1);
	family(f, "ucounttop_ns_rlimit_max", "gauge",
	       "Per-namespace maximum ns->rlimit_max[] (memlock is stored as bytes but compared with pages).");
	for (i = 0; i < m->nns; i++) {
		const struct uct_nsinfo *ns = &m->ns[i];

		if (!ns->visible)
			continue;
		for (t = 0; t < UCT_NTYPES; t++) {
			fprintf(f, "ucounttop_ns_rlimit_max{ns=\"%u\",level=\"%u\",owner_uid=\"%u\",type=\"%s\"}",
				ns->inum, ns->level, ns->owner_uid, uct_type_name(t));
			value(f, ns->max[t]);
		}
	}
	family(f, "ucounttop_denials", "counter", "Refused charges from this row since ucounttop attached.");
	per_row(f, m, "ucounttop_denials_total", 2);
	family(f, "ucounttop_limit_hits", "counter",
	       "Times this row was the level found over its limit since attach.");
	per_row(f, m, "ucounttop_limit_hits_total", 3);
	if (c->events) {
		family(f, "ucounttop_charges", "counter", "Charge calls since attach (--events).");
		per_row(f, m, "ucounttop_charges_total", 4);
		family(f, "ucounttop_uncharges", "counter", "Uncharge calls since attach (--events).");
		per_row(f, m, "ucounttop_uncharges_total", 5);
	}
	family(f, "ucounttop_row_flag", "gauge",
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
	family(f, "ucounttop_drops", "counter",
	       "Data ucounttop lost: full maps, ring-buffer overruns, cut chains.");
	for (t = 0; t < UCT_NCOUNTERS; t++)
		if (drop_kinds[t])
			fprintf(f, "ucounttop_drops_total{kind=\"%s\"} %llu\n", drop_kinds[t],
				m->counters[t]);
	fputs("# EOF\n", f);
	fflush(f);
}
