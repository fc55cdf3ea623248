// SPDX-License-Identifier: GPL-2.0
/* pwreader.c - tenants' passwd files read with a deadline (pwreader.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "clock.h"
#include "pwreader.h"

void uct_pwreader_init(struct uct_pwreader *r, const char *proc, const char *own,
		       struct uct_privread *pr, struct uct_pwbudget *stats)
{
	memset(r, 0, sizeof(*r));
	r->pr = pr;
	r->proc = proc;
	r->own = own;
	r->deadline = UCT_PWREAD_DEADLINE;
	r->stats = stats;
}

static struct uct_pwquarantine *quarantine_of(struct uct_pwreader *r, const struct uct_pwsrc *src)
{
	size_t i;

	for (i = 0; i < r->nq; i++)
		if (r->q[i].ns_inum == src->ns_inum && r->q[i].mnt_ns == src->mnt_ns)
			return &r->q[i];
	return NULL;
}

/* A timeout: the namespace waits, longer each time; when the list is
 * full, the entry whose wait ends first makes room */
static void quarantine(struct uct_pwreader *r, const struct uct_pwsrc *src, double now)
{
	struct uct_pwquarantine *e = quarantine_of(r, src);
	size_t i;

	if (!e && r->nq < UCT_PWREAD_QUARANTINE_MAX) {
		e = &r->q[r->nq++];
		*e = (struct uct_pwquarantine){ src->ns_inum, src->mnt_ns, 0, 0 };
	} else if (!e) {
		e = &r->q[0];
		for (i = 1; i < r->nq; i++)
			if (r->q[i].until < e->until)
				e = &r->q[i];
		*e = (struct uct_pwquarantine){ src->ns_inum, src->mnt_ns, 0, 0 };
	}
	e->backoff = e->backoff ? e->backoff * 2 : UCT_PWREAD_BACKOFF;
	if (e->backoff > UCT_PWREAD_BACKOFF_MAX)
		e->backoff = UCT_PWREAD_BACKOFF_MAX;
	e->until = now + e->backoff;
}

static void report(struct uct_pwreader *r, double now)
{
	size_t i, n = 0;

	for (i = 0; i < r->nq; i++)
		n += r->q[i].until > now;
	r->stats->quarantined = n;
	r->stats->stuck = uct_helper_stuck(&r->pr->helper);
}

int uct_pwreader_read(void *arg, const struct uct_pwsrc *src, const struct uct_file_id *known,
		      struct uct_file_id *id, char **text, size_t *len, bool *whole)
{
	struct uct_pwreader *r = arg;
	struct uct_privread_req q = { .op = UCT_PR_PASSWD, .src = *src };
	struct uct_pwquarantine *e;
	struct uct_privread_passwd a;
	double now = uct_now_s();
	size_t n;
	int err;

	if (!src->pid)
		return uct_passwd_read(r->proc, r->own, src, known, id, text, len, whole);
	e = quarantine_of(r, src);
	if (e && e->until > now) {
		r->stats->later++;
		report(r, now);
		return UCT_PASSWD_LATER;
	}
	if (known) {
		q.have_known = 1;
		q.known = *known;
	}
	err = uct_privread_call(r->pr, &q, &n, r->deadline);
	now = uct_now_s();
	if (err == -ETIMEDOUT) {
		r->stats->timeouts++;
		quarantine(r, src, now);
	}
	if (err == -ETIMEDOUT || err == -EAGAIN)
		r->stats->later++;
	report(r, now);
	if (err)
		return err == -ETIMEDOUT || err == -EAGAIN ? UCT_PASSWD_LATER : -1;
	if (e)	/* answered again: its wait starts over */
		*e = r->q[--r->nq];
	memcpy(&a, r->pr->reply, sizeof(a));
	if (n < sizeof(a) || a.len > n - sizeof(a))
		return -1;
	if (a.rc != 0)
		return a.rc > 0 ? 1 : -1;
	*text = malloc(a.len + 1);
	if (!*text)
		return -1;
	memcpy(*text, r->pr->reply + sizeof(a), a.len);
	(*text)[a.len] = 0;
	*len = a.len;
	*whole = a.whole;
	*id = a.id;
	return 0;
}
