// SPDX-License-Identifier: GPL-2.0
/*
 * ucounttop_check.bpf.c - BPF side of `ucounttop check`.
 *
 * Every charge and uncharge goes through four kernel functions; check
 * hooks them with fentry/fexit (the same programs on the stock kernel and
 * on ours, so one set of semantics to test), plus: fexit
 * is_rlimit_overlimit or ucounts_overlimit (what the kernel decided about
 * NPROC), the ucounts_free tracepoint when our series provides it (class
 * c), and the object lifecycles that explain outstanding MSGQUEUE and
 * MEMLOCK charges.
 * See ucounttop_check.h for the maps and cli/check/judge/ for how user
 * space judges them. User space decides what loads (set_autoload).
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>
#include "ucounttop_check.h"

#define MQ_PRIO_MAX_		32768
#define S_IFMT_			00170000
#define S_IFREG_		0100000
#define MAX_ERRNO_		4095

/* --- configuration ------------------------------------------------------ */
const volatile __u32 sig_walk_max = 65536;	/* signals walked per list */

/* --- state ---------------------------------------------------------------- */
__u64 counters[UCK_NCOUNTERS] = {};
__u64 obj_seq = 0;
struct uck_agg zero_agg = {};
struct uck_fifo zero_fifo = {};
struct uck_over zero_over = {};
struct uck_free zero_free = {};
struct uck_sum zero_sum = {};

/*
 * Kernel stacks, indexed by us rather than by a BPF_MAP_TYPE_STACK_TRACE:
 * that map keeps one stack per hash bucket and refuses a second
 * (bpf_get_stackid() -EEXIST), so among a run's few dozen stacks a
 * finding's stack came and went from run to run. Here a stack's frames
 * hash to its index in stacks through a real hash table; stacks only run
 * out when stacks is full.
 */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 16384);
	__type(key, __u32);
	__type(value, struct uck_stack);
} stacks SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 16384);
	__type(key, __u64);		/* hash of the frames */
	__type(value, __u32);		/* their index in stacks */
} stack_index SEC(".maps");

/* Where a stack is taken before it is looked up: a slot each for the
 * programs running on a CPU at once (an interrupt's charge can run inside
 * a task's; on PREEMPT_RT a task can be preempted inside the program by
 * another), claimed and released with atomics, in any order. */
#define UCK_STACK_SLOTS	4
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, UCK_STACK_SLOTS);
	__type(key, __u32);
	__type(value, struct uck_stack);
} stack_scratch SEC(".maps");

/* bit i: slot i of this CPU's stack_scratch is taken */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u32);
} stack_busy SEC(".maps");

__u32 stack_next = 0;		/* next free index in stacks */

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 16384);
	__type(key, struct uct_key);
	__type(value, struct uck_tally);
} tally SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 16384);
	__type(key, struct uck_agg_key);
	__type(value, struct uck_agg);
} agg SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 16384);
	__type(key, struct uck_fifo_key);
	__type(value, struct uck_fifo);
} fifo SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 65536);
	__type(key, struct uck_item_key);
	__type(value, struct uck_item);
} item SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 4096);
	__type(key, struct uck_over_key);
	__type(value, struct uck_over);
} over SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 4096);
	__type(key, __u32);			/* tid */
	__type(value, struct uck_pend);
} pend SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 4096);
	__type(key, struct uck_free_key);
	__type(value, struct uck_free);
} freed SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 65536);
	__type(key, __u64);			/* inode, or UNOWNED id */
	__type(value, struct uck_obj);
} obj SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 4096);
	__type(key, struct uck_rt_key);
	__type(value, struct uck_sum);
} pre_rel SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 4096);
	__type(key, struct uck_rt_key);
	__type(value, struct uck_sum);
} gone SEC(".maps");

struct shm_stash {
	__u64 inode;
	__u32 lock;
	__u32 pad;
};

/* per tid: inside shmem_lock(file, lock, ucounts) */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 1024);
	__type(key, __u32);
	__type(value, struct shm_stash);
} shm_stash SEC(".maps");

struct unowned {
	__u64 uc;
	__u64 id;
	__s64 pages;
};

/* per tid: the last user_shm_lock() outside shmem_lock() */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 1024);
	__type(key, __u32);
	__type(value, struct unowned);
} unowned SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 16384);
	__type(key, struct uck_inv_key);
	__type(value, __u64);
} inv SEC(".maps");

#include "ucounts_core.bpf.h"

/* --- helpers -------------------------------------------------------------- */

/* The kernel lets these callers go over the limit of this type. */
static __always_inline bool exempt(struct ucounts *uc, __u32 type)
{
	if (type == UCT_NPROC)	/* copy_process(): INIT_USER, or capable */
		return uc_uid(uc) == 0 || cur_capable(CAP_SYS_RESOURCE_) ||
		       cur_capable(CAP_SYS_ADMIN_);
	if (type == UCT_MEMLOCK)	/* user_shm_lock() */
		return cur_capable(CAP_IPC_LOCK_);
	return false;
}

/*
 * The frames of s hashed, and whether two stacks are the same: straight
 * lines, no branch per frame, so that the verifier of older kernels (6.1)
 * walks them once rather than once per frame.
 */
static __always_inline __u64 stack_hash(const struct uck_stack *s)
{
	__u64 h = 14695981039346656037ULL;	/* FNV-1a, a word at a time */
	int i;

	for (i = 0; i < UCK_STACK_DEPTH; i++)
		h = (h ^ s->ip[i]) * 1099511628211ULL;
	return h;
}

static __always_inline bool stack_same(const struct uck_stack *a, const struct uck_stack *b)
{
	__u64 diff = 0;
	int i;

	for (i = 0; i < UCK_STACK_DEPTH; i++)
		diff |= a->ip[i] ^ b->ip[i];
	return !diff;
}

/* Index in stacks of the frames s holds, stored there on first sight;
 * -1 when stacks is full (or two stacks share a 64-bit hash). A global
 * function: the verifier walks it once, on its own, not again in every
 * program and state that takes a stack (on 6.1 that was more than the
 * 20,000 instructions 5D allows a program). */
__noinline __s32 uck_stack_store(const struct uck_stack *s)
{
	struct uck_stack *have;
	__u32 id, *known;
	__u64 h;

	if (!s)
		return -1;
	h = stack_hash(s);

	known = bpf_map_lookup_elem(&stack_index, &h);
	if (!known) {
		id = __sync_fetch_and_add(&stack_next, 1);
		have = bpf_map_lookup_elem(&stacks, &id);
		if (!have)
			return -1;
		__builtin_memcpy(have, s, sizeof(*s));
		/* published after its frames; another CPU may have won */
		if (!bpf_map_update_elem(&stack_index, &h, &id, BPF_NOEXIST))
			return id;
		known = bpf_map_lookup_elem(&stack_index, &h);
		if (!known)
			return -1;
	}
	id = *known;
	have = bpf_map_lookup_elem(&stacks, &id);
	return have && stack_same(have, s) ? id : -1;
}

static __always_inline __s32 stack_id(void *ctx)
{
	__u32 zero = 0, cur, bit, d, *busy = bpf_map_lookup_elem(&stack_busy, &zero);
	struct uck_stack *s;
	__s32 id = -1;

	if (!busy)
		goto out;
	/* The lowest free slot, found without a branch: one path for the
	 * verifier to walk whichever it is (a branch per slot made 6.1's
	 * walk twice the 20,000 instructions 5D allows). Taken by another
	 * program between the read and the claim: no stack, counted. */
	cur = *busy;
	bit = ~cur & (cur + 1);
	d = ((bit >> 1) & 1) + ((bit >> 2) & 1) * 2 + ((bit >> 3) & 1) * 3;
	if (!bit || bit > (1u << (UCK_STACK_SLOTS - 1)) ||
	    (__sync_fetch_and_or(busy, bit) & bit))
		goto out;
	s = bpf_map_lookup_elem(&stack_scratch, &d);
	if (s) {
		/* the kernel writes only the frames there are */
		__builtin_memset(s, 0, sizeof(*s));
		if (bpf_get_stack(ctx, s->ip, sizeof(s->ip), 0) > 0)
			id = uck_stack_store(s);
	}
	__sync_fetch_and_and(busy, ~bit);
out:
	if (id < 0)
		count(UCK_CNT_STACK_ERR);
	return id;
}

/* Add delta to the tally of level k (of namespace ns, below up). */
static __always_inline void tally_add(struct uct_key *k, __u32 type, long delta,
				      struct user_namespace *ns, struct ucounts *up)
{
	struct uck_tally *t = bpf_map_lookup_elem(&tally, k);

	if (!t) {
		struct uck_tally nt = {};

		/* where it sits in the tree, for rows no snapshot shows */
		nt.level = BPF_CORE_READ(ns, level);
		if (up) {
			nt.parent.ns_inum = BPF_CORE_READ(up, ns, ns.inum);
			nt.parent.uid = BPF_CORE_READ(up, uid.val);
		} else {
			nt.flags = UCT_REC_ROOT;
		}
		bpf_map_update_elem(&tally, k, &nt, BPF_NOEXIST);
		t = bpf_map_lookup_elem(&tally, k);
		if (!t) {
			count(UCK_CNT_TALLY_FULL);
			return;
		}
	}
	__sync_fetch_and_add(&t->net[tidx(type)], delta);
}

static __always_inline void agg_add(struct uct_key *k, __u32 type, __u32 kind, __s32 sid,
				    long amount, long value)
{
	struct uck_agg_key ak = { .ns_inum = k->ns_inum, .uid = k->uid, .type = type,
				  .kind = kind, .stack_id = sid };
	struct uck_agg *a = bpf_map_lookup_elem(&agg, &ak);

	if (!a) {
		bpf_map_update_elem(&agg, &ak, &zero_agg, BPF_NOEXIST);
		a = bpf_map_lookup_elem(&agg, &ak);
		if (!a) {
			count(UCK_CNT_AGG_FULL);
			return;
		}
	}
	__sync_fetch_and_add(&a->count, 1);
	__sync_fetch_and_add(&a->total, amount);
	if (kind == UCK_K_NEGATIVE && value < a->extreme)
		a->extreme = value;
	a->pid = cur_pid();
	bpf_get_current_comm(a->comm, sizeof(a->comm));
}

/* Open a charge in the FIFO of (row, type, amount). */
static __always_inline void fifo_push(struct uct_key *k, __u32 type, long amount, __s32 sid)
{
	struct uck_item_key ik = { .f = { .ns_inum = k->ns_inum, .uid = k->uid, .type = type,
					  .amount = amount } };
	struct uck_item it = { .stack_id = sid, .pid = cur_pid() };
	struct uck_fifo *f = bpf_map_lookup_elem(&fifo, &ik.f);

	if (!f) {
		bpf_map_update_elem(&fifo, &ik.f, &zero_fifo, BPF_NOEXIST);
		f = bpf_map_lookup_elem(&fifo, &ik.f);
		if (!f) {
			count(UCK_CNT_FIFO_FULL);
			return;
		}
	}
	ik.idx = __sync_fetch_and_add(&f->tail, 1);
	it.ts_ns = bpf_ktime_get_boot_ns();
	bpf_get_current_comm(it.comm, sizeof(it.comm));
	if (bpf_map_update_elem(&item, &ik, &it, BPF_ANY))
		count(UCK_CNT_ITEM_FULL);
}

/* Pair an uncharge with the oldest open charge of the same amount.
 * Returns false when there is none: an uncharge with no matching charge
 * since attach. */
static __always_inline bool fifo_pop(struct uct_key *k, __u32 type, long amount)
{
	struct uck_item_key ik = { .f = { .ns_inum = k->ns_inum, .uid = k->uid, .type = type,
					  .amount = amount } };
	struct uck_fifo *f = bpf_map_lookup_elem(&fifo, &ik.f);
	__u64 h, t;
	int i;

	if (!f)
		return false;
	for (i = 0; i < 8; i++) {
		h = *(volatile __u64 *)&f->head;
		t = *(volatile __u64 *)&f->tail;
		if (h >= t)
			return false;
		if (__sync_val_compare_and_swap(&f->head, h, h + 1) == h) {
			ik.idx = h;
			bpf_map_delete_elem(&item, &ik);
			return true;
		}
	}
	return true;	/* contended: assume paired rather than invent a finding */
}

#define W_TALLY	0x1	/* add delta to every level's tally */
#define W_NEG	0x2	/* record levels below zero (after adding adj) */

/* walk()'s state, for bpf_loop() */
struct walk_ctx {
	struct ucounts *uc;
	long delta, adj;
	__u32 type, flags;
	__s32 sid;
};

/* One level of walk(): 1 ends it at the top. */
static long walk_step(__u32 i, struct walk_ctx *w)
{
	struct ucounts *uc = w->uc, *up;
	struct user_namespace *ns;
	struct uct_key k;
	long v;

	if (!uc)
		return 1;
	ns = BPF_CORE_READ(uc, ns);
	up = BPF_CORE_READ(ns, ucounts);
	uc_key(uc, &k);
	if (w->flags & W_TALLY)
		tally_add(&k, w->type, w->delta, ns, up);
	if (w->flags & W_NEG) {
		v = uc_value(uc, w->type) + w->adj;
		if (v < 0)
			agg_add(&k, w->type, UCK_K_NEGATIVE, w->sid, 1, v);
	}
	w->uc = up;
	return 0;
}

/* Walk uc and its ancestors: tally delta at every level, and/or record
 * the levels the change left below zero (adj: what fentry has yet to see
 * subtracted). A bpf_loop(): the verifier checks one level per call site,
 * not UCT_MAX_LEVELS of them, which keeps the charge programs quick to
 * load. */
static __always_inline void walk(struct ucounts *uc, __u32 type, long delta, long adj,
				 __u32 flags, __s32 sid)
{
	struct walk_ctx w = { .uc = uc, .delta = delta, .adj = adj, .type = type,
			      .flags = flags, .sid = sid };

	bpf_loop(UCT_MAX_LEVELS, walk_step, &w, 0);
	if (w.uc)
		count(UCT_CNT_CHAIN_CUT);
}

static __always_inline void over_record(struct uct_key *k, __u32 type, __u32 flags, __s32 sid,
					__s32 sid2, long amount, struct over_at *w,
					__u32 pid, const char *comm)
{
	struct uck_over_key ok = { .ns_inum = k->ns_inum, .uid = k->uid, .type = type,
				   .flags = flags, .stack_id = sid };
	struct uck_over *o = bpf_map_lookup_elem(&over, &ok);

	if (!o) {
		bpf_map_update_elem(&over, &ok, &zero_over, BPF_NOEXIST);
		o = bpf_map_lookup_elem(&over, &ok);
		if (!o) {
			count(UCK_CNT_OVER_FULL);
			return;
		}
	}
	__sync_fetch_and_add(&o->count, 1);
	__sync_fetch_and_add(&o->total, amount);
	o->value = w->value;
	o->limit = w->limit;
	o->at_ns = w->ns_inum;
	o->at_uid = w->uid;
	o->at_level = w->level;
	o->stack2 = sid2;
	o->pid = pid;
	if (comm)
		bpf_probe_read_kernel(o->comm, sizeof(o->comm), comm);
	else
		bpf_get_current_comm(o->comm, sizeof(o->comm));
}

/* The pending over-limit charge of a task is over: record its fate. */
static __always_inline void pend_finish(__u32 tid, struct uck_pend *p, __u32 more)
{
	struct uct_key k = { .ns_inum = p->ns_inum, .uid = p->uid };
	struct over_at w = { .value = p->value, .limit = p->limit, .ns_inum = p->at_ns,
			     .uid = p->at_uid, .level = p->at_level };

	over_record(&k, p->type, p->flags | more, p->stack_id, -1, p->amount, &w, p->pid,
		    p->comm);
	bpf_map_delete_elem(&pend, &tid);
}

/*
 * Whether a re-read of the counters is what the kernel saw. Decisions come
 * from what the kernel reported (a charge function's result, a limit
 * check's answer, the value it returned); the only question answered by
 * reading counters again - "was a level over while the kernel said
 * within?" - is answered only when no other charge or uncharge of that
 * type overlapped the kernel's read, a seqlock's read side: every charge
 * and uncharge function bumps gen[] and busy[] on entry and drops busy[]
 * on return (fexit programs are attached before fentry ones, so no entry
 * is counted without its return). Otherwise the question is left open
 * and counted (UCK_CNT_RACED).
 */
__u64 gen[UCT_NTYPES] = {};
__s64 busy[UCT_NTYPES] = {};

struct window {
	__u64 gen;
	__s64 busy;
	__u32 type;
	__u32 pad;
};

/* per tid: a charge/uncharge function, or a limit check, in progress */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 8192);
	__type(key, __u32);
	__type(value, struct window);
} changing SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 8192);
	__type(key, __u32);
	__type(value, struct window);
} checking SEC(".maps");

/*
 * Entry of a charge or uncharge function (self: 1) or a limit check (0).
 * Read gen, then busy; a changer bumps busy, then gen: whoever's gen bump
 * the reader saw, its busy bump is seen too (the __sync ops are full
 * barriers), so no changer in flight goes unnoticed.
 */
static __always_inline void window_open(__u32 tid, void *map, __u32 type, int self)
{
	struct window w = { .type = type };

	if (type >= UCT_NTYPES)
		return;
	w.gen = __sync_fetch_and_add(&gen[tidx(type)], 0);
	w.busy = __sync_fetch_and_add(&busy[tidx(type)], 0);
	if (bpf_map_update_elem(map, &tid, &w, BPF_ANY)) {
		count(UCK_CNT_PEND_FULL);
		return;	/* without a marker its return changes nothing */
	}
	if (self) {
		__sync_fetch_and_add(&busy[tidx(type)], 1);
		__sync_fetch_and_add(&gen[tidx(type)], 1);
	}
}

/* After the re-read: true when no other change of that type overlapped
 * anything between the entry and now (the re-read included). */
static __always_inline bool window_clean(__u32 tid, void *map, __u32 type, int self)
{
	struct window *w = bpf_map_lookup_elem(map, &tid);

	if (!w || w->type != type || type >= UCT_NTYPES)
		return false;
	return w->busy == 0 && __sync_fetch_and_add(&gen[tidx(type)], 0) == w->gen + self &&
	       __sync_fetch_and_add(&busy[tidx(type)], 0) == self;
}

/* The function's return: drop the marker (and our part of busy). */
static __always_inline void window_end(__u32 tid, void *map, __u32 type, int self)
{
	struct window *w = bpf_map_lookup_elem(map, &tid);

	if (!w || w->type != type || type >= UCT_NTYPES)
		return;
	if (self)
		__sync_fetch_and_add(&busy[tidx(type)], -1);
	bpf_map_delete_elem(map, &tid);
}

/*
 * A charge of amount to uc. leaf: the leaf's value after it as the kernel
 * returned it (-1 unknown); kernel_over: the charge function said a level
 * is over; check_levels: the kernel compared the levels (not an override);
 * the window of this call is checked after the re-read (see window_clean).
 */
static __always_inline void on_charge(void *ctx, __u32 tid, struct ucounts *uc, __u32 type,
				      long amount, long leaf, bool kernel_over, bool check_levels)
{
	struct uck_pend *p, np = {};
	struct uct_key k;
	struct over_at w;
	__s32 sid;
	long lim0;

	if (type >= UCT_NTYPES || !uc)
		return;
	count(UCK_CNT_EVENTS);
	sid = stack_id(ctx);
	uc_key(uc, &k);
	/* a task's next charge settles its previous over-limit charge */
	p = bpf_map_lookup_elem(&pend, &tid);
	if (p)
		pend_finish(tid, p, 0);

	walk(uc, type, amount, 0, W_TALLY, sid);
	agg_add(&k, type, UCK_K_CHARGE, sid, amount, 0);
	fifo_push(&k, type, amount, sid);
	if (!check_levels)
		return;
	lim0 = leaf_limit(type);
	if (!kernel_over && leaf <= lim0) {
		/* the kernel said within and the leaf it returned is: only
		 * a re-read can tell a level above over, if nothing raced */
		first_over(uc, type, UCT_LONG_MAX, 0, &w);
		if (!window_clean(tid, &changing, type, 1)) {
			count(UCK_CNT_RACED);
			return;
		}
		if (w.level < 0)
			return;
		np.flags = UCK_E_LEVEL | UCK_E_SAID_WITHIN;
		if (exempt(uc, type))
			np.flags |= UCK_E_EXEMPT;
		over_record(&k, type, np.flags, sid, -1, amount, &w, cur_pid(), NULL);
		return;
	}
	/* over, by what the kernel said or returned: where, for the report */
	first_over(uc, type, lim0, 0, &w);
	if (!kernel_over || w.level < 0) {
		w.uc = uc;
		w.value = kernel_over ? uc_value(uc, type) : leaf;
		w.limit = lim0;
		w.ns_inum = k.ns_inum;
		w.uid = k.uid;
		w.level = uc_level(uc);
	}
	np.flags = kernel_over ? UCK_E_KERNEL_OVER : 0;
	if (w.ns_inum != k.ns_inum || w.uid != k.uid)
		np.flags |= UCK_E_LEVEL;
	if (exempt(uc, type))
		np.flags |= UCK_E_EXEMPT;
	if (type == UCT_MSGQUEUE || type == UCT_MEMLOCK)
		np.flags |= UCK_E_CALLER_CMP;
	np.uc = (__u64)uc;
	np.ns_inum = k.ns_inum;
	np.uid = k.uid;
	np.type = type;
	np.amount = amount;
	np.value = w.value;
	np.limit = w.limit;
	np.at_ns = w.ns_inum;
	np.at_uid = w.uid;
	np.at_level = w.level;
	np.stack_id = sid;
	np.pid = cur_pid();
	bpf_get_current_comm(np.comm, sizeof(np.comm));
	if (bpf_map_update_elem(&pend, &tid, &np, BPF_ANY))
		count(UCK_CNT_PEND_FULL);
}

/* An uncharge of amount from uc; adj: what the counter still has to lose
 * (fentry sees the values before the decrement). */
static __always_inline void on_uncharge(void *ctx, __u32 tid, struct ucounts *uc, __u32 type,
					long amount, long adj)
{
	struct uck_pend *p;
	struct uct_key k;
	__s32 sid;

	if (type >= UCT_NTYPES || !uc)
		return;
	count(UCK_CNT_EVENTS);
	sid = stack_id(ctx);
	uc_key(uc, &k);
	walk(uc, type, -amount, adj, W_TALLY | W_NEG, sid);
	agg_add(&k, type, UCK_K_UNCHARGE, sid, amount, 0);
	if (!fifo_pop(&k, type, amount))
		agg_add(&k, type, UCK_K_UNMATCHED, sid, amount, 0);
	p = bpf_map_lookup_elem(&pend, &tid);
	if (p && p->uc == (__u64)uc && p->type == type && p->amount == amount)
		pend_finish(tid, p, UCK_E_ROLLED_BACK);
}

/* ---- the charge functions ------------------------------------------------ */

/* Returns first: user space attaches these before the entries below. */
SEC("fexit/inc_rlimit_ucounts")
int BPF_PROG(ck_inc, struct ucounts *uc, enum rlimit_type type, long v, long ret)
{
	__u32 tid = ctx_tid(ctx);

	/* ret: LONG_MAX when a level went over, else the leaf's new value */
	on_charge(ctx, tid, uc, type, v, ret == UCT_LONG_MAX ? -1 : ret, ret == UCT_LONG_MAX,
		  true);
	window_end(tid, &changing, type, 1);
	return 0;
}

/* Our series (v3): inc_rlimit_ucounts() is an inline wrapper of this one,
 * which also says where a level was over (over, may be NULL) */
SEC("fexit/inc_rlimit_ucounts_over")
int BPF_PROG(ck_inc_over, struct ucounts *uc, enum rlimit_type type, long v, void *over,
	     long ret)
{
	__u32 tid = ctx_tid(ctx);

	on_charge(ctx, tid, uc, type, v, ret == UCT_LONG_MAX ? -1 : ret, ret == UCT_LONG_MAX,
		  true);
	window_end(tid, &changing, type, 1);
	return 0;
}

SEC("fexit/dec_rlimit_ucounts")
int BPF_PROG(ck_dec, struct ucounts *uc, enum rlimit_type type, long v, __u64 ret_reg)
{
	__u32 tid = ctx_tid(ctx);

	window_end(tid, &changing, type, 1);
	on_uncharge(ctx, tid, uc, type, v, 0);
	return 0;
}

/* Arguments from ctx, the return value through bpf_get_func_ret(): its
 * position in ctx depends on the kernel (core_fixes.bpf.h). */
SEC("fexit/inc_rlimit_get_ucounts")
int ck_inc_get(__u64 *ctx)
{
	__u32 tid = ctx_tid(ctx);
	struct ucounts *uc = (void *)ctx[0];
	__u32 type = ctx[1];
	long ret = uct_func_ret(ctx);
	struct uct_key k;
	__s32 sid;

	if (!uc || type >= UCT_NTYPES) {
		window_end(tid, &changing, type, 1);
		return 0;
	}
	if (!ret) {
		/* a level was over (or a reference wrapped): the kernel
		 * unwound every level itself, nothing changed */
		count(UCK_CNT_EVENTS);
		sid = stack_id(ctx);
		uc_key(uc, &k);
		agg_add(&k, type, UCK_K_REFUSED, sid, 1, 0);
		window_end(tid, &changing, type, 1);
		return 0;
	}
	/* ret: the leaf's new value; with override_rlimit no level is
	 * compared */
	on_charge(ctx, tid, uc, type, 1, ret, false, !uct_inc_get_override(ctx));
	window_end(tid, &changing, type, 1);
	return 0;
}

/* fexit only closes the window: the ucounts may be freed by now */
SEC("fexit/dec_rlimit_put_ucounts")
int BPF_PROG(ck_dec_put_ret, struct ucounts *uc, enum rlimit_type type)
{
	__u32 tid = ctx_tid(ctx);

	window_end(tid, &changing, type, 1);
	return 0;
}

SEC("fentry/inc_rlimit_ucounts")
int BPF_PROG(ck_inc_in, struct ucounts *uc, enum rlimit_type type)
{
	__u32 tid = ctx_tid(ctx);

	window_open(tid, &changing, type, 1);
	return 0;
}

SEC("fentry/inc_rlimit_ucounts_over")
int BPF_PROG(ck_inc_over_in, struct ucounts *uc, enum rlimit_type type)
{
	__u32 tid = ctx_tid(ctx);

	window_open(tid, &changing, type, 1);
	return 0;
}

SEC("fentry/dec_rlimit_ucounts")
int BPF_PROG(ck_dec_in, struct ucounts *uc, enum rlimit_type type)
{
	__u32 tid = ctx_tid(ctx);

	window_open(tid, &changing, type, 1);
	return 0;
}

SEC("fentry/inc_rlimit_get_ucounts")
int BPF_PROG(ck_inc_get_in, struct ucounts *uc, enum rlimit_type type)
{
	__u32 tid = ctx_tid(ctx);

	window_open(tid, &changing, type, 1);
	return 0;
}

/* fentry: dec_rlimit_put_ucounts() may free the ucounts */
SEC("fentry/dec_rlimit_put_ucounts")
int BPF_PROG(ck_dec_put, struct ucounts *uc, enum rlimit_type type)
{
	__u32 tid = ctx_tid(ctx);

	window_open(tid, &changing, type, 1);
	on_uncharge(ctx, tid, uc, type, 1, -1);
	return 0;
}

/* fork, execve and set*uid() NPROC checks; said_over is what the kernel
 * decided */
static __always_inline int on_overlimit(void *ctx, __u32 tid, struct ucounts *uc,
					enum rlimit_type type, bool said_over)
{
	struct uck_pend *p;
	struct uct_key k;
	struct over_at w;
	__u32 flags;
	__s32 sid, sid2 = -1;
	long amount = 0;

	if (!uc || type >= UCT_NTYPES)
		return 0;
	p = bpf_map_lookup_elem(&pend, &tid);
	if (p && p->uc == (__u64)uc && p->type == type) {
		if (said_over) {
			p->flags |= UCK_E_CHECKED | UCK_E_CHECK_OVER;
			return 0;	/* now it must be rolled back */
		}
		sid2 = p->stack_id;
		amount = p->amount;
		pend_finish(tid, p, UCK_E_CHECKED);
	}
	if (said_over)
		return 0;
	/* the kernel said "within": is every level really within? The leaf
	 * against the caller's actual rlimit, not the argument; a re-read is
	 * what the check saw only if nothing of this type changed meanwhile */
	first_over(uc, type, leaf_limit(type), 0, &w);
	if (!window_clean(tid, &checking, type, 0)) {
		count(UCK_CNT_RACED);
		return 0;
	}
	if (w.level < 0)
		return 0;
	uc_key(uc, &k);
	flags = UCK_E_CHECKED | UCK_E_SAID_WITHIN;
	if (w.ns_inum != k.ns_inum || w.uid != k.uid)
		flags |= UCK_E_LEVEL;
	if (exempt(uc, type))
		flags |= UCK_E_EXEMPT;
	sid = stack_id(ctx);
	over_record(&k, type, flags, sid, sid2, amount, &w, cur_pid(), NULL);
	return 0;
}

/* Stock kernels. A bool return is only defined in the low byte. */
SEC("fexit/is_rlimit_overlimit")
int BPF_PROG(ck_overlimit, struct ucounts *uc, enum rlimit_type type, unsigned long rlimit,
	     __u64 ret_reg)
{
	__u32 tid = ctx_tid(ctx);

	on_overlimit(ctx, tid, uc, type, (__u8)ret_reg);
	window_end(tid, &checking, type, 0);
	return 0;
}

SEC("fentry/is_rlimit_overlimit")
int BPF_PROG(ck_overlimit_in, struct ucounts *uc, enum rlimit_type type)
{
	__u32 tid = ctx_tid(ctx);

	window_open(tid, &checking, type, 0);
	return 0;
}

/* Our series: every check is a call of ucounts_overlimit(), which also
 * says where (is_rlimit_overlimit() is an inline wrapper of it). */
SEC("fexit/ucounts_overlimit")
int BPF_PROG(ck_ucounts_overlimit, struct ucounts *uc, enum rlimit_type type,
	     unsigned long rlimit, void *over, __u64 ret_reg)
{
	__u32 tid = ctx_tid(ctx);

	on_overlimit(ctx, tid, uc, type, (__u8)ret_reg);
	window_end(tid, &checking, type, 0);
	return 0;
}

SEC("fentry/ucounts_overlimit")
int BPF_PROG(ck_ucounts_overlimit_in, struct ucounts *uc, enum rlimit_type type)
{
	__u32 tid = ctx_tid(ctx);

	window_open(tid, &checking, type, 0);
	return 0;
}

/* ---- lifetime: class c (our series) ---------------------------------------- */

SEC("tp_btf/ucounts_free")
int BPF_PROG(ck_free, struct ucounts *uc)
{
	struct uck_free_key fk = {};
	struct uck_free *f;
	struct ucounts *anc;
	__s64 v[UCT_NTYPES];
	int t, i;
	bool any = false;

	if (!uc)
		return 0;
	count(UCK_CNT_FREES);
	for (t = 0; t < UCT_NTYPES; t++) {
		v[t] = uc_value(uc, t);
		any |= v[t] != 0;
	}
	if (!any)
		return 0;
	fk.ns_inum = BPF_CORE_READ(uc, ns, ns.inum);
	fk.uid = BPF_CORE_READ(uc, uid.val);
	fk.stack_id = stack_id(ctx);
	f = bpf_map_lookup_elem(&freed, &fk);
	if (!f) {
		bpf_map_update_elem(&freed, &fk, &zero_free, BPF_NOEXIST);
		f = bpf_map_lookup_elem(&freed, &fk);
		if (!f) {
			count(UCK_CNT_FREE_FULL);
			return 0;
		}
	}
	__sync_fetch_and_add(&f->count, 1);
	for (t = 0; t < UCT_NTYPES; t++)
		__sync_fetch_and_add(&f->value[t], v[t]);
	f->level = BPF_CORE_READ(uc, ns, level);
	anc = BPF_CORE_READ(uc, ns, ucounts);
	for (i = 0; i < UCK_MAX_ANC && anc; i++) {
		f->anc[i].ns_inum = BPF_CORE_READ(anc, ns, ns.inum);
		f->anc[i].uid = BPF_CORE_READ(anc, uid.val);
		f->nanc = i + 1;
		anc = BPF_CORE_READ(anc, ns, ucounts);
	}
	f->pid = cur_pid();
	bpf_get_current_comm(f->comm, sizeof(f->comm));
	return 0;
}

/* ---- evidence: message queues ------------------------------------------------- */

static __always_inline struct mqueue_inode_info *mq_info(struct inode *inode)
{
	return (void *)inode - bpf_core_field_offset(struct mqueue_inode_info, vfs_inode);
}

/* What mqueue_get_inode() charges for a queue. */
static __always_inline long mq_bytes(struct mqueue_inode_info *info)
{
	long maxmsg = BPF_CORE_READ(info, attr.mq_maxmsg);
	long msgsize = BPF_CORE_READ(info, attr.mq_msgsize);
	long nodes = maxmsg < MQ_PRIO_MAX_ ? maxmsg : MQ_PRIO_MAX_;

	return maxmsg * msgsize + maxmsg * (long)bpf_core_type_size(struct msg_msg) +
	       nodes * (long)bpf_core_type_size(struct posix_msg_tree_node);
}

static __always_inline void sum_add(void *map, struct uct_key *k, __u32 type, long amount)
{
	struct uck_rt_key rk = { .ns_inum = k->ns_inum, .uid = k->uid, .type = type };
	struct uck_sum *s = bpf_map_lookup_elem(map, &rk);

	if (!s) {
		bpf_map_update_elem(map, &rk, &zero_sum, BPF_NOEXIST);
		s = bpf_map_lookup_elem(map, &rk);
		if (!s) {
			count(UCK_CNT_OBJ_FULL);
			return;
		}
	}
	__sync_fetch_and_add(&s->count, 1);
	__sync_fetch_and_add(&s->total, amount);
}

static __always_inline void obj_add(__u64 id, struct ucounts *uc, __u32 type, __u32 kind,
				    long amount)
{
	struct uck_obj o = { .type = type, .kind = kind, .amount = amount, .pid = cur_pid() };
	struct uct_key k;

	uc_key(uc, &k);
	o.ns_inum = k.ns_inum;
	o.uid = k.uid;
	bpf_get_current_comm(o.comm, sizeof(o.comm));
	if (bpf_map_update_elem(&obj, &id, &o, BPF_ANY))
		count(UCK_CNT_OBJ_FULL);
}

SEC("fexit/mqueue_get_inode")
int BPF_PROG(ck_mq_new, struct super_block *sb, struct ipc_namespace *ipc_ns, umode_t mode,
	     struct mq_attr *attr, struct inode *ret)
{
	struct mqueue_inode_info *info;
	struct ucounts *uc;

	if (!ret || (unsigned long)ret >= (unsigned long)-MAX_ERRNO_)
		return 0;
	if ((mode & S_IFMT_) != S_IFREG_)
		return 0;
	info = mq_info(ret);
	uc = BPF_CORE_READ(info, ucounts);
	if (uc)		/* NULL: the charge was refused */
		obj_add((__u64)ret, uc, UCT_MSGQUEUE, UCK_OBJ_MQUEUE, mq_bytes(info));
	return 0;
}

SEC("fentry/mqueue_evict_inode")
int BPF_PROG(ck_mq_evict, struct inode *inode)
{
	__u64 id = (__u64)inode;
	struct mqueue_inode_info *info;
	struct ucounts *uc;
	struct uct_key k;

	if ((BPF_CORE_READ(inode, i_mode) & S_IFMT_) != S_IFREG_)
		return 0;	/* directories: info is not initialized */
	if (bpf_map_delete_elem(&obj, &id) == 0)
		return 0;
	info = mq_info(inode);
	uc = BPF_CORE_READ(info, ucounts);
	if (!uc)
		return 0;
	/* a queue from before attach releases its charge */
	uc_key(uc, &k);
	sum_add(&pre_rel, &k, UCT_MSGQUEUE, mq_bytes(info));
	return 0;
}

/* ---- evidence: SHM_LOCKed segments ----------------------------------------------- */

SEC("fentry/shmem_lock")
int BPF_PROG(ck_shm_lock_in, struct file *file, int lock, struct ucounts *uc)
{
	__u32 tid = ctx_tid(ctx);
	struct shm_stash s = { .inode = (__u64)BPF_CORE_READ(file, f_inode), .lock = lock };

	bpf_map_update_elem(&shm_stash, &tid, &s, BPF_ANY);
	return 0;
}

SEC("fexit/shmem_lock")
int BPF_PROG(ck_shm_lock_out, struct file *file, int lock, struct ucounts *uc, int ret)
{
	__u32 tid = ctx_tid(ctx);

	bpf_map_delete_elem(&shm_stash, &tid);
	return 0;
}

static __always_inline long pages_of(unsigned long size)
{
	return (size + (1UL << page_shift) - 1) >> page_shift;
}

SEC("fexit/user_shm_lock")
int BPF_PROG(ck_user_shm_lock, size_t size, struct ucounts *uc, int ret)
{
	__u32 tid = ctx_tid(ctx);
	struct shm_stash *s;
	struct unowned u;

	if (!ret || !uc)
		return 0;
	s = bpf_map_lookup_elem(&shm_stash, &tid);
	if (s && s->lock) {
		obj_add(s->inode, uc, UCT_MEMLOCK, UCK_OBJ_SHMLOCK, pages_of(size));
		return 0;
	}
	/* hugetlb shm: no segment known here */
	u.uc = (__u64)uc;
	u.pages = pages_of(size);
	u.id = (1ULL << 63) | ((__u64)tid << 24) | (__sync_fetch_and_add(&obj_seq, 1) & 0xffffff);
	obj_add(u.id, uc, UCT_MEMLOCK, UCK_OBJ_UNOWNED, u.pages);
	bpf_map_update_elem(&unowned, &tid, &u, BPF_ANY);
	return 0;
}

SEC("fentry/user_shm_unlock")
int BPF_PROG(ck_user_shm_unlock, size_t size, struct ucounts *uc)
{
	__u32 tid = ctx_tid(ctx);
	struct shm_stash *s;
	struct unowned *u;
	struct uct_key k;
	long pages = pages_of(size);

	if (!uc)
		return 0;
	s = bpf_map_lookup_elem(&shm_stash, &tid);
	if (s && !s->lock) {
		__u64 id = s->inode;

		if (bpf_map_delete_elem(&obj, &id) == 0)
			return 0;
	} else {
		u = bpf_map_lookup_elem(&unowned, &tid);
		if (u && u->uc == (__u64)uc && u->pages == pages) {
			__u64 id = u->id;

			bpf_map_delete_elem(&obj, &id);
			bpf_map_delete_elem(&unowned, &tid);
			return 0;
		}
	}
	uc_key(uc, &k);
	sum_add(&pre_rel, &k, UCT_MEMLOCK, pages);
	return 0;
}

SEC("fentry/shmem_evict_inode")
int BPF_PROG(ck_shm_evict, struct inode *inode)
{
	__u64 id = (__u64)inode;
	struct uck_obj *o = bpf_map_lookup_elem(&obj, &id);
	struct uct_key k;

	if (!o)
		return 0;
	/* the segment is gone but its lock was never released */
	k.ns_inum = o->ns_inum;
	k.uid = o->uid;
	sum_add(&gone, &k, UCT_MEMLOCK, o->amount);
	count(UCK_CNT_SHM_GONE);
	bpf_map_delete_elem(&obj, &id);
	return 0;
}

/* ---- snapshots ----------------------------------------------------------------- */

/* A record with the tally of its level: the tally is read first, so an
 * event in between shows as a tally ahead of the value, which the capture's
 * event counter check catches. */
static __always_inline void snap_write(struct seq_file *seq, struct ucounts *uc, __u32 flags)
{
	struct uck_rec rec;
	struct uck_tally *t;
	struct uct_key k;

	uc_key(uc, &k);
	t = bpf_map_lookup_elem(&tally, &k);
	if (t)
		__builtin_memcpy(rec.tally, t->net, sizeof(rec.tally));
	else
		__builtin_memset(rec.tally, 0, sizeof(rec.tally));
	fill_rec(&rec.r, uc, flags);
	bpf_seq_write(seq, &rec, sizeof(rec));
}

UCT_SNAPSHOT_PROGRAMS(ck_snap_ucounts, ck_snap_task)

/* ---- inventory: what explains NPROC and SIGPENDING --------------------------------- */

static __always_inline void inv_add(struct ucounts *uc, __u32 kind)
{
	struct uck_inv_key ik = { .kind = kind };
	__u64 one = 1, *n;

	ik.ns_inum = uc_ns_inum(uc);
	ik.uid = uc_uid(uc);
	n = bpf_map_lookup_elem(&inv, &ik);
	if (n) {
		__sync_fetch_and_add(n, 1);
		return;
	}
	if (bpf_map_update_elem(&inv, &ik, &one, BPF_NOEXIST)) {
		n = bpf_map_lookup_elem(&inv, &ik);
		if (n)
			__sync_fetch_and_add(n, 1);
		else
			count(UCK_CNT_INV_FULL);
	}
}

#define LW_SIGQUEUE	0
#define LW_TIMER	1

struct lw_ctx {
	__u64 pos;
	__u64 end;	/* the list's head, or 0 for an hlist */
	__u32 kind;
	__u32 done;
};

static long lw_step(__u32 i, struct lw_ctx *c)
{
	struct list_head *p = (void *)c->pos;
	struct ucounts *uc = NULL;

	if (!c->pos || c->pos == c->end) {
		c->done = 1;
		return 1;
	}
	if (c->kind == LW_SIGQUEUE) {
		/* list is the first member of struct sigqueue */
		struct sigqueue *q = (void *)p - bpf_core_field_offset(struct sigqueue, list);

		/* preallocated (POSIX timer) sigqueues are counted by timer,
		 * while the timer is on the process's list */
		if (!(BPF_CORE_READ(q, flags) & SIGQUEUE_PREALLOC_) ||
		    uct_sigq_of_deleted_timer(q))
			uc = BPF_CORE_READ(q, ucounts);
		if (uc)
			inv_add(uc, UCK_INV_SIGQ);
	} else {
		uc = uct_timer_ucounts(uct_timer_of(c->pos));
		if (uc)
			inv_add(uc, UCK_INV_TIMER);
	}
	c->pos = uct_node_next(c->pos);
	/* Unlinked by list_del_init() while we walked (the task exiting or
	 * dequeuing, no lock held here): it points at itself and the head is
	 * out of reach. Stop now; the list counts as cut. */
	if (c->pos == (__u64)p)
		return 1;
	return 0;
}

/* Walk a list from its first node to end (its head; 0 for an hlist). */
static __always_inline void walk_list(__u64 first, __u64 end, __u32 kind)
{
	struct lw_ctx c = { .pos = first, .end = end, .kind = kind };

	bpf_loop(sig_walk_max, lw_step, &c, 0);
	if (!c.done)
		count(UCK_CNT_INV_TRUNC);
}

SEC("iter/task")
int ck_inventory(struct bpf_iter__task *ctx)
{
	struct task_struct *task = ctx->task;
	struct signal_struct *sig;
	struct ucounts *uc;
	__u64 first, end;

	if (!task)
		return 0;
	uc = BPF_CORE_READ(task, real_cred, ucounts);
	if (uc)
		inv_add(uc, (BPF_CORE_READ(task, flags) & PF_KTHREAD_) ? UCK_INV_KTHREAD :
								      UCK_INV_TASK);
	walk_list(uct_node_next((__u64)&task->pending.list), (__u64)&task->pending.list,
		  LW_SIGQUEUE);
	if (BPF_CORE_READ(task, group_leader) != task)
		return 0;
	/* once per thread group: shared signals, POSIX timers */
	sig = BPF_CORE_READ(task, signal);
	if (!sig)
		return 0;
	walk_list(uct_node_next((__u64)&sig->shared_pending.list),
		  (__u64)&sig->shared_pending.list, LW_SIGQUEUE);
	/* a list_head or an hlist_head, by kernel (core_fixes.bpf.h) */
	uct_timers_walk(sig, &first, &end);
	walk_list(first, end, LW_TIMER);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
