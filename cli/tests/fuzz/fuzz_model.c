// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_model.c - libFuzzer target: the live view's model and every view
 * fed arbitrary snapshots.
 *
 * Input: a struct fuzz_model_hdr (settings, fuzz_input.h), then struct
 * uct_rec records, then struct uct_tlim task records and hdr.nstats
 * struct uct_stat_kv entries taken from the end: the bytes the loader
 * would have read from the iterators and the stats map, whatever a buggy
 * kernel or program put there. Cgroup lookups return paths made of the
 * tasks' hostname bytes, or a container's, or fail; passwd files are
 * pieces of the text after the header (any bytes). Up to three
 * updates use windows of the records (so rows appear, change and vanish;
 * an empty first window means all of them), hdr.step apart in time (zero
 * and negative included). With FM_SMALL_IDS, inode numbers and uids are
 * folded to a few values so that parents, duplicates, cycles and
 * self-references are common instead of one in 2^32.
 *
 * Oracle, besides the sanitizers: uct_model_update() succeeds; JSON is
 * one valid document on one line; OpenMetrics is well-formed lines ending
 * in "# EOF", counters never negative; the batch and tty tables hold no
 * control character, every table line is named ("ns ..." or "uid ...")
 * and DENY is a count; a user name is a well-formed one and the first
 * line of that uid in the file its namespace reads.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fuzz_input.h"
#include "json_check.h"
#include "model.h"
#include "proc_limits.h"
#include "views.h"

#define CHECK(cond) do { if (!(cond)) { \
	fprintf(stderr, "fuzz_model: %s:%d: %s\n", __FILE__, __LINE__, #cond); \
	abort(); } } while (0)

/* Statistics keep their full range: model.c does no signed arithmetic
 * on them, and the views must print any count truthfully. */
static void tame_rec(struct uct_rec *r)
{
	TAME_ALL(r->value);
	TAME_LIMITS(r->ns_max);
}

static void fold(struct uct_rec *r)
{
	r->ns_inum %= 9;	/* 0 included: "no namespace" */
	r->parent_ns_inum %= 9;
	r->uid %= 4;
	r->parent_uid %= 4;
	r->owner_uid %= 4;
	r->level %= UCT_MAX_LEVELS + 3;
	r->id %= 64;	/* few objects, so that stats entries meet them */
}

static void fold_stat(struct uct_stat_kv *kv)
{
	kv->id %= 64;
	kv->st.ns_inum %= 9;	/* 0: named by address only */
	kv->st.uid %= 4;
}

static void fold_task(struct uct_tlim *t)
{
	t->ns_inum %= 9;
	t->pid %= 8;
	t->cgroup_id %= 6;
	t->start_time %= 4;
	/* roots that processes share */
	t->mnt_ns %= 4;
	t->root_dev %= 2;
	t->root_ino %= 3;
}

/* ---- passwd files: pieces of the text, by source ---- */

static struct {
	const char *text;	/* FU_FILES pieces, split at form feeds */
	size_t off[FU_FILES], len[FU_FILES];
	size_t nfiles;
	int update;
	uint8_t flags;
} fz_pw;

static void split_passwd(const char *t, size_t n)
{
	size_t i, start = 0;

	fz_pw.text = t;
	fz_pw.nfiles = 0;
	for (i = 0; i <= n && fz_pw.nfiles < FU_FILES; i++) {
		if (i < n && t[i] != '\f')
			continue;
		fz_pw.off[fz_pw.nfiles] = start;
		fz_pw.len[fz_pw.nfiles] = i - start;
		fz_pw.nfiles++;
		start = i + 1;
	}
}

/* Which piece src reads in this update: ours the first, a process's by
 * its mount namespace (so one key, one file, as on a real system) */
static size_t piece_of(const struct uct_pwsrc *src)
{
	size_t k = src->pid ? 1 + src->mnt_ns % (FU_FILES - 1) : 0;

	if (fz_pw.flags & FU_ROTATE)
		k += (size_t)fz_pw.update;
	return k % fz_pw.nfiles;
}

static int fuzz_passwd(void *arg, const struct uct_pwsrc *src, const struct uct_file_id *known,
		       struct uct_file_id *id, char **text, size_t *len, bool *whole)
{
	size_t k;

	if (!fz_pw.nfiles || ((fz_pw.flags & FU_FAIL) && (src->pid & 1)))
		return -1;
	k = piece_of(src);
	memset(id, 0, sizeof(*id));
	id->dev = 1;
	id->ino = k;
	id->size = fz_pw.len[k];
	if (known && !memcmp(known, id, sizeof(*id)))
		return 1;
	*text = malloc(fz_pw.len[k] + 1);
	CHECK(*text);
	memcpy(*text, fz_pw.text + fz_pw.off[k], fz_pw.len[k]);
	*len = fz_pw.len[k];
	*whole = !((fz_pw.flags & FU_CUT) && k == fz_pw.nfiles - 1);
	return 0;
}

/*
 * A name the model gave uid must be one: 1-64 bytes, none a blank or a
 * control byte, not a NIS '+'/'-' entry; and in the piece its namespace
 * read, the first line (not blank, not a comment, ended by a newline
 * unless the piece is whole) whose third field is uid must start with it.
 */
static void check_user(const char *name, __u32 uid, size_t k, bool whole)
{
	const char *t = fz_pw.text + fz_pw.off[k], *end = t + fz_pw.len[k], *p = t;
	size_t n = strlen(name), i;

	CHECK(n >= 1 && n <= UCT_USER_MAX && name[0] != '+' && name[0] != '-');
	for (i = 0; i < n; i++)
		CHECK((unsigned char)name[i] > 0x20 && name[i] != 0x7f);
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p)), *c1, *c2, *le;
		__u32 u;

		le = nl ? nl : end;
		CHECK(nl || whole);
		c1 = memchr(p, ':', (size_t)(le - p));
		c2 = c1 ? memchr(c1 + 1, ':', (size_t)(le - c1 - 1)) : NULL;
		if (p < le && *p != '#' && c2) {
			const char *c3 = memchr(c2 + 1, ':', (size_t)(le - c2 - 1));

			if (uct_passwd_id(c2 + 1, (size_t)((c3 ? c3 : le) - c2 - 1), &u) && u == uid) {
				if ((size_t)(c1 - p) != n || memcmp(p, name, n))
					fprintf(stderr, "fuzz_model: uid %u named '%s', not by its first line\n",
						uid, name);
				CHECK((size_t)(c1 - p) == n && !memcmp(p, name, n));
				return;
			}
		}
		p = le + 1;
	}
	fprintf(stderr, "fuzz_model: uid %u named '%s' by no line\n", uid, name);
	CHECK(0);
}

static void check_users(const struct uct_model *m)
{
	size_t i;

	for (i = 0; i < m->nrows; i++) {
		const struct uct_row *r = &m->rows[i];
		const struct uct_nsinfo *ns = &m->ns[r->ns];
		const char *name = uct_row_ns_user(m, r);
		struct uct_pwsrc src = { .pid = ns->root ? 0 : 1, .mnt_ns = ns->name->mnt_ns };
		size_t k;

		if (name) {
			CHECK(r->rec.ns_uid != UCT_NO_UID && fz_pw.nfiles);
			k = piece_of(&src);
			check_user(name, r->rec.ns_uid, k,
				   !((fz_pw.flags & FU_CUT) && k == fz_pw.nfiles - 1));
		}
		/* --kuid: the initial namespace's name of the kuid */
		if (m->show_kuid && (name = uct_row_user(m, r))) {
			src = (struct uct_pwsrc){ 0 };
			k = piece_of(&src);
			check_user(name, r->rec.uid, k,
				   !((fz_pw.flags & FU_CUT) && k == fz_pw.nfiles - 1));
		}
	}
}

/* The task records of this input, for the cgroup lookup */
static const struct uct_tlim *fz_tasks;
static size_t fz_ntasks;

/*
 * What /proc/PID/cgroup would say: by the cgroup id, a failure, a
 * container's path (docker, podman, a bare id; the id from the cgroup
 * id), or any bytes: the process's hostname field, unterminated; or (id
 * 5) as long a path as the lookup takes, components of NAME_MAX (255)
 * bytes of that field over and over, which a tenant with a delegated
 * cgroup subtree can make. With id & 16, the part past the trusted
 * bytes is uid 1000's (or 1001's): its rootless Podman's claims count.
 */
static int fuzz_cgroup(void *arg, __u32 pid, __u64 id, char *path, size_t len, size_t *trusted,
		       __u32 *tenant)
{
	static const char *const prefix[] = { "/system.slice/docker-", "/docker/",
					      "/machine.slice/libpod-" };
	size_t i;

	for (i = 0; i < fz_ntasks; i++) {
		const struct uct_tlim *t = &fz_tasks[i];

		if (t->pid != pid || t->cgroup_id != id)
			continue;
		/* trusted to any byte, a component's end or not: all of
		 * the path (id & 8) or a prefix the id picks */
		*trusted = id & 8 ? len : (size_t)(id >> 4) % len;
		*tenant = id & 16 ? 1000 + (__u32)(id & 1) : UCT_NO_UID;
		switch (id % 3) {
		case 0:
			return -1;
		case 1:
			snprintf(path, len, "%s%016llx%016llx%016llx%016llx%s",
				 prefix[id % 3 + (id >> 3) % 2], (unsigned long long)id,
				 (unsigned long long)id * 3, (unsigned long long)id * 5,
				 (unsigned long long)id * 7, id & 4 ? ".scope/x" : "");
			return 0;
		default:
			if (id == 5 && len > 1) {
				size_t n = 0, k = 0;

				while (n + 1 < len) {
					path[n++] = k++ % 256 ? t->hostname[k % sizeof(t->hostname)] : '/';
					if (!path[n - 1])
						path[n - 1] = '\x01';
				}
				path[n] = 0;
				return 0;
			}
			snprintf(path, len, "%s%.*s", prefix[(id >> 2) % 3], (int)sizeof(t->hostname),
				 t->hostname);
			return 0;
		}
	}
	return -1;
}

/* uid 1000's Podman names every container it is asked about; 1001's
 * none */
static int fuzz_podman_name(void *arg, __u32 tenant, const char *cid,
			    char name[UCT_TENANT_CNAME_MAX + 1])
{
	if (tenant != 1000)
		return -1;
	snprintf(name, UCT_TENANT_CNAME_MAX + 1, "alice:c%.8s", cid);
	return 0;
}

static char *render(void (*fn)(FILE *, const struct uct_model *, const struct uct_view_ctx *),
		    const struct uct_model *m, const struct uct_view_ctx *c, size_t *len)
{
	char *buf = NULL;
	FILE *f = open_memstream(&buf, len);

	CHECK(f);
	fn(f, m, c);
	fclose(f);
	CHECK(buf && !memchr(buf, 0, *len));
	return buf;
}

/* Text with no byte a terminal would act on but the line ends. */
static void plain_text(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		CHECK(s[i] == '\n' || ((unsigned char)s[i] >= 0x20 && (unsigned char)s[i] < 0x7f));
}

/* name{labels} value or name value (the exporter's own), the value an
 * integer, +Inf or -Inf (a gauge's), or a decimal fraction (seconds) */
static void om_sample(const char *l, size_t n, bool counter)
{
	const char *p = memchr(l, '{', n), *q, *v, *end = l + n;
	bool dot = false;

	if (!p) {
		/* no labels: the exporter's own samples */
		p = memchr(l, ' ', n);
		CHECK(p && p > l);
		for (q = l; q < p; q++)
			CHECK((*q >= 'a' && *q <= 'z') || *q == '_');
		q = p - 1;
		goto value;
	}
	CHECK(p > l);
	for (q = l; q < p; q++)
		CHECK((*q >= 'a' && *q <= 'z') || *q == '_');
	/* labels: name="value", comma separated; a value is printable ASCII
	 * with \\, \" and \n escaped, a number or [a-z_] for most, never
	 * empty (a label without a value is left out) */
	for (q = p + 1;; q++) {
		const char *name = q;

		while (q < end && ((*q >= 'a' && *q <= 'z') || *q == '_'))
			q++;
		CHECK(q > name);
		CHECK(q + 2 < end && q[0] == '=' && q[1] == '"' && q[2] != '"');
		for (q += 2; q < end && *q != '"'; q++) {
			CHECK(*q >= 0x20 && *q < 0x7f);
			if (*q == '\\') {
				q++;
				CHECK(q < end && (*q == '\\' || *q == '"' || *q == 'n'));
			}
		}
		CHECK(q + 1 < end);
		if (*++q == '}')
			break;
		CHECK(*q == ',');
	}
value:
	CHECK(q + 1 < end && q[1] == ' ');
	v = q + 2;
	if (end - v == 4 && (!memcmp(v, "+Inf", 4) || !memcmp(v, "-Inf", 4))) {
		CHECK(!counter);
		return;
	}
	if (*v == '-') {
		CHECK(!counter);
		v++;
	}
	CHECK(v < end && *v >= '0' && *v <= '9');
	for (; v < end; v++) {
		if (*v == '.' && !dot && !counter && v + 1 < end) {
			dot = true;
			continue;
		}
		CHECK(*v >= '0' && *v <= '9');
	}
}

static void check_openmetrics(const char *s, size_t n)
{
	const char *l = s, *nl;

	CHECK(n >= 6 && !strcmp(s + n - 6, "# EOF\n"));
	plain_text(s, n);
	for (; l < s + n; l = nl + 1) {
		size_t len;

		nl = memchr(l, '\n', (size_t)(s + n - l));
		CHECK(nl);
		len = (size_t)(nl - l);
		if (!strncmp(l, "# TYPE ", 7) || !strncmp(l, "# HELP ", 7) ||
		    !strncmp(l, "# UNIT ", 7))
			continue;
		if (len == 5 && !strncmp(l, "# EOF", 5)) {
			CHECK(nl + 1 == s + n);
			continue;
		}
		om_sample(l, len, len > 6 && (memmem(l, len, "_total{", 7) ||
					      memmem(l, len, "_total ", 7)));
	}
}

/*
 * The Prometheus text 0.0.4 exposition is the OpenMetrics one with its
 * counters' TYPE and HELP naming the samples (X_total), its info families
 * gauges named as their samples (X_info), and no "# UNIT" or "# EOF".
 */
static void check_text(const char *om, size_t omlen, const char *tx, size_t txlen)
{
	static const struct { const char *type, *sfx, *as; } renamed[] = {
		{ " counter", "_total", "counter" },
		{ " info", "_info", "gauge" },
	};
	char *want = malloc(omlen * 2 + 1), *w = want, name[256] = "";
	const char *l, *nl, *sfx = "";
	size_t k;

	CHECK(want);
	for (l = om; l < om + omlen; l = nl + 1) {
		size_t len;

		nl = memchr(l, '\n', (size_t)(om + omlen - l));
		len = (size_t)(nl - l);
		if ((len == 5 && !strncmp(l, "# EOF", 5)) || !strncmp(l, "# UNIT ", 7))
			continue;
		for (k = 0; k < sizeof(renamed) / sizeof(renamed[0]); k++) {
			size_t tl = strlen(renamed[k].type);

			if (len > 7 + tl && !strncmp(l, "# TYPE ", 7) &&
			    !strncmp(nl - tl, renamed[k].type, tl))
				break;
		}
		if (k < sizeof(renamed) / sizeof(renamed[0])) {
			size_t nlen = len - 7 - strlen(renamed[k].type);

			CHECK(nlen < sizeof(name));
			memcpy(name, l + 7, nlen);
			name[nlen] = 0;
			sfx = renamed[k].sfx;
			w += sprintf(w, "# TYPE %s%s %s\n", name, sfx, renamed[k].as);
			continue;
		}
		if (*name && !strncmp(l, "# HELP ", 7) && !strncmp(l + 7, name, strlen(name)) &&
		    l[7 + strlen(name)] == ' ') {
			w += sprintf(w, "# HELP %s%s", name, sfx);
			l += 7 + strlen(name);
			len = (size_t)(nl - l);
			*name = 0;
		}
		memcpy(w, l, len + 1);
		w += len + 1;
	}
	if (txlen != (size_t)(w - want) || memcmp(tx, want, txlen))
		fprintf(stderr, "fuzz_model: text 0.0.4 is not the OpenMetrics exposition renamed\n");
	CHECK(txlen == (size_t)(w - want) && !memcmp(tx, want, txlen));
	free(want);
}

static void view_text(FILE *f, const struct uct_model *m, const struct uct_view_ctx *c)
{
	uct_view_metrics(f, m, c, UCT_METRICS_TEXT);
}

/*
 * The batch table: after the header and its legend, every line names its
 * namespace or uid ("ns ..." or "uid ..."), and a uid line's DENY, after
 * the four cells, is a count. Prints the line before giving up.
 */
static void check_batch(char *text)
{
	char *line, *save = NULL;
	bool table = false, legend = false;

	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char copy[512], *tok, *s2 = NULL;
		int k = 0;

		if (!table) {
			table = !strncmp(line, "NAME ", 5);
			continue;
		}
		if (!legend) {
			CHECK(!strcmp(line, UCT_TABLE_LEGEND));
			legend = true;
			continue;
		}
		snprintf(copy, sizeof(copy), "%s", line);
		while (*line == ' ')
			line++;
		if (!strncmp(line, "ns ", 3))
			continue;
		if (strncmp(line, "uid ", 4))
			fprintf(stderr, "fuzz_model: unnamed line: %s\n", copy);
		CHECK(!strncmp(line, "uid ", 4));
		/* "uid N", a user name "(NAME)" if any, four cells, DENY */
		for (tok = strtok_r(line, " ", &s2); tok && k < 6; tok = strtok_r(NULL, " ", &s2))
			if (k != 2 || *tok != '(')
				k++;
		if (!tok || *tok < '0' || *tok > '9')
			fprintf(stderr, "fuzz_model: DENY not a count: %s\n", copy);
		CHECK(tok && *tok >= '0' && *tok <= '9');
	}
	CHECK(table);
}

static void render_all(struct uct_model *m, struct uct_view_ctx *c, bool tty)
{
	char *out, *tx, line[512];
	int w, width = c->width;
	size_t len, tlen, i;

	out = render(uct_view_json, m, c, &len);
	CHECK(len > 0 && out[len - 1] == '\n' && memchr(out, '\n', len) == out + len - 1);
	CHECK(json_valid(out));
	free(out);

	out = render(uct_view_openmetrics, m, c, &len);
	check_openmetrics(out, len);
	tx = render(view_text, m, c, &tlen);
	check_text(out, len, tx, tlen);
	free(tx);
	free(out);

	c->width = 0;
	c->tty = false;
	out = render(uct_view_batch, m, c, &len);
	plain_text(out, len);
	check_batch(out);
	free(out);

	if (!tty)
		return;
	/* the tty view's table: its width, collapse markers, a cursor */
	c->width = width;
	c->tty = true;
	c->cursor = m->nlines ? (int)(m->nlines / 2) : -1;
	w = uct_table_name_width(m, c);
	CHECK(w >= 8);
	uct_table_header(line, sizeof(line), m, c, w);
	plain_text(line, strlen(line));
	uct_table_legend(line, sizeof(line), m, c);
	plain_text(line, strlen(line));
	for (i = 0; i < m->nlines; i++) {
		uct_table_line(line, sizeof(line), m, c, &m->lines[i], w);
		CHECK(strlen(line) < sizeof(line));
		plain_text(line, strlen(line));
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct uct_rec *recs;
	struct uct_stat_kv *stats;
	struct uct_tlim *tasks;
	struct uct_model m;
	struct uct_view_ctx c;
	struct fuzz_model_hdr h;
	size_t body, nrec, nstats, ntasks, i, pwlen;
	char *pwtext;
	int u;

	if (size < sizeof(h))
		return 0;
	memcpy(&h, data, sizeof(h));
	data += sizeof(h);
	body = size - sizeof(h);
	/* the passwd text first */
	pwlen = h.passwd_len < body ? h.passwd_len : body;
	pwtext = malloc(pwlen + 1);
	CHECK(pwtext);
	memcpy(pwtext, data, pwlen);
	data += pwlen;
	body -= pwlen;
	split_passwd(pwtext, pwlen);
	fz_pw.flags = h.users;
	fz_pw.update = 0;
	nstats = h.nstats;
	if (nstats > body / sizeof(*stats))
		nstats = body / sizeof(*stats);
	ntasks = h.names >> FN_TASKS_SHIFT;
	if (ntasks > (body - nstats * sizeof(*stats)) / sizeof(*tasks))
		ntasks = (body - nstats * sizeof(*stats)) / sizeof(*tasks);
	nrec = (body - nstats * sizeof(*stats) - ntasks * sizeof(*tasks)) / sizeof(*recs);
	/* aligned copies: the loader reads into arrays of these types */
	recs = calloc(nrec + 1, sizeof(*recs));
	stats = calloc(nstats + 1, sizeof(*stats));
	tasks = calloc(ntasks + 1, sizeof(*tasks));
	CHECK(recs && stats && tasks);
	memcpy(recs, data, nrec * sizeof(*recs));
	memcpy(stats, data + body - nstats * sizeof(*stats), nstats * sizeof(*stats));
	memcpy(tasks, data + body - nstats * sizeof(*stats) - ntasks * sizeof(*tasks),
	       ntasks * sizeof(*tasks));
	for (i = 0; i < nrec; i++)
		tame_rec(&recs[i]);
	if (h.flags & FM_SMALL_IDS) {
		for (i = 0; i < nrec; i++)
			fold(&recs[i]);
		for (i = 0; i < nstats; i++)
			fold_stat(&stats[i]);
		for (i = 0; i < ntasks; i++)
			fold_task(&tasks[i]);
	}
	fz_tasks = tasks;
	fz_ntasks = ntasks;

	uct_model_init(&m);
	m.sort = h.sort % UCT_SORT_COUNT;
	m.type_filter = h.type % (UCT_NTYPES + 1) - 1;
	if (nrec && (h.flags & FM_NS_FILTER))
		m.ns_filter = recs[h.pick_ns % nrec].ns_inum;
	if (nrec && (h.flags & FM_UID_FILTER))
		m.uid_filter = recs[h.pick_uid % nrec].uid;
	if (h.flags & FM_KUID) {
		/* shifts past the model's bound included: it must hold */
		m.show_kuid = true;
		m.page_shift = h.pad[0] % 40;
	}
	if (h.names & FN_LOOKUP) {
		m.cgroup_fn = fuzz_cgroup;
		m.podman_name_fn = fuzz_podman_name;
	}
	if (h.users & FU_READER)
		m.passwd_fn = fuzz_passwd;
	if (nrec && (h.names & FN_CONTAINER))
		snprintf(m.container_filter, sizeof(m.container_filter), "%llx",
			 (unsigned long long)recs[h.pick_ns % nrec].id % 0x100000);
	if (ntasks && (h.names & FN_SEARCH))
		/* any bytes: a tty search takes printable ones only, but the
		 * model must not care */
		memcpy(m.search, tasks[0].comm, sizeof(tasks[0].comm) - 1);
	memset(&c, 0, sizeof(c));
	c.snapshot_src = "iter/ucounts";
	c.hooks = "tp_btf:ucounts_rlimit_refused";
	c.degraded = "";
	c.events = h.flags & FM_EVENTS;
	c.delay = 1.0;
	c.wall.tv_sec = 1767225600;
	c.height = 24;
	c.scroll = 0;

	for (u = 0; u < 1 + h.updates % 3; u++) {
		size_t a = nrec ? h.win[2 * u] % (nrec + 1) : 0;
		size_t b = nrec ? h.win[2 * u + 1] % (nrec + 1) : 0;
		double now = 1000.0 + u * (h.step / 100.0);

		fz_pw.update = u;

		if (a > b) {
			size_t t = a;

			a = b;
			b = t;
		}
		if (u == 0 && a == b)	/* an empty first window: everything */
			a = 0, b = nrec;
		CHECK(uct_model_update(&m, recs + a, b - a, stats, nstats, now) == 0);
		if (h.flags & FM_CALLER) {
			struct uct_task_limits tl[8];
			size_t n = 0;
			int t;

			for (i = a; i < b && n < ARRAY_SIZE(tl); i++, n++) {
				tl[n].ns_inum = recs[i].ns_inum;
				tl[n].uid = recs[i].uid;
				for (t = 0; t < UCT_NTYPES; t++)
					tl[n].rlim[t] = recs[i].ns_max[t];
			}
			uct_model_set_caller_limits(&m, tl, n);
		}
		/* the task records of this refresh: a window like the records' */
		if (ntasks) {
			size_t ta = u ? h.win[2 * u] % (ntasks + 1) : 0;

			CHECK(uct_model_set_tasks(&m, tasks + ta, ntasks - ta) == 0);
			CHECK(m.have_tasks);
			uct_model_resolve_names(&m, h.names & FN_SCREEN ? (int)(h.step & 7) : -1,
						(int)(h.width % 30));
		} else {
			/* no task iterator: the initial namespace's names only */
			uct_model_resolve_names(&m, -1, 0);
		}
		check_users(&m);
		if (nrec && (h.flags & FM_COLLAPSE))
			uct_model_toggle_collapse(&m, recs[h.pick_ns % nrec].ns_inum);
		CHECK(m.nlines <= m.nns + m.nrows);
		c.width = h.width % 300;
		render_all(&m, &c, h.flags & FM_TTY);
	}
	uct_model_free(&m);
	free(recs);
	free(stats);
	free(tasks);
	free(pwtext);
	return 0;
}
