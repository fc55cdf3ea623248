/* SPDX-License-Identifier: GPL-2.0 */
/*
 * users.h - user names as a user namespace sees them: the passwd file in
 * the root of a process of that namespace (a container's own
 * /etc/passwd), parsed strictly, and a cache of those files by root, so
 * that a file is read again only when it changed, and checked at most
 * once per refresh.
 *
 * Not getpwuid(): NSS answers from ucounttop's own root and
 * configuration, not the container's, and the tool is not linked with it.
 * Plain C: the tool supplies the file (uct_passwd_read() through /proc),
 * the tests and the fuzzer text of their own.
 */
#ifndef UCT_USERS_H
#define UCT_USERS_H

#include <stdbool.h>
#include <stddef.h>
#include "cache.h"
#include "common.h"

/* Bounds: a file's first UCT_PASSWD_MAX_SIZE bytes and first
 * UCT_PASSWD_MAX_ENTRIES uids count, the rest is not known (no name);
 * a line longer than UCT_PASSWD_LINE_MAX or a name longer than
 * UCT_USER_MAX is refused */
#define UCT_PASSWD_MAX_SIZE	(1 << 20)
#define UCT_PASSWD_MAX_ENTRIES	4096
#define UCT_PASSWD_LINE_MAX	4096
#define UCT_USER_MAX		64

/* One uid of a file: its name at names + name, or none (UCT_PW_NONE:
 * the first line of that uid was refused, so whatever a later line says
 * is not what getpwuid() in there would answer) */
#define UCT_PW_NONE	0xffffffffu
struct uct_pwent {
	__u32 uid;
	__u32 name;
};

/* A parsed passwd file: one entry per uid, by uid */
struct uct_passwd {
	struct uct_pwent *v;
	size_t n;
	char *names;
	size_t refused;		/* lines that are not name:pw:uid:gid:gecos:home:shell */
	bool cut;		/* past a bound: later lines not read */
};

/*
 * Parse text (len bytes, any bytes) into pw, replacing nothing: pw is
 * written whole. Each line must have exactly 7 colon-separated fields, a
 * name of 1..UCT_USER_MAX bytes with no blank or control byte, not
 * starting with '+' or '-' (NIS compat entries name no user), and a
 * decimal uid and gid below 2^32 - 1; empty lines and lines starting
 * with '#' are skipped. The first line of a uid wins, as getpwuid()
 * answers; a refused line whose third field is a uid leaves that uid
 * without a name, unless a line before named it. whole: text is the
 * whole file, so a last line without a newline counts (else it was cut
 * and is dropped). 0 or -ENOMEM.
 */
int uct_passwd_parse(struct uct_passwd *pw, const char *text, size_t len, bool whole);
/* A uid or gid field of n bytes: 1-10 decimal digits, below 2^32 - 1
 * ((uid_t)-1 is no uid). True with the id in *out, else false and *out
 * untouched */
bool uct_passwd_id(const char *s, size_t n, __u32 *out);
/* The name of uid, NULL: none */
const char *uct_passwd_name(const struct uct_passwd *pw, __u32 uid);
void uct_passwd_free(struct uct_passwd *pw);

/* A file as stat(2) identifies it: one that keeps all of this is not
 * read again */
struct uct_file_id {
	__u64 dev, ino, size;
	__s64 mtime_sec, mtime_nsec;
};

/*
 * Which passwd file: the root directory (inode and device, the kernel's
 * dev_t) and mount namespace of a process, as the task iterator reports
 * them - two processes that share all three see the same /etc/passwd -
 * or, with own, ucounttop's own /etc/passwd (the initial namespace's).
 */
struct uct_pwkey {
	__u64 root_ino;
	__u32 root_dev, mnt_ns;
	bool own;
};

/* Where to read it: through process pid (0: own), which must still be in
 * user namespace ns_inum and mount namespace mnt_ns */
struct uct_pwsrc {
	__u32 pid, ns_inum, mnt_ns;
};

/*
 * Read the passwd file of src. known: the identity of the copy held
 * (NULL: none). Returns 1 when the file is still known (not read), 0
 * with its identity in *id and its first bytes in *text (malloc()ed,
 * *len of them, at most UCT_PASSWD_MAX_SIZE; *whole when that is all of
 * it), -1 when there is none to read: no such file, not a regular file,
 * the process gone or no longer in those namespaces.
 */
typedef int (*uct_passwd_fn)(void *arg, const struct uct_pwsrc *src,
			     const struct uct_file_id *known, struct uct_file_id *id,
			     char **text, size_t *len, bool *whole);

/*
 * The tool's (as a uct_passwd_fn, with the paths made fixed): PROC/PID/
 * root/etc/passwd resolved with openat2(RESOLVE_IN_ROOT), so that a
 * symbolic link in the container's tree stays in it, never reaching
 * ucounttop's own files; own, for pid 0. Only a regular file is opened
 * for reading (not a FIFO or a device a container put there).
 */
int uct_passwd_read(const char *proc, const char *own, const struct uct_pwsrc *src,
		    const struct uct_file_id *known, struct uct_file_id *id, char **text,
		    size_t *len, bool *whole);

/* One file of the cache */
struct uct_pwfile {
	struct uct_pwkey key;
	unsigned long used;		/* generation of the last use */
	unsigned long checked;		/* generation of the last check, 0: none */
	bool have;			/* pw and id hold a file */
	struct uct_file_id id;
	struct uct_passwd pw;
};

/*
 * Files by key: a struct uct_cache (cache.h) whose slots point to the
 * entries, allocated one by one, so that a namespace may keep a pointer
 * to one until it is swept.
 *
 * The entry of key (made, not checked, when absent), marked used in
 * generation gen; NULL without memory.
 */
struct uct_pwfile *uct_pwcache_get(struct uct_cache *c, const struct uct_pwkey *key,
				   unsigned long gen);
/* Check e's file once per generation: read it again only when fn says it
 * changed. 1 when a file was read, else 0 */
int uct_pwfile_check(struct uct_pwfile *e, uct_passwd_fn fn, void *arg,
		     const struct uct_pwsrc *src, unsigned long gen);
/* Forget the entries not used since generation gen */
void uct_pwcache_sweep(struct uct_cache *c, unsigned long gen);
void uct_pwcache_free(struct uct_cache *c);

#endif /* UCT_USERS_H */
