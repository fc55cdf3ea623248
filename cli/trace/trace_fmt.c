// SPDX-License-Identifier: GPL-2.0
/*
 * trace_fmt.c - text of `ucounttop trace` lines.
 *
 * On a small guest the reader shares the CPU with what it traces, so every
 * instruction spent on a line is overhead on the traced workload. A line is
 * assembled from pieces kept from earlier lines (the clock text of this
 * second, the columns from PID to TYPE of this process and type), copied in
 * fixed-size blocks, and the few numbers that change are written in place.
 */
#include <stdio.h>
#include <string.h>
#include <time.h>
#include "fmt.h"
#include "trace_fmt.h"

#define NSEC_PER_SEC	1000000000LL
#define NSEC_PER_MSEC	1000000LL
/* the key type of alloc/free lines, whose TYPE column is "-" */
#define MID_NO_TYPE	0x100

const char *uct_event_kind_name(unsigned kind)
{
	switch (kind) {
	case UCT_EV_CHARGE: return "charge";
	case UCT_EV_UNCHARGE: return "uncharge";
	case UCT_EV_DENIED: return "denied";
	case UCT_EV_ALLOC: return "alloc";
	case UCT_EV_FREE: return "free";
	}
	return "?";
}

const char *uct_trace_header(void)
{
	return "TIME         PID     COMM             NS          LVL UID        "
	       "TYPE       DELTA        NEW RESULT";
}

/* ".000" .. ".999", the milliseconds column */
static char ms_text[1000][4];

void uct_trace_fmt_init(struct uct_trace_fmt *f, int64_t boot_to_wall_ns)
{
	int i;

	memset(f, 0, sizeof(*f));
	f->wall_off_ns = boot_to_wall_ns;
	for (i = 0; i < 1000; i++) {
		ms_text[i][0] = '.';
		ms_text[i][1] = (char)('0' + i / 100);
		ms_text[i][2] = (char)('0' + i / 10 % 10);
		ms_text[i][3] = (char)('0' + i % 10);
	}
}

/* clk and sec_ns for the second that holds wall time w (ns) */
static void clock_text(struct uct_trace_fmt *f, int64_t w)
{
	int64_t sec = w / NSEC_PER_SEC - (w % NSEC_PER_SEC < 0);
	time_t t = (time_t)sec;
	char tb[16];
	struct tm tm;

	f->sec_ns = sec * NSEC_PER_SEC;
	if (!localtime_r(&t, &tm) || strftime(tb, sizeof(tb), "%H:%M:%S", &tm) != 8)
		memcpy(tb, "??:??:??", 8);
	memcpy(f->clk, tb, 8);
}

/* The columns from PID to TYPE, with the spaces around them. */
static void mid_fill(struct uct_trace_mid *m, const struct uct_event *e, uint32_t type)
{
	struct uct_sb b = { m->text, sizeof(m->text), 0, 0 };
	const char *tn = type == MID_NO_TYPE ? "-" : uct_type_name(e->type);
	char comm[UCT_COMM_LEN], num[24];
	int i;

	uct_sb_char(&b, ' ');
	uct_sb_left(&b, num, (size_t)uct_fmt_u64(num, e->pid), 7);
	uct_sb_char(&b, ' ');
	/* comm may hold anything: keep the line one line */
	for (i = 0; i < UCT_COMM_LEN && e->comm[i]; i++)
		comm[i] = (e->comm[i] >= 0x20 && e->comm[i] < 0x7f) ? e->comm[i] : '?';
	uct_sb_left(&b, comm, (size_t)i, 16);
	uct_sb_char(&b, ' ');
	uct_sb_left(&b, num, (size_t)uct_fmt_u64(num, e->ns_inum), 11);
	uct_sb_char(&b, ' ');
	uct_sb_right(&b, num, (size_t)uct_fmt_u64(num, e->level), 3);
	uct_sb_char(&b, ' ');
	uct_sb_left(&b, num, (size_t)uct_fmt_u64(num, e->uid), 10);
	uct_sb_char(&b, ' ');
	uct_sb_left(&b, tn, strlen(tn), 10);
	uct_sb_char(&b, ' ');
	m->n = (uint32_t)b.n;
	memcpy(m->comm, e->comm, sizeof(m->comm));
}

char *uct_trace_limit_text(char *buf, size_t len, long long limit)
{
	if (limit >= 0)
		return uct_fmt_num(buf, len, limit);
	snprintf(buf, len, "?");
	return buf;
}

/* DELTA, NEW and RESULT of any event, newline included, at q (room:
 * len bytes); returns the length. */
static size_t tail_slow(char *q, size_t len, const struct uct_event *e)
{
	struct uct_sb b = { q, len, 0, 0 };
	char num[24], lim[32];
	size_t n = 1;

	num[0] = '-';
	num[1] = 0;
	if (e->kind == UCT_EV_CHARGE || e->kind == UCT_EV_UNCHARGE) {
		num[0] = e->kind == UCT_EV_CHARGE ? '+' : '-';
		n = 1 + (size_t)uct_fmt_i64(num + 1, (long long)e->delta);
	} else if (e->kind != UCT_EV_ALLOC && e->kind != UCT_EV_FREE) {
		num[0] = '0';	/* a refusal changes nothing */
	}
	uct_sb_right(&b, num, n, 5);
	uct_sb_char(&b, ' ');
	uct_sb_right(&b, num, (size_t)uct_fmt_i64(num, (long long)e->value), 10);
	uct_sb_char(&b, ' ');
	switch (e->kind) {
	case UCT_EV_CHARGE:
		if (e->at_level == -1) {
			uct_sb_str(&b, "ok");
		} else if (e->at_level >= 0) {
			uct_sb_str(&b, "over-limit@L");
			uct_sb_i64(&b, e->at_level);
		} else {
			uct_sb_str(&b, "refused");	/* level unknown */
		}
		break;
	case UCT_EV_DENIED:
		uct_sb_str(&b, "DENIED limit=");
		uct_sb_str(&b, uct_trace_limit_text(lim, sizeof(lim), e->limit));
		if (e->at_level >= 0) {
			uct_sb_str(&b, "@L");
			uct_sb_i64(&b, e->at_level);
		}
		break;
	default:
		uct_sb_str(&b, uct_event_kind_name(e->kind));
	}
	uct_sb_char(&b, '\n');
	return b.n;
}

static inline uint64_t load64(const char *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

size_t uct_trace_line(struct uct_trace_fmt *f, char *p, const struct uct_event *e)
{
	int64_t w = (int64_t)(e->ts_ns + (uint64_t)f->wall_off_ns);
	uint64_t in = (uint64_t)w - (uint64_t)f->sec_ns, v;
	uint64_t pid_ns = (uint64_t)e->ns_inum << 32 | e->pid;
	uint64_t uid_level = (uint64_t)e->level << 32 | e->uid;
	uint32_t type = e->kind == UCT_EV_ALLOC || e->kind == UCT_EV_FREE ? MID_NO_TYPE : e->type;
	struct uct_trace_mid *m;
	unsigned kind = e->kind;
	char *q, *r;

	/* TIME: the clock text once a second, milliseconds from a table */
	if (in >= NSEC_PER_SEC || !f->clk[0]) {
		clock_text(f, w);
		in = (uint64_t)w - (uint64_t)f->sec_ns;
	}
	memcpy(p, f->clk, 8);
	memcpy(p + 8, ms_text[in / NSEC_PER_MSEC], 4);

	/* PID .. TYPE: as the last line of this key had them */
	m = &f->mid[((e->pid << 2 | (type & 3)) * 0x9E3779B1u) >> (32 - 6)];
	if (m->pid_ns != pid_ns || m->uid_level != uid_level || m->type != type || !m->n ||
	    load64(m->comm) != load64(e->comm) || load64(m->comm + 8) != load64(e->comm + 8)) {
		m->pid_ns = pid_ns;
		m->uid_level = uid_level;
		m->type = type;
		mid_fill(m, e, type);
	}
	/* the whole block: fixed-size copies are a few moves, and the
	 * bytes past the text are overwritten below */
	memcpy(p + 12, m->text, sizeof(m->text));
	q = p + 12 + m->n;

	/* the common charges and uncharges: small numbers in place */
	if ((kind == UCT_EV_UNCHARGE || (kind == UCT_EV_CHARGE && e->at_level == -1)) &&
	    (uint64_t)e->delta < 10000 && (uint64_t)e->value < 10000000000ULL) {
		memcpy(q, "                ", 16);	/* "%5s %10lld" */
		r = q + 5;
		v = (uint64_t)e->delta;
		do {
			*--r = (char)('0' + v % 10);
			v /= 10;
		} while (v);
		r[-1] = kind == UCT_EV_CHARGE ? '+' : '-';
		r = q + 16;
		v = (uint64_t)e->value;
		do {
			*--r = (char)('0' + v % 10);
			v /= 10;
		} while (v);
		q[16] = ' ';
		if (kind == UCT_EV_CHARGE) {
			memcpy(q + 17, "ok\n", 4);
			return (size_t)(q + 20 - p);
		}
		memcpy(q + 17, "uncharge\n", 9);
		return (size_t)(q + 26 - p);
	}
	return (size_t)(q - p) + tail_slow(q, UCT_TRACE_LINE_MAX - (size_t)(q - p), e);
}
