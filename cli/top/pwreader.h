/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pwreader.h - tenants' passwd files read by a helper process (helper.h,
 * privread.h) with a deadline, so that a file system a tenant serves
 * cannot stop a refresh.
 *
 * A tenant can put a FUSE file system that never answers (or an overlay
 * with such a layer) under its /etc: resolving etc/passwd there waits in
 * the kernel until its daemon answers, deaf to every signal. Each read
 * here waits at most UCT_PWREAD_DEADLINE seconds; past it the helper is
 * abandoned and the namespace quarantined: not read again for
 * UCT_PWREAD_BACKOFF seconds, twice that after each further timeout up
 * to UCT_PWREAD_BACKOFF_MAX, its names held so far kept. While
 * UCT_HELPER_MAX_STUCK helpers are stuck, no tenant's file is read.
 * ucounttop's own file (pid 0) is read in the caller: root's tree is no
 * tenant's.
 */
#ifndef UCT_PWREADER_H
#define UCT_PWREADER_H

#include "privread.h"
#include "users.h"

#define UCT_PWREAD_DEADLINE	0.25
#define UCT_PWREAD_BACKOFF	10.0
#define UCT_PWREAD_BACKOFF_MAX	300.0
#define UCT_PWREAD_QUARANTINE_MAX	64	/* namespaces remembered */

struct uct_pwquarantine {
	__u32 ns_inum, mnt_ns;
	double until, backoff;
};

struct uct_pwreader {
	struct uct_privread *pr;	/* the helpers, shared */
	const char *proc, *own;
	double deadline;
	struct uct_pwquarantine q[UCT_PWREAD_QUARANTINE_MAX];
	size_t nq;
	struct uct_pwbudget *stats;	/* where timeouts and the rest are counted */
};

/* proc and own as for uct_passwd_read(), for our own file; pr: the
 * helpers that read tenants'; stats: the model's (m->passwd). */
void uct_pwreader_init(struct uct_pwreader *r, const char *proc, const char *own,
		       struct uct_privread *pr, struct uct_pwbudget *stats);
/* A uct_passwd_fn (arg: the reader) */
int uct_pwreader_read(void *arg, const struct uct_pwsrc *src, const struct uct_file_id *known,
		      struct uct_file_id *id, char **text, size_t *len, bool *whole);

#endif /* UCT_PWREADER_H */
