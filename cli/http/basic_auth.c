// SPDX-License-Identifier: GPL-2.0
/*
 * basic_auth.c - HTTP basic authentication (RFC 7617) against bcrypt
 * hashes. bcrypt is slow on purpose (a cost of 10 is tens of
 * milliseconds, in the server's one thread): a user's last password that
 * verified is kept, and the same bytes again are let in by a comparison,
 * so a Prometheus scraping every second costs one bcrypt, not one a
 * scrape. A wrong password always costs a bcrypt, an unknown user too,
 * so that a refusal takes as long whatever was wrong. Comparisons of
 * secrets take the same time wherever the bytes differ.
 */
#include <crypt.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "basic_auth.h"
#include "common.h"

#ifndef UCT_CRYPT_SONAME
#define UCT_CRYPT_SONAME "libcrypt.so.1"
#endif

static __typeof__(crypt_rn) *crypt_fn;
static struct crypt_data *scratch;

int uct_basic_auth_load(char *msg, size_t len)
{
	/* any salt: only that bcrypt is there is checked, at the lowest cost */
	static const char setting[] = "$2b$04$......................";
	void *lib;
	char *h;

	if (crypt_fn)
		return UCT_EXIT_OK;
	lib = dlopen(UCT_CRYPT_SONAME, RTLD_NOW | RTLD_LOCAL);
	if (!lib) {
		snprintf(msg, len, "--web.config.file: basic_auth_users needs libcrypt (%s; Debian: "
			 "apt install libcrypt1): %s", UCT_CRYPT_SONAME, dlerror());
		return UCT_EXIT_KERNEL;
	}
	crypt_fn = (__typeof__(crypt_rn) *)dlsym(lib, "crypt_rn");
	scratch = calloc(1, sizeof(*scratch));
	h = crypt_fn && scratch ? crypt_fn("x", setting, scratch, sizeof(*scratch)) : NULL;
	if (!h || strncmp(h, setting, 7)) {
		snprintf(msg, len, "--web.config.file: basic_auth_users: %s %s", UCT_CRYPT_SONAME,
			 !crypt_fn ? "has no crypt_rn (not libxcrypt?)" :
			 !scratch ? "cannot be used: out of memory" : "does not compute bcrypt");
		free(scratch);
		scratch = NULL;
		crypt_fn = NULL;
		dlclose(lib);
		return UCT_EXIT_KERNEL;
	}
	return UCT_EXIT_OK;
}

static int b64(unsigned char c)
{
	if (c >= 'A' && c <= 'Z')
		return c - 'A';
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 26;
	if (c >= '0' && c <= '9')
		return c - '0' + 52;
	if (c == '+')
		return 62;
	if (c == '/')
		return 63;
	return -1;
}

bool uct_basic_auth_decode(const char *header, char *buf, size_t cap, const char **user,
			   const char **pass, size_t *pass_len)
{
	const char *s = header, *end;
	size_t n = 0, len, pad = 0, i;
	unsigned bits = 0, acc = 0;
	char *colon;

	if (strncasecmp(s, "Basic ", 6))
		return false;
	for (s += 6; *s == ' '; s++)
		;
	for (end = s; *end && *end != ' '; end++)
		;
	len = end - s;
	while (*end == ' ')
		end++;
	if (*end || !len || len % 4)
		return false;
	if (s[len - 1] == '=')
		pad = s[len - 2] == '=' ? 2 : 1;
	for (i = 0; i < len - pad; i++) {
		int v = b64(s[i]);

		if (v < 0)
			return false;
		acc = (acc << 6) | (unsigned)v;
		bits += 6;
		if (bits >= 8) {
			bits -= 8;
			if (n + 1 >= cap)
				return false;
			buf[n++] = (char)(acc >> bits);
			acc &= (1u << bits) - 1;
		}
	}
	buf[n] = 0;
	colon = memchr(buf, ':', n);
	if (!colon || memchr(buf, 0, n)) {
		explicit_bzero(buf, n);
		return false;
	}
	*colon = 0;
	*user = buf;
	*pass = colon + 1;
	*pass_len = n - (colon + 1 - buf);
	return true;
}

/* a and b equal, in a time that depends on n alone */
static bool same_bytes(const void *a, const void *b, size_t n)
{
	const volatile unsigned char *x = a, *y = b;
	unsigned char d = 0;
	size_t i;

	for (i = 0; i < n; i++)
		d |= x[i] ^ y[i];
	return !d;
}

static void remember(struct uct_web_user *u, const char *pass, size_t n)
{
	char *good = malloc(n + 1);

	if (!good)
		return;		/* the next scrape costs a bcrypt again: no harm */
	memcpy(good, pass, n + 1);
	if (u->good) {
		explicit_bzero(u->good, u->good_len);
		free(u->good);
	}
	u->good = good;
	u->good_len = n;
}

enum uct_auth uct_basic_auth_check(struct uct_web_config *w, const char *authorization,
				  bool may_hash, struct uct_auth_job *job)
{
	char buf[UCT_BASIC_AUTH_MAX];
	struct uct_web_user *u = NULL;
	const char *name, *pass;
	size_t n, i;
	enum uct_auth r;

	if (!w->nusers)
		return UCT_AUTH_OK;
	if (!authorization || !crypt_fn ||
	    !uct_basic_auth_decode(authorization, buf, sizeof(buf), &name, &pass, &n))
		return UCT_AUTH_DENY;
	for (i = 0; i < w->nusers && !u; i++)
		if (!strcmp(w->users[i].name, name))
			u = &w->users[i];
	if (u && u->good && u->good_len == n && same_bytes(u->good, pass, n)) {
		r = UCT_AUTH_OK;
	} else if (!may_hash) {
		r = UCT_AUTH_DENY;
	} else {
		/* an unknown user costs a bcrypt too, against the first hash */
		memset(job, 0, sizeof(*job));
		memcpy(job->pass, pass, n + 1);
		job->pass_len = n;
		memcpy(job->hash, u ? u->hash : w->users[0].hash, sizeof(job->hash));
		job->user = u ? (int)(u - w->users) : -1;
		r = UCT_AUTH_HASH;
	}
	explicit_bzero(buf, sizeof(buf));
	return r;
}

bool uct_basic_auth_hash(struct uct_auth_job *job, void *scratch_space)
{
	struct crypt_data *cd = scratch_space;
	const char *h = crypt_fn(job->pass, job->hash, cd, sizeof(*cd));

	job->ok = job->user >= 0 && h && strlen(h) == UCT_WEB_BCRYPT_LEN &&
		  same_bytes(h, job->hash, UCT_WEB_BCRYPT_LEN);
	explicit_bzero(cd, sizeof(*cd));
	return job->ok;
}

size_t uct_basic_auth_scratch_size(void)
{
	return sizeof(struct crypt_data);
}

void uct_basic_auth_remember(struct uct_web_config *w, struct uct_auth_job *job)
{
	struct uct_web_user *u = job->user >= 0 && (size_t)job->user < w->nusers ?
				 &w->users[job->user] : NULL;

	/* the configuration may have changed since: the same hash or nothing */
	if (job->ok && u && !strcmp(u->hash, job->hash))
		remember(u, job->pass, job->pass_len);
	explicit_bzero(job->pass, sizeof(job->pass));
}

bool uct_basic_auth_allow(struct uct_web_config *w, const char *authorization, bool may_hash,
			  bool *hashed)
{
	struct uct_auth_job job;
	bool ok;

	*hashed = false;
	switch (uct_basic_auth_check(w, authorization, may_hash, &job)) {
	case UCT_AUTH_OK:
		return true;
	case UCT_AUTH_DENY:
		return false;
	default:
		break;
	}
	*hashed = true;
	ok = uct_basic_auth_hash(&job, scratch);
	uct_basic_auth_remember(w, &job);
	return ok;
}
