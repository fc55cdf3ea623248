/* SPDX-License-Identifier: GPL-2.0 */
/*
 * basic_auth.h - --web.config.file's basic_auth_users: a request's
 * Authorization header against the users' bcrypt hashes, through
 * libxcrypt's crypt_rn(), loaded with dlopen() when a configuration has
 * users (the live view, trace and check never map it).
 */
#ifndef UCT_BASIC_AUTH_H
#define UCT_BASIC_AUTH_H

#include <stdbool.h>
#include <stddef.h>
#include "web_config.h"

/* The most bytes of "user:password" read from a header */
#define UCT_BASIC_AUTH_MAX	1024

/*
 * Load libcrypt (UCT_CRYPT_SONAME) and check that it computes bcrypt; again,
 * nothing. 0, or UCT_EXIT_KERNEL with msg saying what is missing.
 */
int uct_basic_auth_load(char *msg, size_t len);

/*
 * "Basic BASE64(user:password)" into buf (cap bytes): *user and *pass point
 * into it, NUL-terminated. false for another scheme, bad base64, no colon,
 * a NUL byte, or more than cap - 1 bytes.
 */
bool uct_basic_auth_decode(const char *header, char *buf, size_t cap, const char **user,
			   const char **pass, size_t *pass_len);

/*
 * May a request with this Authorization header (NULL: none) be answered?
 * Always without users. A password is verified by bcrypt once; until
 * another one verifies for that user, it is let in by comparing bytes.
 * Without may_hash (a client in its backoff) no bcrypt is run: only that
 * comparison. *hashed: a bcrypt was run.
 */
bool uct_basic_auth_allow(struct uct_web_config *w, const char *authorization, bool may_hash,
			  bool *hashed);

#endif /* UCT_BASIC_AUTH_H */
