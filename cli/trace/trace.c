// SPDX-License-Identifier: GPL-2.0
/* trace.c - `ucounttop trace`: print ring-buffer events as they come. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "clock.h"
#include "ksyms.h"
#include "privs.h"
#include "trace.h"
#include "trace_fmt.h"

/* Lines are built in place in one buffer and written with write(2) when
 * it is nearly full and after every poll (at most 100 ms late): no stdio
 * copy per line. */
#define OUT_SIZE	(64 * 1024)

struct trace_ctx {
	const struct uct_opts *o;
	struct uct_ksyms *ksyms;
	struct uct_trace_fmt fmt;
	long printed;
	size_t n;		/* bytes in out[] not yet written */
	int werr;		/* errno of a failed write; nothing written after */
	char out[OUT_SIZE];
};

static void out_flush(struct trace_ctx *t)
{
	size_t off = 0;
	ssize_t w;

	while (off < t->n && !t->werr) {
		w = write(STDOUT_FILENO, t->out + off, t->n - off);
		if (w < 0 && errno != EINTR)
			t->werr = errno;
		else if (w > 0)
			off += (size_t)w;
	}
	t->n = 0;
}

/* Room for one more line of any kind. */
static inline char *out_room(struct trace_ctx *t)
{
	if (t->n > sizeof(t->out) - UCT_TRACE_LINE_MAX)
		out_flush(t);
	return t->out + t->n;
}

static void stack_lines(struct trace_ctx *t, const struct uct_event *e)
{
	int i, n;

	for (i = 0; i < (int)e->nstack && i < UCT_MAX_STACK; i++) {
		unsigned long long off = 0;
		const char *name = uct_ksyms_lookup(t->ksyms, e->stack[i], &off);
		char *p;

		/* our own program and its trampoline are not the kernel's path */
		if (name && (!strncmp(name, "bpf_prog_", 9) || !strncmp(name, "bpf_trampoline_", 15)))
			continue;
		p = out_room(t);
		if (name)
			n = snprintf(p, UCT_TRACE_LINE_MAX, "        %.200s+0x%llx\n", name, off);
		else
			n = snprintf(p, UCT_TRACE_LINE_MAX, "        0x%llx\n",
				     (unsigned long long)e->stack[i]);
		t->n += n < UCT_TRACE_LINE_MAX ? (size_t)n : UCT_TRACE_LINE_MAX - 1;
	}
}

static int on_event(void *arg, void *data, size_t size)
{
	struct trace_ctx *t = arg;
	const struct uct_event *e = data;

	/* type, ns and uid are filtered in BPF */
	if (size < UCT_EVENT_NOSTACK_SIZE)
		return 0;
	if (t->o->count && t->printed >= t->o->count)
		return 0;
	t->n += uct_trace_line(&t->fmt, out_room(t), e);
	if (size == sizeof(*e))
		stack_lines(t, e);
	t->printed++;
	return 0;
}

static long long clock_ns(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

int uct_run_trace(struct uct_loader *l, const struct uct_opts *o, volatile sig_atomic_t *stop)
{
	struct trace_ctx *t = calloc(1, sizeof(*t));
	unsigned long long cnt[UCT_NCOUNTERS];
	const char *h = uct_trace_header();
	double end = 0;
	int err, sandboxed;

	if (!t) {
		fprintf(stderr, "ucounttop: out of memory\n");
		return UCT_EXIT_FAIL;
	}
	t->o = o;
	if (o->stack) {
		t->ksyms = uct_ksyms_load("/proc/kallsyms");
		if (!t->ksyms)
			fprintf(stderr, "ucounttop: cannot read /proc/kallsyms (%s): stacks show "
				"addresses only\n", strerror(errno));
	}
	uct_trace_fmt_init(&t->fmt, clock_ns(CLOCK_REALTIME) - clock_ns(CLOCK_BOOTTIME));
	err = uct_loader_open_events(l, on_event, t);
	if (err) {
		fprintf(stderr, "ucounttop: cannot open the ring buffer: %s\n", strerror(-err));
		uct_ksyms_free(t->ksyms);
		free(t);
		return UCT_EXIT_FAIL;
	}
	/* everything is open: nothing of root's is needed any more */
	sandboxed = -1;
	if (!uct_drop_privileges(uct_keep_trace, t->out, sizeof(t->out)))
		sandboxed = uct_sandbox(UCT_ROLE_TRACE, t->out, sizeof(t->out));
	if (sandboxed < 0) {
		fprintf(stderr, "ucounttop: dropping privileges: %s\n", t->out);
		uct_ksyms_free(t->ksyms);
		free(t);
		return UCT_EXIT_FAIL;
	}
	if (sandboxed > 0)
		fprintf(stderr, "ucounttop: %s: no system call allowlist\n", t->out);
	if (o->duration > 0)
		end = uct_now_s() + o->duration;
	fprintf(stderr, "ucounttop: tracing ucounts charges (%s); Ctrl-C to stop\n", l->hooks);
	memcpy(t->out, h, strlen(h));
	t->out[strlen(h)] = '\n';
	t->n = strlen(h) + 1;
	for (;;) {
		out_flush(t);
		/* the reader went away (`| head`): a normal end, as in the view */
		if (t->werr) {
			if (t->werr != EPIPE) {
				fprintf(stderr, "ucounttop: writing output: %s\n", strerror(t->werr));
				err = -t->werr;
			}
			break;
		}
		/* what was read before an error or the end is printed too */
		if (err < 0 && err != -EINTR)
			break;
		if (*stop || (o->count && t->printed >= o->count) ||
		    (end && uct_now_s() >= end))
			break;
		err = uct_loader_poll_events(l, 100);
		if (err < 0 && err != -EINTR)
			fprintf(stderr, "ucounttop: polling the ring buffer: %s\n", strerror(-err));
	}
	uct_loader_counters(l, cnt);
	if (cnt[UCT_CNT_RB_DROPS])
		fprintf(stderr, "ucounttop: %llu events dropped (ring buffer full; try "
			"--ringbuf-kb)\n", cnt[UCT_CNT_RB_DROPS]);
	/* at most one line per skipped run; filtered out ones count too */
	if (cnt[UCT_CNT_MISSED])
		fprintf(stderr, "ucounttop: %llu events missed by the kernel's recursion guard "
			"(a program preempted or interrupted on its CPU while another task "
			"entered it): up to that many lines are missing\n", cnt[UCT_CNT_MISSED]);
	uct_ksyms_free(t->ksyms);
	free(t);
	return err < 0 && err != -EINTR ? UCT_EXIT_FAIL : UCT_EXIT_OK;
}
