// SPDX-License-Identifier: GPL-2.0
/* test_trace_fmt.c - `ucounttop trace` line format. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <stdio.h>
#include "fmt.h"
#include "trace_fmt.h"

static struct uct_event ev(unsigned kind, unsigned type, long long delta, long long value,
			   int at_level, long long limit)
{
	struct uct_event e;

	memset(&e, 0, sizeof(e));
	e.ts_ns = 1500000000ULL;	/* 1.5 s after boot */
	e.pid = 4242;
	e.ns_inum = 4026532201U;
	e.uid = 1001;
	e.level = 2;
	e.kind = kind;
	e.type = type;
	/* one field: a refusal's record carries the limit, others the delta */
	if (kind == UCT_EV_DENIED)
		e.limit = limit;
	else
		e.delta = delta;
	e.value = value;
	e.at_level = (signed char)at_level;
	strcpy(e.comm, "sh");
	return e;
}

/* Split a line into whitespace-separated fields. */
static int fields(char *line, char **f, int max)
{
	int n = 0;
	char *save = NULL, *p;

	for (p = strtok_r(line, " ", &save); p && n < max; p = strtok_r(NULL, " ", &save))
		f[n++] = p;
	return n;
}

static void test_charge(void **state)
{
	struct uct_event e = ev(UCT_EV_CHARGE, UCT_NPROC, 1, 7, -1, -1);
	char line[256], *f[16];

	uct_trace_line(line, sizeof(line), &e, 0);
	assert_int_equal(fields(line, f, 16), 10);
	/* time pid comm ns level uid type delta new result */
	assert_string_equal(f[1], "4242");
	assert_string_equal(f[2], "sh");
	assert_string_equal(f[3], "4026532201");
	assert_string_equal(f[4], "2");
	assert_string_equal(f[5], "1001");
	assert_string_equal(f[6], "nproc");
	assert_string_equal(f[7], "+1");
	assert_string_equal(f[8], "7");
	assert_string_equal(f[9], "ok");
	assert_int_equal(strlen(f[0]), 12);	/* HH:MM:SS.mmm */
	assert_string_equal(f[0] + 8, ".500");
}

static void test_uncharge_and_over(void **state)
{
	struct uct_event e = ev(UCT_EV_UNCHARGE, UCT_MSGQUEUE, 1024, 0, -1, -1);
	char line[256], *f[16];

	uct_trace_line(line, sizeof(line), &e, 0);
	assert_int_equal(fields(line, f, 16), 10);
	assert_string_equal(f[6], "msgqueue");
	assert_string_equal(f[7], "-1024");
	assert_string_equal(f[9], "uncharge");

	e = ev(UCT_EV_CHARGE, UCT_MEMLOCK, 3, 9, 1, -1);
	uct_trace_line(line, sizeof(line), &e, 0);
	fields(line, f, 16);
	assert_string_equal(f[9], "over-limit@L1");
	e = ev(UCT_EV_CHARGE, UCT_SIGPENDING, 1, 0, -2, -1);
	uct_trace_line(line, sizeof(line), &e, 0);
	fields(line, f, 16);
	assert_string_equal(f[9], "refused");
}

static void test_denied(void **state)
{
	struct uct_event e = ev(UCT_EV_DENIED, UCT_NPROC, 0, 6, 1, 5);
	char line[256], *f[16];

	uct_trace_line(line, sizeof(line), &e, 0);
	assert_int_equal(fields(line, f, 16), 11);
	assert_string_equal(f[9], "DENIED");
	assert_string_equal(f[10], "limit=5@L1");
	e = ev(UCT_EV_DENIED, UCT_SIGPENDING, 0, 6, -1, -1);
	uct_trace_line(line, sizeof(line), &e, 0);
	fields(line, f, 16);
	assert_string_equal(f[10], "limit=?");
}

static void test_weird_comm(void **state)
{
	struct uct_event e = ev(UCT_EV_ALLOC, 0, 0, 0, -1, -1);
	char line[256], *f[16];

	memcpy(e.comm, "a b\nc\x7f", 7);
	uct_trace_line(line, sizeof(line), &e, 0);
	assert_null(strchr(line, '\n'));
	assert_int_equal(fields(line, f, 16), 11);	/* the space stays a space */
	assert_string_equal(f[10], "alloc");
	assert_string_equal(uct_event_kind_name(UCT_EV_FREE), "free");
	assert_string_equal(uct_event_kind_name(99), "?");
}

static void test_header(void **state)
{
	char h[256], *f[16];

	strcpy(h, uct_trace_header());
	assert_int_equal(fields(h, f, 16), 10);
	assert_string_equal(f[0], "TIME");
	assert_string_equal(f[9], "RESULT");
}

/* The line as printf made it before it was built by hand: every kind,
 * type, sign and width must give the same text. */
static void ref_line(char *buf, size_t len, const struct uct_event *e, const char *tb)
{
	char comm[UCT_COMM_LEN + 1], res[64], type[16], delta[24], lim[32];
	int i, ms = (int)((e->ts_ns % 1000000000ULL) / 1000000);

	for (i = 0; i < UCT_COMM_LEN && e->comm[i]; i++)
		comm[i] = (e->comm[i] >= 0x20 && e->comm[i] < 0x7f) ? e->comm[i] : '?';
	comm[i] = 0;
	switch (e->kind) {
	case UCT_EV_CHARGE:
		if (e->at_level == -1)
			snprintf(res, sizeof(res), "ok");
		else if (e->at_level >= 0)
			snprintf(res, sizeof(res), "over-limit@L%d", e->at_level);
		else
			snprintf(res, sizeof(res), "refused");
		break;
	case UCT_EV_DENIED:
		if (e->limit >= 0)
			uct_fmt_num(lim, sizeof(lim), e->limit);
		else
			snprintf(lim, sizeof(lim), "?");
		if (e->at_level >= 0)
			snprintf(res, sizeof(res), "DENIED limit=%s@L%d", lim, e->at_level);
		else
			snprintf(res, sizeof(res), "DENIED limit=%s", lim);
		break;
	default:
		snprintf(res, sizeof(res), "%s", uct_event_kind_name(e->kind));
	}
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

static void test_matches_printf(void **state)
{
	static const unsigned kinds[] = { UCT_EV_CHARGE, UCT_EV_UNCHARGE, UCT_EV_DENIED,
					  UCT_EV_ALLOC, UCT_EV_FREE };
	unsigned long long x = 0x9E3779B97F4A7C15ULL;
	char got[256], want[256];
	int i, k;

	(void)state;
	for (i = 0; i < 200000; i++) {
		struct uct_event e;

		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		e = ev(kinds[x % 5], (unsigned)(x >> 8) % 4, (long long)(x >> (x % 64)),
		       (long long)(x >> 3) * ((x & 1) ? -1 : 1) >> (x % 61),
		       (int)(x >> 40) % 40 - 3, (long long)(x >> (x % 63 + 1)) - 5);
		e.ts_ns = x % 100000000000ULL;
		e.pid = (unsigned)(x >> 20);
		e.ns_inum = (unsigned)(x >> 12);
		e.uid = (unsigned)(x >> 28);
		e.level = (unsigned)(x >> 50) % 40;
		for (k = 0; k < UCT_COMM_LEN; k++)
			e.comm[k] = (char)((x >> (k * 4)) & 0xff);
		if (x & 2)
			e.comm[(x >> 9) % UCT_COMM_LEN] = 0;
		uct_trace_line(got, sizeof(got), &e, 0);
		/* the clock text is the same helper's; compare the rest */
		ref_line(want, sizeof(want), &e, "");
		if (strcmp(got + 8, want))
			fail_msg("event %d:\n got  '%s'\n want '%s'", i, got + 8, want);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_charge),
		cmocka_unit_test(test_uncharge_and_over),
		cmocka_unit_test(test_denied),
		cmocka_unit_test(test_weird_comm),
		cmocka_unit_test(test_header),
		cmocka_unit_test(test_matches_printf),
	};

	return cmocka_run_group_tests_name("trace_fmt", tests, NULL, NULL);
}
