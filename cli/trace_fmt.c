// SPDX-License-Identifier: GPL-2.0
/* trace_fmt.c - text of `ucounttop trace` lines. */
#include <stdio.h>
#include <string.h>
#include <time.h>
#include "fmt.h"
#include "trace_fmt.h"

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

/* RESULT column: what happened to the charge. */
static void result(char *buf, size_t len, const struct uct_event *e)
{
	char lim[32];

	switch (e->kind) {
	case UCT_EV_CHARGE:
		if (e->at_level == -1)
			snprintf(buf, len, "ok");
		else if (e->at_level >= 0)
			snprintf(buf, len, "over-limit@L%d", e->at_level);
		else
			snprintf(buf, len, "refused");	/* level unknown */
		break;
	case UCT_EV_DENIED:
		if (e->limit >= 0)
			uct_fmt_num(lim, sizeof(lim), e->limit);
		else
			snprintf(lim, sizeof(lim), "?");
		if (e->at_level >= 0)
			snprintf(buf, len, "DENIED limit=%s@L%d", lim, e->at_level);
		else
			snprintf(buf, len, "DENIED limit=%s", lim);
		break;
	default:
		snprintf(buf, len, "%s", uct_event_kind_name(e->kind));
	}
}

static time_t last_sec;
static char last_tb[16];

/*
 * One line, the same text as
 *   "%s.%03d %-7u %-16s %-11u %3u %-10u %-10s %5s %10lld %s"
 * of time, pid, comm, ns, level, uid, type, delta, value and result, built
 * without printf: on a small guest the reader shares the CPU with what it
 * traces, and formatting was most of what an event cost it.
 */
int uct_trace_line(char *buf, size_t len, const struct uct_event *e, double boot_to_wall)
{
	double t = e->ts_ns / 1e9 + boot_to_wall;
	time_t sec = (time_t)t;
	int ms = (int)((t - (double)sec) * 1000);
	struct uct_sb b = { buf, len, 0, 0 };
	char comm[UCT_COMM_LEN + 1], res[64], num[24];
	const char *type = "-", *r = res;
	struct tm tm;
	int i, n;

	buf[0] = 0;
	/* one conversion per second, not per line */
	if (sec != last_sec || !last_tb[0]) {
		localtime_r(&sec, &tm);
		strftime(last_tb, sizeof(last_tb), "%H:%M:%S", &tm);
		last_sec = sec;
	}
	uct_sb_str(&b, last_tb);
	/* ms is 0..999 (a negative time would print as printf does) */
	if (ms >= 0 && ms < 1000) {
		uct_fmt_u64(num, 1000 + (unsigned)ms);
		num[0] = '.';
		uct_sb_put(&b, num, 4);
	} else {
		snprintf(num, sizeof(num), ".%03d", ms);
		uct_sb_str(&b, num);
	}
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
	num[0] = '-';
	num[1] = 0;
	n = 1;
	if (e->kind != UCT_EV_ALLOC && e->kind != UCT_EV_FREE) {
		type = uct_type_name(e->type);
		if (e->kind == UCT_EV_CHARGE || e->kind == UCT_EV_UNCHARGE) {
			num[0] = e->kind == UCT_EV_CHARGE ? '+' : '-';
			n = 1 + uct_fmt_i64(num + 1, (long long)e->delta);
		} else {
			num[0] = '0';
		}
	}
	uct_sb_left(&b, type, strlen(type), 10);
	uct_sb_char(&b, ' ');
	uct_sb_right(&b, num, (size_t)n, 5);
	uct_sb_char(&b, ' ');
	uct_sb_right(&b, num, (size_t)uct_fmt_i64(num, (long long)e->value), 10);
	uct_sb_char(&b, ' ');
	/* the common results without printf */
	if (e->kind == UCT_EV_CHARGE && e->at_level == -1)
		r = "ok";
	else if (e->kind == UCT_EV_UNCHARGE)
		r = "uncharge";
	else
		result(res, sizeof(res), e);
	uct_sb_str(&b, r);
	return (int)b.n;
}
