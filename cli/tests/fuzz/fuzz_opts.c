// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_opts.c - libFuzzer target: uct_parse_opts() on any command line.
 *
 * Input: the arguments after argv[0], separated by NUL bytes (as the
 * kernel hands them over: anything but NUL is allowed inside one). Each
 * input is parsed twice from fresh copies, so getopt's state left by the
 * first parse (stopped inside "-bz", say) must not change the second.
 *
 * Oracle, besides the sanitizers: the result is -1, 0 or UCT_EXIT_USAGE;
 * an error is exactly one line on err starting "ucounttop: ", nothing on
 * out; success leaves err empty and every field within its documented
 * range; --help/--version write to out only.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include "opts.h"

#define MAX_ARGS 64

#define CHECK(cond) do { if (!(cond)) { \
	fprintf(stderr, "fuzz_opts: %s:%d: %s\n", __FILE__, __LINE__, #cond); \
	abort(); } } while (0)

struct result {
	int rc;
	struct uct_opts o;
	char *out, *err;
	size_t nout, nerr;
};

/* Split data into argv (argv[0] = "ucounttop"); returns argc. */
static int split(char *buf, size_t size, char **argv)
{
	size_t i, start = 0;
	int argc = 1;

	argv[0] = "ucounttop";
	for (i = 0; i <= size && argc < MAX_ARGS; i++) {
		if (i < size && buf[i])
			continue;
		buf[i] = 0;
		argv[argc++] = buf + start;
		start = i + 1;
	}
	argv[argc] = NULL;
	return argc;
}

static bool in_argv(char **argv, int argc, const char *p)
{
	int i;

	for (i = 1; i < argc; i++)
		if (p >= argv[i] && p <= argv[i] + strlen(argv[i]))
			return true;
	return false;
}

static void parse(const uint8_t *data, size_t size, char *buf, char **argv, struct result *r)
{
	FILE *out, *err;
	int argc;

	memcpy(buf, data, size);
	argc = split(buf, size, argv);
	out = open_memstream(&r->out, &r->nout);
	err = open_memstream(&r->err, &r->nerr);
	CHECK(out && err);
	r->rc = uct_parse_opts(argc, argv, &r->o, out, err);
	fclose(out);
	fclose(err);
	if (r->rc != -1)
		return;
	/* success: everything points into argv and lies within its range */
	{
		const struct uct_opts *o = &r->o;

		CHECK(o->cmd == UCT_CMD_TOP || o->cmd == UCT_CMD_TRACE || o->cmd == UCT_CMD_CHECK);
		CHECK(o->output >= UCT_OUT_TTY && o->output <= UCT_OUT_KTAP);
		CHECK(o->output != UCT_OUT_KTAP || o->cmd == UCT_CMD_CHECK);
		CHECK(isfinite(o->delay) && o->delay >= 0.01 && o->delay <= 86400.0 * 365);
		CHECK(o->iterations == -1 || o->iterations >= 1);
		CHECK(o->ns_filter >= 0 && o->ns_filter <= 0xffffffffLL);
		CHECK(o->uid_filter >= -1 && o->uid_filter <= 0xfffffffeLL);
		CHECK(o->type_filter >= -1 && o->type_filter < UCT_NTYPES);
		CHECK(o->sort < UCT_SORT_COUNT);
		CHECK(isfinite(o->duration) && o->duration >= 0);
		CHECK(o->count >= 0);
		CHECK(o->max_entries >= 16 && o->max_entries <= 1u << 22);
		CHECK(o->ringbuf_kb >= 4 && o->ringbuf_kb <= 1u << 20 &&
		      !(o->ringbuf_kb & (o->ringbuf_kb - 1)));
		CHECK(isfinite(o->settle) && o->settle >= 0 && o->settle <= 3600);
		CHECK(isfinite(o->timeout) && o->timeout >= 0);
		CHECK(!o->output_file || (*o->output_file && in_argv(argv, argc, o->output_file)));
		CHECK(!o->pin_dir || (*o->pin_dir && in_argv(argv, argc, o->pin_dir)));
		CHECK(!o->keep_pinned || o->pin_dir);
		if (o->listen) {
			const struct uct_listen_addr *a = &o->listen_addr;

			CHECK(*o->listen && in_argv(argv, argc, o->listen));
			CHECK(a->family == AF_INET || a->family == AF_INET6);
			CHECK(a->port >= 1);
			CHECK(o->cmd == UCT_CMD_TOP && o->output == UCT_OUT_TTY);
			CHECK(!o->output_file && o->iterations == -1);
		} else {
			CHECK(!o->listen_addr.family);
		}
		if (o->cmd == UCT_CMD_CHECK) {
			CHECK(o->cmd_argv && o->cmd_argv[0]);
			CHECK(o->cmd_argv > argv && o->cmd_argv < argv + argc);
			CHECK(o->output == UCT_OUT_TTY || o->output == UCT_OUT_JSON ||
			      o->output == UCT_OUT_KTAP);
			/* --kselftest writes KTAP, --ktap only to standard output */
			CHECK(!o->kselftest || o->output == UCT_OUT_KTAP);
			CHECK(o->output != UCT_OUT_KTAP || !o->output_file);
			CHECK(!o->stack && !o->duration && !o->count && !o->events && !o->pin_dir);
			CHECK(!o->kuid);
			CHECK(o->ns_filter == 0 && o->uid_filter == -1 && o->type_filter == -1);
		} else {
			CHECK(!o->cmd_argv);
			CHECK(!o->fail_outstanding && o->settle == 3.0 && o->timeout == 0);
		}
		if (o->cmd == UCT_CMD_TRACE) {
			CHECK(o->events && o->output == UCT_OUT_TTY && !o->output_file);
			CHECK(o->delay == 1.0 && o->iterations == -1 && o->sort == 0);
			CHECK(!o->force_task_iter && !o->kuid);
		}
		if (o->cmd == UCT_CMD_TOP) {
			CHECK(!o->stack && !o->duration && !o->count && o->ringbuf_kb == 256);
			CHECK(!o->output_file || o->output != UCT_OUT_TTY);
		}
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *argv[MAX_ARGS + 1], *buf;
	struct result a = { 0 }, b = { 0 };

	if (size > 4096)
		return 0;
	buf = malloc(size + 1);
	CHECK(buf);
	parse(data, size, buf, argv, &a);
	switch (a.rc) {
	case -1:
		CHECK(a.nerr == 0 && a.nout == 0);
		break;
	case UCT_EXIT_OK:	/* --help, --version */
		CHECK(a.nerr == 0 && a.nout > 0);
		break;
	case UCT_EXIT_USAGE:
		/* one message, ours, pointing to --help (an argument it quotes
		 * may hold a newline of its own) */
		CHECK(a.nout == 0 && a.nerr > 24);
		CHECK(!strncmp(a.err, "ucounttop: ", 11));
		CHECK(!strcmp(a.err + a.nerr - 24, " (see ucounttop --help)\n"));
		break;
	default:
		CHECK(!"unexpected return code");
	}
	/* getopt was reset: a second parse says the same */
	parse(data, size, buf, argv, &b);
	CHECK(a.rc == b.rc);
	CHECK(a.nout == b.nout && a.nerr == b.nerr);
	CHECK(!memcmp(a.out, b.out, a.nout) && !memcmp(a.err, b.err, a.nerr));
	free(a.out);
	free(a.err);
	free(b.out);
	free(b.err);
	free(buf);
	return 0;
}
