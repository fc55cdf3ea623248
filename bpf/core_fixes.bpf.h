/* SPDX-License-Identifier: GPL-2.0 */
/*
 * core_fixes.bpf.h - every difference between the kernels ucounttop runs
 * on, in one place. Both objects (ucounttop.bpf.c: the live view and
 * trace; ucounttop_check.bpf.c: check) read a kernel structure whose shape
 * changed, or a kernel constant, only through this file. Each difference
 * is a ___flavour struct and a CO-RE check, named after the kernel change
 * that made it; the objects are built against one vmlinux.h (the 6.1
 * tree's) and the checks pick the running kernel's shape at load time.
 * tests/host/core-relocs.sh relocates both objects against every kernel of
 * the matrix and fails on an access no check here guards.
 *
 * Differences handled elsewhere, in user space (cli/kernel/probe.c), are
 * those of whole hooks: which functions and tracepoints exist
 * (is_rlimit_overlimit() or our series' ucounts_overlimit();
 * inc_rlimit_ucounts() or its v3 wrapper target inc_rlimit_ucounts_over();
 * the series' tracepoints and iter/ucounts), and the 5.19 split of
 * ucounts->rlimit[] and user_namespace->rlimit_max[] (de399236e240
 * "ucounts: Split rlimit and ucount values and max values"), before which
 * the tool refuses to load.
 *
 * Kernels known (tests/host/core-relocs.sh relocates against each):
 *   Debian 6.1.y    list_head posix_timers, k_itimer.sigq a pointer,
 *                   atomic_t ucounts.count, u32 cap[2]
 *   Debian 6.12.y   hlist_head posix_timers (and -rt alike)
 *   6.13 and later  k_itimer.sigq embedded
 *   6.15 and later  ucounts.count an rcuref_t
 */
#ifndef CORE_FIXES_BPF_H
#define CORE_FIXES_BPF_H

/*
 * Constants that are uapi (RLIMIT_*, CAP_*), or kernel #defines that BTF
 * does not carry and that have not changed since ucounts existed
 * (PF_KTHREAD, SIGQUEUE_PREALLOC). Kernel enums are read with
 * bpf_core_enum_value() below instead.
 */
#define RLIMIT_NPROC_		6
#define RLIMIT_MEMLOCK_		8
#define RLIMIT_SIGPENDING_	11
#define RLIMIT_MSGQUEUE_	12
#define CAP_IPC_LOCK_		14
#define CAP_SYS_ADMIN_		21
#define CAP_SYS_RESOURCE_	24
#define PF_KTHREAD_		0x00200000
#define PF_NPROC_EXCEEDED_	0x00001000
#define SIGQUEUE_PREALLOC_	1

/* ---- kernel enums ------------------------------------------------------------ */

/*
 * enum rlimit_type indexes ucounts->rlimit[] and rlimit_max[], and the
 * programs keep its values as our indices (UCT_NPROC...): 0..3 since
 * 5.14. cli/kernel/probe.c compares the running kernel's enum with ours
 * before loading and refuses a kernel that reordered it.
 */

/*
 * The signal_generate results that mean a sigqueue could not be had (an
 * RT signal refused, or a signal queued without its siginfo). Their enum
 * (include/trace/events/signal.h) is anonymous, so BTF cannot name it for
 * a relocation; its values are the tracepoint's ABI, unchanged since
 * 3.x.
 */
#define TRACE_SIGNAL_OVERFLOW_FAIL_	3
#define TRACE_SIGNAL_LOSE_INFO_		4

static __always_inline bool uct_signal_overflowed(int result)
{
	return result == TRACE_SIGNAL_OVERFLOW_FAIL_ || result == TRACE_SIGNAL_LOSE_INFO_;
}

/* ---- our series ------------------------------------------------------------- */

/*
 * Context of the series' iterator (iter/ucounts), declared here so the
 * objects build against any vmlinux.h; programs using it load only where
 * user space found the iterator.
 */
struct bpf_iter__ucounts___uct {
	struct bpf_iter_meta *meta;
	struct ucounts *ucounts;
} __attribute__((preserve_access_index));

/* enum ucounts_rlimit_result (the series' charge tracepoint): results
 * from UCOUNTS_REFUSED on charged nothing. Only programs that load with
 * the series use it (vmlinux.h is always our kernel's). */
static __always_inline int uct_result_refused(void)
{
	return bpf_core_enum_value(enum ucounts_rlimit_result, UCOUNTS_REFUSED);
}

/* ---- struct ucounts: count ---------------------------------------------------- */

/* 6.15: "ucount: use rcuref_t for reference counting" */
typedef struct {
	atomic_t refcnt;
} rcuref_t___uct;

struct ucounts___rcuref {
	rcuref_t___uct count;
} __attribute__((preserve_access_index));

/*
 * The number of references to uc. An atomic_t holds it as is; an
 * rcuref_t holds one less (0: one reference), and from 0x80000000 on
 * the object is on its way out. The raw bits of either are the first 32
 * of the member.
 */
static __always_inline __u32 uct_refs_from_raw(__u32 raw)
{
	if (bpf_core_field_exists(struct ucounts___rcuref, count.refcnt))
		return raw < 0x80000000U ? raw + 1 : 0;
	return raw;
}

/* ---- struct cred: kernel_cap_t -------------------------------------------------- */

/*
 * The effective capabilities as a u64: u32 cap[2] until 6.3, then u64 val
 * (f122a08b197d "capability: just use a 'u64' instead of a 'u32[2]'
 * array"). The same eight bytes on a little-endian machine, which is all
 * BPF CO-RE targets we build for: read as one.
 */
static __always_inline __u64 uct_cap_effective(const struct cred *c)
{
	__u64 caps = 0;

	bpf_core_read(&caps, sizeof(caps), &c->cap_effective);
	return caps;
}

/* ---- POSIX timers: the list and their sigqueues ----------------------------------- */

/* 6.12: "posix-timers: Convert timer list to hlist" (v6.12) made
 * signal_struct.posix_timers an hlist_head and k_itimer.list an
 * hlist_node */
struct signal_struct___list {
	struct list_head posix_timers;
} __attribute__((preserve_access_index));

struct signal_struct___hlist {
	struct hlist_head posix_timers;
} __attribute__((preserve_access_index));

/* 6.13: "posix-timers: Embed sigqueue in struct k_itimer" replaced the
 * pointer to a preallocated sigqueue with the sigqueue itself */
struct k_itimer___sigq_ptr {
	struct sigqueue *sigq;
} __attribute__((preserve_access_index));

struct k_itimer___sigq_embedded {
	struct sigqueue sigq;
} __attribute__((preserve_access_index));

/*
 * A walk of signal_struct.posix_timers: its first node and the value that
 * ends it (the head itself for a list_head, NULL for an hlist_head). Both
 * node types keep their next pointer first, so one step serves both
 * (uct_node_next()).
 */
static __always_inline void uct_timers_walk(struct signal_struct *sig, __u64 *first, __u64 *end)
{
	struct signal_struct___list *l = (void *)sig;
	struct signal_struct___hlist *h = (void *)sig;

	*first = 0;
	*end = 0;
	if (bpf_core_field_exists(l->posix_timers.next)) {
		*first = (__u64)BPF_CORE_READ(l, posix_timers.next);
		*end = (__u64)&l->posix_timers;
	} else if (bpf_core_field_exists(h->posix_timers.first)) {
		*first = (__u64)BPF_CORE_READ(h, posix_timers.first);
	}
}

/* The next node of a list_head or hlist_node chain (next is first in both). */
static __always_inline __u64 uct_node_next(__u64 node)
{
	__u64 next = 0;

	bpf_probe_read_kernel(&next, sizeof(next), (void *)node);
	return next;
}

/* The k_itimer whose list member is node (a list_head or an hlist_node;
 * CO-RE gives the member's offset either way). */
static __always_inline struct k_itimer *uct_timer_of(__u64 node)
{
	return (void *)(node - bpf_core_field_offset(struct k_itimer, list));
}

/* The ucounts a timer's sigqueue is charged to (NULL: none). */
static __always_inline struct ucounts *uct_timer_ucounts(struct k_itimer *t)
{
	struct k_itimer___sigq_ptr *p = (void *)t;
	struct k_itimer___sigq_embedded *e = (void *)t;
	struct sigqueue *q;

	if (bpf_core_field_exists(e->sigq.ucounts))
		return BPF_CORE_READ(e, sigq.ucounts);
	if (!bpf_core_field_exists(p->sigq))
		return NULL;
	q = BPF_CORE_READ(p, sigq);
	return q ? BPF_CORE_READ(q, ucounts) : NULL;
}

/*
 * A preallocated sigqueue (a POSIX timer's) whose timer was deleted while
 * the signal was queued. Since 6.13 the sigqueue is part of the timer,
 * which then leaves signal_struct.posix_timers but lives, still charged,
 * until the signal is collected or flushed; its it_signal is marked
 * (bit 0 set, or NULL). Before 6.13, the delete cleared the queued
 * sigqueue's SIGQUEUE_PREALLOC instead: it counts as an ordinary one.
 */
static __always_inline bool uct_sigq_of_deleted_timer(struct sigqueue *q)
{
	struct k_itimer___sigq_embedded *e = (void *)q;
	struct k_itimer *t;
	__u64 sig;

	if (!bpf_core_field_exists(e->sigq))
		return false;
	t = (void *)q - bpf_core_field_offset(struct k_itimer___sigq_embedded, sigq);
	sig = (__u64)BPF_CORE_READ(t, it_signal);
	return !sig || (sig & 1);
}

/* ---- inc_rlimit_get_ucounts(): arguments ------------------------------------------ */

/*
 * Its return value, and its override_rlimit argument (false where the
 * kernel has none). The bool was added by 9e05e5c7ee87 ("signal: restore
 * the override_rlimit logic", v6.12, backported to 6.1.y); before,
 * the return value is the third slot of an fexit program's context, not
 * the fourth, so neither is read by position.
 */
static __always_inline long uct_func_ret(void *ctx)
{
	__u64 ret = 0;

	bpf_get_func_ret(ctx, &ret);
	return (long)ret;
}

static __always_inline bool uct_inc_get_override(void *ctx)
{
	__u64 v = 0;

	if (bpf_get_func_arg(ctx, 2, &v))
		return false;
	return (__u8)v;
}

#endif /* CORE_FIXES_BPF_H */
