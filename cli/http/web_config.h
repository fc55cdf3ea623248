/* SPDX-License-Identifier: GPL-2.0 */
/*
 * web_config.h - --web.config.file FILE: TLS and basic authentication for
 * --listen, read from the YAML file Prometheus' exporters take (the
 * exporter-toolkit's web configuration), the subset ucounttop(8) lists.
 */
#ifndef UCT_WEB_CONFIG_H
#define UCT_WEB_CONFIG_H

#include <stdbool.h>
#include <stddef.h>

/* A file the configuration names, or the configuration itself, is read
 * whole: at most this many bytes */
#define UCT_WEB_FILE_MAX	(1 << 20)
/* "$2y$10$" + 22 characters of salt + 31 of hash */
#define UCT_WEB_BCRYPT_LEN	60
/* Each wrong password costs the server one bcrypt of the user's cost
 * (2^cost rounds: about 60 ms at 10 on a server core): no more than 12 */
#define UCT_WEB_BCRYPT_MAX_COST	12

struct uct_web_user {
	char *name;
	char hash[UCT_WEB_BCRYPT_LEN + 1];	/* bcrypt, as crypt(3) writes it */
	/* the last password that verified: a scrape that sends it again is let
	 * in without a bcrypt (tens of milliseconds, by design) */
	char *good;
	size_t good_len;
};

struct uct_web_config {
	char *cert, *key;		/* PEM, NUL-terminated; NULL: no TLS */
	char *cert_file, *key_file;	/* their paths, relative ones resolved */
	struct uct_web_user *users;	/* NULL: no basic authentication */
	size_t nusers;
};

/*
 * Read the configuration at path, and the certificate and key it names
 * (relative to path's folder). 0, or UCT_EXIT_USAGE with msg naming the
 * file, the line and what is wrong there; w is then empty.
 */
int uct_web_config_load(struct uct_web_config *w, const char *path, char *msg, size_t len);

/* The same on text (n bytes) said to come from path: the tests' */
int uct_web_config_parse(struct uct_web_config *w, const char *path, const char *text, size_t n,
			 char *msg, size_t len);

/* Wipe the key's bytes (also the ones the server no longer needs) */
/*
 * w as bytes, for a process that may read the files to hand to one that
 * may not (the reader to the main process: ucounttop(8), SECURITY):
 * their length, or 0 when max is too small. Unpacked: 0, or -1 when buf
 * is not a packed configuration. A user's last good password is not
 * packed.
 */
size_t uct_web_config_pack(const struct uct_web_config *w, char *buf, size_t max);
int uct_web_config_unpack(struct uct_web_config *w, const char *buf, size_t n);

void uct_web_config_drop_key(struct uct_web_config *w);

void uct_web_config_free(struct uct_web_config *w);

#endif /* UCT_WEB_CONFIG_H */
