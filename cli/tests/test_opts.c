// SPDX-License-Identifier: GPL-2.0
/* test_opts.c - command-line parsing: defaults, values, errors, exit codes. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "opts.h"

static char errbuf[4096];

/* Parse a NULL-terminated argument list; stderr text lands in errbuf. */
static int parse(struct uct_opts *o, ...)
{
	char *argv[32] = { "ucounttop" };
	int argc = 1, rc;
	FILE *out = fopen("/dev/null", "w");
	FILE *err = fmemopen(errbuf, sizeof(errbuf), "w");
	va_list ap;
	char *a;

	va_start(ap, o);
	while ((a = va_arg(ap, char *)) && argc < 31)
		argv[argc++] = a;
	va_end(ap);
	memset(errbuf, 0, sizeof(errbuf));
	rc = uct_parse_opts(argc, argv, o, out, err);
	fclose(out);
	fclose(err);
	return rc;
}

static void test_defaults(void **state)
{
	struct uct_opts o;

	assert_int_equal(parse(&o, NULL), -1);
	assert_int_equal(o.cmd, UCT_CMD_TOP);
	assert_int_equal(o.output, UCT_OUT_TTY);
	assert_true(o.delay == 1.0);
	assert_int_equal(o.iterations, -1);
	assert_int_equal(o.uid_filter, -1);
	assert_int_equal(o.type_filter, -1);
	assert_int_equal(o.ns_filter, 0);
	assert_false(o.events);
	assert_int_equal(o.max_entries, 10240);
	assert_int_equal(o.ringbuf_kb, 256);
}

static void test_values(void **state)
{
	struct uct_opts o;

	assert_int_equal(parse(&o, "-b", "-d", "0.5", "-n", "3", "--ns", "4026531837",
			       "--uid", "1000", "-t", "sigpending", "-s", "change",
			       "--events", "--max-entries", "4096", NULL), -1);
	assert_int_equal(o.output, UCT_OUT_BATCH);
	assert_true(o.delay == 0.5);
	assert_int_equal(o.iterations, 3);
	assert_int_equal(o.ns_filter, 4026531837LL);
	assert_int_equal(o.uid_filter, 1000);
	assert_int_equal(o.type_filter, UCT_SIGPENDING);
	assert_int_equal(o.sort, UCT_SORT_CHANGE);
	assert_true(o.events);
	assert_int_equal(o.max_entries, 4096);

	assert_int_equal(parse(&o, "--json", "-n1", NULL), -1);
	assert_int_equal(o.output, UCT_OUT_JSON);
	assert_int_equal(o.iterations, 1);
	assert_int_equal(parse(&o, "--openmetrics", "-o", "/tmp/x.prom", NULL), -1);
	assert_int_equal(o.output, UCT_OUT_OPENMETRICS);
	assert_string_equal(o.output_file, "/tmp/x.prom");
	assert_int_equal(parse(&o, "--pin", "/sys/fs/bpf/u", "--keep-pinned", NULL), -1);
	assert_string_equal(o.pin_dir, "/sys/fs/bpf/u");
	assert_true(o.keep_pinned);
}

static void test_trace(void **state)
{
	struct uct_opts o;

	assert_int_equal(parse(&o, "trace", "--stack", "-t", "nproc", "--count", "10",
			       "--duration", "2", NULL), -1);
	assert_int_equal(o.cmd, UCT_CMD_TRACE);
	assert_true(o.events);		/* trace implies the per-event hooks */
	assert_true(o.stack);
	assert_int_equal(o.count, 10);
	assert_true(o.duration == 2.0);
	assert_int_equal(o.type_filter, UCT_NPROC);
}

static void test_usage_errors(void **state)
{
	struct uct_opts o;

	assert_int_equal(parse(&o, "-d", "0", NULL), UCT_EXIT_USAGE);
	assert_non_null(strstr(errbuf, "--delay"));
	assert_int_equal(parse(&o, "-d", "abc", NULL), UCT_EXIT_USAGE);
	assert_int_equal(parse(&o, "-n", "0", NULL), UCT_EXIT_USAGE);
	assert_int_equal(parse(&o, "-n", "-3", NULL), UCT_EXIT_USAGE);
	assert_int_equal(parse(&o, "-n", NULL), UCT_EXIT_USAGE);
	assert_non_null(strstr(errbuf, "needs an argument"));
	assert_int_equal(parse(&o, "--bogus", NULL), UCT_EXIT_USAGE);
	assert_non_null(strstr(errbuf, "unknown option"));
	assert_int_equal(parse(&o, "-t", "cpu", NULL), UCT_EXIT_USAGE);
	assert_int_equal(parse(&o, "-s", "size", NULL), UCT_EXIT_USAGE);
	assert_int_equal(parse(&o, "--uid", "root", NULL), UCT_EXIT_USAGE);
	assert_int_equal(parse(&o, "--ns", "0", NULL), UCT_EXIT_USAGE);
	assert_int_equal(parse(&o, "-b", "--json", NULL), UCT_EXIT_USAGE);
	assert_non_null(strstr(errbuf, "exclude each other"));
	assert_int_equal(parse(&o, "--keep-pinned", NULL), UCT_EXIT_USAGE);
	assert_int_equal(parse(&o, "--stack", NULL), UCT_EXIT_USAGE);
	assert_int_equal(parse(&o, "-o", "/tmp/f", NULL), UCT_EXIT_USAGE);
	assert_int_equal(parse(&o, "trace", "--json", NULL), UCT_EXIT_USAGE);
	assert_int_equal(parse(&o, "frobnicate", NULL), UCT_EXIT_USAGE);
	assert_non_null(strstr(errbuf, "unknown command"));
	assert_int_equal(parse(&o, "-b", "extra", NULL), UCT_EXIT_USAGE);
	assert_int_equal(parse(&o, "--ringbuf-kb", "100", NULL), UCT_EXIT_USAGE);
	assert_int_equal(parse(&o, "--max-entries", "1", NULL), UCT_EXIT_USAGE);
	assert_int_equal(parse(&o, "check", NULL), UCT_EXIT_USAGE);
	assert_non_null(strstr(errbuf, "needs a command"));
	/* every message points to --help */
	assert_non_null(strstr(errbuf, "ucounttop"));
}

/* Numbers are decimal, whatever their leading zeros; other bases are errors */
static void test_decimal_numbers(void **state)
{
	struct uct_opts o;

	assert_int_equal(parse(&o, "--uid", "010", NULL), -1);
	assert_int_equal(o.uid_filter, 10);
	assert_int_equal(parse(&o, "--ns", "04026531837", NULL), -1);
	assert_int_equal(o.ns_filter, 4026531837LL);
	assert_int_equal(parse(&o, "-n", "08", NULL), -1);
	assert_int_equal(o.iterations, 8);
	assert_int_equal(parse(&o, "--uid", "0x10", NULL), UCT_EXIT_USAGE);
	assert_non_null(strstr(errbuf, "0x10"));
	assert_int_equal(parse(&o, "--max-entries", "0x1000", NULL), UCT_EXIT_USAGE);
	assert_int_equal(parse(&o, "--uid", "4294967295", NULL), UCT_EXIT_USAGE);
	assert_int_equal(parse(&o, "--uid", " 5", NULL), UCT_EXIT_USAGE);
}

static void test_help_version(void **state)
{
	struct uct_opts o;

	assert_int_equal(parse(&o, "--help", NULL), UCT_EXIT_OK);
	assert_int_equal(parse(&o, "-h", NULL), UCT_EXIT_OK);
	assert_int_equal(parse(&o, "-V", NULL), UCT_EXIT_OK);
	assert_int_equal(parse(&o, "trace", "-h", NULL), UCT_EXIT_OK);
}

static void test_help_text(void **state)
{
	char *buf = NULL;
	size_t len;
	FILE *f = open_memstream(&buf, &len);

	uct_usage(f, "ucounttop");
	fclose(f);
	/* teaches: examples and exit codes are in it */
	assert_non_null(strstr(buf, "Examples:"));
	assert_non_null(strstr(buf, "Exit status: 0 ok, 1 runtime failure, 2 invalid options, 3"));
	assert_non_null(strstr(buf, "--events"));
	assert_non_null(strstr(buf, "COST"));
	free(buf);
}

static void test_repeatable(void **state)
{
	struct uct_opts o;

	/* getopt state is reset between calls */
	assert_int_equal(parse(&o, "-n", "2", NULL), -1);
	assert_int_equal(parse(&o, "-n", "5", NULL), -1);
	assert_int_equal(o.iterations, 5);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_values),
		cmocka_unit_test(test_trace),
		cmocka_unit_test(test_usage_errors),
		cmocka_unit_test(test_decimal_numbers),
		cmocka_unit_test(test_help_version),
		cmocka_unit_test(test_help_text),
		cmocka_unit_test(test_repeatable),
	};

	return cmocka_run_group_tests_name("opts", tests, NULL, NULL);
}
