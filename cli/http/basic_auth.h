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

/* A bcrypt to run: the password given, the hash to check it against
 * (the user's, or the first user's for an unknown one: a refusal costs
 * the same), which user (-1: none), and, once run, whether it verified */
struct uct_auth_job {
	char pass[UCT_BASIC_AUTH_MAX];
	size_t pass_len;
	char hash[UCT_WEB_BCRYPT_LEN + 1];
	int user;
	bool ok;
};

enum uct_auth { UCT_AUTH_OK, UCT_AUTH_DENY, UCT_AUTH_HASH };

/*
 * The part without bcrypt, for the serving thread: OK (no users, or the
 * user's last password that verified), DENY (no or a bad header, or a
 * password that needs a bcrypt without may_hash), or HASH with *job
 * filled for uct_basic_auth_hash().
 */
enum uct_auth uct_basic_auth_check(struct uct_web_config *w, const char *authorization,
				   bool may_hash, struct uct_auth_job *job);

/* The bcrypt, in any thread, with uct_basic_auth_scratch_size() bytes of
 * its own scratch: job->ok */
bool uct_basic_auth_hash(struct uct_auth_job *job, void *scratch);
size_t uct_basic_auth_scratch_size(void);

/* In the serving thread, after the bcrypt: a password that verified is
 * kept for its user (if w still has that hash); the password is wiped */
void uct_basic_auth_remember(struct uct_web_config *w, struct uct_auth_job *job);

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
