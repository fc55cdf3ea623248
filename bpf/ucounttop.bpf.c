// SPDX-License-Identifier: GPL-2.0
/*
 * ucounttop.bpf.c - BPF side of ucounttop.
 *
 * Which programs load is decided by user space (bpf_program__set_autoload)
 * after probing the running kernel's BTF; see the table in ucounttop.h.
 * Every kernel type is accessed through CO-RE, so one object works on the
 * stock 6.1 kernel and on ours with the ucounts tracepoints/iterator.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>
#include "ucounttop.h"

#define LONG_MAX_	0x7fffffffffffffffLL
#define RLIM_INF_	(~0UL)
/* enum values of RLIMIT_* (uapi, stable) */
#define RLIMIT_MEMLOCK_		8
#define RLIMIT_SIGPENDING_	11
#define RLIMIT_MSGQUEUE_	12
#define CAP_IPC_LOCK_		14
/* enum trace_signal_result: stable since 3.x */
#define TRACE_SIGNAL_OVERFLOW_FAIL_	3
#define TRACE_SIGNAL_LOSE_INFO_		4

/*
 * Context of our series' iterator. Declared locally with a ___uct flavour
 * so this file builds against any vmlinux.h; CO-RE matches it to the
 * kernel's struct bpf_iter__ucounts when the program is loaded.
 */
struct bpf_iter__ucounts___uct {
	struct bpf_iter_meta *meta;
	struct ucounts *ucounts;
} __attribute__((preserve_access_index));

/* --- configuration, set by user space before load --------------------- */
const volatile bool emit_events = false;	/* trace: fill the ring buffer */
const volatile bool want_stack = false;		/* trace --stack */
const volatile __u32 filter_ns = 0;		/* trace --ns (0: all) */
const volatile __s64 filter_uid = -1;		/* trace --uid (-1: all) */
/* The result values of our series' charge tracepoint */
#define UCOUNTS_REFUSED_	2
const volatile __u32 page_shift = 12;

/* --- state --------------------------------------------------------------- */
__u64 snap_gen = 0;			/* bumped by user space per snapshot */
__u64 counters[UCT_NCOUNTERS] = {};	/* UCT_CNT_* */
struct uct_stat zero_stat = {};		/* template for new stats entries */

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 10240);	/* --max-entries */
	__type(key, struct uct_key);
	__type(value, struct uct_stat);
} stats SEC(".maps");

/* Dedup of ucounts already emitted by the task iterator in this snapshot:
 * ucounts pointer -> snap_gen. Losing entries only costs duplicates, which
 * user space merges, so LRU is fine. */
struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 8192);
	__type(key, __u64);
	__type(value, __u64);
} seen SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 256 * 1024);	/* --ringbuf-kb */
} events SEC(".maps");

/* --- helpers ----------------------------------------------------------- */

static __always_inline void count(int idx)
{
	__sync_fetch_and_add(&counters[idx], 1);
}

/*
 * Array index from a checked type. The check alone is not enough: clang may
 * spill the value and the verifier then loses its bound, so mask it in an
 * asm statement the compiler cannot see through.
 */
static __always_inline __u64 tidx(__u32 type)
{
	__u64 t = type;

	asm volatile("%0 &= 3" : "+r"(t));
	return t;
}

static __always_inline __u32 uc_ns_inum(struct ucounts *uc)
{
	return BPF_CORE_READ(uc, ns, ns.inum);
}

static __always_inline __u32 uc_uid(struct ucounts *uc)
{
	return BPF_CORE_READ(uc, uid.val);
}

static __always_inline __u32 uc_level(struct ucounts *uc)
{
	return BPF_CORE_READ(uc, ns, level);
}

/* ucounts->rlimit[type] for a runtime type (0..3). */
static __always_inline long uc_value(struct ucounts *uc, __u32 type)
{
	long v = 0;

	if (type >= UCT_NTYPES)
		return 0;
	bpf_probe_read_kernel(&v, sizeof(v), (void *)uc +
			      bpf_core_field_offset(struct ucounts, rlimit) +
			      type * sizeof(atomic_long_t));
	return v;
}

/* ns->rlimit_max[type]: the cap on the level above this namespace. */
static __always_inline long ns_max(struct user_namespace *ns, __u32 type)
{
	long v = 0;

	if (type >= UCT_NTYPES)
		return 0;
	bpf_probe_read_kernel(&v, sizeof(v), (void *)ns +
			      bpf_core_field_offset(struct user_namespace, rlimit_max) +
			      type * sizeof(long));
	return v;
}

static __always_inline void fill_rec(struct uct_rec *r, struct ucounts *uc, __u32 flags)
{
	struct user_namespace *ns = BPF_CORE_READ(uc, ns);
	struct ucounts *parent = BPF_CORE_READ(ns, ucounts);

	__builtin_memset(r, 0, sizeof(*r));
	r->ns_inum = BPF_CORE_READ(ns, ns.inum);
	r->uid = BPF_CORE_READ(uc, uid.val);
	r->level = BPF_CORE_READ(ns, level);
	r->owner_uid = BPF_CORE_READ(ns, owner.val);
	/* atomic_t on 6.1 (rcuref_t later): read the raw 32 bits */
	bpf_core_read(&r->refcount, sizeof(r->refcount), &uc->count);
	r->flags = flags;
	if (parent) {
		r->parent_ns_inum = uc_ns_inum(parent);
		r->parent_uid = uc_uid(parent);
	} else {
		r->flags |= UCT_REC_ROOT;
	}
	/* The rlimit[] and rlimit_max[] arrays have UCT_NTYPES entries on 6.1. */
	bpf_core_read(r->value, sizeof(r->value), &uc->rlimit);
	bpf_core_read(r->ns_max, sizeof(r->ns_max), &ns->rlimit_max);
}

/* The stats entry of a ucounts, created on first use. NULL when the map is
 * full (counted). */
static __always_inline struct uct_stat *get_stat(struct ucounts *uc)
{
	struct uct_key key = { .ns_inum = uc_ns_inum(uc), .uid = uc_uid(uc) };
	struct uct_stat *st;
	__u64 now;

	st = bpf_map_lookup_elem(&stats, &key);
	if (!st) {
		if (bpf_map_update_elem(&stats, &key, &zero_stat, BPF_NOEXIST) &&
		    !bpf_map_lookup_elem(&stats, &key)) {
			count(UCT_CNT_STATS_FULL);
			return NULL;
		}
		st = bpf_map_lookup_elem(&stats, &key);
		if (!st)
			return NULL;
		now = bpf_ktime_get_boot_ns();
		st->first_seen_ns = now;
		st->level = uc_level(uc);
	}
	return st;
}

static __always_inline void touch(struct uct_stat *st)
{
	st->last_seen_ns = bpf_ktime_get_boot_ns();
	st->last_pid = bpf_get_current_pid_tgid() >> 32;
	bpf_get_current_comm(st->last_comm, sizeof(st->last_comm));
}

static __always_inline bool event_wanted(struct ucounts *uc)
{
	if (!emit_events)
		return false;
	if (filter_ns && uc_ns_inum(uc) != filter_ns)
		return false;
	if (filter_uid >= 0 && uc_uid(uc) != (__u32)filter_uid)
		return false;
	return true;
}

/* One trace record. ctx is the program context (for the kernel stack). */
static __always_inline void emit(void *ctx, struct ucounts *uc, __u32 kind, __u32 type,
				 long delta, long value, int at_level, long limit)
{
	struct uct_event *e;
	__u64 id;

	if (!event_wanted(uc))
		return;
	e = bpf_ringbuf_reserve(&events, sizeof(*e), 0);
	if (!e) {
		count(UCT_CNT_RB_DROPS);
		return;
	}
	id = bpf_get_current_pid_tgid();
	e->ts_ns = bpf_ktime_get_boot_ns();
	e->pid = id >> 32;
	e->tid = (__u32)id;
	e->ns_inum = uc_ns_inum(uc);
	e->uid = uc_uid(uc);
	e->level = uc_level(uc);
	e->kind = kind;
	e->type = type;
	e->at_level = at_level;
	e->delta = delta;
	e->value = value;
	e->limit = limit;
	e->nstack = 0;
	e->pad = 0;
	bpf_get_current_comm(e->comm, sizeof(e->comm));
	if (want_stack) {
		long n = bpf_get_stack(ctx, e->stack, sizeof(e->stack), 0);

		e->nstack = n > 0 ? (__u64)n / 8 : 0;
	}
	bpf_ringbuf_submit(e, 0);
}

static __always_inline void note_charge(void *ctx, struct ucounts *uc, __u32 type, long delta,
					long value, int at_level)
{
	struct uct_stat *st;

	if (type >= UCT_NTYPES)
		return;
	count(UCT_CNT_EVENTS);
	st = get_stat(uc);
	if (st) {
		__sync_fetch_and_add(&st->charges[tidx(type)], 1);
		__sync_fetch_and_add(&st->charged[tidx(type)], delta);
		st->last_value[tidx(type)] = value;
		touch(st);
	}
	emit(ctx, uc, UCT_EV_CHARGE, type, delta, value, at_level, -1);
}

static __always_inline void note_uncharge(void *ctx, struct ucounts *uc, __u32 type, long delta,
					  long value)
{
	struct uct_stat *st;

	if (type >= UCT_NTYPES)
		return;
	count(UCT_CNT_EVENTS);
	st = get_stat(uc);
	if (st) {
		__sync_fetch_and_add(&st->uncharges[tidx(type)], 1);
		__sync_fetch_and_add(&st->uncharged[tidx(type)], delta);
		st->last_value[tidx(type)] = value;
		touch(st);
	}
	emit(ctx, uc, UCT_EV_UNCHARGE, type, delta, value, -1, -1);
}

/* A refused charge, attributed to the charging (leaf) ucounts. */
static __always_inline void note_denied(void *ctx, struct ucounts *uc, __u32 type, long value,
					int at_level, long limit)
{
	struct uct_stat *st;

	if (type >= UCT_NTYPES)
		return;
	st = get_stat(uc);
	if (st) {
		__sync_fetch_and_add(&st->denials[tidx(type)], 1);
		touch(st);
	}
	emit(ctx, uc, UCT_EV_DENIED, type, 0, value, at_level, limit);
}

/* The row over its limit (limit_hits), when the kernel tells us which. */
static __always_inline void note_limit_hit(struct ucounts *at, __u32 type)
{
	struct uct_stat *st;

	if (!at || type >= UCT_NTYPES)
		return;
	st = get_stat(at);
	if (st)
		__sync_fetch_and_add(&st->limit_hits[tidx(type)], 1);
}

/*
 * Walk the chain the way inc_rlimit_ucounts() checks it and return the
 * first ucounts over its limit (leaf: LONG_MAX; level above: the max stored
 * in the namespace below), or NULL. Only called on the rare failure path.
 */
static __always_inline struct ucounts *find_over(struct ucounts *uc, __u32 type, long *limit)
{
	long max = LONG_MAX_;
	int i;

	for (i = 0; i < UCT_MAX_LEVELS && uc; i++) {
		long v = uc_value(uc, type);
		struct user_namespace *ns = BPF_CORE_READ(uc, ns);

		if (v < 0 || v > max) {
			*limit = max;
			return uc;
		}
		max = ns_max(ns, type);
		uc = BPF_CORE_READ(ns, ucounts);
	}
	return NULL;
}

static __always_inline unsigned long cur_rlimit(int res)
{
	struct task_struct *t = (void *)bpf_get_current_task();

	return BPF_CORE_READ(t, signal, rlim[res].rlim_cur);
}

/* capable(CAP_IPC_LOCK) approximation: the capability in the init user
 * namespace. Lets us not count SHM_LOCKs the kernel allowed anyway. */
static __always_inline bool cur_has_ipc_lock(void)
{
	struct task_struct *t = (void *)bpf_get_current_task();
	const struct cred *c = BPF_CORE_READ(t, cred);
	struct user_namespace *ns = BPF_CORE_READ(c, user_ns);
	__u32 lo = 0;

	/* kernel_cap_t is u32 cap[2] on 6.1 and u64 val later: the low
	 * 32 bits come first either way (little endian). */
	bpf_core_read(&lo, sizeof(lo), &c->cap_effective);

	return BPF_CORE_READ(ns, level) == 0 && (lo & (1u << CAP_IPC_LOCK_));
}

/*
 * Leaf-limit refusals after a successful hierarchical charge: mqueue and
 * SHM_LOCK compare the returned leaf value with the caller's own rlimit
 * (ipc/mqueue.c, mm/mlock.c). NPROC is enforced by is_rlimit_overlimit()
 * and SIGPENDING refusals are seen in signal_generate.
 */
static __always_inline void check_caller_limit(void *ctx, struct ucounts *uc, __u32 type,
					       long value)
{
	unsigned long lim;

	if (type == UCT_MSGQUEUE) {
		lim = cur_rlimit(RLIMIT_MSGQUEUE_);
		if (lim <= LONG_MAX_ && value > (long)lim)
			note_denied(ctx, uc, type, value, uc_level(uc), lim);
	} else if (type == UCT_MEMLOCK) {
		lim = cur_rlimit(RLIMIT_MEMLOCK_);
		if (lim == RLIM_INF_)
			return;
		lim >>= page_shift;
		if (value > (long)lim && !cur_has_ipc_lock())
			note_denied(ctx, uc, type, value, uc_level(uc), lim);
	}
}

/* ---- snapshot programs ---------------------------------------------------- */

SEC("iter/ucounts")
int snap_ucounts(struct bpf_iter__ucounts___uct *ctx)
{
	struct seq_file *seq = ctx->meta->seq;
	struct ucounts *uc = ctx->ucounts;
	struct uct_rec rec;

	if (!uc)
		return 0;
	fill_rec(&rec, uc, UCT_REC_ITER);
	bpf_seq_write(seq, &rec, sizeof(rec));
	return 0;
}

/* Emit uc and its ancestors, stopping at the first one already emitted in
 * this snapshot (its ancestors were emitted with it). */
static __always_inline void emit_chain(struct seq_file *seq, struct ucounts *uc, __u64 gen)
{
	struct uct_rec rec;
	int i;

	for (i = 0; i < UCT_MAX_LEVELS; i++) {
		__u64 key = (__u64)uc;
		__u64 *g;

		if (!uc)
			return;
		g = bpf_map_lookup_elem(&seen, &key);
		if (g && *g == gen)
			return;
		if (bpf_map_update_elem(&seen, &key, &gen, BPF_ANY))
			count(UCT_CNT_SEEN_FULL);
		fill_rec(&rec, uc, UCT_REC_TASK);
		bpf_seq_write(seq, &rec, sizeof(rec));
		uc = BPF_CORE_READ(uc, ns, ucounts);
	}
	if (uc)
		count(UCT_CNT_CHAIN_CUT);
}

SEC("iter/task")
int snap_task(struct bpf_iter__task *ctx)
{
	struct seq_file *seq = ctx->meta->seq;
	struct task_struct *task = ctx->task;
	struct ucounts *real, *subj;
	__u64 gen = snap_gen;

	if (!task)
		return 0;
	/* Charges use the objective cred (task_ucounts()); the subjective
	 * one differs only during override_creds() but is charged too. */
	real = BPF_CORE_READ(task, real_cred, ucounts);
	subj = BPF_CORE_READ(task, cred, ucounts);
	emit_chain(seq, real, gen);
	if (subj != real)
		emit_chain(seq, subj, gen);
	return 0;
}

/* ---- cheap hooks: rare events only ------------------------------------------ */

/* fork/execve/set*uid() limit checks (NPROC): over means over a limit. */
static __always_inline int on_overlimit(void *ctx, struct ucounts *uc, enum rlimit_type type,
					unsigned long rlimit, bool over)
{
	long limit = -1;
	struct ucounts *at;

	if (!over || !uc)
		return 0;
	at = find_over(uc, type, &limit);
	/* The leaf is compared with the caller's rlimit, not LONG_MAX. */
	if (!at || at == uc) {
		at = uc;
		limit = rlimit > LONG_MAX_ ? LONG_MAX_ : rlimit;
	}
	note_limit_hit(at, type);
	note_denied(ctx, uc, type, uc_value(uc, type), uc_level(at), limit);
	return 0;
}

/* A bool return is only defined in the low byte of the return register
 * (x86-64 ABI); the trampoline passes all 64 bits. */
SEC("fexit/is_rlimit_overlimit")
int BPF_PROG(overlimit_exit, struct ucounts *uc, enum rlimit_type type, unsigned long rlimit,
	     __u64 ret_reg)
{
	return on_overlimit(ctx, uc, type, rlimit, (__u8)ret_reg);
}

/* Our series with --no-tracepoints: is_rlimit_overlimit() is inline there */
SEC("fexit/ucounts_overlimit")
int BPF_PROG(ucounts_overlimit_exit, struct ucounts *uc, enum rlimit_type type,
	     unsigned long rlimit, void *where, __u64 ret_reg)
{
	return on_overlimit(ctx, uc, type, rlimit, (__u8)ret_reg);
}

/* The ucounts of uc's chain at namespace level @level; uc for -1 (the
 * caller's own rlimit is checked against the leaf). */
static __always_inline struct ucounts *chain_at(struct ucounts *uc, int level)
{
	int i;

	for (i = 0; i < UCT_MAX_LEVELS && uc; i++) {
		if (level < 0 || uc_level(uc) == (__u32)level)
			return uc;
		uc = BPF_CORE_READ(uc, ns, ucounts);
	}
	return NULL;
}

/* Our series: one event per refused request, where it is refused. */
SEC("tp_btf/ucounts_rlimit_refused")
int BPF_PROG(tp_refused, struct ucounts *uc, int type, int level, long value, long max)
{
	if (!uc || type < 0 || type >= UCT_NTYPES)
		return 0;
	note_limit_hit(chain_at(uc, level), type);
	note_denied(ctx, uc, type, value, level < 0 ? uc_level(uc) : level, max);
	return 0;
}

/* Lifetime (our series), trace and --events only. */
SEC("tp_btf/ucounts_alloc")
int BPF_PROG(tp_alloc, struct ucounts *uc)
{
	if (uc)
		emit(ctx, uc, UCT_EV_ALLOC, 0, 0, 0, -1, -1);
	return 0;
}

SEC("tp_btf/ucounts_free")
int BPF_PROG(tp_free, struct ucounts *uc)
{
	struct uct_key key;
	struct uct_stat *st;
	__u64 keep = 0;
	int t;

	if (!uc)
		return 0;
	emit(ctx, uc, UCT_EV_FREE, 0, 0, 0, -1, -1);
	key.ns_inum = uc_ns_inum(uc);
	key.uid = uc_uid(uc);
	st = bpf_map_lookup_elem(&stats, &key);
	if (!st)
		return 0;
	__sync_fetch_and_add(&st->frees, 1);
	/* Keep the map from filling with dead rows (containers come and
	 * go): drop the entry unless it records a refusal or a limit hit. */
	for (t = 0; t < UCT_NTYPES; t++)
		keep |= st->denials[t] | st->limit_hits[t];
	if (!keep)
		bpf_map_delete_elem(&stats, &key);
	return 0;
}

/* ---- per-event hooks (--events, trace, check): every charge/uncharge ------- */

/* Our series: one tracepoint per charge/uncharge with the result; refusals
 * come from tp_refused, which is always loaded with it. */
SEC("tp_btf/ucounts_rlimit_charge")
int BPF_PROG(tp_charge, struct ucounts *uc, int type, long delta, long value, int result,
	     int level)
{
	if (!uc || type < 0 || type >= UCT_NTYPES)
		return 0;
	/* refused or no reference: nothing was counted */
	if (result >= UCOUNTS_REFUSED_)
		return 0;
	note_charge(ctx, uc, type, delta, value, level);
	return 0;
}

SEC("tp_btf/ucounts_rlimit_uncharge")
int BPF_PROG(tp_uncharge, struct ucounts *uc, int type, long delta, long value)
{
	if (!uc || type < 0 || type >= UCT_NTYPES)
		return 0;
	note_uncharge(ctx, uc, type, delta, value);
	return 0;
}

/* Stock kernels: the four charge functions themselves. */
SEC("fexit/inc_rlimit_ucounts")
int BPF_PROG(inc_exit, struct ucounts *uc, enum rlimit_type type, long v, long ret)
{
	struct ucounts *at = NULL;
	long limit = -1;
	int at_level = -1;

	if (!uc || type >= UCT_NTYPES)
		return 0;
	if (ret == LONG_MAX_) {
		/* Which level is over: rare path, walk the chain. */
		at = find_over(uc, type, &limit);
		at_level = at ? uc_level(at) : -2;
	}
	note_charge(ctx, uc, type, v, uc_value(uc, type), at_level);
	if (ret == LONG_MAX_ && (type == UCT_MSGQUEUE || type == UCT_MEMLOCK)) {
		note_limit_hit(at, type);
		note_denied(ctx, uc, type, uc_value(uc, type), at_level, limit);
	} else if (ret != LONG_MAX_) {
		check_caller_limit(ctx, uc, type, ret);
	}
	return 0;
}

SEC("fexit/dec_rlimit_ucounts")
int BPF_PROG(dec_exit, struct ucounts *uc, enum rlimit_type type, long v, __u64 ret_reg)
{
	if (!uc)
		return 0;
	note_uncharge(ctx, uc, type, v, uc_value(uc, type));
	return 0;
}

SEC("fexit/inc_rlimit_get_ucounts")
int BPF_PROG(inc_get_exit, struct ucounts *uc, enum rlimit_type type, __u64 override_reg,
	     long ret)
{
	if (!uc)
		return 0;
	/* ret 0: a level refused and the charge was unwound; the refusal
	 * itself is counted in signal_generate (it also sees the caller's
	 * own RLIMIT_SIGPENDING). */
	note_charge(ctx, uc, type, 1, ret ? ret : uc_value(uc, type), ret ? -1 : -2);
	return 0;
}

/* fentry, not fexit: dec_rlimit_put_ucounts() may free the ucounts. */
SEC("fentry/dec_rlimit_put_ucounts")
int BPF_PROG(dec_put_entry, struct ucounts *uc, enum rlimit_type type)
{
	if (!uc)
		return 0;
	note_uncharge(ctx, uc, type, 1, uc_value(uc, type) - 1);
	return 0;
}

/* A queued signal that could not get a sigqueue: SIGPENDING refusal
 * (RT signals fail with EAGAIN, others lose their siginfo). */
SEC("tp_btf/signal_generate")
int BPF_PROG(sig_generate, int sig, struct kernel_siginfo *info, struct task_struct *task,
	     int group, int result)
{
	struct ucounts *uc;

	if (result != TRACE_SIGNAL_OVERFLOW_FAIL_ && result != TRACE_SIGNAL_LOSE_INFO_)
		return 0;
	uc = BPF_CORE_READ(task, real_cred, ucounts);
	if (!uc)
		return 0;
	note_denied(ctx, uc, UCT_SIGPENDING, uc_value(uc, UCT_SIGPENDING), -1,
		    BPF_CORE_READ(task, signal, rlim[RLIMIT_SIGPENDING_].rlim_cur));
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
