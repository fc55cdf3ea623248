/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hasher.h - bcrypt off the serving thread. A refused login costs a
 * bcrypt (tens of milliseconds at cost 10, more in a slow guest); done
 * in the one thread that answers scrapes, a client sending wrong
 * passwords would take that thread from the scraper. Here they run in
 * UCT_HASHER_THREADS threads, at most UCT_HASHER_JOBS at once, waiting
 * or running; the serving thread suspends the connection (MHD), goes on
 * with the others, and resumes it when its hasher's eventfd says a job
 * is done. A job past the bound is not taken: the caller answers 503.
 */
#ifndef UCT_HASHER_H
#define UCT_HASHER_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include "basic_auth.h"

#define UCT_HASHER_THREADS	2
#define UCT_HASHER_JOBS		8

struct uct_hash_req {
	struct uct_auth_job job;
	void *owner;			/* the caller's (an MHD connection) */
	bool done;			/* the job ran: job.ok */
	struct uct_hash_req *next;	/* the hasher's lists */
};

struct uct_hasher {
	pthread_t threads[UCT_HASHER_THREADS];
	size_t nthreads;
	pthread_mutex_t lock;
	pthread_cond_t wake;
	struct uct_hash_req *todo, *todo_tail, *done;
	size_t jobs;			/* taken and not yet handed back */
	bool stopping;
	int efd;			/* readable when done is not empty */
};

/* 0, or -errno (no thread, no eventfd) */
int uct_hasher_start(struct uct_hasher *h);

/* Take r (the caller keeps it alive until uct_hasher_done() gives it
 * back): 0, or -EBUSY with UCT_HASHER_JOBS taken. */
int uct_hasher_submit(struct uct_hasher *h, struct uct_hash_req *r);

/* A job that ran, or NULL; for the serving thread once h->efd is
 * readable (it reads the eventfd itself) */
struct uct_hash_req *uct_hasher_done(struct uct_hasher *h);

/* Wait until every job taken has run (they are on the done list) */
void uct_hasher_drain(struct uct_hasher *h);

/* Let the threads end (after running what they took) and join them */
void uct_hasher_stop(struct uct_hasher *h);

#endif /* UCT_HASHER_H */
