/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ucounttop_check.h - types shared by ucounttop_check.bpf.c (kernel) and
 * cli/check/ (user) for `ucounttop check`.
 *
 * check runs a workload and then judges every struct ucounts counter
 * change it saw. The BPF side aggregates everything in maps (nothing goes
 * through a ring buffer, so nothing is lost to it; a full map is counted):
 *
 *   tally     per (ns, uid), per type: net of every charge/uncharge that
 *             reached that level (the charge functions walk the chain, so
 *             do we). The snapshot reads it together with the counter, so
 *             "counter moved without a charge reaching it" is exact.
 *   agg       per (row, type, kind, kernel stack): charges, uncharges,
 *             uncharges with no open charge, negative counters.
 *   fifo/item open charges per (row, type, amount), paired first-in
 *             first-out with uncharges of the same amount: what is left
 *             are the outstanding charges, grouped by stack as bcc's
 *             memleak groups outstanding allocations.
 *   over      charges that left a level above its limit, with what the
 *             kernel said and did about them (class e), per stack.
 *   freed     struct ucounts freed with a non-zero rlimit counter
 *             (tracepoint ucounts_free, our series only).
 *   obj       evidence: message queues and SHM_LOCKed segments created
 *             since attach and still holding their charge; pre_rel: those
 *             that existed before attach and released theirs.
 *   inv       evidence from a task-iterator pass: tasks per cred ucounts
 *             (NPROC), pending signals and POSIX timers per sigqueue
 *             ucounts (SIGPENDING).
 *
 * Plain fixed-width data, no implicit padding.
 */
#ifndef UCOUNTTOP_CHECK_H
#define UCOUNTTOP_CHECK_H

#include "ucounttop.h"

#define UCK_STACK_DEPTH	32	/* frames kept per kernel stack */

/* A kernel stack's return addresses, innermost first, zero after the last. */
struct uck_stack {
	__u64 ip[UCK_STACK_DEPTH];
};

/* Snapshot record: one struct ucounts with the event tally of its level
 * read at the same moment. */
struct uck_rec {
	struct uct_rec r;		/* the live view's record */
	__s64 tally[UCT_NTYPES];	/* net charged at this level since attach */
};

struct uck_tally {
	__s64 net[UCT_NTYPES];
	struct uct_key parent;	/* the level above (ns->ucounts) */
	__u32 level;
	__u32 flags;		/* UCT_REC_ROOT: no level above */
};

/* agg kinds */
#define UCK_K_CHARGE	0	/* a charge, at the charged (leaf) row */
#define UCK_K_UNCHARGE	1	/* an uncharge, at the leaf */
#define UCK_K_UNMATCHED	2	/* an uncharge with no open charge of that amount */
#define UCK_K_NEGATIVE	3	/* an uncharge left this level (key) below zero */
#define UCK_K_REFUSED	4	/* a charge the kernel refused and unwound itself */
#define UCK_NKINDS	5

struct uck_agg_key {
	__u32 ns_inum;
	__u32 uid;
	__u32 type;
	__u32 kind;
	__s32 stack_id;		/* < 0: no stack (see UCK_CNT_STACK_ERR) */
	__u32 pad;
};

struct uck_agg {
	__u64 count;
	__s64 total;		/* sum of amounts */
	__s64 extreme;		/* NEGATIVE: lowest value seen */
	__u32 pid;		/* last task (tgid) */
	__u32 pad;
	char comm[UCT_COMM_LEN];
};

struct uck_fifo_key {
	__u32 ns_inum;
	__u32 uid;
	__u32 type;
	__u32 pad;
	__s64 amount;
};

struct uck_fifo {
	__u64 head;		/* next charge to pair with an uncharge */
	__u64 tail;		/* next free slot */
};

struct uck_item_key {
	struct uck_fifo_key f;
	__u64 idx;
};

struct uck_item {
	__s32 stack_id;
	__u32 pid;
	__u64 ts_ns;
	char comm[UCT_COMM_LEN];
};

/* Class e: a charge that left some level above its limit. flags: */
#define UCK_E_CHECKED		0x01	/* is_rlimit_overlimit() looked at it */
#define UCK_E_CHECK_OVER	0x02	/* ... and said "over" */
#define UCK_E_KERNEL_OVER	0x04	/* the charge function said "over" */
#define UCK_E_EXEMPT		0x08	/* caller privileged for this type */
#define UCK_E_ROLLED_BACK	0x10	/* same task uncharged the same amount */
#define UCK_E_SAID_WITHIN	0x20	/* the kernel said "within" while over */
#define UCK_E_CALLER_CMP	0x40	/* caller compares the leaf (msgqueue, memlock) */
#define UCK_E_END		0x80	/* still pending when the workload ended */
#define UCK_E_LEVEL		0x100	/* over at a level above the leaf */

struct uck_over_key {
	__u32 ns_inum;		/* the charged (leaf) row */
	__u32 uid;
	__u32 type;
	__u32 flags;		/* UCK_E_* */
	__s32 stack_id;		/* the charge (or check) stack */
	__u32 pad;
};

struct uck_over {
	__u64 count;
	__s64 total;		/* sum of the charges */
	__s64 value;		/* last: the counter over its limit */
	__s64 limit;		/* last: that limit */
	__u32 at_ns;		/* last: the level over its limit */
	__u32 at_uid;
	__s32 at_level;
	__s32 stack2;		/* SAID_WITHIN at a check: the charge's stack */
	__u32 pid;
	__u32 pad;
	char comm[UCT_COMM_LEN];
};

/* A charge over a limit waiting for its task's next move (per tid). */
struct uck_pend {
	__u64 uc;		/* struct ucounts * */
	__u32 ns_inum;
	__u32 uid;
	__u32 type;
	__u32 flags;
	__s64 amount;
	__s64 value;
	__s64 limit;
	__u32 at_ns;
	__u32 at_uid;
	__s32 at_level;
	__s32 stack_id;
	__u32 pid;
	__u32 pad;
	char comm[UCT_COMM_LEN];
};

#define UCK_MAX_ANC	8

/* A struct ucounts freed with a non-zero rlimit counter (class c). */
struct uck_free_key {
	__u32 ns_inum;
	__u32 uid;
	__s32 stack_id;
	__u32 pad;
};

struct uck_free {
	__u64 count;
	__s64 value[UCT_NTYPES];	/* summed over the frees */
	__u32 level;
	__u32 nanc;			/* ancestors recorded in anc[] */
	struct uct_key anc[UCK_MAX_ANC];/* parent, grandparent, ... */
	__u32 pid;
	__u32 pad;
	char comm[UCT_COMM_LEN];
};

/* Evidence objects, keyed by the inode (or a per-task id). */
#define UCK_OBJ_MQUEUE	1	/* POSIX message queue (MSGQUEUE bytes) */
#define UCK_OBJ_SHMLOCK	2	/* SHM_LOCKed SysV segment (MEMLOCK pages) */
#define UCK_OBJ_UNOWNED	3	/* user_shm_lock() outside shmem_lock() */

struct uck_obj {
	__u32 ns_inum;
	__u32 uid;
	__u32 type;
	__u32 kind;		/* UCK_OBJ_* */
	__s64 amount;
	__u32 pid;
	__u32 pad;
	char comm[UCT_COMM_LEN];
};

/* pre_rel / gone key: (row, type) */
struct uck_rt_key {
	__u32 ns_inum;
	__u32 uid;
	__u32 type;
	__u32 pad;
};

struct uck_sum {
	__u64 count;
	__s64 total;
};

/* Inventory (task iterator pass) */
#define UCK_INV_TASK	0	/* a user task, NPROC 1 */
#define UCK_INV_KTHREAD	1	/* a kernel thread, NPROC 1 */
#define UCK_INV_SIGQ	2	/* a queued signal, SIGPENDING 1 */
#define UCK_INV_TIMER	3	/* a POSIX timer's preallocated sigqueue */
#define UCK_NINV	4

struct uck_inv_key {
	__u32 ns_inum;
	__u32 uid;
	__u32 kind;		/* UCK_INV_* */
	__u32 pad;
};

/* counters[] in .bss; SEEN_FULL and CHAIN_CUT are the shared snapshot
 * code's, at the live view's indexes (ucounttop.h) */
#define UCK_CNT_EVENTS		0	/* charge/uncharge/free events */
#define UCK_CNT_AGG_FULL	1
#define UCK_CNT_SEEN_FULL	UCT_CNT_SEEN_FULL
#define UCK_CNT_CHAIN_CUT	UCT_CNT_CHAIN_CUT
#define UCK_CNT_FIFO_FULL	4
#define UCK_CNT_ITEM_FULL	5
#define UCK_CNT_TALLY_FULL	6
#define UCK_CNT_STACK_ERR	7	/* no stack: stacks full, or no scratch slot free */
#define UCK_CNT_OVER_FULL	8
#define UCK_CNT_PEND_FULL	9
#define UCK_CNT_FREE_FULL	10
#define UCK_CNT_OBJ_FULL	11
#define UCK_CNT_INV_FULL	12
#define UCK_CNT_INV_TRUNC	13	/* a signal list longer than walked */
#define UCK_CNT_FREES		14	/* every ucounts_free */
#define UCK_CNT_SHM_GONE	15	/* locked shmem inode evicted */
#define UCK_CNT_RACED		16	/* "over while the kernel said within?"
					 * not asked: another change overlapped */
#define UCK_NCOUNTERS		17

#endif /* UCOUNTTOP_CHECK_H */
