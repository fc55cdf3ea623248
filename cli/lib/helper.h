/* SPDX-License-Identifier: GPL-2.0 */
/*
 * helper.h - work that may block forever, done in a child process that
 * the caller can walk away from.
 *
 * A path lookup in a file system a tenant serves (FUSE, or an overlay
 * with a FUSE layer) waits in the kernel, uninterruptibly, until the
 * tenant's daemon answers: no signal, SIGKILL included, ends it. Done in
 * the only thread, it stops the live view and every scrape. A helper
 * answers requests one at a time; the caller waits for each answer at
 * most a deadline, and past it sends the helper SIGKILL (taken when its
 * system call returns), forgets it and starts another for the next
 * request. Helpers so abandoned are reaped when they end, and at most
 * UCT_HELPER_MAX_STUCK of them are left at once: past that no request
 * is made until one ends, so a tenant's stuck file system costs the
 * caller at most one deadline per request and a bounded number of
 * processes.
 *
 * The helper is a fork of the caller made on its first request (it has
 * the caller's credentials) holding no descriptor but its end of the
 * socket (a stuck helper must not keep a listening port or an output
 * file open), ending when the caller closes it or dies. A caller that
 * has given up its privileges has its helpers made by a process that
 * kept them (spawner.h): uct_helper_use_spawner().
 */
#ifndef UCT_HELPER_H
#define UCT_HELPER_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#define UCT_HELPER_MAX_STUCK	4

/* The helper's side: answer req (req_len bytes) into reply (at most
 * reply_max bytes); returns the answer's length. */
typedef size_t (*uct_helper_serve_fn)(void *arg, const void *req, size_t req_len, void *reply,
				      size_t reply_max);

/* Helpers made elsewhere: start one (its socket, pid and a pidfd, which
 * says when it ended: it is not the caller's child), and end one */
typedef int (*uct_helper_start_fn)(void *arg, int *fd, pid_t *pid, int *pidfd);
typedef void (*uct_helper_kill_fn)(void *arg, pid_t pid);

struct uct_helper {
	uct_helper_serve_fn serve;
	void *arg;
	size_t req_max, reply_max;
	int fd;				/* the live helper's socket, -1: none */
	pid_t pid;			/* the live helper, 0: none */
	int pidfd;			/* the live helper's, -1: a child of ours */
	pid_t stuck[UCT_HELPER_MAX_STUCK];	/* abandoned, not yet ended */
	int stuck_pidfd[UCT_HELPER_MAX_STUCK];
	uct_helper_start_fn start;	/* NULL: fork() */
	uct_helper_kill_fn kill;
	void *spawner;
	size_t nstuck;
	unsigned long started;		/* helpers started so far */
	unsigned long abandoned;	/* requests given up at their deadline */
};

void uct_helper_init(struct uct_helper *h, uct_helper_serve_fn serve, void *arg, size_t req_max,
		     size_t reply_max);

/* Have helpers made by start and ended by kill (arg: theirs) */
void uct_helper_use_spawner(struct uct_helper *h, uct_helper_start_fn start,
			    uct_helper_kill_fn kill, void *arg);

/* fork() with a socket pair between the two: the child's pid (or
 * -errno) and our end in *fd; in the child, 0 and its end */
pid_t uct_fork_socket(int *fd);

/* A helper's life, in a process just forked by parent: answer requests
 * on fd with serve until it closes (fd is moved out of the way and every
 * other descriptor closed; 0-2 become /dev/null). */
void __attribute__((noreturn)) uct_helper_child(uct_helper_serve_fn serve, void *arg,
						 size_t req_max, size_t reply_max, int fd,
						 pid_t parent);

/*
 * Ask: req to the helper (started if none is live), its answer into
 * reply (h->reply_max bytes) and its length into *reply_len, waiting at
 * most deadline_s seconds. 0 on an answer; -ETIMEDOUT when the deadline
 * passed (the helper is abandoned); -EAGAIN when no helper can be
 * started because UCT_HELPER_MAX_STUCK are stuck; another -errno when
 * the helper could not be started or died.
 */
int uct_helper_call(struct uct_helper *h, const void *req, size_t req_len, void *reply,
		    size_t *reply_len, double deadline_s);

/* Helpers abandoned and not yet ended (reaping those that have). */
size_t uct_helper_stuck(struct uct_helper *h);

/* End the live helper; the stuck ones are left to end on their own. */
void uct_helper_close(struct uct_helper *h);

#endif
