/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ucounts_core.bpf.h - the BPF code that ucounttop.bpf.c (live view, trace)
 * and ucounttop_check.bpf.c (check) share: reading struct ucounts through
 * CO-RE, the caller's limits and capabilities, the walk up the namespace
 * chain, and the two snapshot programs' bodies.
 *
 * The includer provides, before including this file:
 *   __u64 counters[N]   with N > UCT_CNT_CHAIN_CUT; the core bumps
 *                       counters[UCT_CNT_SEEN_FULL] and [UCT_CNT_CHAIN_CUT]
 *   snap_write()        static __always_inline void snap_write(
 *                           struct seq_file *seq, struct ucounts *uc,
 *                           __u32 flags): one snapshot record
 * and defines the SEC() programs itself (a program's name is its object's),
 * the two snapshot programs with UCT_SNAPSHOT_PROGRAMS().
 *
 * Whatever differs between kernels is read through core_fixes.bpf.h.
 */
#ifndef UCOUNTS_CORE_BPF_H
#define UCOUNTS_CORE_BPF_H

#include "core_fixes.bpf.h"

#define UCT_LONG_MAX		0x7fffffffffffffffLL
#define UCT_RLIM_INF		(~0UL)

const volatile __u32 page_shift = 12;	/* set by user space */

/* Bumped by user space per snapshot: a new generation makes the task
 * iterator's dedup entries stale at once. */
__u64 snap_gen = 0;

/* Dedup of ucounts already emitted by the task iterator in this snapshot:
 * ucounts pointer -> snap_gen. A lost entry costs a duplicate record, which
 * user space merges, so LRU is fine. */
struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 8192);
	__type(key, __u64);
	__type(value, __u64);
} seen SEC(".maps");

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

static __always_inline void uc_key(struct ucounts *uc, struct uct_key *k)
{
	k->ns_inum = uc_ns_inum(uc);
	k->uid = uc_uid(uc);
}

/* The long at index type of the array at offset off in obj (a CO-RE
 * field offset): a helper read, the index being known only at run time. */
static __always_inline long type_slot(void *obj, __u32 off, __u32 type)
{
	long v = 0;

	bpf_probe_read_kernel(&v, sizeof(v), obj + off + tidx(type) * sizeof(long));
	return v;
}

/* ucounts->rlimit[type] (atomic_long_t, a long) for a runtime type. */
static __always_inline long uc_value(struct ucounts *uc, __u32 type)
{
	return type_slot(uc, bpf_core_field_offset(struct ucounts, rlimit), type);
}

/* The cap on the level above ns (its creator's row), for type. */
static __always_inline long ns_max(struct user_namespace *ns, __u32 type)
{
	return type_slot(ns, bpf_core_field_offset(struct user_namespace, rlimit_max), type);
}

static __always_inline __u32 cur_pid(void)
{
	return bpf_get_current_pid_tgid() >> 32;
}

static __always_inline __u32 cur_tid(void)
{
	return (__u32)bpf_get_current_pid_tgid();
}

/*
 * Per-thread state, per execution context.
 * The kernel charges some signals from interrupts (an ITIMER_REAL's SIGALRM
 * from the timer's hard interrupt, SIGIO and SIGURG from softirqs) under
 * the interrupted task's tid, between that task's charge and its check.
 * State kept "per thread" is kept per thread and context: the key is the
 * tid (below 2^22, PID_MAX_LIMIT), with bit 28 set when the hook runs off
 * the task's own stack. x86-64 runs an interrupt of kernel code, softirqs
 * and NMIs on stacks of their own (an interrupt of user space runs on the
 * task's stack, but then no charge of the task is in flight); the task's
 * stack runs from task->stack to the end of its pt_regs
 * (bpf_task_pt_regs()), whatever THREAD_SIZE and its allocation. Where the
 * hook runs is told by its ctx, which the trampoline or the tracepoint
 * keeps on that stack (the program's own frame may be on a private
 * per-CPU stack, since 6.13). A hard interrupt over a softirq shares its
 * key.
 */
#define UCT_CTX_IRQ_	(1U << 28)

/* a pointer's value as a number the program may compare */
static __always_inline __u64 addr_of(const void *p)
{
	__u64 v = 0;

	bpf_probe_read_kernel(&v, sizeof(v), &p);
	return v;
}

/* Does the hook whose ctx this is run on the current task's own stack? */
static __always_inline bool ctx_on_task_stack(const void *ctx)
{
	struct task_struct *t = bpf_get_current_task_btf();
	__u64 here = addr_of(ctx), base, top;

	base = addr_of(BPF_CORE_READ(t, stack));
	top = addr_of((void *)bpf_task_pt_regs(t)) + sizeof(struct pt_regs);
	return here >= base && here < top;
}

static __always_inline __u32 ctx_tid(const void *ctx)
{
	return ctx_on_task_stack(ctx) ? cur_tid() : cur_tid() | UCT_CTX_IRQ_;
}

/* The current task's soft limit, RLIM_INFINITY as LONG_MAX. */
static __always_inline long cur_rlimit(int res)
{
	struct task_struct *t = (void *)bpf_get_current_task();
	unsigned long v = BPF_CORE_READ(t, signal, rlim[res].rlim_cur);

	return v > UCT_LONG_MAX ? UCT_LONG_MAX : (long)v;
}

/* The limit the caller compares the leaf with (RLIMIT_MEMLOCK in pages),
 * or LONG_MAX when the current task does not check it (SIGPENDING: the
 * signal's target's rlimit is). */
static __always_inline long leaf_limit(__u32 type)
{
	struct task_struct *t;
	unsigned long v;

	switch (type) {
	case UCT_NPROC:
		return cur_rlimit(RLIMIT_NPROC_);
	case UCT_MSGQUEUE:
		return cur_rlimit(RLIMIT_MSGQUEUE_);
	case UCT_MEMLOCK:
		t = (void *)bpf_get_current_task();
		v = BPF_CORE_READ(t, signal, rlim[RLIMIT_MEMLOCK_].rlim_cur);
		if (v == UCT_RLIM_INF)
			return UCT_LONG_MAX;
		return (long)(v >> page_shift);
	default:
		return UCT_LONG_MAX;
	}
}

/* capable(cap) approximated: the capability, held in the initial user
 * namespace. */
static __always_inline bool cur_capable(int cap)
{
	struct task_struct *t = (void *)bpf_get_current_task();
	const struct cred *c = BPF_CORE_READ(t, cred);

	return BPF_CORE_READ(c, user_ns, level) == 0 && (uct_cap_effective(c) & (1ULL << cap));
}

/* Where a walk up the chain found a level over its limit. */
struct over_at {
	struct ucounts *uc;	/* NULL: every level within */
	long value;		/* its counter (after adj) */
	long limit;		/* the limit it is over */
	__u32 ns_inum, uid;
	__s32 level;		/* -1: none */
};

/* first_over()'s walk, for bpf_loop() */
struct uct_over_walk {
	struct ucounts *uc;
	long max, adj;
	__u32 type;
	struct over_at o;
};

/* One level of first_over(): 1 ends the walk (over found, or the top). */
static long over_step(__u32 i, struct uct_over_walk *c)
{
	struct ucounts *uc = c->uc;
	struct user_namespace *ns;
	long v;

	if (!uc)
		return 1;
	ns = BPF_CORE_READ(uc, ns);
	v = uc_value(uc, c->type) + c->adj;
	if (v < 0 || v > c->max) {
		c->o.uc = uc;
		c->o.value = v;
		c->o.limit = c->max;
		c->o.ns_inum = BPF_CORE_READ(ns, ns.inum);
		c->o.uid = uc_uid(uc);
		c->o.level = BPF_CORE_READ(ns, level);
		return 1;
	}
	c->max = ns_max(ns, c->type);
	c->uc = BPF_CORE_READ(ns, ucounts);
	return 0;
}

/*
 * The first level over its limit, walking uc and its ancestors the way the
 * charge functions check them: the leaf against lim0 (the caller's rlimit,
 * or LONG_MAX), each level above against the rlimit_max of the namespace
 * below it. adj is added to every counter first (fentry sees values
 * before the change).
 * A bpf_loop(): each call site costs the verifier one level, not
 * UCT_MAX_LEVELS of them.
 */
static __always_inline void first_over(struct ucounts *uc, __u32 type, long lim0, long adj,
				       struct over_at *o)
{
	struct uct_over_walk c = { .uc = uc, .max = lim0, .adj = adj, .type = type,
				   .o = { .level = -1 } };

	bpf_loop(UCT_MAX_LEVELS, over_step, &c, 0);
	*o = c.o;
}

/* The ucounts of uc's chain at namespace level @level; uc itself for a
 * negative level (the caller's own rlimit is checked at the leaf). */
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

/* ---- uids as a namespace maps them ----------------------------------------- */

/* include/linux/user_namespace.h: extents held inline in uid_gid_map, and
 * the most a map can have (the rest are in forward[]/reverse[]) */
#define UCT_MAP_BASE_EXTENTS	5
#define UCT_MAP_MAX_EXTENTS	340

struct uct_idmap_walk {
	__u64 base;		/* address of the first struct uid_gid_extent */
	__u32 kuid;
	__u32 id;		/* the result, UCT_NO_UID until an extent maps kuid */
};

/* One extent of the walk: stop (1) at the extent that holds kuid, or when
 * it cannot be read. */
static long idmap_extent(__u32 i, void *arg)
{
	struct uct_idmap_walk *w = arg;
	struct uid_gid_extent *e;
	__u32 lower, count;

	e = (void *)(w->base + (__u64)i * bpf_core_type_size(struct uid_gid_extent));
	if (bpf_core_read(&lower, sizeof(lower), &e->lower_first) ||
	    bpf_core_read(&count, sizeof(count), &e->count))
		return 1;
	/* lower <= kuid < lower + count, without overflowing the sum */
	if (w->kuid - lower < count) {
		w->id = BPF_CORE_READ(e, first) + (w->kuid - lower);
		return 1;
	}
	return 0;
}

/*
 * from_kuid(ns, kuid): the uid ns's uid_map gives kuid, UCT_NO_UID when it
 * maps none to it. map_write() publishes nr_extents only after the
 * extents, and a map is written once, so a reader sees none of it or all.
 * Up to UCT_MAP_BASE_EXTENTS extents are inline (extent[]), more are in
 * forward[] (sorted by first, but every extent is looked at anyway). The
 * walk is a bpf_loop() of at most UCT_MAP_MAX_EXTENTS steps: the verifier
 * checks its body once per call instead of once per step, which matters
 * inside the task iterator's chain walk (UCT_MAX_LEVELS records).
 * ns_at: where the namespace's address is stored (&uc->ns, &ns->parent).
 * It is read as a number: the walk computes extent addresses from it,
 * which the verifier forbids on a BTF pointer.
 */
static __always_inline __u32 walk_from_kuid(struct user_namespace **ns_at, __u32 kuid)
{
	struct uct_idmap_walk w = { .kuid = kuid, .id = UCT_NO_UID };
	struct user_namespace *ns;
	__u32 nr;

	if (bpf_probe_read_kernel(&ns, sizeof(ns), ns_at))
		return UCT_NO_UID;

	/* the initial namespace maps every valid uid to itself */
	if (!BPF_CORE_READ(ns, parent))
		return kuid;
	nr = BPF_CORE_READ(ns, uid_map.nr_extents);
	if (nr <= UCT_MAP_BASE_EXTENTS) {
		w.base = (__u64)ns + bpf_core_field_offset(struct user_namespace, uid_map) +
			 bpf_core_field_offset(struct uid_gid_map, extent);
	} else {
		/* forward[] since 4.15 (6397fac4915a); before, at most 5 */
		if (!bpf_core_field_exists(struct uid_gid_map, forward))
			return UCT_NO_UID;
		w.base = (__u64)BPF_CORE_READ(ns, uid_map.forward);
		if (!w.base)
			return UCT_NO_UID;
		if (nr > UCT_MAP_MAX_EXTENTS)
			nr = UCT_MAP_MAX_EXTENTS;
	}
	if (nr)
		bpf_loop(nr, idmap_extent, &w, 0);
	return w.id;
}

/* extent i (a constant: a plain load at a constant offset) of ns's
 * inline map maps kuid: its id in *id */
static __always_inline bool extent_maps(struct user_namespace *ns, const int i, __u32 kuid,
					__u32 *id)
{
	__u32 lower = ns->uid_map.extent[i].lower_first;

	/* lower <= kuid < lower + count, without overflowing the sum */
	if (kuid - lower >= ns->uid_map.extent[i].count)
		return false;
	*id = ns->uid_map.extent[i].first + (kuid - lower);
	return true;
}

/*
 * from_kuid(), as walk_from_kuid(), for ns, a BTF pointer (ns_at: where it is
 * stored, for the walk): the initial namespace and a map of at most
 * UCT_MAP_BASE_EXTENTS extents, inline in the namespace, are read with
 * plain loads at constant offsets. The snapshot runs this for every
 * struct ucounts on every refresh, and a helper call per field was most
 * of its cost; only a longer map (forward[]) takes the walk.
 */
static __always_inline __u32 ns_from_kuid(struct user_namespace *ns,
					  struct user_namespace **ns_at, __u32 kuid)
{
	__u32 nr, id;

	if (!ns)
		return UCT_NO_UID;
	if (!ns->parent)
		return kuid;
	nr = ns->uid_map.nr_extents;
	if (nr > UCT_MAP_BASE_EXTENTS)
		return walk_from_kuid(ns_at, kuid);
	/* UCT_MAP_BASE_EXTENTS of them */
	if ((nr > 0 && extent_maps(ns, 0, kuid, &id)) || (nr > 1 && extent_maps(ns, 1, kuid, &id)) ||
	    (nr > 2 && extent_maps(ns, 2, kuid, &id)) || (nr > 3 && extent_maps(ns, 3, kuid, &id)) ||
	    (nr > 4 && extent_maps(ns, 4, kuid, &id)))
		return id;
	return UCT_NO_UID;
}

/* ---- snapshots ------------------------------------------------------------ */

/*
 * One struct ucounts as a snapshot record. Plain loads, not
 * bpf_probe_read_kernel() calls: every caller passes a BTF pointer (an
 * iterator's object, or one read from it), which the JIT reads with a
 * fault-safe load in a few instructions, and this runs for every row of
 * every snapshot.
 */
static __always_inline void fill_rec(struct uct_rec *r, struct ucounts *uc, __u32 flags)
{
	struct user_namespace *ns = uc->ns;
	struct user_namespace *pns = ns->parent;
	struct ucounts *parent = ns->ucounts;
	long nsc = 0;
	int i;

	r->id = (__u64)uc;
	r->ns_inum = ns->ns.inum;
	r->uid = uc->uid.val;
	r->level = ns->level;
	r->owner_uid = ns->owner.val;
	/* atomic_t, or rcuref_t from 6.15: the raw 32 bits of either */
	r->refcount = uct_refs_from_raw(*(__u32 *)&uc->count);
	r->flags = flags;
	if (parent) {
		r->parent_ns_inum = parent->ns->ns.inum;
		r->parent_uid = parent->uid.val;
	} else {
		r->parent_ns_inum = 0;
		r->parent_uid = 0;
		r->flags |= UCT_REC_ROOT;
	}
	/* The counters (both arrays have UCT_NTYPES entries) and
	 * ucount[UCOUNT_USER_NAMESPACES] (index 0 since 4.9, atomic_long_t
	 * since 5.14): namespaces this row created that still exist - each
	 * keeps this namespace alive, whatever else has left it. The iterator
	 * exists only in a kernel with our series, whose verifier walks into
	 * an array of atomic_long_t: plain loads, as the rest. The task
	 * iterator also runs on 6.1, whose verifier cannot (a typedef of a
	 * struct): copies there. flags is a constant at each caller. */
	if (flags & UCT_REC_ITER) {
		r->value[0] = uc->rlimit[0].counter;
		r->value[1] = uc->rlimit[1].counter;
		r->value[2] = uc->rlimit[2].counter;
		r->value[3] = uc->rlimit[3].counter;
		nsc = uc->ucount[0].counter;
	} else {
		bpf_core_read(r->value, sizeof(r->value), &uc->rlimit);
		bpf_core_read(&nsc, sizeof(nsc), &uc->ucount[0]);
	}
	for (i = 0; i < UCT_NTYPES; i++)
		r->ns_max[i] = ns->rlimit_max[i];
	if (nsc > 0)
		r->flags |= UCT_REC_USERNS;
	/* the uids as the namespace (and, for the owner, its parent) show
	 * them: what the row's own processes see as their uid; the initial
	 * namespace maps every uid to itself */
	r->ns_uid = pns ? ns_from_kuid(ns, &uc->ns, r->uid) : r->uid;
	r->owner_ns_uid = pns ? ns_from_kuid(pns, &ns->parent, r->owner_uid) : r->owner_uid;
}

static __always_inline void snap_write(struct seq_file *seq, struct ucounts *uc, __u32 flags);

/* iter/ucounts (our series): every live struct ucounts, once. */
static __always_inline int snap_ucounts_body(struct bpf_iter__ucounts___uct *ctx)
{
	struct ucounts *uc = ctx->ucounts;

	if (uc)
		snap_write(ctx->meta->seq, uc, UCT_REC_ITER);
	return 0;
}

/* emit_chain()'s walk: where it is, for bpf_loop(). */
struct uct_chain_walk {
	struct seq_file *seq;
	struct ucounts *uc;
	__u64 gen;
};

/* One level of emit_chain(): emit c->uc unless this snapshot has, then
 * step up. 1 ends the walk, with c->uc NULL: whatever is left above was
 * emitted already. */
static long chain_step(__u32 i, struct uct_chain_walk *c)
{
	struct ucounts *uc = c->uc;
	__u64 key = (__u64)uc;
	__u64 *g;

	if (!uc)
		return 1;
	g = bpf_map_lookup_elem(&seen, &key);
	if (g && *g == c->gen) {
		c->uc = NULL;
		return 1;
	}
	if (bpf_map_update_elem(&seen, &key, &c->gen, BPF_ANY))
		count(UCT_CNT_SEEN_FULL);
	snap_write(c->seq, uc, UCT_REC_TASK);
	c->uc = uc->ns->ucounts;
	return 0;
}

/*
 * Emit uc and its ancestors, stopping at the first one already emitted in
 * this snapshot (its ancestors were emitted with it). A bpf_loop(), not an
 * unrolled loop: the verifier checks a level once, not UCT_MAX_LEVELS
 * times over, which keeps the task iterator (the snapshot program on a
 * stock kernel) quick to load.
 */
static __always_inline void emit_chain(struct seq_file *seq, struct ucounts *uc, __u64 gen)
{
	struct uct_chain_walk c = { .seq = seq, .uc = uc, .gen = gen };

	bpf_loop(UCT_MAX_LEVELS, chain_step, &c, 0);
	if (c.uc)
		count(UCT_CNT_CHAIN_CUT);
}

/* iter/task (any kernel): the ucounts reachable from live tasks' creds.
 * Charges use the objective cred (task_ucounts()); the subjective one
 * differs only during override_creds() but is charged too. */
static __always_inline int snap_task_body(struct bpf_iter__task *ctx)
{
	struct task_struct *task = ctx->task;
	struct ucounts *real, *subj;
	__u64 gen = snap_gen;

	if (!task)
		return 0;
	/* plain loads: fill_rec() needs BTF pointers */
	real = task->real_cred->ucounts;
	subj = task->cred->ucounts;
	emit_chain(ctx->meta->seq, real, gen);
	if (subj != real)
		emit_chain(ctx->meta->seq, subj, gen);
	return 0;
}

/* The two snapshot programs, named by the includer: user space finds a
 * program by its name, and each object names its own. */
#define UCT_SNAPSHOT_PROGRAMS(ucounts_prog, task_prog)			\
SEC("iter/ucounts")							\
int ucounts_prog(struct bpf_iter__ucounts___uct *ctx)			\
{									\
	return snap_ucounts_body(ctx);					\
}									\
									\
SEC("iter/task")							\
int task_prog(struct bpf_iter__task *ctx)				\
{									\
	return snap_task_body(ctx);					\
}

#endif /* UCOUNTS_CORE_BPF_H */
