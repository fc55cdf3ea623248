// SPDX-License-Identifier: GPL-2.0
/* hasher.c - bcrypt in threads of its own (hasher.h). */
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>
#include "hasher.h"

static void *worker(void *arg)
{
	struct uct_hasher *h = arg;
	void *scratch = malloc(uct_basic_auth_scratch_size());
	uint64_t one = 1;

	pthread_mutex_lock(&h->lock);
	for (;;) {
		struct uct_hash_req *r;

		while (!h->todo && !h->stopping)
			pthread_cond_wait(&h->wake, &h->lock);
		if (!h->todo)
			break;
		r = h->todo;
		h->todo = r->next;
		if (!h->todo)
			h->todo_tail = NULL;
		pthread_mutex_unlock(&h->lock);
		/* no scratch: refused, as a failed bcrypt would be */
		if (scratch)
			uct_basic_auth_hash(&r->job, scratch);
		else
			r->job.ok = false;
		pthread_mutex_lock(&h->lock);
		r->done = true;
		r->next = h->done;
		h->done = r;
		pthread_cond_broadcast(&h->wake);
		/* a full counter only means it is readable already */
		(void)!write(h->efd, &one, sizeof(one));
	}
	pthread_mutex_unlock(&h->lock);
	free(scratch);
	return NULL;
}

int uct_hasher_start(struct uct_hasher *h)
{
	sigset_t all, old;
	int err = 0;

	memset(h, 0, sizeof(*h));
	h->efd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (h->efd < 0)
		return -errno;
	pthread_mutex_init(&h->lock, NULL);
	pthread_cond_init(&h->wake, NULL);
	/* signals are the serving thread's: the workers take none */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	for (h->nthreads = 0; h->nthreads < UCT_HASHER_THREADS; h->nthreads++) {
		err = pthread_create(&h->threads[h->nthreads], NULL, worker, h);
		if (err)
			break;
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (!h->nthreads) {
		close(h->efd);
		h->efd = -1;
		return -err;
	}
	return 0;
}

int uct_hasher_submit(struct uct_hasher *h, struct uct_hash_req *r)
{
	pthread_mutex_lock(&h->lock);
	if (h->jobs >= UCT_HASHER_JOBS || h->stopping) {
		pthread_mutex_unlock(&h->lock);
		return -EBUSY;
	}
	r->done = false;
	r->next = NULL;
	if (h->todo_tail)
		h->todo_tail->next = r;
	else
		h->todo = r;
	h->todo_tail = r;
	h->jobs++;
	pthread_cond_signal(&h->wake);
	pthread_mutex_unlock(&h->lock);
	return 0;
}

struct uct_hash_req *uct_hasher_done(struct uct_hasher *h)
{
	struct uct_hash_req *r;
	uint64_t n;

	(void)!read(h->efd, &n, sizeof(n));
	pthread_mutex_lock(&h->lock);
	r = h->done;
	if (r) {
		h->done = r->next;
		h->jobs--;
		/* more to hand back: stay readable */
		if (h->done) {
			n = 1;
			(void)!write(h->efd, &n, sizeof(n));
		}
	}
	pthread_mutex_unlock(&h->lock);
	return r;
}

void uct_hasher_drain(struct uct_hasher *h)
{
	pthread_mutex_lock(&h->lock);
	while (h->todo)
		pthread_cond_wait(&h->wake, &h->lock);
	/* the ones running end on the done list too */
	for (;;) {
		size_t ran = 0;
		struct uct_hash_req *r;

		for (r = h->done; r; r = r->next)
			ran++;
		if (ran == h->jobs)
			break;
		pthread_cond_wait(&h->wake, &h->lock);
	}
	pthread_mutex_unlock(&h->lock);
}

void uct_hasher_stop(struct uct_hasher *h)
{
	size_t i;

	if (!h->nthreads)
		return;
	pthread_mutex_lock(&h->lock);
	h->stopping = true;
	pthread_cond_broadcast(&h->wake);
	pthread_mutex_unlock(&h->lock);
	for (i = 0; i < h->nthreads; i++)
		pthread_join(h->threads[i], NULL);
	pthread_mutex_destroy(&h->lock);
	pthread_cond_destroy(&h->wake);
	close(h->efd);
	h->efd = -1;
	h->nthreads = 0;
}
