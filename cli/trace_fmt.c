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

void uct_trace_line(char *buf, size_t len, const struct uct_event *e, double boot_to_wall)
{
	double t = e->ts_ns / 1e9 + boot_to_wall;
	time_t sec = (time_t)t;
	int ms = (int)((t - (double)sec) * 1000);
	char tb[16], comm[UCT_COMM_LEN + 1], res[64], type[16], delta[24];
	struct tm tm;
	int i;

	/* one conversion per second, not per line */
	if (sec != last_sec || !last_tb[0]) {
		localtime_r(&sec, &tm);
		strftime(last_tb, sizeof(last_tb), "%H:%M:%S", &tm);
		last_sec = sec;
	}
	memcpy(tb, last_tb, sizeof(tb));
	/* comm may hold anything: keep the line one line */
	for (i = 0; i < UCT_COMM_LEN && e->comm[i]; i++)
		comm[i] = (e->comm[i] >= 0x20 && e->comm[i] < 0x7f) ? e->comm[i] : '?';
	comm[i] = 0;
	result(res, sizeof(res), e);
	if (e->kind == UCT_EV_ALLOC || e->kind == UCT_EV_FREE) {
		snprintf(type, sizeof(type), "-");
		snprintf(delta, sizeof(delta), "-");
	} else {
		snprintf(type, sizeof(type), "%s", uct_type_name(e->type));
		if (e->kind == UCT_EV_CHARGE)
			snprintf(delta, sizeof(delta), "+%lld", (long long)e->delta);
		else if (e->kind == UCT_EV_UNCHARGE)
			snprintf(delta, sizeof(delta), "-%lld", (long long)e->delta);
		else
			snprintf(delta, sizeof(delta), "0");
	}
	snprintf(buf, len, "%s.%03d %-7u %-16s %-11u %3u %-10u %-10s %5s %10lld %s",
		 tb, ms, e->pid, comm, e->ns_inum, e->level, e->uid, type, delta,
		 (long long)e->value, res);
}
