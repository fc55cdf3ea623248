// SPDX-License-Identifier: GPL-2.0
/*
 * view_openmetrics.c - OpenMetrics text exposition, one exposition per
 * iteration ending in "# EOF", or the same samples in the Prometheus
 * text format 0.0.4: what --listen serves to scrapers that do not ask
 * for OpenMetrics, and what --prometheus writes for node_exporter's
 * textfile collector, which refuses OpenMetrics (-o FILE.prom replaces
 * the file atomically). Unlimited limits are +Inf.
 *
 * Names follow Prometheus' naming guide: one family per rlimit, each in
 * its own base unit, named with it (ucounttop_memlock_bytes), counters
 * ending in _total. The names are a contract (alerting rules and
 * dashboards are written against them): ucounttop(8) lists them.
 */
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include "fmt.h"
#include "views.h"

/* The unit of each rlimit's families, the last word of their names.
 * MEMLOCK is counted in pages: its families are in bytes (amount()). */
static const char *const unit_of[UCT_NTYPES] = {
	[UCT_NPROC] = "processes",
	[UCT_MSGQUEUE] = "bytes",
	[UCT_SIGPENDING] = "signals",
	[UCT_MEMLOCK] = "bytes",
};

/* ...and what the count is, for the help texts */
static const char *const counts[UCT_NTYPES] = {
	[UCT_NPROC] = "processes",
	[UCT_MSGQUEUE] = "bytes of POSIX message queues",
	[UCT_SIGPENDING] = "queued signals",
	[UCT_MEMLOCK] = "bytes of locked memory (pages times the page size)",
};

/* {ns="..",level="..",kuid=".." after the sample's name: built without
 * printf, as every row gets several lines (see struct uct_sb); the caller
 * closes the braces */
static void row_labels(struct uct_sb *b, const char *sample, const struct uct_row *r)
{
	uct_sb_str(b, sample);
	uct_sb_str(b, "{ns=\"");
	uct_sb_u64(b, r->rec.ns_inum);
	uct_sb_str(b, "\",level=\"");
	uct_sb_u64(b, r->rec.level);
	uct_sb_str(b, "\",kuid=\"");
	uct_sb_u64(b, r->rec.uid);
	uct_sb_char(b, '"');
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
 * An amount of rlimit type t in its family's unit: MEMLOCK's pages as
 * bytes, as the table shows them. Unlimited stays +Inf. Bytes past what
 * a long long holds are +Inf too (-Inf below): no kernel counts that many
 * pages, and a cap that large (a stock kernel's bytes taken for pages)
 * limits nothing.
 */
static void amount(struct uct_sb *b, const struct uct_model *m, int t, long long v)
{
	int shift = uct_page_shift(m);
	long long most = LLONG_MAX >> shift;

	if (t == UCT_MEMLOCK && !uct_is_unlimited(v)) {
		if (v > most || v < -most) {
			uct_sb_str(b, v > 0 ? " +Inf\n" : " -Inf\n");
			return;
		}
		/* a left shift of a negative value is undefined */
		v *= 1LL << shift;
	}
	value(b, v);
}

/*
 * Where the two formats differ: OpenMetrics names a family
 * ("ucounttop_denials") and its counter samples add "_total"; text 0.0.4
 * has no families, TYPE and HELP name the samples themselves, or a parser
 * sees a counter without samples beside untyped ones. OpenMetrics says a
 * family's unit (its name ends in it); text 0.0.4 has no UNIT line.
 * (Every family here is a gauge, a counter or an info: neither format's
 * type for the untyped, "unknown" and "untyped", is needed. The help
 * texts hold no backslash, quote or newline, which the two would escape
 * differently.)
 */
static void family(FILE *f, enum uct_metrics_fmt fmt, const char *name, const char *type,
		   const char *unit, const char *help)
{
	const char *sfx = "";

	/* text 0.0.4 has no info type: a gauge named as the sample, value 1 */
	if (fmt == UCT_METRICS_TEXT && !strcmp(type, "counter")) {
		sfx = "_total";
	} else if (fmt == UCT_METRICS_TEXT && !strcmp(type, "info")) {
		sfx = "_info";
		type = "gauge";
	}
	fprintf(f, "# TYPE %s%s %s\n", name, sfx, type);
	if (unit && fmt == UCT_METRICS_OPENMETRICS)
		fprintf(f, "# UNIT %s %s\n", name, unit);
	fprintf(f, "# HELP %s%s %s\n", name, sfx, help);
}

static bool row_shown(const struct uct_model *m, const struct uct_row *r)
{
	return r->visible && m->ns[r->ns].visible;
}

/*
 * The limit a row's charges of type t are refused at: the one enforced
 * at its level (the smallest maximum of the namespaces it created), else
 * the smallest rlimit of the processes charging it (the containers
 * sharing a uid's row run under their own RLIMIT_NPROC: the table's
 * leaf limit). None for RLIMIT_NPROC of kuid 0, whose forks the kernel
 * never refuses (INIT_USER), nor where no process's rlimit is known.
 * -1: none.
 */
static long long row_limit(const struct uct_model *m, const struct uct_row *r, int t)
{
	if (t == UCT_NPROC && r->rec.uid == 0 && uct_row_lim(m, r)->limit[t] < 0)
		return -1;
	return uct_row_leaf_limit(m, r, t);
}

/* A row's counter or its limit (row_limit()), of rlimit type t: one
 * family each, in that rlimit's unit. A row without a limit has no limit
 * sample. */
static void row_gauge(FILE *f, const struct uct_model *m, enum uct_metrics_fmt fmt, int t,
		      bool limit)
{
	char name[64], help[512], buf[256];
	struct uct_sb b = UCT_SB_INIT(buf);
	size_t i;

	snprintf(name, sizeof(name), "ucounttop_%s%s_%s", uct_type_name(t), limit ? "_limit" : "",
		 unit_of[t]);
	if (limit)
		snprintf(help, sizeof(help), "RLIMIT_%s limit a row's charges are refused at, in "
			 "%s: the smallest maximum of the user namespaces the row created, else "
			 "the smallest RLIMIT_%s of the processes charging it; +Inf: unlimited, "
			 "no sample: none (root's forks).", uct_type_header(t), counts[t],
			 uct_type_header(t));
	else
		snprintf(help, sizeof(help), "RLIMIT_%s counter of a row (the struct ucounts of "
			 "user namespace ns and global uid kuid), in %s.", uct_type_header(t), counts[t]);
	family(f, fmt, name, "gauge", unit_of[t], help);
	for (i = 0; i < m->nrows; i++) {
		const struct uct_row *r = &m->rows[i];
		long long v = limit ? row_limit(m, r, t) : r->rec.value[t];

		if (!row_shown(m, r) || (limit && v < 0))
			continue;
		b.n = 0;
		row_labels(&b, name, r);
		uct_sb_char(&b, '}');
		amount(&b, m, t, v);
		fwrite_unlocked(b.p, 1, b.n, f);
	}
}

/* A namespace's maximum of rlimit type t, in that rlimit's unit */
static void ns_max(FILE *f, const struct uct_model *m, enum uct_metrics_fmt fmt, int t)
{
	char name[64], help[640];
	size_t i;

	snprintf(name, sizeof(name), "ucounttop_namespace_%s_max_%s", uct_type_name(t),
		 unit_of[t]);
	/* as the kernel compares it with the page counter: a kernel without
	 * the series' patch 1 stores the rlimit's bytes there, and so
	 * enforces as many pages; shown as the table shows it */
	if (t == UCT_MEMLOCK)
		snprintf(help, sizeof(help), "A user namespace's RLIMIT_MEMLOCK maximum "
			 "(ns->rlimit_max[]) as the kernel compares it with the page counter, in "
			 "bytes: times the page size. A kernel without the ucounttop series stores "
			 "the creator's rlimit in bytes there, so this is that rlimit times the "
			 "page size, the cap such a kernel enforces.");
	else
		snprintf(help, sizeof(help), "A user namespace's RLIMIT_%s maximum "
			 "(ns->rlimit_max[]), in %s; +Inf: unlimited.", uct_type_header(t),
			 counts[t]);
	family(f, fmt, name, "gauge", unit_of[t], help);
	for (i = 0; i < m->nns; i++) {
		const struct uct_nsinfo *ns = &m->ns[i];
		char buf[256];
		struct uct_sb b = UCT_SB_INIT(buf);

		if (!ns->visible)
			continue;
		uct_sb_str(&b, name);
		uct_sb_str(&b, "{ns=\"");
		uct_sb_u64(&b, ns->inum);
		uct_sb_str(&b, "\",level=\"");
		uct_sb_u64(&b, ns->level);
		uct_sb_str(&b, "\",owner_uid=\"");
		uct_sb_u64(&b, ns->owner_uid);
		uct_sb_str(&b, "\"}");
		amount(&b, m, t, ns->max[t]);
		fwrite_unlocked(b.p, 1, b.n, f);
	}
}

/* The per-row, per-type event counters */
enum row_counter { ROW_DENIALS, ROW_LIMIT_HITS, ROW_CHARGES, ROW_UNCHARGES };

/* A counter family: events of every type, the type a label (the unit is
 * the same for each: refusals, or calls), samples named with "_total" in
 * either format. */
static void row_counter(FILE *f, const struct uct_model *m, enum uct_metrics_fmt fmt,
			const char *name, const char *help, enum row_counter which)
{
	char sample[64], buf[2048];
	struct uct_sb b = UCT_SB_INIT(buf);
	size_t i;
	int t;

	family(f, fmt, name, "counter", NULL, help);
	snprintf(sample, sizeof(sample), "%s_total", name);
	for (i = 0; i < m->nrows; i++) {
		const struct uct_row *r = &m->rows[i];

		if (!row_shown(m, r))
			continue;
		b.n = 0;
		for (t = 0; t < UCT_NTYPES; t++) {
			unsigned long long n;

			switch (which) {
			case ROW_DENIALS: n = r->stat->st.denials[t]; break;
			case ROW_LIMIT_HITS: n = r->stat->st.limit_hits[t]; break;
			case ROW_CHARGES: n = r->stat->st.charges[t]; break;
			default: n = r->stat->st.uncharges[t]; break;
			}
			row_labels(&b, sample, r);
			uct_sb_str(&b, ",type=\"");
			uct_sb_str(&b, uct_type_name(t));
			/* a counter is a count: never negative, never +Inf */
			uct_sb_str(&b, "\"} ");
			uct_sb_u64(&b, n);
			uct_sb_char(&b, '\n');
		}
		fwrite_unlocked(b.p, 1, b.n, f);
	}
}

/* A row's state flag as a 0/1 gauge with a sample for every row, so that
 * its series stays while the state comes and goes */
static void row_state(FILE *f, const struct uct_model *m, enum uct_metrics_fmt fmt,
		      const char *name, const char *help, unsigned flag)
{
	char buf[256];
	struct uct_sb b = UCT_SB_INIT(buf);
	size_t i;

	family(f, fmt, name, "gauge", NULL, help);
	for (i = 0; i < m->nrows; i++) {
		const struct uct_row *r = &m->rows[i];

		if (!row_shown(m, r))
			continue;
		b.n = 0;
		row_labels(&b, name, r);
		uct_sb_str(&b, r->flags & flag ? "} 1\n" : "} 0\n");
		fwrite_unlocked(b.p, 1, b.n, f);
	}
}

/* sample{ns="..",kuid="..",container_id=".."[,type=".."]} v; type < 0: none */
static void container_sample(FILE *f, const char *sample, const struct uct_row *r,
			     const struct uct_share *sh, int type, unsigned long long v)
{
	char buf[512];
	struct uct_sb b = UCT_SB_INIT(buf);

	uct_sb_str(&b, sample);
	uct_sb_str(&b, "{ns=\"");
	uct_sb_u64(&b, r->rec.ns_inum);
	uct_sb_str(&b, "\",kuid=\"");
	uct_sb_u64(&b, r->rec.uid);
	uct_sb_str(&b, "\",container_id=\"");
	uct_sb_label(&b, sh->container, UCT_CID_LEN);
	if (type >= 0) {
		uct_sb_str(&b, "\",type=\"");
		uct_sb_str(&b, uct_type_name(type));
	}
	uct_sb_str(&b, "\"} ");
	uct_sb_u64(&b, v);
	uct_sb_char(&b, '\n');
	fwrite_unlocked(b.p, 1, b.n, f);
}

/*
 * A shared row's split by container (shares.c): its processes and
 * refusals per container, for the rows that processes of a container
 * other than their namespace's own charge (Docker's containers of one
 * uid in the host's namespace). Only containers in cgroups root made
 * (cgroups.h): no tenant names a series. A rootless Podman's (a claim
 * in its user's subtree, which may repeat any id) are in the table and
 * JSON only.
 */
static void containers(FILE *f, const struct uct_model *m, enum uct_metrics_fmt fmt)
{
	const struct uct_share *sh;
	size_t i;
	int k, t;

	/* each shown shared row's containers, which come first (shares.c) */
	family(f, fmt, "ucounttop_container_nproc_processes", "gauge", "processes",
	       "Processes (threads) charging a shared row's RLIMIT_NPROC counter "
	       "directly, by the container whose cgroup they are in.");
	for (i = 0; i < m->nrows; i++) {
		const struct uct_row *r = &m->rows[i];

		for (k = 0; row_shown(m, r) && r->shared && k < r->nshares; k++) {
			sh = &m->shares[r->share + k];
			if (sh->container && !sh->container_tenant)
				container_sample(f, "ucounttop_container_nproc_processes", r, sh,
						 -1, sh->processes);
		}
	}
	family(f, fmt, "ucounttop_container_denials", "counter", NULL,
	       "Refused charges of a shared row since ucounttop attached, by the "
	       "container of the task refused.");
	for (i = 0; i < m->nrows; i++) {
		const struct uct_row *r = &m->rows[i];

		for (k = 0; row_shown(m, r) && r->shared && k < r->nshares; k++) {
			sh = &m->shares[r->share + k];
			for (t = 0; sh->container && !sh->container_tenant && t < UCT_NTYPES; t++)
				container_sample(f, "ucounttop_container_denials_total", r, sh, t,
						 sh->denials[t]);
		}
	}
}

/* ,name="value" when value is not empty: no label has an empty value */
static void opt_label(struct uct_sb *b, const char **sep, const char *name, const char *v,
		      size_t max)
{
	if (!v || !*v || !max)
		return;
	uct_sb_str(b, *sep);
	uct_sb_str(b, name);
	uct_sb_str(b, "=\"");
	uct_sb_label(b, v, max);
	uct_sb_char(b, '"');
	*sep = ",";
}

/*
 * What runs in a user namespace, as an info metric joined on ns: the
 * names change more often than the counters' series should (a namespace
 * outlives its processes), and a pid is no label at all. An unknown name
 * is no label.
 */
static void namespace_info(FILE *f, const struct uct_model *m, enum uct_metrics_fmt fmt)
{
	size_t i;

	family(f, fmt, "ucounttop_namespace", "info", NULL,
	       "What runs in a user namespace: the container id in its oldest process's cgroup, "
	       "the engine's name for the container (Kubernetes: its namespace, pod, container "
	       "and pod_uid) and that process's hostname (a label left out when unknown or no "
	       "process runs in it); join on ns.");
	for (i = 0; i < m->nns; i++) {
		const struct uct_nsinfo *ns = &m->ns[i];
		const char *sep = ",";
		char buf[2048];	/* every label at its longest, escaped */
		struct uct_sb b = UCT_SB_INIT(buf);

		if (!ns->visible)
			continue;
		uct_sb_str(&b, "ucounttop_namespace_info{ns=\"");
		uct_sb_u64(&b, ns->inum);
		uct_sb_str(&b, "\",level=\"");
		uct_sb_u64(&b, ns->level);
		uct_sb_char(&b, '"');
		if (ns->name->pid) {
			const struct uct_kube *k = ns->name->kube;

			opt_label(&b, &sep, "container_id", ns->name->container, UCT_CID_LEN);
			/* Kubernetes' label names, as kube-state-metrics and
			 * cAdvisor give them, to join on */
			if (k) {
				opt_label(&b, &sep, "namespace", k->ns, sizeof(k->ns));
				opt_label(&b, &sep, "pod", k->pod, sizeof(k->pod));
				opt_label(&b, &sep, "container", k->container, sizeof(k->container));
				opt_label(&b, &sep, "pod_uid", k->pod_uid, sizeof(k->pod_uid));
			} else {
				opt_label(&b, &sep, "container", ns->name->container_name,
					  UCT_TENANT_CNAME_MAX);
			}
			opt_label(&b, &sep, "hostname", ns->name->hostname,
				  sizeof(ns->name->hostname));
		}
		uct_sb_str(&b, "} 1\n");
		fwrite_unlocked(b.p, 1, b.n, f);
	}
}

/*
 * User names as an info metric, joined on (ns, kuid): not a label of the
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

		if (!row_shown(m, r) || !(user = uct_row_ns_user(m, r)) || !*user)
			continue;
		if (!any)
			family(f, fmt, "ucounttop_user", "info", NULL,
			       "The user name of a row's kuid as its user namespace maps it, "
			       "from the passwd file in the root of the namespace's oldest process "
			       "(the initial namespace: /etc/passwd); join on ns and kuid.");
		any = true;
		b.n = 0;
		uct_sb_str(&b, "ucounttop_user_info{ns=\"");
		uct_sb_u64(&b, r->rec.ns_inum);
		uct_sb_str(&b, "\",kuid=\"");
		uct_sb_u64(&b, r->rec.uid);
		uct_sb_str(&b, "\",user=\"");
		uct_sb_label(&b, user, UCT_USER_MAX);
		uct_sb_str(&b, "\"} 1\n");
		fwrite_unlocked(b.p, 1, b.n, f);
	}
}

/* The exporter itself: what it is, what the document cost, and when its
 * snapshot was taken */
static void exporter(FILE *f, const struct uct_view_ctx *c, enum uct_metrics_fmt fmt)
{
	const char *sep = "";
	char buf[512];
	struct uct_sb b = UCT_SB_INIT(buf);

	family(f, fmt, "ucounttop_build", "info", NULL,
	       "The ucounttop serving these metrics: its version (ucounttop --version), where "
	       "its snapshot comes from (iter/ucounts or iter/task) and the hooks it loaded.");
	uct_sb_str(&b, "ucounttop_build_info{");
	opt_label(&b, &sep, "version", UCT_VERSION, 64);
	opt_label(&b, &sep, "snapshot", c->snapshot_src, 64);
	opt_label(&b, &sep, "hooks", c->hooks, 256);
	uct_sb_str(&b, "} 1\n");
	fwrite_unlocked(b.p, 1, b.n, f);
	family(f, fmt, "ucounttop_degraded", "gauge", NULL,
	       "1 when this kernel lacks what ucounttop would use (the ucounttop series' "
	       "iterator or tracepoints, a hook): rows held only by IPC objects or signals, or "
	       "refusals' levels, may be missing; ucounttop's log (degraded:) and --json say "
	       "what. 0 otherwise.");
	fprintf(f, "ucounttop_degraded %d\n", c->degraded && *c->degraded ? 1 : 0);
	family(f, fmt, "ucounttop_scrape_duration_seconds", "gauge", "seconds",
	       "Seconds the snapshot of this document took, plus the rendering of the last "
	       "document before it (a document cannot time its own).");
	fprintf(f, "ucounttop_scrape_duration_seconds %.6f\n",
		c->scrape_seconds > 0 ? c->scrape_seconds : 0.0);
	family(f, fmt, "ucounttop_scrape_errors", "counter", NULL,
	       "Snapshots that failed since ucounttop started (--listen answered them 500).");
	fprintf(f, "ucounttop_scrape_errors_total %llu\n", c->scrape_errors);
	family(f, fmt, "ucounttop_last_snapshot_timestamp_seconds", "gauge", "seconds",
	       "Unix time of the snapshot this document shows.");
	fprintf(f, "ucounttop_last_snapshot_timestamp_seconds %lld.%03ld\n",
		(long long)c->wall.tv_sec, c->wall.tv_nsec / 1000000);
}

void uct_view_metrics(FILE *f, const struct uct_model *m, const struct uct_view_ctx *c,
		      enum uct_metrics_fmt fmt)
{
	static const char *const drop_kinds[UCT_NCOUNTERS] = {
		"stats_full", "ringbuf", "dedup_full", "chain_cut", NULL, "recursion_misses",
		"sig_undecided", "evcounts_full", "cg_denials_full",
	};
	int t;

	for (t = 0; t < UCT_NTYPES; t++)
		row_gauge(f, m, fmt, t, false);
	for (t = 0; t < UCT_NTYPES; t++)
		row_gauge(f, m, fmt, t, true);
	for (t = 0; t < UCT_NTYPES; t++)
		ns_max(f, m, fmt, t);
	/* the names tenants choose, unless the exporter's operator said so */
	if (m->have_tasks && !c->no_tenant_labels)
		namespace_info(f, m, fmt);
	if (!c->no_tenant_labels)
		users_info(f, m, fmt);
	row_counter(f, m, fmt, "ucounttop_denials",
		    "Refused charges from this row since ucounttop attached.", ROW_DENIALS);
	row_counter(f, m, fmt, "ucounttop_limit_hits",
		    "Times this row was the level found over its limit since attach.",
		    ROW_LIMIT_HITS);
	if (c->events) {
		row_counter(f, m, fmt, "ucounttop_charges",
			    "Charge calls since attach (--events).", ROW_CHARGES);
		row_counter(f, m, fmt, "ucounttop_uncharges",
			    "Uncharge calls since attach (--events).", ROW_UNCHARGES);
	}
	row_state(f, m, fmt, "ucounttop_row_over_limit",
		  "1 when a counter of the row is over its limit at this level, else 0.",
		  UCT_F_OVER);
	row_state(f, m, fmt, "ucounttop_row_imbalanced",
		  "1 when a counter of the row is below the sum of the rows of the user "
		  "namespaces it created (imbalanced), else 0.", UCT_F_IMBALANCED);
	containers(f, m, fmt);
	family(f, fmt, "ucounttop_drops", "counter", NULL,
	       "Data ucounttop lost: full maps, ring-buffer overruns, cut chains, "
	       "(recursion_misses) program runs the kernel skipped because the program was "
	       "already running on that CPU (preempted or interrupted inside it), (sig_undecided) "
	       "refused timer_create() charges --events may have counted, and passwd "
	       "files put off past a refresh's budget (passwd_deferred) or not kept past the "
	       "memory bound (passwd_dropped).");
	for (t = 0; t < UCT_NCOUNTERS; t++)
		if (drop_kinds[t])
			fprintf(f, "ucounttop_drops_total{kind=\"%s\"} %llu\n", drop_kinds[t],
				m->counters[t]);
	fprintf(f, "ucounttop_drops_total{kind=\"passwd_deferred\"} %lu\n"
		"ucounttop_drops_total{kind=\"passwd_dropped\"} %lu\n", m->passwd.deferred,
		m->passwd.dropped);
	family(f, fmt, "ucounttop_passwd_timeouts", "counter", NULL,
	       "Reads of a tenant's passwd file given up at their deadline (a file system that "
	       "does not answer); the namespace is then not read for a while "
	       "(ucounttop_passwd_quarantined), its names held so far shown.");
	fprintf(f, "ucounttop_passwd_timeouts_total %lu\n", m->passwd.timeouts);
	family(f, fmt, "ucounttop_passwd_quarantined", "gauge", NULL,
	       "Namespaces whose passwd file is not read until their wait after a timeout ends.");
	fprintf(f, "ucounttop_passwd_quarantined %zu\n", m->passwd.quarantined);
	family(f, fmt, "ucounttop_passwd_readers_stuck", "gauge", NULL,
	       "Helper processes given up on at a deadline that have not ended yet (at most 4; "
	       "at 4, no tenant's passwd file is read).");
	fprintf(f, "ucounttop_passwd_readers_stuck %zu\n", m->passwd.stuck);
	exporter(f, c, fmt);
	/* text 0.0.4 ends where the text ends */
	if (fmt == UCT_METRICS_OPENMETRICS)
		fputs("# EOF\n", f);
	fflush(f);
}

void uct_view_openmetrics(FILE *f, const struct uct_model *m, const struct uct_view_ctx *c)
{
	uct_view_metrics(f, m, c, UCT_METRICS_OPENMETRICS);
}
