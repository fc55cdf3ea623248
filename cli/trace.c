// SPDX-License-Identifier: GPL-2.0
/* trace.c - `ucounttop trace`: print ring-buffer events as they come. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "ksyms.h"
#include "trace.h"
#include "trace_fmt.h"

struct trace_ctx {
	const struct uct_opts *o;
	struct uct_ksyms *ksyms;
	double boot_to_wall;
	long printed;
};

static double clock_s(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int on_event(void *arg, void *data, size_t size)
{
	struct trace_ctx *t = arg;
	const struct uct_event *e = data;
	char line[257];
	int i, n;

	if (size < UCT_EVENT_NOSTACK_SIZE)
		return 0;
	if (t->o->count && t->printed >= t->o->count)
		return 0;
	/* ns and uid are filtered in BPF; the type here */
	if (t->o->type_filter >= 0 && (e->kind == UCT_EV_ALLOC || e->kind == UCT_EV_FREE ||
				      (int)e->type != t->o->type_filter))
		return 0;
	n = uct_trace_line(line, sizeof(line), e, t->boot_to_wall);
	line[n] = '\n';
	fwrite_unlocked(line, 1, (size_t)n + 1, stdout);
	for (i = 0; size == sizeof(*e) && i < e->nstack && i < UCT_MAX_STACK; i++) {
		unsigned long long off = 0;
		const char *name = uct_ksyms_lookup(t->ksyms, e->stack[i], &off);

		/* our own program and its trampoline are not the kernel's path */
		if (name && (!strncmp(name, "bpf_prog_", 9) || !strncmp(name, "bpf_trampoline_", 15)))
			continue;
		if (name)
			printf("        %s+0x%llx\n", name, off);
		else
			printf("        0x%llx\n", (unsigned long long)e->stack[i]);
	}
	t->printed++;
	return 0;
}

int uct_run_trace(struct uct_loader *l, const struct uct_opts *o, volatile sig_atomic_t *stop)
{
	struct trace_ctx t = { .o = o };
	unsigned long long cnt[UCT_NCOUNTERS];
	double end = 0;
	int err;

	/* a terminal sees each line at once; a file or pipe gets them in
	 * blocks, flushed after every poll (at most 100 ms late) */
	if (isatty(STDOUT_FILENO))
		setvbuf(stdout, NULL, _IOLBF, 0);
	else
		setvbuf(stdout, NULL, _IOFBF, 1 << 16);
	if (o->stack) {
		t.ksyms = uct_ksyms_load("/proc/kallsyms");
		if (!t.ksyms)
			fprintf(stderr, "ucounttop: cannot read /proc/kallsyms (%s): stacks show "
				"addresses only\n", strerror(errno));
	}
	t.boot_to_wall = clock_s(CLOCK_REALTIME) - clock_s(CLOCK_BOOTTIME);
	err = uct_loader_open_events(l, on_event, &t);
	if (err) {
		fprintf(stderr, "ucounttop: cannot open the ring buffer: %s\n", strerror(-err));
		uct_ksyms_free(t.ksyms);
		return UCT_EXIT_FAIL;
	}
	if (o->duration > 0)
		end = clock_s(CLOCK_MONOTONIC) + o->duration;
	fprintf(stderr, "ucounttop: tracing ucounts charges (%s); Ctrl-C to stop\n", l->hooks);
	printf("%s\n", uct_trace_header());
	while (!*stop) {
		err = uct_loader_poll_events(l, 100);
		/* the reader went away (`| head`): a normal end, as in the view */
		if (fflush(stdout) || ferror(stdout)) {
			if (errno != EPIPE) {
				fprintf(stderr, "ucounttop: writing output: %s\n", strerror(errno));
				err = -errno;
			}
			break;
		}
		if (err < 0 && err != -EINTR) {
			fprintf(stderr, "ucounttop: polling the ring buffer: %s\n", strerror(-err));
			break;
		}
		if (o->count && t.printed >= o->count)
			break;
		if (end && clock_s(CLOCK_MONOTONIC) >= end)
			break;
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
	uct_ksyms_free(t.ksyms);
	return err < 0 && err != -EINTR ? UCT_EXIT_FAIL : UCT_EXIT_OK;
}
