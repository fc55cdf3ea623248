/* SPDX-License-Identifier: GPL-2.0 */
/*
 * proc_limits.h - each live process's own rlimits, from /proc, keyed like
 * a ucounts row: (user namespace inode, real uid). The leaf level of a
 * charge is checked against the charging task's rlimit, which no kernel
 * structure of the ucounts holds; this is where ucounttop learns it.
 */
#ifndef UCT_PROC_LIMITS_H
#define UCT_PROC_LIMITS_H

#include <stddef.h>
#include "common.h"

struct uct_task_limits {
	__u32 ns_inum;
	__u32 uid;			/* real uid, global (read from init's view) */
	long long rlim[UCT_NTYPES];	/* soft limits in counter units; LLONG_MAX: unlimited */
};

/*
 * Parse one /proc/PID/limits text into rlim[] (memlock converted to pages,
 * as user_shm_lock() compares pages). 0, or -1 if a line is missing.
 */
int uct_parse_limits(const char *text, long long rlim[UCT_NTYPES]);

/* The row process pid charges: the user namespace of its cred
 * (/proc/PID/ns/user) and its real uid. 0, or -1 if it is gone. */
int uct_read_task_row(const char *proc, int pid, __u32 *ns_inum, __u32 *uid);

/* Every process in /proc; *out is malloc'ed. 0 or -errno. */
int uct_read_task_limits(const char *proc, struct uct_task_limits **out, size_t *n);

#endif /* UCT_PROC_LIMITS_H */
