/* SPDX-License-Identifier: GPL-2.0 */
/*
 * proc_limits.h - what the tool reads of live processes from /proc: each
 * one's own rlimits, keyed like a ucounts row (user namespace inode, real
 * uid); the row a process charges; its cgroup path and where cgroup2 is
 * mounted. The leaf level of a charge is checked against the charging
 * task's rlimit, which no kernel structure of the ucounts holds; this is
 * where ucounttop learns it.
 */
#ifndef UCT_PROC_LIMITS_H
#define UCT_PROC_LIMITS_H

#include <stddef.h>
#include <sys/types.h>
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

/* The cgroup v2 path of process pid: the "0::" line of /proc/PID/cgroup
 * (relative to the reader's cgroup namespace). 0, or -1 (no such process,
 * no cgroup v2, a path longer than len - 1). */
int uct_read_task_cgroup(const char *proc, int pid, char *path, size_t len);

/*
 * How much of cgroup path (relative to mnt, where cgroup2 is mounted
 * whole) a tenant cannot have made: the bytes up to the end of the last
 * component whose directory, and every one above it (mnt's too), is
 * owned by owner (the tool: root). A delegated subtree (systemd's
 * user@UID.service, a container's own cgroup namespace) is owned by its
 * tenant, and what the tenant makes in it is too; root makes the
 * runtimes' cgroups. 0 when mnt's root is not owner's or unreadable.
 * *tenant (unless NULL): the owner of the first component past them,
 * whose subtree it is; UCT_NO_UID when there is none.
 */
size_t uct_cgroup_owned_prefix(const char *mnt, const char *path, uid_t owner, __u32 *tenant);

/* Where cgroup2 is mounted whole (its root at the mount point), from the
 * text of /proc/self/mountinfo. 0 and dir, or -1 when it is not. */
int uct_parse_cgroup2_mount(const char *mountinfo, char *dir, size_t len);

/* Every process in /proc; *out is malloc'ed. 0 or -errno. */
int uct_read_task_limits(const char *proc, struct uct_task_limits **out, size_t *n);

#endif /* UCT_PROC_LIMITS_H */
