// SPDX-License-Identifier: GPL-2.0
/*
 * view_table.c - the text table shared by batch mode and the tty view.
 *
 *   NAME                      NPROC MSGQUEUE(B)  SIGPENDING  MEMLOCK(B)  DENY FLAG
 *   (ns lines: creator row/namespace max; uid lines: value[+change]/limit)
 *   ns 4026531837 L0 init      -/inf       -/inf       -/inf       -/inf
 *     uid 0                   41/-         0/-         0/-         0/-      0
 *     ns 4026532201 L1 o1001   5/inf    1.0K/800K      2/7.5K   12K/8.0M
 *       uid 1001            3+1/-        0/-         2/-         0/-      0 N
 *
 * A namespace line shows, per counter, the value of its creator's row
 * (the one in the parent namespace) against the namespace's rlimit_max:
 * exactly the comparison the kernel makes when something inside charges.
 * A uid line shows value[+change]/limit, the limit being the smallest
 * rlimit_max of the namespaces this row created; for a row that created
 * none, the smallest rlimit of its live tasks (the leaf check), "-" if it
 * has no live task. uids (and owners, o<uid>) are shown as the row's own
 * namespace (the owner's parent) maps them, as its processes know them,
 * with the user name that namespace's passwd file gives the uid
 * ("uid 2000 (app)"); --kuid shows the global kuids instead, named by
 * the initial namespace's /etc/passwd.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fmt.h"
#include "grow.h"
#include "views.h"

#define CELL_W	12
#define DENY_W	6
#define FLAG_W	4
#define RATE_W	7
/* a line of the table, the NUL included, at most */
#define LINE_MAX_B	512
/* a cell's text: a space and at most 20 characters, and the NUL */
#define CELL_TEXT	24
#define NAME_MIN 16
#define NAME_MAX_W 48
/* room left for "- ns 4026532046 L33 o4294967294" (31; an owner its
 * parent does not map, which create_user_ns() refuses, would be longer) */
#define IND_MAX	16
/* A namespace's name follows its cells; a tty's name column gives way
 * for one of this many columns (a space and a short container id), but
 * not below the width of "+ ns 4026531837 L0 " */
#define NS_LABEL_W	(1 + UCT_CID_SHORT)
#define NS_NAME_FLOOR	19
/* A container's name on a line: as long as docker ps would show most */
#define UCT_CNAME_SHOWN	24
/* a pod's, namespace/pod/container: its three parts; a rootless one's
 * user:name: its two */
#define UCT_KUBE_SHOWN	64

int uct_table_summary(FILE *f, const struct uct_model *m, const struct uct_view_ctx *c)
{
	char tbuf[32], nsb[24] = "all", uidb[24] = "all";
	struct tm tm;
	int t;

	localtime_r(&c->wall.tv_sec, &tm);
	strftime(tbuf, sizeof(tbuf), "%H:%M:%S", &tm);
	/* most important first: a narrow terminal cuts the end */
	fprintf(f, "ucounttop %s  %s%s  every %.1fs  iteration %lu  snapshot %s  events %s\n",
		UCT_VERSION, tbuf, c->paused ? " [paused]" : "", c->delay, m->iteration,
		c->snapshot_src ? c->snapshot_src : "-", c->events ? "on" : "off");
	fprintf(f, "namespaces %zu  rows %zu  denials", m->nns, m->nrows);
	for (t = 0; t < UCT_NTYPES; t++)
		fprintf(f, " %s %llu", uct_type_name(t), m->total_denials[t]);
	fprintf(f, "  drops %llu/%llu  missed %llu\n", m->counters[UCT_CNT_RB_DROPS],
		m->counters[UCT_CNT_STATS_FULL], m->counters[UCT_CNT_MISSED]);
	if (m->ns_filter)
		snprintf(nsb, sizeof(nsb), "%lld", m->ns_filter);
	if (m->uid_filter >= 0)
		snprintf(uidb, sizeof(uidb), "%lld", m->uid_filter);
	/* --uid filters by global kuid, whatever the rows show */
	fprintf(f, "sort %s  type %s  ns %s  kuid %s", uct_sort_name(m->sort),
		m->type_filter >= 0 ? uct_type_name(m->type_filter) : "all", nsb, uidb);
	/* --pid: say when the process is gone, or an empty table misleads */
	if (m->pid_filter)
		fprintf(f, "  pid %d%s", m->pid_filter, m->pid_ns ? "" : " (no such process)");
	/* likewise a container or a search that names nothing */
	if (m->container_filter[0])
		fprintf(f, "  container %s%s", m->container_filter,
			uct_model_name_matched(m) ? "" : " (no match)");
	if (m->search[0]) {
		char q[sizeof(m->search)];
		struct uct_sb b = UCT_SB_INIT(q);

		uct_sb_text(&b, m->search, sizeof(m->search));
		fprintf(f, "  search \"%s\"%s", q, uct_model_name_matched(m) ? "" : " (no match)");
	}
	fprintf(f, "  hooks %s\n", c->hooks ? c->hooks : "-");
	fprintf(f, "degraded: %s\n", c->degraded && *c->degraded ? c->degraded : "none");
	return 4;
}

/*
 * " (NAME)" after a uid: the user name the uid's view gives it, in at
 * most room columns and at most UCT_USER_SHOW of them, cut with '+' as
 * ps(1) cuts one ("(systemd-netwo+)"); nothing when not even a character
 * of it fits. A byte other than printable ASCII, or a blank (no user
 * name has one: one word per name), is '?': names are the container's
 * text.
 */
#define UCT_USER_SHOW	16
static void sb_user(struct uct_sb *b, const char *user, int room)
{
	size_t n = strlen(user), show = n, i, j;

	if (room > UCT_USER_SHOW + 3)
		room = UCT_USER_SHOW + 3;
	if (room < 5)
		return;
	if (n + 3 > (size_t)room)
		show = (size_t)room - 4;
	uct_sb_put(b, " (", 2);
	/* runs of plain bytes at once: every uid line may have a name */
	for (i = 0; i < show; i = j) {
		for (j = i; j < show && (unsigned char)user[j] > 0x20 && (unsigned char)user[j] < 0x7f; j++)
			;
		uct_sb_put(b, user + i, j - i);
		if (j < show) {
			uct_sb_char(b, '?');
			j++;
		}
	}
	uct_sb_put(b, show < n ? "+)" : ")", show < n ? 2 : 1);
}

/* Fixed text at p, whose room the caller made sure of; the end returned */
static char *put(char *p, const char *s, size_t n)
{
	memcpy(p, s, n);
	return p + n;
}

/* A uid as shown (see uct_row_uid()) at p, at most 14 bytes; one the
 * namespace does not map is "-" with its kuid, "-(k1000)", so that two
 * such rows stay apart and the name stays one word */
static char *put_uid(char *p, __u32 shown, __u32 kuid)
{
	if (shown != UCT_NO_UID)
		return p + uct_fmt_u64(p, shown);
	p = put(p, "-(k", 3);
	p += uct_fmt_u64(p, kuid);
	*p++ = ')';
	return p;
}

#define SPACES	"                "	/* IND_MAX of them */

/* A line's name into buf (at least LINE_NAME_B bytes), its length
 * returned; a uid line's user name is fitted into fit columns. Made
 * directly: it runs for every line of every refresh, and everything but
 * the user name has a bounded length. */
#define LINE_NAME_B	128
static size_t line_name(char *buf, const struct uct_model *m, const struct uct_view_ctx *c,
			const struct uct_line *ln, int fit)
{
	char *p = buf;
	int ind = ln->depth * 2;

	/* the name column is at most NAME_MAX_W wide: indenting all 34
	 * levels would push the name of a deep namespace out of it, leaving
	 * a line of numbers with no name; past IND_MAX the level is in the
	 * name (L<level>) only */
	if (ind > IND_MAX)
		ind = IND_MAX;
	p = put(p, SPACES, (size_t)ind);
	if (ln->is_ns) {
		const struct uct_nsinfo *ns = &m->ns[ln->index];

		/* tty: "-" expanded / "+" collapsed, toggled with e */
		if (c->tty)
			p = put(p, ns->collapsed ? "+ " : "- ", 2);
		p = put(p, "ns ", 3);
		p += uct_fmt_u64(p, ns->inum);
		p = put(p, " L", 2);
		p += uct_fmt_u64(p, ns->level);
		if (ns->root) {
			p = put(p, " init", 5);
		} else {
			p = put(p, " o", 2);
			p = put_uid(p, uct_ns_owner(m, ns), ns->owner_uid);
		}
		*p = 0;
	} else {
		const struct uct_row *r = &m->rows[ln->index];
		const char *user = uct_row_user(m, r);

		p = put(p, "uid ", 4);
		p = put_uid(p, uct_row_uid(m, r), r->rec.uid);
		*p = 0;
		if (user) {
			struct uct_sb b = { buf, LINE_NAME_B, (size_t)(p - buf), 0 };

			sb_user(&b, user, fit - (int)b.n);
			return b.n;
		}
	}
	return (size_t)(p - buf);
}

/* The name column's width for names of at most longest columns */
static int name_width(const struct uct_view_ctx *c, int longest, bool have_tasks)
{
	int w = longest > NAME_MIN ? longest : NAME_MIN, fixed;

	if (w > NAME_MAX_W)
		w = NAME_MAX_W;
	/* a tty shows at least a short container id after a namespace's
	 * cells: the name column gives way for it, within limits */
	if (c->width > 0 && have_tasks) {
		int room = c->width - UCT_NTYPES * CELL_W - NS_LABEL_W;

		if (room < NS_NAME_FLOOR)
			room = NS_NAME_FLOOR;
		if (w > room)
			w = room;
	}
	/* in a narrow tty the name column gives way first */
	fixed = UCT_NTYPES * CELL_W + DENY_W + 1 + FLAG_W + (c->events ? RATE_W : 0);
	if (c->width > 0 && w + fixed > c->width)
		w = c->width - fixed > 8 ? c->width - fixed : 8;
	return w;
}

int uct_table_name_width(const struct uct_model *m, const struct uct_view_ctx *c)
{
	char name[LINE_NAME_B];
	size_t i;
	int longest = 0;

	for (i = 0; i < m->nlines; i++) {
		int n = (int)line_name(name, m, c, &m->lines[i], NAME_MAX_W);

		if (n > longest)
			longest = n;
	}
	return name_width(c, longest, m->have_tasks);
}

/* Append at most len-1 chars total to buf (keeps it NUL-terminated). */
static void cat(char *buf, size_t len, const char *s)
{
	size_t n = strlen(buf);

	if (n + 1 < len)
		snprintf(buf + n, len - n, "%s", s);
}

/* " VALUE[+CHANGE]/LIMIT", right-aligned in CELL_W. Up to 20 characters
 * ("-99.9K-99.9K/-99.9K"), wider than CELL_W: the space before each cell
 * makes a wide one push the rest of the line right instead of running into
 * its neighbour ("2/4" then "2048+2048/800K" must not read "2/42048+2048"). */
static size_t cell_text(char out[CELL_TEXT], long long value, bool have_value, long long delta,
			long long limit, bool have_limit)
{
	char t[48];
	struct uct_sb o = UCT_SB_INIT(t);
	struct uct_sb b = { out, CELL_TEXT, 0, 0 };

	if (have_value)
		uct_sb_num(&o, value);
	else
		uct_sb_char(&o, '-');
	if (delta)
		uct_sb_signed(&o, delta);
	uct_sb_char(&o, '/');
	if (have_limit)
		uct_sb_num(&o, limit);
	else
		uct_sb_char(&o, '-');
	uct_sb_char(&b, ' ');
	uct_sb_right(&b, t, o.n, CELL_W - 1);
	return b.n;
}

/*
 * The cells made last, by what they show: a table repeats few of them
 * ("0/-" on most uid lines, a namespace's "1/inf"), and each costs two
 * compact numbers and an alignment. Direct-mapped, per thread.
 */
#define CELL_MEMO	256
static _Thread_local struct cell_memo {
	long long value, delta, limit;
	unsigned char have;	/* 0: empty; 1 | have_value << 1 | have_limit << 2 */
	unsigned char n;
	char text[CELL_TEXT];
} cell_memo[CELL_MEMO];

/* A memo entry made anew; apart, so that a hit saves no registers */
static __attribute__((noinline)) void cell_fill(struct cell_memo *e, long long value,
						unsigned char have, long long delta,
						long long limit)
{
	e->n = (unsigned char)cell_text(e->text, value, have & 2, delta, limit, have & 4);
	e->value = value;
	e->delta = delta;
	e->limit = limit;
	e->have = have;
}

static inline char *cell(char *p, long long value, bool have_value, long long delta,
			 long long limit, bool have_limit)
{
	unsigned long long k = (unsigned long long)value * 0x9E3779B97F4A7C15ULL ^
			       (unsigned long long)limit * 0xC2B2AE3D27D4EB4FULL ^
			       (unsigned long long)delta * 0x165667B19E3779F9ULL;
	struct cell_memo *e = &cell_memo[k >> 56];
	unsigned char have = 1 | have_value << 1 | have_limit << 2;

	if (e->have != have || e->value != value || e->limit != limit || e->delta != delta)
		cell_fill(e, value, have, delta, limit);
	/* the whole entry: a copy of constant size */
	memcpy(p, e->text, CELL_TEXT);
	return p + e->n;
}

/*
 * One unit per column: MEMLOCK is counted in pages but shown in bytes, as
 * MSGQUEUE is, on uid and namespace lines alike (K/M/G of the same
 * kind); the header says so.
 */
static const char *const col_label[UCT_NTYPES] = {
	[UCT_NPROC] = "NPROC",
	[UCT_MSGQUEUE] = "MSGQUEUE(B)",
	[UCT_SIGPENDING] = "SIGPENDING",
	[UCT_MEMLOCK] = "MEMLOCK(B)",
};

static long long in_unit(const struct uct_model *m, int type, long long v)
{
	return type == UCT_MEMLOCK ? uct_pages_to_bytes(m, v) : v;
}

void uct_table_header(char *buf, size_t len, const struct uct_model *m,
		      const struct uct_view_ctx *c, int name_w)
{
	char tmp[64];
	int t;

	snprintf(buf, len, "%-*s", name_w, "NAME");
	for (t = 0; t < UCT_NTYPES; t++) {
		snprintf(tmp, sizeof(tmp), "%*s", CELL_W, col_label[t]);
		cat(buf, len, tmp);
	}
	snprintf(tmp, sizeof(tmp), "%*s %-*s", DENY_W, "DENY", FLAG_W, "FLAG");
	cat(buf, len, tmp);
	if (c->events) {
		snprintf(tmp, sizeof(tmp), "%*s", RATE_W, "EV/s");
		cat(buf, len, tmp);
	}
}

void uct_table_legend(char *buf, size_t len, const struct uct_model *m,
		      const struct uct_view_ctx *c)
{
	/* the two kinds of line mean different things in the same cells */
	snprintf(buf, len, "%s", UCT_TABLE_LEGEND);
}

void uct_sb_held_by(struct uct_sb *b, unsigned held, bool json)
{
	static const struct { unsigned bit; const char *json, *table; } names[] = {
		{ UCT_HELD_CHILD_NS, "\"child_namespace\"", "ns" },
		{ UCT_HELD_QUEUE, "\"queue\"", "mq" },
		{ UCT_HELD_LOCKED, "\"locked_segment\"", "shm" },
		{ UCT_HELD_SIGNAL, "\"queued_signal\"", "sig" },
	};
	const char *sep = "";
	size_t i;

	for (i = 0; i < ARRAY_SIZE(names); i++) {
		if (!(held & names[i].bit))
			continue;
		uct_sb_str(b, sep);
		uct_sb_str(b, json ? names[i].json : names[i].table);
		sep = ",";
	}
}

/*
 * What names a namespace, after its cells (where a uid line has DENY and
 * FLAG): the container's name where its engine gives one (Docker), else
 * its short id, the hostname when the namespace has its own, and the
 * oldest process: "3f2a1b4c5d6e web-1 nginx(4120)", "web nginx(4120)",
 * "n2-db sleep(77)", "init(1)". Without a process: "no task" and what
 * holds it, "no task (ns,mq)". Nothing when names are unknown.
 */
/* A container: its engine's name, else its short id */
static void container_label(struct uct_sb *b, const char *id, const char *name)
{
	if (name)
		uct_sb_text(b, name, strpbrk(name, "/:") ? UCT_KUBE_SHOWN : UCT_CNAME_SHOWN);
	else
		uct_sb_text(b, id, UCT_CID_SHORT);
}

static void ns_label(struct uct_sb *b, const struct uct_model *m, const struct uct_nsinfo *ns)
{
	const struct uct_nsname *nm = ns->name;

	if (!m->have_tasks)
		return;
	uct_sb_char(b, ' ');
	if (!nm->pid) {
		uct_sb_str(b, "no task");
		if (ns->held) {
			uct_sb_str(b, " (");
			uct_sb_held_by(b, ns->held, false);
			uct_sb_char(b, ')');
		}
		return;
	}
	if (nm->container) {
		container_label(b, nm->container, nm->container_name);
		uct_sb_char(b, ' ');
	}
	/* docker's default hostname is the short id, a pod's its name, and
	 * many containers are given their name: once is enough */
	if (nm->own_host && !(nm->container && strlen(nm->hostname) == UCT_CID_SHORT &&
			      !strncmp(nm->hostname, nm->container, UCT_CID_SHORT)) &&
	    !(nm->container_name && !strcmp(nm->hostname, nm->container_name)) &&
	    !(nm->kube && !strcmp(nm->hostname, nm->kube->pod))) {
		uct_sb_word(b, nm->hostname, sizeof(nm->hostname));
		uct_sb_char(b, ' ');
	}
	uct_sb_word(b, nm->comm, sizeof(nm->comm));
	uct_sb_char(b, '(');
	uct_sb_u64(b, nm->pid);
	uct_sb_char(b, ')');
}

/* At most this many containers on a row's line; JSON and OpenMetrics
 * have them all */
#define SHARES_SHOWN 6

static unsigned long long share_denials(const struct uct_share *s)
{
	unsigned long long n = 0;
	int t;

	for (t = 0; t < UCT_NTYPES; t++)
		n += s->denials[t];
	return n;
}

/* " N", and " (refused D)" when D */
static void share_count(struct uct_sb *b, unsigned long long n, unsigned long long den)
{
	uct_sb_char(b, ' ');
	uct_sb_u64(b, n);
	if (den) {
		uct_sb_str(b, " (refused ");
		uct_sb_u64(b, den);
		uct_sb_char(b, ')');
	}
}

/*
 * A uid row that containers share (in the host's namespace, say): its
 * processes by container, and the refusals of each, after its cells:
 * " in 3f2a1b4c5d6e 3, web 2 (refused 1), other 1" (a name where the
 * engine gives one) - "other"
 * for its processes in no container's cgroup.
 */
static void shares_label(struct uct_sb *b, const struct uct_model *m, const struct uct_row *r)
{
	unsigned long long more = 0, more_den = 0;
	struct uct_share other;
	int k, shown = 0;

	uct_sb_str(b, " in");
	/* containers first (shares.c) */
	for (k = 0; k < r->nshares && m->shares[r->share + k].container; k++) {
		const struct uct_share *s = &m->shares[r->share + k];
		unsigned long long den = share_denials(s);

		if (shown == SHARES_SHOWN) {
			more += s->processes;
			more_den += den;
			continue;
		}
		uct_sb_str(b, shown++ ? ", " : " ");
		container_label(b, s->container, s->container_name);
		share_count(b, s->processes, den);
	}
	if (shown < r->ncontainers) {
		uct_sb_str(b, ", ");
		uct_sb_u64(b, (unsigned long long)(r->ncontainers - shown));
		uct_sb_str(b, " more containers");
		share_count(b, more, more_den);
	}
	uct_row_other_share(m, r, &other);
	if (other.processes || share_denials(&other)) {
		uct_sb_str(b, ", other");
		share_count(b, other.processes, share_denials(&other));
	}
}

/* A line whose name (made for a column name_w wide) is given. Its cells
 * are made directly, in a buffer of LINE_MAX_B (the fixed part of a line
 * is at most about 250 bytes); what names a namespace or the containers
 * sharing a row, of any length, follow through a string builder. */
static size_t named_line(char *buf, size_t len, const struct uct_model *m,
			 const struct uct_view_ctx *c, const struct uct_line *ln, int name_w,
			 const char *name, size_t nlen)
{
	char tmp[LINE_MAX_B], *out = len >= LINE_MAX_B ? buf : tmp, *p = out;
	struct uct_sb b;
	int t;

	if (name_w > LINE_NAME_B)
		name_w = LINE_NAME_B;
	/* "%-*.*s": the name cut or padded to name_w */
	if (nlen > (size_t)name_w)
		nlen = (size_t)name_w;
	p = put(p, name, nlen);
	memset(p, ' ', (size_t)name_w - nlen);
	p += (size_t)name_w - nlen;
	if (ln->is_ns) {
		const struct uct_nsinfo *ns = &m->ns[ln->index];
		const struct uct_row *cr = ns->creator_row >= 0 ? &m->rows[ns->creator_row] : NULL;

		for (t = 0; t < UCT_NTYPES; t++)
			p = cell(p, cr ? in_unit(m, t, cr->rec.value[t]) : 0, cr != NULL, 0,
				 in_unit(m, t, ns->max[t]), true);
		*p = 0;
		b = (struct uct_sb){ out, LINE_MAX_B, (size_t)(p - out), 0 };
		ns_label(&b, m, ns);
	} else {
		const struct uct_row *r = &m->rows[ln->index];
		unsigned long long den = 0;
		double rate = 0;
		int nf = 0;

		for (t = 0; t < UCT_NTYPES; t++) {
			long long lim = uct_row_leaf_limit(m, r, t);

			p = cell(p, in_unit(m, t, r->rec.value[t]), true,
				 in_unit(m, t, uct_row_delta(m, r, t)),
				 lim >= 0 ? in_unit(m, t, lim) : lim, lim >= 0);
			den += r->stat->st.denials[t];
			rate += r->stat->event_rate[t];
		}
		/* DENY, a count: at most LLONG_MAX - 1, which uct_fmt_num()
		 * would otherwise show negative or as "inf" (8.0E either way);
		 * most rows have none */
		if (!den) {
			p = put(p, "     0 ", DENY_W + 1);
		} else {
			char cb[CELL_TEXT];
			struct uct_sb d = UCT_SB_INIT(cb);

			uct_sb_num(&d, den < LLONG_MAX ? (long long)den : LLONG_MAX - 1);
			b = (struct uct_sb){ out, LINE_MAX_B, (size_t)(p - out), 0 };
			uct_sb_char(&b, ' ');
			uct_sb_right(&b, cb, d.n, DENY_W - 1);
			uct_sb_char(&b, ' ');
			p = out + b.n;
		}
		if (r->flags & UCT_F_DENIALS)
			p[nf++] = 'D';
		if (r->flags & UCT_F_OVER)
			p[nf++] = 'O';
		if (r->flags & UCT_F_IMBALANCED)
			p[nf++] = 'I';
		if (r->flags & UCT_F_NEW)
			p[nf++] = 'N';
		p += nf;
		memset(p, ' ', FLAG_W - nf);
		p += FLAG_W - nf;
		*p = 0;
		b = (struct uct_sb){ out, LINE_MAX_B, (size_t)(p - out), 0 };
		if (c->events) {
			char rb[64];

			snprintf(rb, sizeof(rb), "%*.0f", RATE_W, rate);
			uct_sb_str(&b, rb);
		}
		if (r->shared)
			shares_label(&b, m, r);
	}
	if (out == tmp) {
		b.n = b.n < len ? b.n : len - 1;
		memcpy(buf, tmp, b.n);
		buf[b.n] = 0;
	}
	return b.n;
}

size_t uct_table_line(char *buf, size_t len, const struct uct_model *m,
		      const struct uct_view_ctx *c, const struct uct_line *ln, int name_w)
{
	char name[LINE_NAME_B];

	if (name_w < 0)
		name_w = 0;
	return named_line(buf, len, m, c, ln, name_w, name, line_name(name, m, c, ln, name_w));
}

/* The length of s's first n bytes without their trailing blanks */
static size_t rstrip(const char *s, size_t n)
{
	while (n && s[n - 1] == ' ')
		n--;
	return n;
}

/*
 * Every line's name, made once: the width pass needs them all, and a
 * name made for the widest column is the one a line shows whenever it
 * fits the column (sb_user() cuts a user name only to fit).
 */
struct names {
	char *text;		/* the names, one after another */
	size_t *end;		/* where line k's name ends in text */
	size_t cap_text, cap_end;
	int longest;
};

/* Kept from one refresh to the next, as the model keeps its arrays: the
 * next refresh has as many lines, give or take */
static _Thread_local struct names kept_names;

static int make_names(struct names *nm, const struct uct_model *m, const struct uct_view_ctx *c)
{
	size_t used = 0, k;

	nm->longest = 0;
	if (uct_grow((void **)&nm->end, &nm->cap_end, m->nlines + 1, sizeof(*nm->end)))
		return -1;
	for (k = 0; k < m->nlines; k++) {
		size_t n;

		if (used + LINE_NAME_B > nm->cap_text &&
		    uct_grow((void **)&nm->text, &nm->cap_text, used + LINE_NAME_B, 1))
			return -1;
		n = line_name(nm->text + used, m, c, &m->lines[k], NAME_MAX_W);
		if ((int)n > nm->longest)
			nm->longest = (int)n;
		used += n;
		nm->end[k] = used;
	}
	return 0;
}

void uct_view_batch(FILE *f, const struct uct_model *m, const struct uct_view_ctx *c)
{
	static _Thread_local char out[64 * 1024];
	size_t used = 0;
	char buf[LINE_MAX_B];
	struct names *nm = &kept_names;
	bool named = !make_names(nm, m, c);
	int w = named ? name_width(c, nm->longest, m->have_tasks) : uct_table_name_width(m, c);
	size_t k, n;

	uct_table_summary(f, m, c);
	uct_table_header(buf, sizeof(buf), m, c, w);
	fprintf(f, "%.*s\n", (int)rstrip(buf, strlen(buf)), buf);
	uct_table_legend(buf, sizeof(buf), m, c);
	fprintf(f, "%s\n", buf);
	/* lines are made in place in out, written when it is nearly full:
	 * a write per line costs as much as making one */
	for (k = 0; k < m->nlines; k++) {
		size_t from = named && k ? nm->end[k - 1] : 0;
		char *p = out + used;

		if (named && nm->end[k] - from <= (size_t)w)
			n = named_line(p, LINE_MAX_B, m, c, &m->lines[k], w, nm->text + from,
				       nm->end[k] - from);
		else
			n = uct_table_line(p, LINE_MAX_B, m, c, &m->lines[k], w);
		n = rstrip(p, n);
		p[n++] = '\n';
		used += n;
		if (used > sizeof(out) - LINE_MAX_B - 1) {
			fwrite_unlocked(out, 1, used, f);
			used = 0;
		}
	}
	fwrite_unlocked(out, 1, used, f);
	fputc('\n', f);
	fflush(f);
}
