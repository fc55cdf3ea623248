/* SPDX-License-Identifier: GPL-2.0 */
/*
 * check_load.h - `ucounttop check`'s BPF side: choose the programs of
 * ucounttop_check.bpf.c this kernel can run, load and attach them
 * through the loader's program table (kernel/loader.h), and read what
 * they count about themselves: events seen, drops, runs the kernel
 * skipped.
 */
#ifndef UCT_CHECK_LOAD_H
#define UCT_CHECK_LOAD_H

#include <stdbool.h>
#include <stddef.h>
#include "judge.h"
#include "loader.h"
#include "opts.h"

#define CHECK_PROGS_MAX	26	/* programs in ucounttop_check.bpf.c, at most */

struct ucounttop_check_bpf;

struct check_bpf {
	struct ucounttop_check_bpf *skel;
	struct uct_features feat;
	/* what the judge may claim (judge_input's have_*) */
	bool have_mq, have_shm, have_free, have_overlimit;
	bool complete;			/* iter/ucounts, else iter/task */
	struct uct_prog progs[CHECK_PROGS_MAX];	/* in attach order */
	size_t nprogs;
	char hooks[1024];
	char degraded[1024];		/* hooks dropped, and what it costs */
	struct bpf_link *snap_link, *inv_link;	/* the snapshot, the inventory */
	int stacks_fd;			/* the kernel stacks' map */
	char *snap_buf;			/* the snapshot iterator's read buffer */
	size_t snap_cap;
	/* what the counters and misses read at check_bpf_restart(): what a
	 * test reports is counted from there */
	unsigned long long counters_base[UCK_NCOUNTERS];
	unsigned long long misses_base[JUDGE_NMISS];
};

/* Probe, choose, load, attach. UCT_EXIT_OK or an exit code with msg. */
int check_bpf_open(struct check_bpf *b, const struct uct_opts *o, char *msg, size_t len);
void check_bpf_close(struct check_bpf *b);

/*
 * For the next command of a run (check --kselftest): from here on the
 * judge sees what a fresh attach would show. The event maps are emptied
 * (an uncharge of what was charged before is then one with no open
 * charge, as for a charge made before attaching), and the counters and
 * misses count from zero again. Only between commands: nothing of check's
 * is running then. 0 or -errno.
 */
int check_bpf_restart(struct check_bpf *b);

/* Charges, uncharges and frees seen since attach: unchanged across a
 * read, nothing moved meanwhile. */
unsigned long long check_bpf_events(const struct check_bpf *b);
/* The BPF side's counters (UCK_CNT_*), since attach or the last restart. */
void check_bpf_counters(const struct check_bpf *b, unsigned long long out[UCK_NCOUNTERS]);
/* Runs the kernel skipped since attach or the last restart, by what they
 * would have fed. */
void check_bpf_misses(const struct check_bpf *b, unsigned long long m[JUDGE_NMISS]);

#endif /* UCT_CHECK_LOAD_H */
