/* SPDX-License-Identifier: GPL-2.0 */
/*
 * progs.h - a table of a skeleton's programs, as the live view's loader
 * and check both handle theirs: which load, attaching them (an optional
 * one that fails is dropped and named in degraded:), the runs the kernel
 * skipped; and libbpf's messages and log level.
 */
#ifndef UCT_PROGS_H
#define UCT_PROGS_H

#include <stdbool.h>
#include <stddef.h>

struct bpf_program;
struct bpf_link;

/*
 * One program of a skeleton, in its user's table. Chosen programs
 * (want) load; after the load each is attached, and an optional one that
 * fails to attach is dropped and named in degraded: with what it costs
 * (loss). Its hook name ("fexit:inc_rlimit_ucounts") comes from its
 * section.
 */
struct uct_prog {
	struct bpf_program *prog;
	struct bpf_link **link;
	bool want;
	bool optional;
	const char *loss;	/* optional: what the view lacks without it */
};

/* libbpf's messages on stderr with -v, silent otherwise. */
void uct_libbpf_setup(bool verbose);
/* For bpf_object_open_opts: 4 (the verifier's statistics in libbpf's
 * messages) with -v and UCOUNTTOP_VERIFIER_STATS=1, else 0. */
unsigned int uct_kernel_log_level(void);

void uct_progs_autoload(const struct uct_prog *p, size_t n);
/*
 * Attach every wanted program. Hooks (not iterators) that attached are
 * listed in hooks; dropped optional ones appended to degraded. Returns
 * UCT_EXIT_OK, or an exit code with msg when a required one fails.
 */
int uct_progs_attach(struct uct_prog *p, size_t n, char *hooks, size_t hlen, char *degraded,
		     size_t dlen, char *msg, size_t len);
/*
 * Runs of prog the kernel skipped (bpf_prog_info.recursion_misses): a
 * tracing program is not run on a CPU where it is already running. An
 * fentry/fexit program runs preemptible under CONFIG_PREEMPT (the
 * trampoline only disables migration), so a task preempted inside it
 * makes every other task on that CPU skip it; a tracepoint program runs
 * with preemption off and misses only when an interrupt re-enters it.
 * 0 for a program that is not loaded.
 */
unsigned long long uct_prog_misses(const struct bpf_program *prog);
/* The same, summed over the attached programs of a table. */
unsigned long long uct_progs_misses(const struct uct_prog *p, size_t n);
/* Append "; what" to a degraded: text. */
void uct_degraded_add(char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif /* UCT_PROGS_H */
