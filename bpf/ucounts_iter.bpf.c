// SPDX-License-Identifier: GPL-2.0
/*
 * The live ucounts table, one line per struct ucounts, through the "ucounts"
 * bpf iterator of our kernel series:
 *
 *   bpftool iter pin ucounts_iter.bpf.o /sys/fs/bpf/ucounts
 *   cat /sys/fs/bpf/ucounts
 *
 * Columns: inode number of the user namespace (as in /proc/PID/ns/user), its
 * level (0 = initial namespace), the uid and the namespace owner's uid (both
 * global kuid values), then the four per-namespace rlimit counters.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_tracing.h>

char LICENSE[] SEC("license") = "GPL";

/*
 * The iterator's context (struct bpf_iter__ucounts in the patched kernel),
 * spelled out so that this file also compiles against a vmlinux.h from a
 * kernel without the iterator; loading it there fails cleanly instead.
 */
struct ucounts_iter_ctx {
	struct bpf_iter_meta *meta;
	struct ucounts *ucounts;	/* NULL on the final call */
};

SEC("iter/ucounts")
int dump_ucounts(struct ucounts_iter_ctx *ctx)
{
	struct seq_file *seq = ctx->meta->seq;
	struct ucounts *uc = ctx->ucounts;
	unsigned int ns_inum, uid, owner;
	long nproc, msgqueue, sigpending, memlock;
	int level;

	/* the final call (uc NULL) has seq_num 0 too when one row was shown */
	if (!uc)
		return 0;
	if (ctx->meta->seq_num == 0)
		BPF_SEQ_PRINTF(seq, "ns_inum level uid owner_uid nproc msgqueue sigpending memlock\n");

	ns_inum = BPF_CORE_READ(uc, ns, ns.inum);
	level = BPF_CORE_READ(uc, ns, level);
	uid = BPF_CORE_READ(uc, uid.val);
	owner = BPF_CORE_READ(uc, ns, owner.val);
	nproc = BPF_CORE_READ(uc, rlimit[UCOUNT_RLIMIT_NPROC].counter);
	msgqueue = BPF_CORE_READ(uc, rlimit[UCOUNT_RLIMIT_MSGQUEUE].counter);
	sigpending = BPF_CORE_READ(uc, rlimit[UCOUNT_RLIMIT_SIGPENDING].counter);
	memlock = BPF_CORE_READ(uc, rlimit[UCOUNT_RLIMIT_MEMLOCK].counter);

	BPF_SEQ_PRINTF(seq, "%u %d %u %u %ld %ld %ld %ld\n", ns_inum, level, uid,
		       owner, nproc, msgqueue, sigpending, memlock);
	return 0;
}
