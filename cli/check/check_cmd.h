/* SPDX-License-Identifier: GPL-2.0 */
/*
 * check_cmd.h - run check's CMD, bounded: CMD in its own process group,
 * --timeout on CMD itself, SIGINT/SIGTERM/SIGHUP forwarded to that group,
 * then at most --settle for the descendants it left behind (check is their
 * subreaper). Whatever still runs is named, never waited for.
 */
#ifndef UCT_CHECK_RUN_H
#define UCT_CHECK_RUN_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>
#include "common.h"

/* A descendant still running when check stopped waiting. */
struct check_left {
	pid_t pid;
	unsigned uid;			/* real uid, as check's namespace sees it */
	unsigned long long userns;	/* inode of its user namespace, 0 unknown */
	unsigned threads;		/* each holds NPROC 1 at its ucounts */
	char comm[UCT_COMM_LEN];
};

struct check_cmd {
	pid_t pid;		/* CMD, 0 when it never ran */
	int status;		/* CMD's wait status, -1 unknown */
	bool timed_out;		/* --timeout expired: the group got SIGTERM */
	bool killed;		/* ... and SIGKILL after the grace period */
	int interrupted;	/* signal check received and forwarded, 0 none */
	double cmd_s;		/* CMD's run time */
	double reap_s;		/* then waiting for its descendants */
	struct check_left *left;	/* still running after that */
	size_t nleft;
	/* nest (check --ktap): CMD's standard output and error come through
	 * a pipe, and go to ours indented as a KTAP subtest; so do --user's,
	 * as they are, but with every byte a terminal could act on shown as
	 * '?' when ours is a terminal */
	int relay;			/* the pipe's read end, -1: none */
	bool nest;
	bool terminal_safe;
	bool at_line_start;
};

/* Whom CMD runs as (--user): uid, gid and supplementary groups */
#define CHECK_MAX_GROUPS 64
struct check_user {
	bool set;			/* false: as check itself (root) */
	uid_t uid;
	gid_t gid;
	gid_t groups[CHECK_MAX_GROUPS];
	int ngroups;
};

/*
 * --user SPEC: a user name (its uid, gid and groups from the system's
 * user database, as login and su take them) or UID[:GID] (GID defaults
 * to UID; no supplementary groups). 0, or UCT_EXIT_USAGE with msg.
 */
int check_cmd_user(const char *spec, struct check_user *u, char *msg, size_t len);

/*
 * Run argv and wait as above, argv as user (NULL or !user->set: as we
 * are); once it started, keep only what check still needs of our
 * privileges (privs.h; CMD keeps what user has). As another user, CMD
 * gets a session of its own (no controlling terminal: no TIOCSTI into
 * ours), /dev/null as its standard input, and its output relayed. 0,
 * or UCT_EXIT_CMD (cannot start) or UCT_EXIT_TOOL with msg. timeout 0:
 * none.
 */
int check_cmd_run(char *const *argv, const struct check_user *user, double timeout,
		  double settle, bool nest, struct check_cmd *r, char *msg, size_t len);
void check_cmd_free(struct check_cmd *r);

/* How many signals check received since check_cmd_run() began: one more
 * after CMD ended cuts settling short. */
unsigned int check_cmd_signals(void);

/*
 * check's exit status, as kselftest's runner reads a test's: a finding
 * fails (UCT_EXIT_FAIL) whatever CMD did; else CMD's own outcome: 0
 * passed, 4 (KSFT_SKIP) skipped, 124 timed out (CMD's own 124 or check's
 * --timeout), anything else - another status, a signal, an interruption -
 * failed (UCT_EXIT_CMD_FAILED).
 */
int check_exit_code(bool finding, const struct check_cmd *r);	/* check_exit.c */

#endif /* UCT_CHECK_RUN_H */
