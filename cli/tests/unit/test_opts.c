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
#include <sys/socket.h>
#include "opts.h"

static char errbuf[4096];

/* Parse args (NULL-terminated, at most 30); stderr text lands in errbuf.
 * argv outlives the call: o->cmd_argv points into it. */
static int parsev(struct uct_opts *o, const char *const *args)
{
	static char *argv[32];
	int argc = 1, rc;
	FILE *out = fopen("/dev/null", "w");
	FILE *err = fmemopen(errbuf, sizeof(errbuf), "w");

	argv[0] = "ucounttop";
	while (*args && argc < 31)
		argv[argc++] = (char *)*args++;
	argv[argc] = NULL;
	memset(errbuf, 0, sizeof(errbuf));
	rc = uct_parse_opts(argc, argv, o, out, err);
	fclose(out);
	fclose(err);
	return rc;
}

/* The same with the arguments listed, NULL after the last. */
static int parse(struct uct_opts *o, ...)
{
	const char *args[31];
	size_t n = 0;
	va_list ap;

	va_start(ap, o);
	while (n < ARRAY_SIZE(args) - 1 && (args[n] = va_arg(ap, const char *)))
		n++;
	va_end(ap);
	args[n] = NULL;
	return parsev(o, args);
}

/* The arguments (without the NULL) must be a usage error whose message
 * holds want. */
#define USAGE_ERROR(o, want, ...) do {						\
	assert_int_equal(parse(o, __VA_ARGS__, NULL), UCT_EXIT_USAGE);		\
	assert_non_null(strstr(errbuf, want));					\
} while (0)

/*
 * OPT VALUE under command CMD (NULL: the live view) must be a usage
 * error whose message names the option and quotes the value.
 */
static void reject_value(const char *cmd, const char *opt, const char *value)
{
	const char *args[8];
	char quoted[128];
	struct uct_opts o;
	int n = 0;

	if (cmd)
		args[n++] = cmd;
	args[n++] = opt;
	args[n++] = value;
	if (cmd && !strcmp(cmd, "check")) {
		args[n++] = "--";
		args[n++] = "true";
	}
	args[n] = NULL;
	if (parsev(&o, args) != UCT_EXIT_USAGE)
		fail_msg("%s %s '%s' was accepted", cmd ? cmd : "", opt, value);
	if (!strstr(errbuf, opt))
		fail_msg("message for %s '%s' does not name it: %s", opt, value, errbuf);
	snprintf(quoted, sizeof(quoted), "'%s'", value);
	if (!strstr(errbuf, quoted))
		fail_msg("message for %s '%s' does not quote the value: %s", opt, value, errbuf);
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
	assert_false(o.kuid);		/* uids as each namespace maps them */
	assert_int_equal(o.max_entries, 10240);
	assert_int_equal(o.ringbuf_kb, 256);
	assert_true(o.settle == 3.0);
	assert_true(o.timeout == 0);
	assert_null(o.cmd_argv);
	assert_null(o.listen);
	assert_int_equal(o.listen_addr.family, 0);
}

static void test_values(void **state)
{
	struct uct_opts o;

	assert_int_equal(parse(&o, "-b", "-d", "0.5", "-n", "3", "--ns", "4026531837",
			       "--uid", "1000", "-t", "sigpending", "-s", "change",
			       "--events", "--max-entries", "4096", "--kuid", NULL), -1);
	assert_int_equal(o.output, UCT_OUT_BATCH);
	assert_true(o.delay == 0.5);
	assert_int_equal(o.iterations, 3);
	assert_int_equal(o.ns_filter, 4026531837LL);
	assert_int_equal(o.uid_filter, 1000);
	assert_int_equal(o.type_filter, UCT_SIGPENDING);
	assert_int_equal(o.sort, UCT_SORT_CHANGE);
	assert_true(o.events);
	assert_true(o.kuid);
	assert_int_equal(o.uid_filter, 1000);	/* --uid is a kuid either way */
	assert_int_equal(o.max_entries, 4096);

	assert_int_equal(parse(&o, "--json", "-n1", NULL), -1);
	assert_int_equal(o.output, UCT_OUT_JSON);
	assert_int_equal(o.iterations, 1);
	assert_int_equal(parse(&o, "--openmetrics", "-o", "/tmp/x.prom", NULL), -1);
	assert_int_equal(o.output, UCT_OUT_OPENMETRICS);
	assert_string_equal(o.output_file, "/tmp/x.prom");
	assert_int_equal(parse(&o, "--prometheus", "-o", "/tmp/x.prom", NULL), -1);
	assert_int_equal(o.output, UCT_OUT_PROMETHEUS);
	assert_int_equal(parse(&o, "--prometheus", "--openmetrics", NULL), UCT_EXIT_USAGE);
	assert_non_null(strstr(errbuf, "-b, --json, --openmetrics and --prometheus exclude each other"));
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

	assert_int_equal(parse(&o, "trace", "-w", "/tmp/r.uct", "--stack", "--uid", "5", NULL), -1);
	assert_string_equal(o.write_file, "/tmp/r.uct");
	assert_true(o.stack);
	assert_int_equal(parse(&o, "trace", "--read", "/tmp/r.uct", "--count", "3", NULL), -1);
	assert_string_equal(o.read_file, "/tmp/r.uct");
	assert_int_equal(o.count, 3);
	/* a recording is filtered when it is made, not when it is read */
	USAGE_ERROR(&o, "--uid is for the recording, -r takes --count only",
		    "trace", "-r", "/tmp/r.uct", "--uid", "5");
	USAGE_ERROR(&o, "--stack is for the recording", "trace", "--stack", "-r", "/tmp/r.uct");
	USAGE_ERROR(&o, "-w/--write is for the recording", "trace", "-w", "a", "-r", "b");
	USAGE_ERROR(&o, "-w/--write needs a file name", "trace", "-w", "");
	USAGE_ERROR(&o, "-r/--read applies to 'trace' only, not to the live view", "-r", "f");
	USAGE_ERROR(&o, "-w/--write applies to 'trace' only, not to 'check'",
		    "check", "-w", "f", "--", "true");
}

static void test_usage_errors(void **state)
{
	struct uct_opts o;

	USAGE_ERROR(&o, "--delay", "-d", "0");
	assert_int_equal(parse(&o, "-d", "abc", NULL), UCT_EXIT_USAGE);
	assert_int_equal(parse(&o, "-n", "0", NULL), UCT_EXIT_USAGE);
	assert_int_equal(parse(&o, "-n", "-3", NULL), UCT_EXIT_USAGE);
	USAGE_ERROR(&o, "needs an argument", "-n");
	USAGE_ERROR(&o, "unknown option", "--bogus");
	assert_int_equal(parse(&o, "-t", "cpu", NULL), UCT_EXIT_USAGE);
	assert_int_equal(parse(&o, "-s", "size", NULL), UCT_EXIT_USAGE);
	assert_int_equal(parse(&o, "--uid", "root", NULL), UCT_EXIT_USAGE);
	assert_int_equal(parse(&o, "--ns", "0", NULL), UCT_EXIT_USAGE);
	USAGE_ERROR(&o, "exclude each other", "-b", "--json");
	assert_int_equal(parse(&o, "--keep-pinned", NULL), UCT_EXIT_USAGE);
	assert_int_equal(parse(&o, "--stack", NULL), UCT_EXIT_USAGE);
	assert_int_equal(parse(&o, "-o", "/tmp/f", NULL), UCT_EXIT_USAGE);
	assert_int_equal(parse(&o, "trace", "--json", NULL), UCT_EXIT_USAGE);
	USAGE_ERROR(&o, "unknown command", "frobnicate");
	assert_int_equal(parse(&o, "-b", "extra", NULL), UCT_EXIT_USAGE);
	assert_int_equal(parse(&o, "--ringbuf-kb", "100", NULL), UCT_EXIT_USAGE);
	assert_int_equal(parse(&o, "--max-entries", "1", NULL), UCT_EXIT_USAGE);
	USAGE_ERROR(&o, "needs a command", "check");
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
	USAGE_ERROR(&o, "0x10", "--uid", "0x10");
	assert_int_equal(parse(&o, "--max-entries", "0x1000", NULL), UCT_EXIT_USAGE);
	assert_int_equal(parse(&o, "--uid", "4294967295", NULL), UCT_EXIT_USAGE);
	assert_int_equal(parse(&o, "--uid", " 5", NULL), UCT_EXIT_USAGE);
}

/* Every whole-number option: decimal digits only, within its range. */
static void test_integers_strict(void **state)
{
	static const struct { const char *cmd, *opt; } opts[] = {
		{ NULL, "-n" }, { NULL, "--iterations" }, { NULL, "--uid" }, { NULL, "--ns" },
		{ NULL, "--max-entries" }, { "trace", "--ringbuf-kb" }, { "trace", "--count" },
		{ "check", "--max-entries" },
	};
	/* empty, blanks, signs, other bases, junk, overflow, fractions */
	static const char *const bad[] = {
		"", " 16", "16 ", "+16", "-16", "0x10", "16k", "1e3", "16.0", "16\n",
		"99999999999999999999999", "18446744073709551616", "nan", "inf",
	};
	size_t i, j;

	for (i = 0; i < ARRAY_SIZE(opts); i++)
		for (j = 0; j < ARRAY_SIZE(bad); j++)
			reject_value(opts[i].cmd, opts[i].opt, bad[j]);

	/* the range of each */
	reject_value(NULL, "-n", "0");
	reject_value(NULL, "-n", "9223372036854775808");	/* LONG_MAX + 1 */
	reject_value(NULL, "--uid", "4294967295");		/* (uid_t)-1 */
	reject_value(NULL, "--uid", "4294967296");
	reject_value(NULL, "--ns", "0");
	reject_value(NULL, "--ns", "4294967296");
	reject_value(NULL, "--max-entries", "15");
	reject_value(NULL, "--max-entries", "4194305");
	reject_value("trace", "--ringbuf-kb", "2");
	reject_value("trace", "--ringbuf-kb", "12");		/* not a power of two */
	reject_value("trace", "--ringbuf-kb", "2097152");
	reject_value("trace", "--count", "0");
	reject_value("trace", "--count", "9223372036854775808");
}

static void test_integer_bounds(void **state)
{
	struct uct_opts o;

	assert_int_equal(parse(&o, "-n", "9223372036854775807", "--uid", "4294967294", "--ns",
			       "4294967295", "--max-entries", "4194304", NULL), -1);
	assert_int_equal(o.iterations, 9223372036854775807L);
	assert_int_equal(o.uid_filter, 4294967294LL);
	assert_int_equal(o.ns_filter, 4294967295LL);
	assert_int_equal(o.max_entries, 4194304);
	assert_int_equal(parse(&o, "--uid", "0", "--max-entries", "16", NULL), -1);
	assert_int_equal(o.uid_filter, 0);
	assert_int_equal(o.max_entries, 16);
	assert_int_equal(parse(&o, "trace", "--ringbuf-kb", "4", "--count", "1", NULL), -1);
	assert_int_equal(o.ringbuf_kb, 4);
	assert_int_equal(o.count, 1);
	assert_int_equal(parse(&o, "trace", "--ringbuf-kb", "1048576", NULL), -1);
	assert_int_equal(o.ringbuf_kb, 1048576);
}

/* Every option in seconds: plain decimal with an optional fraction. */
static void test_seconds_strict(void **state)
{
	static const struct { const char *cmd, *opt; } opts[] = {
		{ NULL, "-d" }, { NULL, "--delay" }, { "trace", "--duration" },
		{ "check", "--settle" }, { "check", "--timeout" },
	};
	static const char *const bad[] = {
		"", ".", " 1", "1 ", "+1", "-1", "-0", "1e3", "1E-1", "0x10", "0x1p3", "1,5",
		"1.5.0", "1s", "nan", "NAN", "inf", "-inf", "infinity", "1\n",
		"1" "000000000000000000000000000000000000000000000000000000000000000000"
		"000000000000000000000000000000000000000000000000000000000000000000"
		"000000000000000000000000000000000000000000000000000000000000000000"
		"000000000000000000000000000000000000000000000000000000000000000000"
		"000000000000000000000000000000000000000000000000000000000000000000",
	};
	size_t i, j;

	for (i = 0; i < ARRAY_SIZE(opts); i++)
		for (j = 0; j < ARRAY_SIZE(bad); j++)
			reject_value(opts[i].cmd, opts[i].opt, bad[j]);

	reject_value(NULL, "-d", "0");
	reject_value(NULL, "-d", "0.009");
	reject_value(NULL, "-d", "31536000.5");
	reject_value("trace", "--duration", "0");
	reject_value("trace", "--duration", "31536001");
	reject_value("check", "--settle", "3600.01");
	reject_value("check", "--timeout", "0");
	reject_value("check", "--timeout", "0.000");
	reject_value("check", "--timeout", "86400.5");
}

static void test_seconds_values(void **state)
{
	struct uct_opts o;

	assert_int_equal(parse(&o, "-d", ".5", NULL), -1);
	assert_true(o.delay == 0.5);
	assert_int_equal(parse(&o, "-d", "2.", NULL), -1);
	assert_true(o.delay == 2.0);
	assert_int_equal(parse(&o, "-d", "0.01", NULL), -1);
	assert_true(o.delay == 0.01);
	assert_int_equal(parse(&o, "--delay", "31536000", NULL), -1);
	assert_true(o.delay == 31536000.0);
	assert_int_equal(parse(&o, "trace", "--duration", "007.25", NULL), -1);
	assert_true(o.duration == 7.25);
	assert_int_equal(parse(&o, "check", "--settle", "0", "--", "true", NULL), -1);
	assert_true(o.settle == 0);
	assert_int_equal(parse(&o, "check", "--settle", "3600", "--", "true", NULL), -1);
	assert_true(o.settle == 3600);
}

/* check --user USER: kept here, looked up by check_cmd_user() */
static void test_check_user(void **state)
{
	struct uct_opts o;

	assert_int_equal(parse(&o, "check", "--", "true", NULL), -1);
	assert_null(o.cmd_user);
	assert_int_equal(parse(&o, "check", "--user", "alice", "--", "id", NULL), -1);
	assert_string_equal(o.cmd_user, "alice");
	assert_string_equal(o.cmd_argv[0], "id");
	assert_int_equal(parse(&o, "check", "--user=1000:1000", "id", NULL), -1);
	assert_string_equal(o.cmd_user, "1000:1000");
	USAGE_ERROR(&o, "--user needs a user name or UID[:GID], got ''", "check", "--user", "",
		    "--", "id");
	USAGE_ERROR(&o, "--user applies to 'check' only, not to the live view", "--user", "alice");
	USAGE_ERROR(&o, "--user applies to 'check' only, not to 'trace'", "trace", "--user", "0");
}

/* check --kselftest DIR...: the directories where CMD would be, KTAP out */
static void test_check_kselftest(void **state)
{
	struct uct_opts o;

	assert_int_equal(parse(&o, "check", "--kselftest", "/a", "/b", NULL), -1);
	assert_true(o.kselftest);
	assert_int_equal(o.output, UCT_OUT_KTAP);
	assert_string_equal(o.cmd_argv[0], "/a");
	assert_string_equal(o.cmd_argv[1], "/b");
	assert_null(o.cmd_argv[2]);
	assert_int_equal(parse(&o, "check", "--kselftest", "--timeout", "9", "--user", "1000",
			       "--", "/a", NULL), -1);
	assert_true(o.timeout == 9);
	assert_string_equal(o.cmd_argv[0], "/a");
	assert_int_equal(parse(&o, "check", "--", "true", NULL), -1);
	assert_false(o.kselftest);
	USAGE_ERROR(&o, "check --kselftest needs a directory", "check", "--kselftest");
	USAGE_ERROR(&o, "not with --json", "check", "--kselftest", "--json", "/a");
	USAGE_ERROR(&o, "not with -o FILE", "check", "--kselftest", "-o", "f", "/a");
	USAGE_ERROR(&o, "--kselftest applies to 'check' only", "--kselftest");
}

/* check --timeout SECS: parsed and validated here, acted on by check.c */
static void test_timeout(void **state)
{
	struct uct_opts o;

	assert_int_equal(parse(&o, "check", "--", "true", NULL), -1);
	assert_true(o.timeout == 0);		/* none */
	assert_int_equal(parse(&o, "check", "--timeout", "2.5", "--", "sleep", "9", NULL), -1);
	assert_true(o.timeout == 2.5);
	assert_string_equal(o.cmd_argv[0], "sleep");
	assert_int_equal(parse(&o, "check", "--timeout=0.001", "true", NULL), -1);
	assert_true(o.timeout == 0.001);
	assert_int_equal(parse(&o, "check", "--timeout", "86400", "true", NULL), -1);
	assert_true(o.timeout == 86400);
	/* after CMD it is CMD's */
	assert_int_equal(parse(&o, "check", "timeout", "--timeout", "1", NULL), -1);
	assert_true(o.timeout == 0);
	assert_string_equal(o.cmd_argv[1], "--timeout");

	USAGE_ERROR(&o, "option '--timeout' needs an argument", "check", "--timeout");
	USAGE_ERROR(&o, "--timeout applies to 'check' only, not to the live view", "--timeout", "5");
	USAGE_ERROR(&o, "--timeout applies to 'check' only, not to 'trace'",
		    "trace", "--timeout", "5");
}

/*
 * An option given to a command it does not apply to is refused, with a
 * message naming the option, where it applies and the command given.
 */
static void test_scope(void **state)
{
	static const struct {
		const char *args[6];
		const char *msg;
	} cases[] = {
		/* live view only */
		{ { "trace", "-d", "1" }, "-d/--delay applies to the live view only, not to 'trace'" },
		{ { "check", "--delay", "1", "true" }, "-d/--delay applies to the live view only, not to 'check'" },
		{ { "trace", "-n", "1" }, "-n/--iterations applies to the live view only, not to 'trace'" },
		{ { "check", "-n", "1", "true" }, "-n/--iterations applies to the live view only, not to 'check'" },
		{ { "trace", "-b" }, "-b/--batch applies to the live view only, not to 'trace'" },
		{ { "check", "-b", "true" }, "-b/--batch applies to the live view only, not to 'check'" },
		{ { "trace", "--openmetrics" }, "--openmetrics applies to the live view only, not to 'trace'" },
		{ { "trace", "--prometheus" }, "--prometheus applies to the live view only, not to 'trace'" },
		{ { "check", "--openmetrics", "true" }, "--openmetrics applies to the live view only, not to 'check'" },
		{ { "trace", "-s", "uid" }, "-s/--sort applies to the live view only, not to 'trace'" },
		{ { "check", "--sort", "uid", "true" }, "-s/--sort applies to the live view only, not to 'check'" },
		{ { "trace", "--events" }, "--events applies to the live view only, not to 'trace'" },
		{ { "check", "--events", "true" }, "--events applies to the live view only, not to 'check'" },
		{ { "trace", "--kuid" }, "--kuid applies to the live view only, not to 'trace'" },
		{ { "trace", "--listen", "127.0.0.1:9465" },
		  "--listen applies to the live view only, not to 'trace'" },
		{ { "check", "--listen", "127.0.0.1:9465", "true" },
		  "--listen applies to the live view only, not to 'check'" },
		{ { "check", "--kuid", "true" }, "--kuid applies to the live view only, not to 'check'" },
		/* live view and check */
		{ { "trace", "--json" }, "--json applies to the live view and 'check' only, not to 'trace'" },
		{ { "trace", "-o", "f" }, "-o/--output applies to the live view and 'check' only, not to 'trace'" },
		{ { "trace", "--task-iter" }, "--task-iter applies to the live view and 'check' only, not to 'trace'" },
		/* live view and trace */
		{ { "check", "--ns", "1", "true" }, "--ns applies to the live view and 'trace' only, not to 'check'" },
		{ { "check", "--uid", "0", "true" }, "--uid applies to the live view and 'trace' only, not to 'check'" },
		{ { "check", "-t", "nproc", "true" }, "-t/--type applies to the live view and 'trace' only, not to 'check'" },
		{ { "check", "--pin", "/sys/fs/bpf/u", "true" }, "--pin applies to the live view and 'trace' only, not to 'check'" },
		{ { "check", "--keep-pinned", "true" }, "--keep-pinned applies to the live view and 'trace' only, not to 'check'" },
		/* trace only */
		{ { "--stack" }, "--stack applies to 'trace' only, not to the live view" },
		{ { "check", "--stack", "--", "true" }, "--stack applies to 'trace' only, not to 'check'" },
		{ { "top", "--duration", "1" }, "--duration applies to 'trace' only, not to the live view" },
		{ { "check", "--duration", "1", "true" }, "--duration applies to 'trace' only, not to 'check'" },
		{ { "--count", "1" }, "--count applies to 'trace' only, not to the live view" },
		{ { "check", "--count", "1", "true" }, "--count applies to 'trace' only, not to 'check'" },
		{ { "--ringbuf-kb", "64" }, "--ringbuf-kb applies to 'trace' only, not to the live view" },
		{ { "check", "--ringbuf-kb", "64", "true" }, "--ringbuf-kb applies to 'trace' only, not to 'check'" },
		/* check only */
		{ { "--settle", "3" }, "--settle applies to 'check' only, not to the live view" },
		{ { "trace", "--settle", "3" }, "--settle applies to 'check' only, not to 'trace'" },
		{ { "--fail-outstanding" }, "--fail-outstanding applies to 'check' only, not to the live view" },
		{ { "trace", "--fail-outstanding" }, "--fail-outstanding applies to 'check' only, not to 'trace'" },
		{ { "top", "--timeout", "1" }, "--timeout applies to 'check' only, not to the live view" },
	};
	struct uct_opts o;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		if (parsev(&o, cases[i].args) != UCT_EXIT_USAGE)
			fail_msg("case %zu (%s ...) was accepted", i, cases[i].args[0]);
		if (!strstr(errbuf, cases[i].msg))
			fail_msg("case %zu: wanted \"%s\", got \"%s\"", i, cases[i].msg, errbuf);
	}
}

/* --container: an id or a prefix of one, hex, kept in lowercase, or a
 * name as Docker accepts them or a pod's NAMESPACE/POD[/CONTAINER], kept
 * as it is; the live view only */
static void test_container(void **state)
{
	struct uct_opts o;
	char id[80];

	assert_int_equal(parse(&o, NULL), -1);
	assert_string_equal(o.container, "");
	assert_int_equal(parse(&o, "--container", "3f2A1b", NULL), -1);
	assert_string_equal(o.container, "3f2a1b");
	assert_int_equal(parse(&o, "--container=0", NULL), -1);
	assert_string_equal(o.container, "0");
	memset(id, 'f', 64);
	id[64] = 0;
	assert_int_equal(parse(&o, "--container", id, NULL), -1);
	assert_string_equal(o.container, id);
	/* names */
	assert_int_equal(parse(&o, "--container", "web-1", NULL), -1);
	assert_string_equal(o.container, "web-1");
	assert_int_equal(parse(&o, "--container", "Db_2.x", NULL), -1);
	assert_string_equal(o.container, "Db_2.x");
	assert_int_equal(parse(&o, "--container", "3f2g", NULL), -1);
	assert_string_equal(o.container, "3f2g");
	/* a Kubernetes pod, and one of its containers */
	assert_int_equal(parse(&o, "--container", "shop/web-7d4b9c-x2x", NULL), -1);
	assert_string_equal(o.container, "shop/web-7d4b9c-x2x");
	assert_int_equal(parse(&o, "--container", "shop/web-7d4b9c-x2x/nginx", NULL), -1);
	assert_string_equal(o.container, "shop/web-7d4b9c-x2x/nginx");
	/* empty, too long for an id, too long for a name, neither */
	reject_value(NULL, "--container", "");
	id[64] = 'f';
	id[65] = 0;
	reject_value(NULL, "--container", id);
	memset(id, 'w', 64);
	id[64] = 0;
	reject_value(NULL, "--container", id);
	reject_value(NULL, "--container", "0x3f?");
	reject_value(NULL, "--container", " 3f");
	reject_value(NULL, "--container", "-web");
	reject_value(NULL, "--container", "web/1/2/3");
	reject_value(NULL, "--container", "Shop/web");
	reject_value(NULL, "--container", "shop/web/");
	assert_non_null(strstr(errbuf, "1 to 64 hex digits"));
	assert_non_null(strstr(errbuf, "as Docker gives it"));
	assert_non_null(strstr(errbuf, "NAMESPACE/POD[/CONTAINER]"));
	USAGE_ERROR(&o, "--container applies to the live view only, not to 'trace'",
		    "trace", "--container", "3f");
	USAGE_ERROR(&o, "--container applies to the live view only, not to 'check'",
		    "check", "--container", "3f", "true");
}

/* What each command does take. */
static void test_scope_accepted(void **state)
{
	struct uct_opts o;

	assert_int_equal(parse(&o, "top", "-b", "-d", "1", "-n", "1", "-o", "f", "--ns", "1",
			       "--uid", "0", "--kuid", "-t", "nproc", "-s", "uid", "--events", "--pin", "/p",
			       "--keep-pinned", "--max-entries", "64", "--task-iter",
			       "--no-tracepoints", "-v", NULL), -1);
	assert_int_equal(o.cmd, UCT_CMD_TOP);
	assert_int_equal(parse(&o, "trace", "--ns", "1", "--uid", "0", "-t", "nproc", "--pin",
			       "/p", "--keep-pinned", "--max-entries", "64", "--ringbuf-kb", "64",
			       "--no-tracepoints", "--stack", "--duration", "1", "--count", "1",
			       "-v", NULL), -1);
	assert_int_equal(o.cmd, UCT_CMD_TRACE);
	assert_int_equal(o.ringbuf_kb, 64);
	assert_int_equal(parse(&o, "check", "--json", "-o", "f", "--max-entries", "64",
			       "--task-iter", "--no-tracepoints", "-v", "--settle", "1",
			       "--fail-outstanding", "--timeout", "1", "--", "true", NULL), -1);
	assert_int_equal(o.cmd, UCT_CMD_CHECK);
	assert_true(o.force_task_iter && o.no_tracepoints && o.verbose && o.fail_outstanding);
}

/* --listen ADDR:PORT: address literals and a port, or :PORT, nothing else */
static void test_listen(void **state)
{
	static const unsigned char lo4[16] = { 127, 0, 0, 1 }, lo6[16] = { [15] = 1 },
		mapped[16] = { [10] = 0xff, 0xff, 10, 0, 0, 1 }, any[16] = { 0 };
	static const char *const bad[] = {
		"", "127.0.0.1", "127.0.0.1:", ":", ":0", ":65536", ": 80", "::9465", ":9465x",
		"127.0.0.1:0", "127.0.0.1:65536",
		"127.0.0.1:+80", "127.0.0.1:-1", "127.0.0.1: 80", "127.0.0.1:80 ", "127.0.0.1:0x50",
		"127.0.0.1:8e1", "127.0.0.1:80:80", "localhost:9465", "127.1:9465", "127.0.0.01:9465",
		"256.0.0.1:9465", " 127.0.0.1:9465", "127.0.0.1 :9465", "::1:9465", "::1", "[::1]",
		"[::1]9465", "[::1:9465", "[]:9465", "[127.0.0.1]:9465", "[fe80::1%lo]:9465", "[::1]:",
		"[::1]:0", "[[::1]]:9465", "[::1]::9465", "[0:0:0:0:0:0:0:0:1]:9465",
		"[1234:5678:9abc:def0:1234:5678:9abc:def0:1]:9465",
	};
	static const char *const other[] = { "--json", "--openmetrics", "--prometheus", "-b", "-o",
					     "-n" };
	struct uct_opts o;
	size_t i;

	assert_int_equal(parse(&o, "--listen", "127.0.0.1:9465", NULL), -1);
	assert_string_equal(o.listen, "127.0.0.1:9465");
	assert_int_equal(o.listen_addr.family, AF_INET);
	assert_memory_equal(o.listen_addr.addr, lo4, 16);
	assert_int_equal(o.listen_addr.port, 9465);
	assert_int_equal(o.output, UCT_OUT_TTY);	/* no other output */
	assert_int_equal(parse(&o, "--listen=0.0.0.0:1", NULL), -1);
	assert_memory_equal(o.listen_addr.addr, any, 16);
	assert_int_equal(o.listen_addr.port, 1);
	assert_int_equal(parse(&o, "--listen", "[::1]:65535", NULL), -1);
	assert_int_equal(o.listen_addr.family, AF_INET6);
	assert_memory_equal(o.listen_addr.addr, lo6, 16);
	assert_int_equal(o.listen_addr.port, 65535);
	assert_int_equal(parse(&o, "--listen", "[::ffff:10.0.0.1]:080", NULL), -1);
	assert_memory_equal(o.listen_addr.addr, mapped, 16);
	assert_int_equal(o.listen_addr.port, 80);	/* decimal, as every number */
	assert_false(o.listen_addr.any);
	/* every address, IPv6 and IPv4: :PORT as exporters take it, and [::] */
	assert_int_equal(parse(&o, "--listen", ":9465", NULL), -1);
	assert_true(o.listen_addr.any && o.listen_addr.family == AF_INET6);
	assert_memory_equal(o.listen_addr.addr, any, 16);
	assert_int_equal(o.listen_addr.port, 9465);
	assert_int_equal(parse(&o, "--listen", "[::]:9465", NULL), -1);
	assert_true(o.listen_addr.any && o.listen_addr.family == AF_INET6);
	assert_int_equal(parse(&o, "--listen=0.0.0.0:1", NULL), -1);
	assert_false(o.listen_addr.any);	/* IPv4's every address: IPv4 only */
	/* the live view's snapshot options apply; -d bounds the snapshots */
	assert_int_equal(parse(&o, "top", "--listen", "127.0.0.1:9465", "-d", "15", "--events",
			       "--ns", "1", "--uid", "0", "-t", "nproc", "--pin", "/p", "--kuid",
			       "--task-iter", NULL), -1);
	assert_true(o.delay == 15 && o.events && o.pin_dir);
	assert_int_equal(o.listen_addr.port, 9465);

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		reject_value(NULL, "--listen", bad[i]);
		assert_non_null(strstr(errbuf, "port 1..65535, no host names"));
	}

	/* a document per scrape: not with another output, nor a count */
	for (i = 0; i < ARRAY_SIZE(other); i++) {
		const char *args[] = { "--listen", "127.0.0.1:9465", other[i], NULL, NULL };
		char want[128];

		if (!strcmp(other[i], "-o") || !strcmp(other[i], "-n"))
			args[3] = "1";
		assert_int_equal(parsev(&o, args), UCT_EXIT_USAGE);
		snprintf(want, sizeof(want), "ucounttop: --listen serves /metrics over HTTP, to be scraped: "
			 "it does not combine with %s (see ucounttop --help)\n", other[i]);
		assert_string_equal(errbuf, want);
		/* in either order */
		args[0] = other[i];
		args[1] = args[3];
		args[args[3] ? 2 : 1] = "--listen";
		args[args[3] ? 3 : 2] = "127.0.0.1:9465";
		assert_int_equal(parsev(&o, args), UCT_EXIT_USAGE);
		assert_string_equal(errbuf, want);
	}
}

/* The refused option is named as written, even inside a group. */
static void test_option_names(void **state)
{
	struct uct_opts o;

	USAGE_ERROR(&o, "unknown option '-z'", "-bz");
	USAGE_ERROR(&o, "unknown option '-z'", "--json", "-zb");
	USAGE_ERROR(&o, "unknown option '-\\x01'", "-b\x01");
	USAGE_ERROR(&o, "option '-n' needs an argument", "-bn");
	USAGE_ERROR(&o, "option '--uid' needs an argument", "--uid");
	USAGE_ERROR(&o, "option '-o' needs an argument", "check", "-o");
	USAGE_ERROR(&o, "option '--json' takes no argument", "--json=yes");
	USAGE_ERROR(&o, "option '--batch' takes no argument", "--batch=1");
	USAGE_ERROR(&o, "ambiguous option '--s' (--sort, --stack, --settle)", "--s", "1");
	USAGE_ERROR(&o, "unknown option '--frobnicate'", "--frobnicate=3");
	/* unambiguous abbreviations still work */
	assert_int_equal(parse(&o, "--it", "4", NULL), -1);
	assert_int_equal(o.iterations, 4);
}

/* Strings: an empty one is never a valid file, directory, type or key. */
static void test_empty_strings(void **state)
{
	struct uct_opts o;

	USAGE_ERROR(&o, "-o/--output needs a file name", "-b", "-o", "");
	USAGE_ERROR(&o, "-o/--output needs a file name", "check", "-o", "", "true");
	USAGE_ERROR(&o, "--pin needs a directory", "--pin", "");
	USAGE_ERROR(&o, "-t/--type", "-t", "");
	USAGE_ERROR(&o, "-s/--sort", "-s", "");
	USAGE_ERROR(&o, "unknown command ''", "");
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
	/* and points to the manual */
	assert_non_null(strstr(buf, "See ucounttop(8)"));
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
		cmocka_unit_test(test_integers_strict),
		cmocka_unit_test(test_integer_bounds),
		cmocka_unit_test(test_seconds_strict),
		cmocka_unit_test(test_seconds_values),
		cmocka_unit_test(test_timeout),
		cmocka_unit_test(test_check_user),
		cmocka_unit_test(test_check_kselftest),
		cmocka_unit_test(test_scope),
		cmocka_unit_test(test_scope_accepted),
		cmocka_unit_test(test_listen),
		cmocka_unit_test(test_option_names),
		cmocka_unit_test(test_empty_strings),
		cmocka_unit_test(test_help_version),
		cmocka_unit_test(test_help_text),
		cmocka_unit_test(test_repeatable),
		cmocka_unit_test(test_container),
	};

	return cmocka_run_group_tests_name("opts", tests, NULL, NULL);
}
