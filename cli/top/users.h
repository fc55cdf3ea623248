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
	size_t held;		/* bytes of memory v and names take */
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
 * the process gone or no longer in those namespaces, UCT_PASSWD_LATER
 * when it was not read this time (the copy held, if any, stays).
 */
#define UCT_PASSWD_LATER	2
typedef int (*uct_passwd_fn)(void *arg, const struct uct_pwsrc *src,
			     const struct uct_file_id *known, struct uct_file_id *id,
			     char **text, size_t *len, bool *whole);

/*
 * The tool's (as a uct_passwd_fn, with the paths made fixed): PROC/PID/
 * root/etc/passwd resolved with openat2(RESOLVE_IN_ROOT), so that a
 * symbolic link in the container's tree stays in it, never reaching
 * ucounttop's own files; own, for pid 0. Only a regular file is opened
 * for reading (not a FIFO or a device a container put there), and only
 * the tenant's own: its owner must be a uid the namespace maps (in
 * PROC/PID/uid_map), so a file bind-mounted there that the namespace
 * cannot read itself (root's 0600 files, /proc/kmsg) is never read as
 * root on its behalf, and it must not be on procfs, sysfs or another
 * file system whose reads show or change the kernel's state. Files are
 * not opened with the owner's credentials instead: that takes a thread's
 * fsuid switched around every open, and a namespace owned by root would
 * still reach every file.
 */
int uct_passwd_read(const char *proc, const char *own, const struct uct_pwsrc *src,
		    const struct uct_file_id *known, struct uct_file_id *id, char **text,
		    size_t *len, bool *whole);

/*
 * What passwd files may cost: per refresh, at most max_files files read
 * (max_bytes of them) and max_seconds spent checking and reading, so
 * that tenants who make many namespaces, each pointing at a large file
 * they change every second, cannot make a refresh (or a scrape) wait for
 * them: a check past the budget waits for a later refresh, which starts
 * where this one stopped (the model's cursor), and is counted. The first
 * check of a refresh is always made, and ucounttop's own file (the
 * initial namespace's) is never put off. Overall, the parsed files kept hold
 * at most max_held bytes; a file that would take more is not kept (its
 * namespace shows no names) and is counted.
 */
#define UCT_PASSWD_BUDGET_FILES		256
#define UCT_PASSWD_BUDGET_BYTES		(16u << 20)
#define UCT_PASSWD_BUDGET_SECONDS	0.1
#define UCT_PASSWD_BUDGET_HELD		(64u << 20)
struct uct_pwbudget {
	size_t max_files, max_bytes, max_held;
	double max_seconds;
	/* this refresh (uct_pwbudget_refresh() starts one) */
	size_t checks, files, bytes;
	double seconds;
	size_t held;			/* bytes the cache's parsed files hold */
	unsigned long reads;		/* so far: files read, */
	unsigned long deferred;		/* checks put off past a budget, */
	unsigned long dropped;		/* files read but not kept (max_held) */
	/* what the tool's reader reports (pwreader.h) */
	unsigned long timeouts;		/* reads given up at their deadline */
	unsigned long later;		/* reads not made: quarantine, readers stuck */
	size_t stuck;			/* readers given up on, not yet ended */
	size_t quarantined;		/* namespaces not read until later */
};

/* The bounds above, nothing spent */
void uct_pwbudget_init(struct uct_pwbudget *b);
/* A new refresh: its budget unspent */
void uct_pwbudget_refresh(struct uct_pwbudget *b);

/* One file of the cache */
struct uct_pwfile {
	struct uct_pwkey key;
	unsigned long used;		/* generation of the last use */
	unsigned long checked;		/* generation of the last check, 0: none */
	bool have;			/* pw and id hold a file */
	bool dropped;			/* id holds a file not kept (max_held) */
	struct uct_file_id id;
	struct uct_passwd pw;
	struct uct_pwbudget *budget;	/* what pw.held is counted in, when have */
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
 * changed, within budget b (its work counted there). 1 when a file was
 * read, 0 when not, -1 when the check is put off (the budget is spent:
 * the names held so far stay) */
int uct_pwfile_check(struct uct_pwfile *e, uct_passwd_fn fn, void *arg,
		     const struct uct_pwsrc *src, unsigned long gen, struct uct_pwbudget *b);
/* Forget the entries not used since generation gen */
void uct_pwcache_sweep(struct uct_cache *c, unsigned long gen);
void uct_pwcache_free(struct uct_cache *c);

#endif /* UCT_USERS_H */
