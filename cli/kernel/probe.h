/* SPDX-License-Identifier: GPL-2.0 */
/*
 * probe.h - can this kernel and this process run ucounttop: the privileges
 * to load tracing programs, the kernel's BTF, a bpffs for --pin, the
 * kernel's data layout, and which hooks it offers. A hook is asked of BTF
 * and then of the verifier: a function or tracepoint in BTF may still
 * refuse a tracing program (notrace, a deny list, no trampoline support),
 * so each optional hook is probed by loading a minimal program for it, as
 * libbpf-tools' fentry_can_attach() does.
 */
#ifndef UCT_PROBE_H
#define UCT_PROBE_H

#include <stdbool.h>
#include <stddef.h>

struct btf;

/*
 * Each returns UCT_EXIT_OK or an exit code with a message (what is wrong and
 * what to do) in msg.
 */
int uct_probe_privileges(char *msg, size_t len);
int uct_probe_btf(char *msg, size_t len);
int uct_probe_bpffs(const char *dir, char *msg, size_t len);

/* What the running kernel offers. */
struct uct_features {
	bool iter_ucounts;	/* our series: SEC("iter/ucounts") */
	bool iter_task;
	/* functions that take fentry/fexit programs */
	bool fn_inc, fn_dec, fn_inc_get, fn_dec_put, fn_overlimit;
	bool fn_ucounts_overlimit;	/* our series: is_rlimit_overlimit() calls it */
	bool fn_inc_over;		/* our series (v3): inc_rlimit_ucounts() calls it */
	bool fn_mqueue;			/* mqueue_get_inode, mqueue_evict_inode */
	bool fn_shm;			/* shmem_lock, user_(un)shm_lock, shmem_evict_inode */
	/* timer_create()'s sigqueue charge: 7.x, 6.x */
	bool fn_timer_sigq;		/* posixtimer_init_sigqueue */
	bool fn_sigq_alloc;		/* sigqueue_alloc */
	/* tracepoints that take tp_btf programs */
	bool tp_alloc, tp_free, tp_charge, tp_uncharge, tp_refused;
	bool tp_signal_generate;
	/* PREEMPT_RT: spinlock_t is a sleeping lock (struct spinlock holds
	 * an rt_mutex_base, not a raw_spinlock) */
	bool preempt_rt;
	char refused[256];	/* hooks in BTF that the verifier refused */
};

/*
 * The fields every program reads: struct ucounts.rlimit[] and
 * user_namespace.rlimit_max[] (the per-namespace rlimit counters in their
 * 6.1 layout). 0, or -1 with what is missing in msg.
 */
int uct_probe_kernel_layout(const struct btf *btf, char *msg, size_t len);

/* Can a tracing program of this kind attach to name? kind: "fentry",
 * "fexit" (functions) or "tp_btf" (tracepoints). */
bool uct_can_attach(const struct btf *vmlinux, const char *kind, const char *name);

/* Fill f from the kernel's BTF and probes. UCT_EXIT_OK or an exit code
 * with msg. */
int uct_probe_features(struct uct_features *f, char *msg, size_t len);

#endif /* UCT_PROBE_H */
