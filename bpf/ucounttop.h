/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ucounttop.h - types shared by ucounttop.bpf.c (kernel) and cli/ (user).
 *
 * Everything here is plain fixed-width data: the BPF side fills it, the
 * user side reads it from an iterator fd, a map or the ring buffer. Keep the
 * layout free of implicit padding so both compilers agree.
 *
 * Graceful degradation (which program runs depends on the kernel):
 *   snapshot   iter/ucounts (our series) -> every live struct ucounts, or
 *              iter/task (any kernel) -> ucounts reachable from a live
 *              task's cred, walking cred->ucounts->ns->ucounts to the root.
 *   refusals   tp_btf/ucounts_rlimit_refused (our series, all types,
 *              exact); else fexit/ucounts_overlimit or is_rlimit_overlimit
 *              (NPROC checks only).
 *   lifetime   tp_btf/ucounts_free (our series): a freed ucounts' stats
 *              entry is deleted, so a new object never inherits it;
 *              tp_btf/ucounts_alloc for trace.
 *   events     (--events, trace) tp_btf/ucounts_rlimit_charge and
 *              _uncharge (series) or fentry/fexit on the four charge
 *              functions (stock); tp_btf/signal_generate for SIGPENDING
 *              refusals.
 * The BPF code shared by both objects is in ucounts_core.bpf.h.
 */
#ifndef UCOUNTTOP_H
#define UCOUNTTOP_H

/* The four rlimit counters of struct ucounts, in enum rlimit_type order. */
#define UCT_NPROC	0
#define UCT_MSGQUEUE	1
#define UCT_SIGPENDING	2
#define UCT_MEMLOCK	3
#define UCT_NTYPES	4

/* Levels of user namespaces: create_user_ns() refuses a parent above
 * level 32, so the deepest namespace is at level 33 (34 levels, 0..33). */
#define UCT_MAX_LEVELS	34

#define UCT_COMM_LEN	16
/* a UTS nodename: __NEW_UTS_LEN + 1 */
#define UCT_HOST_LEN	65
#define UCT_MAX_STACK	24

/* uct_rec.ns_uid, owner_ns_uid: the namespace maps no uid to this kuid
 * (from_kuid() returns (uid_t)-1, the overflow uid of the views) */
#define UCT_NO_UID	0xffffffffu

/* uct_rec.flags */
#define UCT_REC_ROOT	0x1	/* ns->ucounts == NULL: the init namespace */
#define UCT_REC_TASK	0x2	/* found through a task's cred (iter/task) */
#define UCT_REC_ITER	0x4	/* found by iter/ucounts (complete set) */
#define UCT_REC_USERNS	0x8	/* ucount[UCOUNT_USER_NAMESPACES] > 0: a user
				 * namespace this row created still exists */

/*
 * One struct ucounts in a snapshot. At most one is live per (ns_inum, uid)
 * (the kernel hashes them by (ns, uid)), but both an inode number and an
 * address are reused once freed: id is the object's address, which with
 * (ns_inum, uid) names one object while it lives. The parent is
 * ns->ucounts, the creator's ucounts in the parent namespace, i.e.
 * (parent_ns_inum, parent_uid) == (ns->parent, ns->owner) in practice.
 */
struct uct_rec {
	__u64 id;		/* struct ucounts address */
	__u32 ns_inum;
	__u32 uid;		/* global kuid */
	__u32 parent_ns_inum;	/* 0 for the root */
	__u32 parent_uid;
	__u32 level;		/* ns->level */
	__u32 owner_uid;	/* ns->owner (global kuid) */
	__u32 refcount;		/* ucounts->count */
	__u32 flags;		/* UCT_REC_* */
	__u32 ns_uid;		/* uid as ns's uid_map gives it: from_kuid(ns, uid),
				 * UCT_NO_UID when ns maps none to it */
	__u32 owner_ns_uid;	/* the owner as the parent namespace sees it:
				 * from_kuid(ns->parent, owner); owner_uid for
				 * the root */
	__s64 value[UCT_NTYPES];	/* ucounts->rlimit[] */
	__s64 ns_max[UCT_NTYPES];	/* ns->rlimit_max[] */
};

/*
 * The live view's leaf limits: one record per process (thread-group
 * leader), from iter/task, naming the ucounts its real cred charges and
 * its own soft rlimits of the four types (the leaf level of a charge is
 * checked against the charging task's rlimit, which no ucounts holds).
 * Counter units: memlock in pages; unlimited is UCT_LONG_MAX.
 *
 * The same pass says what runs in each namespace: user space keeps, per
 * namespace, the oldest process whose real cred is in it (by start_time,
 * then pid) and names the namespace after it - its pid, comm, hostname
 * and cgroup (read from /proc/PID/cgroup once per cgroup id) - and its
 * uids after the passwd file in that process's root.
 */
struct uct_tlim {
	__u64 id;			/* real_cred->ucounts of the task */
	__s64 rlim[UCT_NTYPES];
	__u64 start_time;		/* task->start_time: ns since boot */
	__u64 cgroup_id;		/* its cgroup v2 id (the kernfs id, the
					 * directory's inode number); 0: the
					 * kernel has no cgroups */
	__u32 ns_inum;			/* real_cred->user_ns */
	__u32 pid;			/* tgid, in the initial pid namespace */
	/* where its files are, so which /etc/passwd names its users: its
	 * root directory (fs->root: inode number and the kernel's dev_t of
	 * its superblock) and mount namespace; 0 when it has none left */
	__u64 root_ino;
	__u32 root_dev;
	__u32 mnt_ns;
	char comm[UCT_COMM_LEN];
	char hostname[UCT_HOST_LEN];	/* its UTS namespace's nodename; "" when
					 * it has none left (exiting) */
	__u8 pad[3];
	__u32 threads;			/* signal->nr_threads: the NPROC charges
					 * of its threads (a zombie leader's
					 * included, until it is reaped) */
};

/* A row by name: (namespace inode, uid). */
struct uct_key {
	__u32 ns_inum;
	__u32 uid;
};

/*
 * Refusals by who was refused: the row (namespace inode, kuid) whose
 * charge was refused and the cgroup v2 id of the task refused (0: the
 * kernel has no cgroups). Many containers run as one uid in the host's
 * namespace and share its row; this says whose fork was refused. Kept
 * since attach, as the totals are.
 */
struct uct_cgkey {
	__u32 ns_inum;
	__u32 uid;
	__u64 cgroup_id;
};

struct uct_cgdeny {
	__u64 denials[UCT_NTYPES];
};

/*
 * Statistics since attach, per struct ucounts: the stats map's key is the
 * object's address (uct_rec.id), and the entry is deleted when the kernel
 * frees the object (tracepoint ucounts_free), so a new container whose
 * namespace reuses an inode or whose ucounts reuses an address starts from
 * zero. ns_inum and uid say which object the entry was made for: user space
 * joins an entry to a record only when all three match. Counters are
 * updated with atomic adds from any CPU; the user side only reads them.
 */
struct uct_stat {
	__u64 charges[UCT_NTYPES];	/* charge calls (--events) */
	__u64 uncharges[UCT_NTYPES];
	__s64 charged[UCT_NTYPES];	/* sum of deltas charged */
	__s64 uncharged[UCT_NTYPES];
	__u64 denials[UCT_NTYPES];	/* refused charges from this row */
	__u64 limit_hits[UCT_NTYPES];	/* this row was the level over limit */
	__u64 first_seen_ns;		/* bpf_ktime_get_boot_ns() */
	__u64 last_seen_ns;		/* the last refusal */
	__u32 ns_inum;			/* the object this entry counts */
	__u32 uid;
	__u32 last_pid;			/* the last refused task (tgid) */
	__u32 level;
	char last_comm[UCT_COMM_LEN];
};

/*
 * --events: charges and uncharges per struct ucounts, keyed by its address
 * (uct_rec.id): in this CPU's slot of evcache (below), else in one hash
 * the CPUs share. The least a charge can cost: one lookup, adds (plain in
 * a slot, atomic in the hash), no task data, no clock; user space adds
 * the slots and the hash into uct_stat and derives rates from refreshes.
 * The hash is shared, not per CPU, so that the memory it pins does not
 * grow with the machine's possible CPUs (docs/performance.md).
 */
struct uct_evcount {
	__u64 charges[UCT_NTYPES];
	__u64 uncharges[UCT_NTYPES];
	__s64 charged[UCT_NTYPES];
	__s64 uncharged[UCT_NTYPES];
};

/*
 * In front of that hash, a direct-mapped cache: UCT_EVCACHE_SLOTS slots per
 * CPU in one array (cpu * UCT_EVCACHE_SLOTS + slot), a slot chosen by the
 * address. An array lookup is inlined by the verifier; a hash lookup hashes
 * the key and walks a bucket, the bulk of a charge's cost. A slot
 * is claimed (id set) only by its own CPU and only when empty; the
 * ucounts_free program empties every CPU's slot of the freed object, so a
 * new object at the same address starts from zero. A busy slot sends the
 * charge to the hash: user space adds both, by id. Without ucounts_free the
 * cache stays off (evcache_cpus 0), as nothing could empty it.
 */
#define UCT_EVCACHE_BITS	8
#define UCT_EVCACHE_SLOTS	(1u << UCT_EVCACHE_BITS)
#define UCT_EVCACHE_MAX_CPUS	64	/* CPUs above use the hash */

struct uct_evslot {
	__u64 id;			/* struct ucounts address, 0: empty */
	struct uct_evcount c;
};

/* uct_event.kind */
#define UCT_EV_CHARGE	1
#define UCT_EV_UNCHARGE	2
#define UCT_EV_DENIED	3	/* refused charge (caller- or level-limit) */
/* 4: unused, and not reused: a kind keeps one meaning */
#define UCT_EV_ALLOC	5
#define UCT_EV_FREE	6

/*
 * One ring-buffer record (trace mode): 56 bytes, 64 with the ring's header,
 * so that a saturating workload overruns the ring later and the reader
 * touches one cache line per event. Small fields are as wide as their
 * range needs: a level is at most 33, the types and kinds are below 8.
 */
struct uct_event {
	__u64 ts_ns;		/* bpf_ktime_get_boot_ns() */
	__u32 pid;		/* tgid */
	__u32 ns_inum;
	__u32 uid;
	__u8 kind;		/* UCT_EV_* */
	__u8 type;		/* UCT_NPROC.. */
	__u8 level;
	__s8 at_level;		/* level over its limit, -1 if none */
	union {
		__s64 delta;	/* charge, uncharge */
		__s64 limit;	/* denied: the limit that refused it, -1
				 * if unknown (a refusal changes nothing) */
	};
	__s64 value;		/* leaf counter after the change */
	char comm[UCT_COMM_LEN];	/* NUL-padded */
	/* only in records of trace --stack: */
	__u32 nstack;		/* kernel frames in stack[] */
	__u32 pad;
	__u64 stack[UCT_MAX_STACK];
};
/* The size of a record without stack room (trace without --stack) */
#define UCT_EVENT_NOSTACK_SIZE	__builtin_offsetof(struct uct_event, nstack)

/*
 * Indexes into the counters[] array in .bss (see ucounttop.bpf.c). The
 * check object keeps SEEN_FULL and CHAIN_CUT at the same indexes: the
 * shared snapshot code (ucounts_core.bpf.h) counts them.
 */
#define UCT_CNT_STATS_FULL	0	/* stats map full: update refused */
#define UCT_CNT_RB_DROPS	1	/* ring buffer full: event dropped */
#define UCT_CNT_SEEN_FULL	2	/* dedup map full (snapshot still ok) */
#define UCT_CNT_CHAIN_CUT	3	/* chain longer than UCT_MAX_LEVELS */
#define UCT_CNT_EVENTS		4	/* user space: the --events counts of
					 * the live objects, summed */
#define UCT_CNT_MISSED		5	/* user space: program runs the kernel
					 * skipped (recursion_misses, summed) */
#define UCT_CNT_SIG_UNDECIDED	6	/* --events: a timer's refused charge
					 * that may have been counted */
#define UCT_CNT_EVCOUNTS_FULL	7	/* --events' count map full */
#define UCT_CNT_CG_FULL		8	/* cg_denials full: a refusal's
					 * cgroup not kept */
#define UCT_CNT_SIG_NOMEM	9	/* a signal's or timer's sigqueue the
					 * kernel failed to allocate: no
					 * refusal */
#define UCT_NCOUNTERS		10

/*
 * The maps' entries as user space reads them, a key beside its value
 * (cli/kernel/ reads them, cli/top/ builds its model of them).
 */
/* Refusals by row and cgroup, as the cg_denials map holds them */
struct uct_cgdeny_kv {
	struct uct_cgkey key;
	struct uct_cgdeny d;
};

/* A stats-map entry: key is the object's address; st.ns_inum and st.uid
 * say which object it was made for (0, 0: named by its address only, as
 * --events' per-CPU counts are). */
struct uct_stat_kv {
	__u64 id;
	struct uct_stat st;
};

#endif /* UCOUNTTOP_H */
