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
#include <time.h>
#include "fmt.h"
#include "trace_file.h"
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

/* The line of e alone (a new formatter), without its newline. */
static void one_line(char *buf, const struct uct_event *e, int64_t boot_to_wall_ns)
{
	static struct uct_trace_fmt f;
	size_t n;

	uct_trace_fmt_init(&f, boot_to_wall_ns);
	n = uct_trace_line(&f, buf, e);
	assert_true(n > 0 && n < UCT_TRACE_LINE_MAX);
	assert_int_equal(buf[n - 1], '\n');
	assert_null(memchr(buf, '\n', n - 1));
	buf[n - 1] = 0;
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

/* The line of e (as one_line()) split into f[16]; the number of fields. */
static int line_fields(char *line, const struct uct_event *e, char **f)
{
	one_line(line, e, 0);
	return fields(line, f, 16);
}

static void test_charge(void **state)
{
	struct uct_event e = ev(UCT_EV_CHARGE, UCT_NPROC, 1, 7, -1, -1);
	char line[UCT_TRACE_LINE_MAX], *f[16];

	assert_int_equal(line_fields(line, &e, f), 10);
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
	char line[UCT_TRACE_LINE_MAX], *f[16];

	assert_int_equal(line_fields(line, &e, f), 10);
	assert_string_equal(f[6], "msgqueue");
	assert_string_equal(f[7], "-1024");
	assert_string_equal(f[9], "uncharge");

	e = ev(UCT_EV_CHARGE, UCT_MEMLOCK, 3, 9, 1, -1);
	line_fields(line, &e, f);
	assert_string_equal(f[9], "over-limit@L1");
	e = ev(UCT_EV_CHARGE, UCT_SIGPENDING, 1, 0, -2, -1);
	line_fields(line, &e, f);
	assert_string_equal(f[9], "refused");
}

static void test_denied(void **state)
{
	struct uct_event e = ev(UCT_EV_DENIED, UCT_NPROC, 0, 6, 1, 5);
	char line[UCT_TRACE_LINE_MAX], *f[16];

	assert_int_equal(line_fields(line, &e, f), 11);
	assert_string_equal(f[9], "DENIED");
	assert_string_equal(f[10], "limit=5@L1");
	e = ev(UCT_EV_DENIED, UCT_SIGPENDING, 0, 6, -1, -1);
	line_fields(line, &e, f);
	assert_string_equal(f[10], "limit=?");
}

static void test_weird_comm(void **state)
{
	struct uct_event e = ev(UCT_EV_ALLOC, 0, 0, 0, -1, -1);
	char line[UCT_TRACE_LINE_MAX], *f[16];

	memcpy(e.comm, "a b\nc\x7f", 7);
	one_line(line, &e, 0);
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

/* The line by printf, from the format in trace_fmt.h: the line built by
 * hand must be the same text for every kind, type, sign and width.
 * off: boot to wall ns. */
static void ref_line(char *buf, size_t len, const struct uct_event *e, int64_t off)
{
	char comm[UCT_COMM_LEN + 1], res[64], type[16], delta[24], lim[32], tb[16];
	int64_t w = (int64_t)e->ts_ns + off;
	time_t sec = (time_t)(w / 1000000000);
	int i, ms = (int)(w % 1000000000 / 1000000);
	struct tm tm;

	localtime_r(&sec, &tm);
	strftime(tb, sizeof(tb), "%H:%M:%S", &tm);
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
		uct_trace_limit_text(lim, sizeof(lim), e->limit);
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
	snprintf(buf, len, "%s.%03d %-7u %-16s %-11u %3u %-10u %-10s %5s %10lld %s\n",
		 tb, ms, e->pid, comm, e->ns_inum, e->level, e->uid, type, delta,
		 (long long)e->value, res);
}

/* uct_trace_line() of e with formatter f equals ref_line() */
static void same_line(struct uct_trace_fmt *f, const struct uct_event *e, int64_t off,
		      const char *what, long i)
{
	char got[UCT_TRACE_LINE_MAX + 1], want[UCT_TRACE_LINE_MAX];
	size_t n = uct_trace_line(f, got, e);

	assert_true(n < UCT_TRACE_LINE_MAX);
	got[n] = 0;
	ref_line(want, sizeof(want), e, off);
	if (strcmp(got, want))
		fail_msg("%s %ld:\n got  '%s'\n want '%s'", what, i, got, want);
}

static unsigned long long xorshift(unsigned long long *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return *x;
}

/*
 * Events as a busy system makes them, through one formatter: a few
 * processes whose events repeat (the cached columns are reused), each
 * sometimes changing one field of the cache's key (a new comm after
 * execve, another namespace, uid, level or type), amounts small and wide,
 * time going forward, sometimes back (the CPUs' records interleave) and
 * across seconds and days.
 */
static void test_matches_printf(void **state)
{
	static const unsigned kinds[] = { UCT_EV_CHARGE, UCT_EV_UNCHARGE, UCT_EV_DENIED,
					  UCT_EV_ALLOC, UCT_EV_FREE };
	static const long long edges[] = { 0, 1, 9, 10, 9999, 10000, 9999999999LL,
					   10000000000LL, -1, -10000, INT64_MIN, INT64_MAX };
	static struct uct_trace_fmt f;
	const int64_t off = 1700000000123456789LL;
	unsigned long long x = 0x9E3779B97F4A7C15ULL, ts = 5000000000ULL, r;
	struct uct_event pool[8], e;
	int i, k;

	(void)state;
	uct_trace_fmt_init(&f, off);
	for (i = 0; i < 8; i++) {
		pool[i] = ev(UCT_EV_CHARGE, (unsigned)i % 4, 1, 1, -1, -1);
		pool[i].pid = 100 + (unsigned)i;
	}
	for (i = 0; i < 300000; i++) {
		r = xorshift(&x);
		e = pool[r % 8];
		switch ((r >> 3) % 24) {
		case 0: e.pid = (unsigned)(r >> 20) % ((r & 1) ? 300 : 4194304); break;
		case 1: e.ns_inum = (unsigned)(r >> 12); break;
		case 2: e.uid = (unsigned)(r >> 28); break;
		case 3: e.level = (unsigned char)((r >> 50) % 40); break;
		case 4:
			for (k = 0; k < UCT_COMM_LEN; k++)
				e.comm[k] = (char)((r >> (k * 4)) & 0xff);
			if (r & 2)
				e.comm[(r >> 9) % UCT_COMM_LEN] = 0;
			break;
		case 5: e.type = (unsigned char)((r >> 30) % 5); break;	/* 4: "?" */
		case 6:	/* names that differ past their eighth byte only */
			memcpy(e.comm, "kworker/u8:0-ev", UCT_COMM_LEN);
			e.comm[8 + (r >> 20) % 7] = (char)('a' + (r >> 30) % 26);
			break;
		}
		pool[r % 8] = e;
		r = xorshift(&x);
		e.kind = (unsigned char)kinds[(r & 0xff) < 200 ? r % 2 : r % 5];
		e.at_level = (signed char)((r >> 8) % 4 ? -1 : (int)((r >> 40) % 40) - 3);
		switch ((r >> 12) % 4) {
		case 0: e.delta = (long long)(r >> 20) % 12; e.value = (long long)(r >> 24) % 100000; break;
		case 1: e.delta = edges[(r >> 20) % 12]; e.value = edges[(r >> 28) % 12]; break;
		default:
			e.delta = (long long)(r >> ((r >> 20) % 64));
			e.value = (long long)(r >> 3) * ((r & 1) ? -1 : 1) >> ((r >> 26) % 61);
		}
		if (e.kind == UCT_EV_DENIED)
			e.limit = (long long)(r >> ((r >> 32) % 63 + 1)) - 5;
		r = xorshift(&x);
		switch (r % 64) {
		case 0: ts -= ts > 3000000 ? r % 3000000 : 0; break;	/* another CPU's */
		case 1: ts += (r >> 8) % 200000000000000ULL; break;	/* days */
		default: ts += (r >> 8) % 20000000;
		}
		e.ts_ns = ts;
		same_line(&f, &e, off, "event", i);
	}
}

/* Every kind with the amounts where the in-place numbers end. */
static void test_number_edges(void **state)
{
	static const long long edges[] = { 0, 1, 9, 10, 99, 100, 9999, 10000, 99999,
					   9999999999LL, 10000000000LL, -1, -9999,
					   INT64_MIN, INT64_MAX };
	static const unsigned kinds[] = { UCT_EV_CHARGE, UCT_EV_UNCHARGE, UCT_EV_DENIED,
					  UCT_EV_ALLOC, UCT_EV_FREE, 4, 99 };
	static const int levels[] = { -1, -2, 0, 33 };
	static struct uct_trace_fmt f;
	struct uct_event e;
	size_t d, v, k, a;
	long i = 0;

	uct_trace_fmt_init(&f, 0);
	for (k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++)
		for (a = 0; a < 4; a++)
			for (d = 0; d < sizeof(edges) / sizeof(edges[0]); d++)
				for (v = 0; v < sizeof(edges) / sizeof(edges[0]); v++) {
					e = ev(kinds[k], UCT_SIGPENDING, edges[d], edges[v],
					       levels[a], edges[d]);
					same_line(&f, &e, 0, "edge", i++);
				}
}

/* trace -w's header: what it writes reads back; every field it checks,
 * changed, is refused with its reason */
static void test_file_header(void **state)
{
	struct uct_trace_file_hdr h, bad;
	unsigned char raw[sizeof(h)];

	uct_trace_file_hdr_init(&h, false, -42);
	assert_null(uct_trace_file_hdr_check(&h));
	assert_int_equal(h.rec_size, UCT_EVENT_NOSTACK_SIZE);
	assert_int_equal(h.flags, 0);
	assert_true(h.boot_to_wall_ns == -42);
	/* the documented layout (ucounttop(8), FILES), on a little-endian writer */
	memcpy(raw, &h, sizeof(raw));
	assert_memory_equal(raw, "UCTRACE\0\x04\x03\x02\x01\x01\x00\x00\x00", 16);
	assert_int_equal(raw[16], UCT_EVENT_NOSTACK_SIZE);
	uct_trace_file_hdr_init(&h, true, 0);
	assert_null(uct_trace_file_hdr_check(&h));
	assert_int_equal(h.rec_size, sizeof(struct uct_event));
	assert_int_equal(h.flags, UCT_TRACE_F_STACK);

	bad = h;
	bad.magic[0] = 'X';
	assert_string_equal(uct_trace_file_hdr_check(&bad), "not a recording of ucounttop trace -w");
	bad = h;
	bad.order = 0x04030201;
	assert_non_null(strstr(uct_trace_file_hdr_check(&bad), "byte order"));
	bad = h;
	bad.version = 2;
	assert_non_null(strstr(uct_trace_file_hdr_check(&bad), "version"));
	bad = h;
	bad.flags = 2 | UCT_TRACE_F_STACK;
	assert_non_null(strstr(uct_trace_file_hdr_check(&bad), "flags"));
	bad = h;
	bad.rec_size = UCT_EVENT_NOSTACK_SIZE;	/* a stack flag with short records */
	assert_non_null(strstr(uct_trace_file_hdr_check(&bad), "size"));
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
		cmocka_unit_test(test_number_edges),
		cmocka_unit_test(test_file_header),
	};

	return cmocka_run_group_tests_name("trace_fmt", tests, NULL, NULL);
}
