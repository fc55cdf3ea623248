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

/* --- configuration, set by user space before load --------------------- */
const volatile bool emit_events = false;	/* trace: fill the ring buffer */
const volatile bool want_stack = false;		/* trace --stack */
const volatile __u32 filter_ns = 0;		/* trace --ns (0: all) */
const volatile __s64 filter_uid = -1;		/* trace --uid (-1: all) */
const volatile __s32 filter_type = -1;		/* trace -t (-1: all) */
/* --events on a stock kernel without PREEMPT_RT: SIGPENDING charges are
 * counted at fentry, see sig_last */
const volatile bool sig_fentry = false;
/* our series: ucounts_rlimit_refused counts a SIGPENDING refusal, under
 * the sender; signal_generate and the timer hooks name its target (the
 * row's task) for the split by cgroup. */
const volatile bool sig_split = false;
/* --events: count every charge per object (evcounts); trace prints them
 * instead and attaches the same programs without counting */
const volatile bool count_charges = false;
/* inc_get_exit also records what each SIGPENDING charge decided (what
 * sig_charge_exit does), where both would run: one program on the
 * charge's return instead of two */
const volatile bool inc_get_notes_charge = false;
/* trace: wake the reader only once this much is queued (0: every event);
 * it polls on its own every 100 ms, which bounds the delay */
const volatile __u32 wakeup_bytes = 0;

/* --- state --------------------------------------------------------------- */
__u64 counters[UCT_NCOUNTERS] = {};	/* UCT_CNT_* */
__u64 denied[UCT_NTYPES] = {};		/* refusals since attach, kept past frees */
struct uct_stat zero_stat = {};		/* template for new stats entries */

/* struct ucounts address -> statistics; see struct uct_stat */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 10240);	/* --max-entries */
	__type(key, __u64);
	__type(value, struct uct_stat);
} stats SEC(".maps");

/* (row, refused task's cgroup) -> refusals; see struct uct_cgkey */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 10240);	/* --max-entries */
	__type(key, struct uct_cgkey);
	__type(value, struct uct_cgdeny);
} cg_denials SEC(".maps");

/* struct ucounts address -> charge counts the evcache slots do not hold
 * (--events); shared by the CPUs, added to atomically */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 10240);	/* --max-entries */
	__type(key, __u64);
	__type(value, struct uct_evcount);
} evcounts SEC(".maps");

struct uct_evcount zero_ev = {};

/* The per-CPU slots in front of evcounts (see struct uct_evslot). Sized
 * and mapped by user space; evcache_cpus is set once the free program is
 * attached: CPUs at or above it (all, while 0) use the hash. */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(map_flags, BPF_F_MMAPABLE);
	__uint(max_entries, 1);		/* cpus * UCT_EVCACHE_SLOTS */
	__type(key, __u32);
	__type(value, struct uct_evslot);
} evcache SEC(".maps");

__u32 evcache_cpus = 0;

/*
 * sig_fentry: the last SIGPENDING charge on this CPU (a struct ucounts
 * address), with its uncharge count on this CPU at the time. A charge
 * counted at fentry may then be refused above the leaf, and
 * inc_rlimit_get_ucounts() undoes it itself, with no call to hook. The
 * sender holds the target's siglock with IRQs off from the charge to the
 * signal_generate event, so at a refused signal's event the last charge
 * on its CPU is the refused one, and an uncharge of it on this CPU since
 * is the leaf refusal's own dec_rlimit_put_ucounts() (the uncharge hook
 * marks it): without one, the charge was undone inside, and the event
 * takes it back. PREEMPT_RT's
 * siglock sleeps, so another task may charge on this CPU meanwhile:
 * there, and for trace, which shows each charge's new value, the charge is
 * counted at fexit from its return value instead.
 */
struct uct_sig_last {
	__u64 uc;
	__u32 slot;		/* its evcache slot on this CPU, if it has one */
	__u32 uncharged;	/* an uncharge of uc ran on this CPU since */
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct uct_sig_last);
} sig_last SEC(".maps");

/*
 * The last SIGPENDING charge decision on this CPU, for the hooks that see
 * its outcome (signal_generate's overflow, a timer's failed sigqueue) to
 * tell a refusal from a sigqueue the kernel failed to allocate, which
 * they report alike. Written by inc_rlimit_get_ucounts()'s return on a
 * kernel without the series (ret: the leaf's new value, 0 when a level
 * above refused; the caller refuses a leaf value over the target's
 * RLIMIT_SIGPENDING unless override_rlimit) and by the series' refusal
 * event (ret 0). The sender holds the target's siglock from the charge to
 * the outcome with IRQs off, so nothing else charges on this CPU in
 * between; on PREEMPT_RT, where it sleeps, the thread tells another
 * task's charge. A record of another object or thread is no evidence.
 */
struct uct_sig_charge {
	__u64 uc;
	__s64 ret;
	__u32 tid;	/* cur_tid() of the charge */
	__u32 override;
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct uct_sig_charge);
} sig_charge SEC(".maps");

/*
 * timer_create() charges the timer's sigqueue to the caller when it makes
 * the timer (7.x: posixtimer_init_sigqueue(), 6.x: sigqueue_alloc()), with
 * no signal_generate event: the hook's return tells a refusal. With
 * sig_fentry the charge was counted at fentry; one refused above the leaf
 * is undone inside inc_rlimit_get_ucounts(), while a refusal at the leaf
 * (and, on 6.x, a failed allocation) is taken back by a
 * dec_rlimit_put_ucounts() of the same ucounts within the call. The
 * caller's entry counts those, in its own context (an interrupt's uncharge
 * on its stack is not the call's). Task storage: one entry per task that
 * made a timer, freed with the task, so no --max-entries to size.
 */
struct uct_timer_charge {
	__u64 uc;	/* the caller's ucounts while its timer is charged, else 0 */
	__u32 decs;	/* its SIGPENDING uncharges in the call so far */
	__u32 pad;
};

struct {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, struct uct_timer_charge);
} timer_charge SEC(".maps");

/* calls between those two hooks (the uncharge hook's fast path) */
__u32 timers_charging = 0;

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 256 * 1024);	/* --ringbuf-kb */
} events SEC(".maps");

#include "ucounts_core.bpf.h"

/* --- helpers ----------------------------------------------------------- */

/* The stats entry of a ucounts, created on first use. NULL when the map is
 * full (counted). Only refusals get here: the checks may read the object. */
static __always_inline struct uct_stat *get_stat(struct ucounts *uc)
{
	__u64 key = (__u64)uc;
	struct uct_stat *st;

	st = bpf_map_lookup_elem(&stats, &key);
	/* Another row's entry at this address: its object was freed with no
	 * ucounts_free to delete the entry (a kernel without our series), and
	 * this one starts from zero. An entry with no name yet (no namespace
	 * has inode 0) is this object's, just made on another CPU: resetting
	 * it would lose that CPU's count. */
	if (st && st->ns_inum && (st->ns_inum != uc_ns_inum(uc) || st->uid != uc_uid(uc))) {
		bpf_map_update_elem(&stats, &key, &zero_stat, BPF_EXIST);
		st = NULL;
	}
	if (st)
		return st;
	if (bpf_map_update_elem(&stats, &key, &zero_stat, BPF_NOEXIST) &&
	    !bpf_map_lookup_elem(&stats, &key)) {
		count(UCT_CNT_STATS_FULL);
		return NULL;
	}
	st = bpf_map_lookup_elem(&stats, &key);
	if (!st)
		return NULL;
	if (!st->first_seen_ns) {
		st->first_seen_ns = bpf_ktime_get_boot_ns();
		st->uid = uc_uid(uc);
		st->level = uc_level(uc);
		/* the name last: whoever reads it set has the rest */
		asm volatile("" ::: "memory");
		st->ns_inum = uc_ns_inum(uc);
	}
	return st;
}

static __always_inline void touch(struct uct_stat *st, struct task_struct *who)
{
	st->last_seen_ns = bpf_ktime_get_boot_ns();
	st->last_pid = BPF_CORE_READ(who, tgid);
	bpf_probe_read_kernel_str(st->last_comm, sizeof(st->last_comm), who->comm);
}

/*
 * The trace path reads the object through BTF pointers (every caller's uc
 * is a program argument, or loaded from one): plain loads the verifier
 * guards, not a bpf_probe_read_kernel() call each as BPF_CORE_READ makes.
 */
static __always_inline bool event_wanted(struct ucounts *uc, __u32 kind, __u32 type)
{
	if (!emit_events)
		return false;
	/* -t: charges, uncharges and refusals of that type, no lifetime */
	if (filter_type >= 0 &&
	    (kind == UCT_EV_ALLOC || kind == UCT_EV_FREE || type != (__u32)filter_type))
		return false;
	if (filter_ns && uc->ns->ns.inum != filter_ns)
		return false;
	if (filter_uid >= 0 && uc->uid.val != (__u32)filter_uid)
		return false;
	return true;
}

/*
 * Hand a record to the reader, waking it once wakeup_bytes are queued.
 * Without a flag the ring wakes the reader only for a record it would read
 * next (it had caught up): past the first record of a batch kept quiet,
 * none would. So the wake-up is forced, for records that take the queue
 * from wakeup_bytes to twice that: more than one in a row, in case several
 * CPUs raced past the threshold, and none once the queue is longer, when
 * the reader is behind and polls without sleeping.
 */
static __always_inline void submit(struct uct_event *e)
{
	__u64 queued;

	if (!wakeup_bytes) {
		bpf_ringbuf_submit(e, 0);
		return;
	}
	queued = bpf_ringbuf_query(&events, BPF_RB_AVAIL_DATA);
	if (queued >= wakeup_bytes && queued < 2 * (__u64)wakeup_bytes)
		bpf_ringbuf_submit(e, BPF_RB_FORCE_WAKEUP);
	else
		bpf_ringbuf_submit(e, BPF_RB_NO_WAKEUP);
}

/* One trace record. ctx is the program context (for the kernel stack). */
static __always_inline void emit(void *ctx, struct ucounts *uc, __u32 kind, __u32 type,
				 long delta, long value, int at_level, long limit)
{
	struct task_struct *task;
	const __u64 *name;
	struct uct_event *e;

	if (!event_wanted(uc, kind, type))
		return;
	/* the stack only when asked: a record without it is a fifth the size */
	e = bpf_ringbuf_reserve(&events, want_stack ? sizeof(*e) : UCT_EVENT_NOSTACK_SIZE, 0);
	if (!e) {
		count(UCT_CNT_RB_DROPS);
		return;
	}
	task = bpf_get_current_task_btf();
	e->ts_ns = bpf_ktime_get_boot_ns();
	e->pid = task->tgid;
	e->ns_inum = uc->ns->ns.inum;
	e->uid = uc->uid.val;
	e->level = uc->ns->level;
	e->kind = kind;
	e->type = type;
	e->at_level = at_level;
	if (kind == UCT_EV_DENIED)
		e->limit = limit;
	else
		e->delta = delta;
	e->value = value;
	/* two loads, not bpf_get_current_comm()'s copy byte by byte: the
	 * kernel keeps a task's name NUL-padded (__set_task_comm), and the
	 * reader compares all 16 bytes with an earlier event's */
	name = (const __u64 *)task->comm;
	((__u64 *)e->comm)[0] = name[0];
	((__u64 *)e->comm)[1] = name[1];
	if (want_stack) {
		long n = bpf_get_stack(ctx, e->stack, sizeof(e->stack), 0);

		e->nstack = n > 0 ? (__u64)n / 8 : 0;
		e->pad = 0;
	}
	submit(e);
}

/*
 * The slot of an object in one CPU's part of evcache: a hash of its
 * address, which no two live objects share. The verifier allows no
 * arithmetic on a kernel pointer, but one pointer minus another is a plain
 * number to a program loaded with CAP_PERFMON: the address less that of
 * evcache_cpus (fixed while the maps live) is as good a key, and costs a
 * subtraction on every charge, not the three guarded loads of the
 * object's name (namespace inode, uid).
 */
static __always_inline __u32 evslot_of(struct ucounts *uc)
{
	__u64 a = (__u64)uc;

	asm volatile("%0 -= %1" : "+r"(a) : "r"(&evcache_cpus));
	return (a * 0x9E3779B97F4A7C15ULL) >> (64 - UCT_EVCACHE_BITS);
}

/* Where this CPU counts uc: its cache slot (claimed when empty), or the
 * shared hash (*shared set) when the slot holds another object or the
 * cache is off. */
static __always_inline struct uct_evcount *ev_counts_at(struct ucounts *uc, __u32 cpu, __u32 i,
							bool *shared)
{
	__u64 key = (__u64)uc;
	struct uct_evcount *e;
	struct uct_evslot *s;

	*shared = false;
	if (cpu < evcache_cpus) {
		s = bpf_map_lookup_elem(&evcache, &i);
		if (s && s->id == key)
			return &s->c;
		if (s && !s->id) {
			/* ours alone to claim: zero first, then publish */
			__builtin_memset(&s->c, 0, sizeof(s->c));
			asm volatile("" ::: "memory");
			s->id = key;
			return &s->c;
		}
	}
	*shared = true;
	e = bpf_map_lookup_elem(&evcounts, &key);
	if (e)
		return e;
	bpf_map_update_elem(&evcounts, &key, &zero_ev, BPF_NOEXIST);
	return bpf_map_lookup_elem(&evcounts, &key);
}

/* The evcache slot of uc on this CPU: cpu * UCT_EVCACHE_SLOTS + slot. */
static __always_inline __u32 ev_slot(struct ucounts *uc, __u32 cpu)
{
	return cpu * UCT_EVCACHE_SLOTS + evslot_of(uc);
}

static __always_inline struct uct_evcount *ev_counts(struct ucounts *uc, bool *shared)
{
	__u32 cpu = bpf_get_smp_processor_id();

	return ev_counts_at(uc, cpu, ev_slot(uc, cpu), shared);
}

/* *p += v: plainly in this CPU's slot, atomically in the shared hash */
static __always_inline void ev_add(__u64 *p, __s64 v, bool shared)
{
	if (shared)
		__sync_fetch_and_add(p, v);
	else
		*p += v;
}

/*
 * One charge (charge: true) or uncharge of delta to uc. NULL-safe on a
 * full map (counted as evcounts_full).
 */
static __always_inline void ev_count(struct ucounts *uc, __u32 type, long delta, bool charge)
{
	struct uct_evcount *e;
	bool shared;
	__u64 t;

	if (!count_charges)
		return;
	e = ev_counts(uc, &shared);
	if (!e) {
		count(UCT_CNT_EVCOUNTS_FULL);
		return;
	}
	t = tidx(type);
	if (charge) {
		ev_add(&e->charges[t], 1, shared);
		ev_add((__u64 *)&e->charged[t], delta, shared);
	} else {
		ev_add(&e->uncharges[t], 1, shared);
		ev_add((__u64 *)&e->uncharged[t], delta, shared);
	}
}

/* A SIGPENDING charge (charge: true) or uncharge, always of one: only the
 * count is kept, user space takes the sum to be the same (stats.c). */
static __always_inline void ev_count_sig(struct ucounts *uc, bool charge)
{
	struct uct_evcount *e;
	bool shared;

	if (!count_charges)
		return;
	e = ev_counts(uc, &shared);
	if (!e) {
		count(UCT_CNT_EVCOUNTS_FULL);
		return;
	}
	if (charge)
		ev_add(&e->charges[UCT_SIGPENDING], 1, shared);
	else
		ev_add(&e->uncharges[UCT_SIGPENDING], 1, shared);
}

/* Take back a SIGPENDING charge counted on some CPU: this CPU's slot
 * goes below zero if need be, the sum over slots and hash is right. */
static __always_inline void ev_count_sig_back(struct ucounts *uc)
{
	struct uct_evcount *e;
	bool shared;

	if (!count_charges)
		return;
	e = ev_counts(uc, &shared);
	if (e)
		ev_add(&e->charges[UCT_SIGPENDING], -1, shared);
	else
		count(UCT_CNT_EVCOUNTS_FULL);
}

static __always_inline struct uct_sig_last *sig_last_slot(void)
{
	__u32 zero = 0;

	return bpf_map_lookup_elem(&sig_last, &zero);
}

/* Take back the charge last counted on this CPU, where ev_counts() put it
 * (its slot of evcache, or the hash), unless it was uncharged there since
 * (see sig_last). */
static __always_inline void sig_uncount(struct uct_sig_last *last)
{
	struct uct_evslot *s;
	struct uct_evcount *e;
	__u32 i = last->slot;

	if (last->uncharged)
		return;
	if (i / UCT_EVCACHE_SLOTS < evcache_cpus) {
		s = bpf_map_lookup_elem(&evcache, &i);
		if (s && s->id == last->uc) {
			s->c.charges[UCT_SIGPENDING] -= 1;
			return;
		}
	}
	e = bpf_map_lookup_elem(&evcounts, &last->uc);
	if (e)
		__sync_fetch_and_add(&e->charges[UCT_SIGPENDING], -1);
}

/* A freed object leaves every CPU's cache: its slot on each CPU is emptied
 * if it is still the object's. No charge of it can run any more (it had no
 * reference left); a CPU claiming the slot for another object meanwhile
 * finds it empty only after this exchange. */
static __always_inline void ev_forget(struct ucounts *uc)
{
	__u32 cpu, i, slot = evslot_of(uc);
	__u64 key = (__u64)uc;
	struct uct_evslot *s;

	for (cpu = 0; cpu < UCT_EVCACHE_MAX_CPUS; cpu++) {
		if (cpu >= evcache_cpus)
			break;
		i = cpu * UCT_EVCACHE_SLOTS + slot;
		s = bpf_map_lookup_elem(&evcache, &i);
		if (s)
			__sync_val_compare_and_swap(&s->id, key, 0);
	}
}

/* A refused charge, attributed to the charging (leaf) ucounts. */
/*
 * The cgroup v2 id of a task: task->cgroups->dfl_cgrp->kn->id. These
 * members exist only with CONFIG_CGROUPS (the debug kernel has none), so
 * they are declared here with a ___uct flavour, not taken from vmlinux.h,
 * and read only when the running kernel has them.
 */
struct kernfs_node___uct {
	__u64 id;
} __attribute__((preserve_access_index));

struct cgroup___uct {
	struct kernfs_node___uct *kn;
} __attribute__((preserve_access_index));

struct css_set___uct {
	struct cgroup___uct *dfl_cgrp;
} __attribute__((preserve_access_index));

struct task_struct___uct {
	struct css_set___uct *cgroups;
} __attribute__((preserve_access_index));

static __always_inline __u64 task_cgroup_id(struct task_struct *task)
{
	struct task_struct___uct *t = (void *)task;

	if (!bpf_core_field_exists(t->cgroups))
		return 0;
	return t->cgroups->dfl_cgrp->kn->id;
}

/* The refused task's cgroup, counted for the row refused */
static __always_inline void note_denied_cgroup(struct ucounts *uc, __u32 type,
					       struct task_struct *who)
{
	struct uct_cgkey k = {
		.ns_inum = uc_ns_inum(uc),
		.uid = BPF_CORE_READ(uc, uid.val),
		.cgroup_id = task_cgroup_id(who),
	};
	struct uct_cgdeny *d = bpf_map_lookup_elem(&cg_denials, &k);

	if (!d) {
		struct uct_cgdeny zero = {};

		/* a full map loses the split, never the row's total (as
		 * get_stat(): another CPU may have made it meanwhile) */
		if (bpf_map_update_elem(&cg_denials, &k, &zero, BPF_NOEXIST) &&
		    !bpf_map_lookup_elem(&cg_denials, &k)) {
			count(UCT_CNT_CG_FULL);
			return;
		}
		d = bpf_map_lookup_elem(&cg_denials, &k);
		if (!d)
			return;
	}
	__sync_fetch_and_add(&d->denials[tidx(type)], 1);
}

/*
 * The task a refusal was of, kept for the row: its cgroup (the split by
 * container) and its name as the row's last refused task. who is the
 * row's task: a signal's target, else the caller (trace names the caller,
 * a signal's sender).
 */
static __always_inline void note_refused_task(struct ucounts *uc, __u32 type,
					      struct task_struct *who, struct uct_stat *st)
{
	if (type >= UCT_NTYPES)
		return;
	note_denied_cgroup(uc, type, who);
	if (st)
		touch(st, who);
}

/* A refused charge of uc's row. who: see note_refused_task(); NULL when
 * another hook reports it (sig_split) */
static __always_inline void note_denied(void *ctx, struct ucounts *uc, __u32 type, long value,
					int at_level, long limit, struct task_struct *who)
{
	struct uct_stat *st;

	if (type >= UCT_NTYPES)
		return;
	__sync_fetch_and_add(&denied[tidx(type)], 1);
	st = get_stat(uc);
	if (st)
		__sync_fetch_and_add(&st->denials[tidx(type)], 1);
	if (who)
		note_refused_task(uc, type, who, st);
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

/* Record what a SIGPENDING charge of uc decided (see sig_charge). */
static __always_inline void sig_charge_note(struct ucounts *uc, long ret, bool override)
{
	__u32 zero = 0;
	struct uct_sig_charge *c = bpf_map_lookup_elem(&sig_charge, &zero);

	if (!c)
		return;
	c->uc = (__u64)uc;
	c->ret = ret;
	c->tid = cur_tid();
	c->override = override;
}

/* The last decision on this CPU if it is of uc by this thread, else NULL;
 * taken either way, so that no later outcome reads it. */
static __always_inline struct uct_sig_charge *sig_charge_take(struct ucounts *uc)
{
	__u32 zero = 0;
	struct uct_sig_charge *c = bpf_map_lookup_elem(&sig_charge, &zero);
	bool mine;

	if (!c)
		return NULL;
	mine = c->uc && c->uc == (__u64)uc && c->tid == cur_tid();
	c->uc = 0;
	return mine ? c : NULL;
}

/*
 * A signal overflowed, or a timer's sigqueue was not made, for a target
 * whose ucounts is uc and whose RLIMIT_SIGPENDING is lim: refused, or the
 * kernel failed to allocate the sigqueue (counted in sig_nomem, no
 * refusal)? Refused when a level above the leaf refused the charge, or
 * the leaf's new value is over lim and the charge could be refused. With no
 * record of the charge: a refusal on a kernel without the series (its
 * return hook may have been skipped), none with it (its refusal event
 * records each one).
 */
static __always_inline bool sig_refused(struct ucounts *uc, unsigned long lim)
{
	struct uct_sig_charge *c = sig_charge_take(uc);

	if (c) {
		if (!c->ret || (!c->override && (unsigned long)c->ret > lim))
			return true;
	} else if (!sig_split) {
		return true;
	}
	count(UCT_CNT_SIG_NOMEM);
	return false;
}

/*
 * Refusals of an inc_rlimit_ucounts() charge, decided by its caller from
 * the returned leaf value: mqueue_get_inode() refuses LONG_MAX (a level
 * over its limit) or a value over the caller's RLIMIT_MSGQUEUE;
 * user_shm_lock() the same against RLIMIT_MEMLOCK in pages, unless the
 * caller has CAP_IPC_LOCK. NPROC charges are not refused here (fork
 * checks with is_rlimit_overlimit()) and SIGPENDING charges go through
 * inc_rlimit_get_ucounts().
 */
static __always_inline void inc_refusal(void *ctx, struct ucounts *uc, __u32 type, long ret)
{
	struct over_at o = { .level = -1 };
	long lim;

	if (type != UCT_MSGQUEUE && type != UCT_MEMLOCK)
		return;
	lim = leaf_limit(type);
	if (ret != UCT_LONG_MAX && ret <= lim)
		return;
	if (type == UCT_MEMLOCK && cur_capable(CAP_IPC_LOCK_))
		return;
	if (ret != UCT_LONG_MAX) {
		note_denied(ctx, uc, type, ret, uc_level(uc), lim,
			    bpf_get_current_task_btf());
		return;
	}
	/* which level is over: still charged here, the caller undoes it
	 * after we return */
	first_over(uc, type, UCT_LONG_MAX, 0, &o);
	if (!o.uc)
		o.level = -2;
	note_limit_hit(o.uc, type);
	note_denied(ctx, uc, type, uc_value(uc, type), o.level, o.limit,
		    bpf_get_current_task_btf());
}

/* sig_fentry: a timer's sigqueue is about to be charged (see timer_charge) */
static __always_inline void timer_charge_begin(void)
{
	struct task_struct *t = bpf_get_current_task_btf();
	struct uct_timer_charge *c;

	c = bpf_task_storage_get(&timer_charge, t, 0, BPF_LOCAL_STORAGE_GET_F_CREATE);
	if (!c)
		return;
	/* still set when the return hook was skipped: counted already */
	if (!c->uc)
		__sync_fetch_and_add(&timers_charging, 1);
	c->uc = (__u64)t->real_cred->ucounts;
	c->decs = 0;
}

/* sig_fentry: an uncharge while a timer is charged; its call's if it is
 * the caller's, of the caller's ucounts */
static __always_inline void timer_charge_dec(void *ctx, struct ucounts *uc)
{
	struct uct_timer_charge *c;

	if (!ctx_on_task_stack(ctx))
		return;
	c = bpf_task_storage_get(&timer_charge, bpf_get_current_task_btf(), 0, 0);
	if (c && c->uc == (__u64)uc)
		c->decs += 1;
}

/* The timer's sigqueue was charged (ok) or refused. The caller is the
 * target: the row is its own. */
static __always_inline void timer_charge_end(void *ctx, bool ok)
{
	struct task_struct *t = bpf_get_current_task_btf();
	struct ucounts *uc = t->real_cred->ucounts;
	unsigned long lim = t->signal->rlim[RLIMIT_SIGPENDING_].rlim_cur;
	struct uct_timer_charge *c;
	bool undone = false;

	if (sig_fentry) {
		c = bpf_task_storage_get(&timer_charge, t, 0, 0);
		if (c && c->uc) {
			__sync_fetch_and_sub(&timers_charging, 1);
			undone = !c->decs;
			c->uc = 0;
		} else if (!ok) {
			/* the entry hook did not run (its recursion guard):
			 * a refusal above the leaf may stay counted */
			count(UCT_CNT_SIG_UNDECIDED);
		}
	}
	if (ok) {
		/* no evidence for a later outcome (see sig_charge) */
		if (!sig_split)
			sig_charge_take(NULL);
		return;
	}
	if (!uc || !sig_refused(uc, lim))
		return;
	if (sig_split) {
		note_refused_task(uc, UCT_SIGPENDING, t, get_stat(uc));
		return;
	}
	/* refused above the leaf: the charge the entry counted never was */
	if (undone)
		ev_count_sig_back(uc);
	note_denied(ctx, uc, UCT_SIGPENDING, uc_value(uc, UCT_SIGPENDING), -1, (long)lim, t);
}

/* ---- snapshot programs ---------------------------------------------------- */

static __always_inline void snap_write(struct seq_file *seq, struct ucounts *uc, __u32 flags)
{
	struct uct_rec rec;

	fill_rec(&rec, uc, flags);
	bpf_seq_write(seq, &rec, sizeof(rec));
}

UCT_SNAPSHOT_PROGRAMS(snap_ucounts, snap_task)

/* A soft limit in counter units (memlock: pages, as user_shm_lock()).
 * sig is a BTF pointer: a plain load. */
static __always_inline __s64 soft_limit(struct signal_struct *sig, int rlim, bool pages)
{
	__u64 v = sig->rlim[rlim].rlim_cur;

	if (v >= UCT_LONG_MAX)
		return UCT_LONG_MAX;
	return pages ? (__s64)(v >> page_shift) : (__s64)v;
}

/*
 * Each process's own rlimits and the ucounts it charges (struct uct_tlim):
 * what /proc/PID/limits and /proc/PID/status would say, without opening
 * two files per process on every refresh; and what names its namespace.
 * It runs for every task on every refresh, so it reads with plain loads:
 * the iterator's task is a BTF pointer, and so is every pointer loaded
 * from it (a fault, as a NULL nsproxy or cgroups gives, reads 0); only the
 * two strings are helper calls.
 */
SEC("iter/task")
int task_limits(struct bpf_iter__task *ctx)
{
	struct task_struct *task = ctx->task;
	struct signal_struct *sig;
	struct uts_namespace *uts;
	const struct cred *cred;
	struct dentry *root;
	struct uct_tlim tl;

	if (!task || task->pid != task->tgid)
		return 0;
	__builtin_memset(&tl, 0, sizeof(tl));
	cred = task->real_cred;
	tl.id = (__u64)cred->ucounts;
	if (!tl.id)
		return 0;
	sig = task->signal;
	tl.rlim[UCT_NPROC] = soft_limit(sig, RLIMIT_NPROC_, false);
	tl.rlim[UCT_MSGQUEUE] = soft_limit(sig, RLIMIT_MSGQUEUE_, false);
	tl.rlim[UCT_SIGPENDING] = soft_limit(sig, RLIMIT_SIGPENDING_, false);
	tl.rlim[UCT_MEMLOCK] = soft_limit(sig, RLIMIT_MEMLOCK_, true);
	tl.start_time = task->start_time;
	tl.cgroup_id = task_cgroup_id(task);
	tl.ns_inum = cred->user_ns->ns.inum;
	tl.pid = task->tgid;
	tl.threads = sig->nr_threads;
	bpf_probe_read_kernel_str(tl.comm, sizeof(tl.comm), task->comm);
	/* its root and mount namespace: the tasks that share both see the
	 * same /etc/passwd, so user space checks one file for them all;
	 * an exiting task has dropped its fs and nsproxy (NULL: reads 0) */
	root = task->fs->root.dentry;
	tl.root_ino = root->d_inode->i_ino;
	tl.root_dev = root->d_sb->s_dev;
	tl.mnt_ns = task->nsproxy->mnt_ns->ns.inum;
	/* an exiting task has dropped its nsproxy (NULL): no hostname */
	uts = task->nsproxy->uts_ns;
	if (uts)
		bpf_probe_read_kernel_str(tl.hostname, sizeof(tl.hostname), uts->name.nodename);
	bpf_seq_write(ctx->meta->seq, &tl, sizeof(tl));
	return 0;
}

/* ---- cheap hooks: rare events only ------------------------------------------ */

/* x86-64 system calls that check RLIMIT_NPROC (asm/unistd_64.h) */
#define NR_CLONE_	56
#define NR_FORK_	57
#define NR_VFORK_	58
#define NR_EXECVE_	59
#define NR_SETUID_	105
#define NR_SETREUID_	113
#define NR_SETRESUID_	117
#define NR_EXECVEAT_	322
#define NR_CLONE3_	435

/* The system call the current task is in (orig_ax of its user registers;
 * -1 in a kernel thread) */
static __always_inline long cur_syscall(void)
{
	struct pt_regs *regs = (void *)bpf_task_pt_regs(bpf_get_current_task_btf());

	return regs->orig_ax;
}

/*
 * Was an RLIMIT_NPROC check that found a level over the limit a refusal?
 * Its three callers decide differently (kernel/fork.c, fs/exec.c,
 * kernel/sys.c), and are told apart by the system call that reached them:
 *  - set*uid() (flag_nproc_exceeded()) checks the new cred's ucounts and
 *    only flags the task for its next execve(): never;
 *  - execve() refuses, whoever calls it (the flag is never set for root);
 *  - copy_process() (fork, vfork, clone, clone3, whatever the flags; the
 *    new task's ucounts, a new namespace's with CLONE_NEWUSER) refuses
 *    unless the user is root's or the caller has CAP_SYS_RESOURCE or
 *    CAP_SYS_ADMIN.
 * Any other caller (a kernel thread's or io_uring's copy_process(), a
 * 32-bit task's system calls) is told by what it checks: another cred's
 * ucounts is set*uid()'s, a flagged task's own execve()'s, else a fork.
 */
static __always_inline bool nproc_refused(struct ucounts *uc)
{
	struct task_struct *t = (void *)bpf_get_current_task();
	const struct cred *c = BPF_CORE_READ(t, cred);
	bool mine = BPF_CORE_READ(c, ucounts) == uc;

	switch (cur_syscall()) {
	case NR_SETUID_:
	case NR_SETREUID_:
	case NR_SETRESUID_:
		return false;
	case NR_EXECVE_:
	case NR_EXECVEAT_:
		return true;
	case NR_CLONE_:
	case NR_FORK_:
	case NR_VFORK_:
	case NR_CLONE3_:
		break;
	default:
		if (!mine || (BPF_CORE_READ(t, flags) & PF_NPROC_EXCEEDED_))
			return mine;
	}
	return BPF_CORE_READ(c, user, uid.val) != 0 && !cur_capable(CAP_SYS_RESOURCE_) &&
	       !cur_capable(CAP_SYS_ADMIN_);
}

/* fork/execve/set*uid() limit checks (NPROC): over means over a limit,
 * a refusal only where the caller refuses. */
static __always_inline int on_overlimit(void *ctx, struct ucounts *uc, enum rlimit_type type,
					unsigned long rlimit, bool over)
{
	struct over_at o;

	if (!over || !uc || type != UCT_NPROC || !nproc_refused(uc))
		return 0;
	/* The leaf is compared with the caller's rlimit argument. */
	first_over(uc, type, rlimit > UCT_LONG_MAX ? UCT_LONG_MAX : rlimit, 0, &o);
	if (!o.uc) {	/* within by now (a racing uncharge): blame the leaf */
		o.uc = uc;
		o.level = uc_level(uc);
		o.limit = rlimit > UCT_LONG_MAX ? UCT_LONG_MAX : rlimit;
	}
	note_limit_hit(o.uc, type);
	note_denied(ctx, uc, type, uc_value(uc, type), o.level, o.limit,
		    bpf_get_current_task_btf());
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

/* Our series: one event per refused request, where it is refused. level is
 * the namespace level of the counter that refused; the leaf (the task's own
 * rlimit) is uc's own level (v3) or -1 (v2 kernels). */
SEC("tp_btf/ucounts_rlimit_refused")
int BPF_PROG(tp_refused, struct ucounts *uc, int type, int level, long value, long max)
{
	if (!uc || type < 0 || type >= UCT_NTYPES)
		return 0;
	note_limit_hit(chain_at(uc, level), type);
	if (sig_split && type == UCT_SIGPENDING)
		sig_charge_note(uc, 0, false);
	/* a signal's refusal is of its target, which signal_generate and
	 * the timer hooks name (sig_split) */
	note_denied(ctx, uc, type, value, level < 0 ? uc_level(uc) : level, max,
		    sig_split && type == UCT_SIGPENDING ? NULL : bpf_get_current_task_btf());
	return 0;
}

/* Lifetime (our series): alloc for trace only, free always. */
SEC("tp_btf/ucounts_alloc")
int BPF_PROG(tp_alloc, struct ucounts *uc)
{
	if (uc)
		emit(ctx, uc, UCT_EV_ALLOC, 0, 0, 0, -1, -1);
	return 0;
}

/* The object is gone: its statistics go with it, so whatever is allocated
 * next at this address (or in a namespace that reuses the inode) starts
 * from zero. The totals in denied[] keep its refusals. */
SEC("tp_btf/ucounts_free")
int BPF_PROG(tp_free, struct ucounts *uc)
{
	__u64 key = (__u64)uc;

	if (!uc)
		return 0;
	emit(ctx, uc, UCT_EV_FREE, 0, 0, 0, -1, -1);
	bpf_map_delete_elem(&stats, &key);
	bpf_map_delete_elem(&evcounts, &key);
	ev_forget(uc);
	return 0;
}

/* ---- per-event hooks (--events, trace, check): every charge/uncharge ------- */

/*
 * Our series: one tracepoint per charge/uncharge with the result; refusals
 * come from tp_refused, which is always loaded with it. The arguments
 * (uc, type, delta, value, and for a charge result, level) are read from
 * ctx where they are used, not unpacked up front as BPF_PROG() does: what
 * only emit() needs would otherwise be kept on the stack across
 * ev_count()'s helper calls, on every charge, for a branch the verifier
 * removes unless tracing.
 */
static __always_inline void on_tp_count(__u64 *ctx, bool charge)
{
	struct ucounts *uc = (void *)ctx[0];
	__u32 type = ctx[1];

	if (!uc || type >= UCT_NTYPES)
		return;
	/* result (ctx[4]) refused or no reference: nothing was counted */
	if (charge && (int)ctx[4] >= uct_result_refused())
		return;
	/* a literal each: ev_count() is inlined here before charge is
	 * known, and each program keeps the code it would have alone */
	if (charge)
		ev_count(uc, type, ctx[2], true);
	else
		ev_count(uc, type, ctx[2], false);
	if (!emit_events)
		return;
	if (charge)
		emit(ctx, uc, UCT_EV_CHARGE, ctx[1], ctx[2], ctx[3], ctx[5], -1);
	else
		emit(ctx, uc, UCT_EV_UNCHARGE, ctx[1], ctx[2], ctx[3], -1, -1);
}

SEC("tp_btf/ucounts_rlimit_charge")
int tp_charge(__u64 *ctx)
{
	on_tp_count(ctx, true);
	return 0;
}

SEC("tp_btf/ucounts_rlimit_uncharge")
int tp_uncharge(__u64 *ctx)
{
	on_tp_count(ctx, false);
	return 0;
}

/* Stock kernels: the four charge functions themselves. */
static __always_inline int on_inc(void *ctx, struct ucounts *uc, enum rlimit_type type, long v,
				  long ret)
{
	struct over_at o = { .level = -1 };

	if (!uc || type >= UCT_NTYPES)
		return 0;
	ev_count(uc, type, v, true);
	if (emit_events) {
		if (ret == UCT_LONG_MAX) {
			/* which level is over: rare path, walk the chain */
			first_over(uc, type, UCT_LONG_MAX, 0, &o);
			if (!o.uc)
				o.level = -2;
		}
		emit(ctx, uc, UCT_EV_CHARGE, type, v, uc_value(uc, type), o.level, -1);
	}
	inc_refusal(ctx, uc, type, ret);
	return 0;
}

SEC("fexit/inc_rlimit_ucounts")
int BPF_PROG(inc_exit, struct ucounts *uc, enum rlimit_type type, long v, long ret)
{
	return on_inc(ctx, uc, type, v, ret);
}

/* Our series (v3) with --no-tracepoints: inc_rlimit_ucounts() is an inline
 * wrapper of this one */
SEC("fexit/inc_rlimit_ucounts_over")
int BPF_PROG(inc_over_exit, struct ucounts *uc, enum rlimit_type type, long v, void *over,
	     long ret)
{
	return on_inc(ctx, uc, type, v, ret);
}

/* The live view without --events: only the refusals of mq_open() and
 * SHM_LOCK, which no tracepoint of a stock kernel reports. */
SEC("fexit/inc_rlimit_ucounts")
int BPF_PROG(inc_refusal_exit, struct ucounts *uc, enum rlimit_type type, long v, long ret)
{
	if (uc && (type == UCT_MSGQUEUE || type == UCT_MEMLOCK))
		inc_refusal(ctx, uc, type, ret);
	return 0;
}

SEC("fexit/inc_rlimit_ucounts_over")
int BPF_PROG(inc_over_refusal_exit, struct ucounts *uc, enum rlimit_type type, long v,
	     void *over, long ret)
{
	if (uc && (type == UCT_MSGQUEUE || type == UCT_MEMLOCK))
		inc_refusal(ctx, uc, type, ret);
	return 0;
}

SEC("fexit/dec_rlimit_ucounts")
int BPF_PROG(dec_exit, struct ucounts *uc, enum rlimit_type type, long v, __u64 ret_reg)
{
	if (!uc || type >= UCT_NTYPES)
		return 0;
	ev_count(uc, type, v, false);
	if (emit_events)
		emit(ctx, uc, UCT_EV_UNCHARGE, type, v, uc_value(uc, type), -1, -1);
	return 0;
}

/* The return value through bpf_get_func_ret(): its position in ctx
 * depends on the kernel (core_fixes.bpf.h). */
SEC("fexit/inc_rlimit_get_ucounts")
int inc_get_exit(__u64 *ctx)
{
	struct ucounts *uc = (void *)ctx[0];
	__u32 type = ctx[1];
	long ret = uct_func_ret(ctx);

	if (!uc || type != UCT_SIGPENDING)
		return 0;
	if (inc_get_notes_charge)
		sig_charge_note(uc, ret, uct_inc_get_override(ctx));
	/* ret 0: a level refused and the kernel unwound the charge itself:
	 * nothing changed. The refusal is counted in signal_generate, which
	 * also sees the caller's own RLIMIT_SIGPENDING. */
	if (!ret)
		return 0;
	ev_count_sig(uc, true);
	if (emit_events)
		emit(ctx, uc, UCT_EV_CHARGE, type, 1, ret, -1, -1);
	return 0;
}

/* Kernels without the series: what each SIGPENDING charge decided, for
 * its outcome's hook (see sig_charge) */
SEC("fexit/inc_rlimit_get_ucounts")
int sig_charge_exit(__u64 *ctx)
{
	struct ucounts *uc = (void *)ctx[0];

	if (uc && (__u32)ctx[1] == UCT_SIGPENDING)
		sig_charge_note(uc, uct_func_ret(ctx), uct_inc_get_override(ctx));
	return 0;
}

/* sig_fentry: the same count, before the charge (see sig_last) */
SEC("fentry/inc_rlimit_get_ucounts")
int inc_get_entry(__u64 *ctx)
{
	struct ucounts *uc = (void *)ctx[0];
	struct uct_sig_last *last;
	struct uct_evcount *e;
	bool shared;
	__u32 cpu, i;

	if (!uc || (__u32)ctx[1] != UCT_SIGPENDING)
		return 0;
	cpu = bpf_get_smp_processor_id();
	i = ev_slot(uc, cpu);
	e = ev_counts_at(uc, cpu, i, &shared);
	if (e)
		ev_add(&e->charges[UCT_SIGPENDING], 1, shared);
	else
		count(UCT_CNT_EVCOUNTS_FULL);
	/* written for every charge: one that found no counter leaves none
	 * to take back, not the previous charge's */
	last = sig_last_slot();
	if (last) {
		last->uc = e ? (__u64)uc : 0;
		last->slot = i;
		last->uncharged = 0;
	}
	return 0;
}

/* fentry, not fexit: dec_rlimit_put_ucounts() may free the ucounts. */
SEC("fentry/dec_rlimit_put_ucounts")
int BPF_PROG(dec_put_entry, struct ucounts *uc, enum rlimit_type type)
{
	struct uct_sig_last *last;

	if (!uc || type != UCT_SIGPENDING)
		return 0;
	ev_count_sig(uc, false);
	if (sig_fentry) {
		/* the leaf refusal's own uncharge, if this CPU's last charge
		 * was of uc (see sig_last) */
		last = sig_last_slot();
		if (last && last->uc == (__u64)uc)
			last->uncharged = 1;
	}
	if (sig_fentry && timers_charging)
		timer_charge_dec(ctx, uc);
	if (emit_events)
		emit(ctx, uc, UCT_EV_UNCHARGE, type, 1, uc_value(uc, type) - 1, -1, -1);
	return 0;
}

SEC("fentry/posixtimer_init_sigqueue")
int BPF_PROG(timer_sigq_entry)
{
	timer_charge_begin();
	return 0;
}

/* 7.x: false when the charge was refused (nothing else fails there) */
SEC("fexit/posixtimer_init_sigqueue")
int BPF_PROG(timer_sigq_exit, struct sigqueue *q, __u64 ret_reg)
{
	timer_charge_end(ctx, (__u8)ret_reg);
	return 0;
}

SEC("fentry/sigqueue_alloc")
int BPF_PROG(sigq_alloc_entry)
{
	timer_charge_begin();
	return 0;
}

/* 6.x: NULL when the charge was refused, or when its GFP_KERNEL
 * allocation failed, which for an object this small happens only to a
 * task the OOM killer has chosen: taken as a refusal */
SEC("fexit/sigqueue_alloc")
int BPF_PROG(sigq_alloc_exit, struct sigqueue *ret)
{
	timer_charge_end(ctx, ret != NULL);
	return 0;
}

/* A queued signal that could not get a sigqueue: SIGPENDING refusal
 * (RT signals fail with EAGAIN, others lose their siginfo). */
SEC("tp_btf/signal_generate")
int BPF_PROG(sig_generate, int sig, struct kernel_siginfo *info, struct task_struct *task,
	     int group, int result)
{
	struct uct_sig_last *last;
	unsigned long lim;
	struct ucounts *uc;

	if (!uct_signal_overflowed(result)) {
		/* a charge that ended well: no evidence for a later outcome
		 * whose own record is missing (see sig_charge) */
		if (!sig_split)
			sig_charge_take(NULL);
		return 0;
	}
	/* loaded, not probe-read: emit() needs a BTF pointer. The charge
	 * was the target's: task_ucounts() of __sigqueue_alloc(). */
	uc = task->real_cred->ucounts;
	lim = task->signal->rlim[RLIMIT_SIGPENDING_].rlim_cur;
	if (sig_split) {
		if (uc && sig_refused(uc, lim))
			note_refused_task(uc, UCT_SIGPENDING, task, get_stat(uc));
		return 0;
	}
	if (sig_fentry) {
		/* the refused charge, undone inside inc_rlimit_get_ucounts()
		 * unless a dec of it followed (see sig_last); only if the last
		 * charge counted on this CPU was of this target: a charge the
		 * fentry missed (its recursion guard) is not someone else's */
		last = sig_last_slot();
		if (last && last->uc && last->uc == (__u64)uc)
			sig_uncount(last);
		if (last)
			last->uc = 0;
	}
	if (!uc || !sig_refused(uc, lim))
		return 0;
	note_denied(ctx, uc, UCT_SIGPENDING, uc_value(uc, UCT_SIGPENDING), -1, (long)lim, task);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
