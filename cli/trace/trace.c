// SPDX-License-Identifier: GPL-2.0
/* trace.c - `ucounttop trace`: print ring-buffer events as they come, or
 * record them (-w) and print a recording (-r). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "clock.h"
#include "ksyms.h"
#include "privs.h"
#include "trace.h"
#include "trace_file.h"
#include "trace_fmt.h"

/* Lines (or -w's records) are built in place in one buffer and written
 * with write(2) when it is nearly full and after every poll (at most
 * 100 ms late): no stdio copy per line. */
#define OUT_SIZE	(64 * 1024)
_Static_assert(sizeof(struct uct_event) <= UCT_TRACE_LINE_MAX, "a record fits a line's room");

struct trace_ctx {
	const struct uct_opts *o;
	struct uct_ksyms *ksyms;
	struct uct_trace_fmt fmt;
	long printed;
	int out_fd;		/* standard output, or -w's file */
	size_t rec_size;	/* -w: bytes per record; 0: lines */
	size_t n;		/* bytes in out[] not yet written */
	int werr;		/* errno of a failed write; nothing written after */
	char out[OUT_SIZE];
};

static void out_flush(struct trace_ctx *t)
{
	size_t off = 0;
	ssize_t w;

	while (off < t->n && !t->werr) {
		w = write(t->out_fd, t->out + off, t->n - off);
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
	if (t->rec_size) {
		/* -w: the record as the kernel wrote it */
		memcpy(out_room(t), e, t->rec_size);
		t->n += t->rec_size;
		t->printed++;
		return 0;
	}
	t->n += uct_trace_line(&t->fmt, out_room(t), e);
	if (size == sizeof(*e))
		stack_lines(t, e);
	t->printed++;
	return 0;
}

/* The column header, first in out[]. */
static void put_header(struct trace_ctx *t)
{
	const char *h = uct_trace_header();
	size_t n = strlen(h);

	memcpy(t->out, h, n);
	t->out[n] = '\n';
	t->n = n + 1;
}

/* The kernel's symbols for stack lines; raw addresses without them. */
static void load_ksyms(struct trace_ctx *t)
{
	t->ksyms = uct_ksyms_load("/proc/kallsyms");
	if (!t->ksyms)
		fprintf(stderr, "ucounttop: cannot read /proc/kallsyms (%s): stacks show "
			"addresses only\n", strerror(errno));
}

static void trace_free(struct trace_ctx *t)
{
	if (t->out_fd > STDERR_FILENO)
		close(t->out_fd);
	uct_ksyms_free(t->ksyms);
	free(t);
}

/* Read up to len bytes, fewer only at the end of the file: their count,
 * or -1 (errno). */
static ssize_t read_full(int fd, void *p, size_t len)
{
	size_t n = 0;
	ssize_t got;

	while (n < len) {
		got = read(fd, (char *)p + n, len - n);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0)
			return -1;
		if (!got)
			break;
		n += (size_t)got;
	}
	return (ssize_t)n;
}

/* -w FILE opened for writing (before privileges are dropped: a root-only
 * directory works), or standard output for "-" unless it is a terminal.
 * An exit code. */
static int open_recording(const char *path, int *fd)
{
	if (!strcmp(path, "-")) {
		if (isatty(STDOUT_FILENO)) {
			fprintf(stderr, "ucounttop: -w -: a recording is binary, not for a terminal: "
				"redirect it, or -w FILE\n");
			return UCT_EXIT_USAGE;
		}
		*fd = STDOUT_FILENO;
		return UCT_EXIT_OK;
	}
	*fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (*fd < 0) {
		fprintf(stderr, "ucounttop: -w %s: %s\n", path, strerror(errno));
		return UCT_EXIT_FAIL;
	}
	return UCT_EXIT_OK;
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
	int64_t boot_to_wall;
	double end = 0;
	int err, sandboxed;

	if (!t) {
		fprintf(stderr, "ucounttop: out of memory\n");
		return UCT_EXIT_FAIL;
	}
	t->o = o;
	t->out_fd = STDOUT_FILENO;
	if (o->write_file) {
		t->rec_size = o->stack ? sizeof(struct uct_event) : UCT_EVENT_NOSTACK_SIZE;
		err = open_recording(o->write_file, &t->out_fd);
		if (err) {
			trace_free(t);
			return err;
		}
	}
	if (o->stack && !o->write_file)
		load_ksyms(t);
	boot_to_wall = clock_ns(CLOCK_REALTIME) - clock_ns(CLOCK_BOOTTIME);
	uct_trace_fmt_init(&t->fmt, boot_to_wall);
	err = uct_loader_open_events(l, on_event, t);
	if (err) {
		fprintf(stderr, "ucounttop: cannot open the ring buffer: %s\n", strerror(-err));
		trace_free(t);
		return UCT_EXIT_FAIL;
	}
	/* everything is open: nothing of root's is needed any more */
	sandboxed = -1;
	if (!uct_drop_privileges(uct_keep_trace, t->out, sizeof(t->out)))
		sandboxed = uct_sandbox(UCT_ROLE_TRACE, t->out, sizeof(t->out));
	if (sandboxed < 0) {
		fprintf(stderr, "ucounttop: dropping privileges: %s\n", t->out);
		trace_free(t);
		return UCT_EXIT_FAIL;
	}
	if (sandboxed > 0)
		fprintf(stderr, "ucounttop: %s: no system call allowlist\n", t->out);
	if (o->duration > 0)
		end = uct_now_s() + o->duration;
	fprintf(stderr, "ucounttop: tracing ucounts charges (%s); Ctrl-C to stop\n", l->hooks);
	if (t->rec_size) {
		struct uct_trace_file_hdr fh;

		uct_trace_file_hdr_init(&fh, o->stack, boot_to_wall);
		memcpy(t->out, &fh, sizeof(fh));
		t->n = sizeof(fh);
	} else {
		put_header(t);
	}
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
	trace_free(t);
	return err < 0 && err != -EINTR ? UCT_EXIT_FAIL : UCT_EXIT_OK;
}

/*
 * trace -r: the lines of a recording, as trace would have printed them
 * then, stacks named with this machine's /proc/kallsyms (the same boot's
 * names a kernel address; another boot's do not). Exit 1 when the file
 * cannot be read, is not a recording, or ends inside a record (the whole
 * records before it are printed).
 */
int uct_run_trace_read(const struct uct_opts *o)
{
	struct trace_ctx *t = calloc(1, sizeof(*t));
	struct uct_trace_file_hdr fh;
	const char *bad;
	char *buf = NULL;
	size_t have = 0, off, cap = 0;
	long long at = sizeof(fh);
	ssize_t got;
	int fd, rc = UCT_EXIT_OK;

	if (!t) {
		fprintf(stderr, "ucounttop: out of memory\n");
		return UCT_EXIT_FAIL;
	}
	t->o = o;
	t->out_fd = STDOUT_FILENO;
	fd = open(o->read_file, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		fprintf(stderr, "ucounttop: -r %s: %s\n", o->read_file, strerror(errno));
		trace_free(t);
		return UCT_EXIT_FAIL;
	}
	got = read_full(fd, &fh, sizeof(fh));
	bad = got < 0 ? strerror(errno) : got < (ssize_t)sizeof(fh) ?
	      "shorter than a recording's header" : uct_trace_file_hdr_check(&fh);
	if (bad) {
		fprintf(stderr, "ucounttop: -r %s: %s\n", o->read_file, bad);
		close(fd);
		trace_free(t);
		return UCT_EXIT_FAIL;
	}
	uct_trace_fmt_init(&t->fmt, fh.boot_to_wall_ns);
	if (fh.flags & UCT_TRACE_F_STACK)
		load_ksyms(t);
	/* whole records from a buffer of many */
	cap = (OUT_SIZE / fh.rec_size) * fh.rec_size;
	buf = malloc(cap);
	if (!buf) {
		fprintf(stderr, "ucounttop: out of memory\n");
		close(fd);
		trace_free(t);
		return UCT_EXIT_FAIL;
	}
	put_header(t);
	for (;;) {
		got = read_full(fd, buf + have, cap - have);
		if (got < 0) {
			fprintf(stderr, "ucounttop: -r %s: %s\n", o->read_file, strerror(errno));
			rc = UCT_EXIT_FAIL;
			break;
		}
		have += (size_t)got;
		for (off = 0; off + fh.rec_size <= have; off += fh.rec_size, at += fh.rec_size)
			on_event(t, buf + off, fh.rec_size);
		if (off < have && !got) {
			fprintf(stderr, "ucounttop: -r %s: ends inside a record at byte %lld\n",
				o->read_file, at);
			rc = UCT_EXIT_FAIL;
			break;
		}
		memmove(buf, buf + off, have - off);
		have -= off;
		out_flush(t);
		if (t->werr || !got || (o->count && t->printed >= o->count))
			break;
	}
	out_flush(t);
	if (t->werr && t->werr != EPIPE) {
		fprintf(stderr, "ucounttop: writing output: %s\n", strerror(t->werr));
		rc = UCT_EXIT_FAIL;
	}
	free(buf);
	close(fd);
	trace_free(t);
	return rc;
}
