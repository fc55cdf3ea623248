/* SPDX-License-Identifier: GPL-2.0 */
/*
 * spawner.h - the process that keeps what a caller gave up.
 *
 * ucounttop reads tenants' files through their processes' /proc entries,
 * which takes CAP_SYS_PTRACE and CAP_DAC_READ_SEARCH, and writes -o's
 * file as root; the parts that face tenants' data and the network need
 * neither. Before it gives them up, the caller forks the spawner: a
 * process that keeps them, holds no descriptor but its socket and the
 * ones named to it, and does three things on request:
 * - makes a helper (helper.h) that serves the spawner's serve function
 *   and hands its socket and a pidfd back (SCM_RIGHTS);
 * - kills a helper of its own (the caller, another user now, may not);
 * - answers a call with the spawner's call function, which may take a
 *   descriptor the caller passes (-o's document, say).
 * It ends when the caller closes its socket or dies, running at_exit
 * first.
 */
#ifndef UCT_SPAWNER_H
#define UCT_SPAWNER_H

#include <stddef.h>
#include <sys/types.h>
#include "helper.h"

/* In the spawner: answer req (and fd, -1: none; the callee closes it)
 * into reply; returns the answer's length */
typedef size_t (*uct_spawner_call_fn)(void *arg, const void *req, size_t len, int fd,
				      void *reply, size_t reply_max);

struct uct_spawner_service {
	const char *name;		/* the spawner's comm; its helpers' */
	const char *helper_name;
	uct_helper_serve_fn serve;	/* what helpers answer, with serve_arg */
	void *serve_arg;
	size_t req_max, reply_max;
	uct_spawner_call_fn call;	/* what the spawner answers (NULL: nothing) */
	size_t call_max;		/* its longest request: a longer one ends it */
	size_t call_reply_max;
	/* in the spawner, once, after the fork and the descriptors closed:
	 * give up what it does not keep; nonzero ends it */
	int (*enter)(void *arg);
	void (*at_exit)(void *arg);	/* before it ends (NULL: nothing) */
	void *arg;			/* call's, enter's and at_exit's */
};

struct uct_spawner {
	int fd;				/* -1: not started */
	pid_t pid;
	size_t call_reply_max;
};

/* Fork the spawner, keeping descriptors keep[0..nkeep) open in it (the
 * same numbers); 0, or -errno. */
int uct_spawner_start(struct uct_spawner *s, const struct uct_spawner_service *svc,
		      const int *keep, size_t nkeep);

/* A uct_helper_start_fn and uct_helper_kill_fn (arg: the spawner) */
int uct_spawner_spawn(void *arg, int *fd, pid_t *pid, int *pidfd);
void uct_spawner_kill(void *arg, pid_t pid);

/* Call the spawner: req (and fd, -1: none) out, the answer into reply
 * (s->call_reply_max bytes), its length into *n, within deadline_s. 0, or
 * -errno (-ETIMEDOUT; -EPIPE: the spawner is gone). */
int uct_spawner_call(struct uct_spawner *s, const void *req, size_t len, int fd, void *reply,
		     size_t *n, double deadline_s);

/* Close the socket and wait (at most deadline_s) for the spawner to end. */
void uct_spawner_stop(struct uct_spawner *s, double deadline_s);

#endif /* UCT_SPAWNER_H */
