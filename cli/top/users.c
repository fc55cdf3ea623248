// SPDX-License-Identifier: GPL-2.0
/* users.c - user names from passwd files, and their cache (users.h). */
#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/magic.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "clock.h"
#include "users.h"

/* ---- the parser ---- */

bool uct_passwd_id(const char *s, size_t n, __u32 *out)
{
	unsigned long long v = 0;
	size_t i;

	if (!n || n > 10)
		return false;
	for (i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return false;
		v = v * 10 + (unsigned)(s[i] - '0');
	}
	if (v >= 0xffffffffULL)
		return false;
	*out = (__u32)v;
	return true;
}

enum { LINE_SKIP, LINE_OK, LINE_REFUSED, LINE_REFUSED_UID };

/*
 * One line (n bytes, no newline): LINE_OK with its uid and name,
 * LINE_SKIP for an empty or comment line, LINE_REFUSED_UID for a refused
 * line whose third field is a uid (in *uid), LINE_REFUSED otherwise.
 */
static int parse_line(const char *s, size_t n, __u32 *uid, const char **name, size_t *nlen)
{
	const char *f[7], *start = s;
	size_t fl[7], i, nf = 0;
	__u32 gid;
	bool ok;

	if (!n || s[0] == '#')
		return LINE_SKIP;
	for (i = 0; i <= n; i++) {
		if (i < n && s[i] != ':')
			continue;
		if (nf < 7) {
			f[nf] = start;
			fl[nf] = (size_t)(s + i - start);
		}
		nf++;
		start = s + i + 1;
	}
	if (nf < 3 || !uct_passwd_id(f[2], fl[2], uid))
		return LINE_REFUSED;
	ok = nf == 7 && n <= UCT_PASSWD_LINE_MAX && !memchr(s, 0, n) &&
	     uct_passwd_id(f[3], fl[3], &gid) && fl[0] >= 1 && fl[0] <= UCT_USER_MAX &&
	     f[0][0] != '+' && f[0][0] != '-';
	/* no user name has a blank or a control byte (glibc would skip a
	 * leading blank, so " x" is not surely "x" either) */
	for (i = 0; ok && i < fl[0]; i++)
		ok = (unsigned char)f[0][i] > 0x20 && f[0][i] != 0x7f;
	if (!ok)
		return LINE_REFUSED_UID;
	*name = f[0];
	*nlen = fl[0];
	return LINE_OK;
}

/* a line's entry before the first of each uid is picked */
struct pw_line {
	__u32 uid, name, order;
};

static int pw_line_cmp(const void *a, const void *b)
{
	const struct pw_line *x = a, *y = b;

	if (x->uid != y->uid)
		return x->uid < y->uid ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

int uct_passwd_parse(struct uct_passwd *pw, const char *text, size_t len, bool whole)
{
	struct pw_line *lines = NULL;
	size_t nl = 0, nsz = 0, i, n;
	const char *p = text, *end = text + len;
	char *names = NULL;

	memset(pw, 0, sizeof(*pw));
	/* as many entries as lines, at most UCT_PASSWD_MAX_ENTRIES; the
	 * names are pieces of the text, each ending where a ':' was */
	for (i = 0, n = 1; n <= UCT_PASSWD_MAX_ENTRIES && (p = memchr(p, '\n', len - i)); n++) {
		p++;
		i = (size_t)(p - text);
	}
	p = text;
	lines = malloc(n * sizeof(*lines));
	names = malloc(len + 1);
	if (!lines || !names)
		goto nomem;
	while (p < end) {
		const char *nlp = memchr(p, '\n', (size_t)(end - p)), *name = NULL;
		size_t ll = nlp ? (size_t)(nlp - p) : (size_t)(end - p), nlen = 0;
		__u32 uid = 0;
		int r;

		/* a last line with no newline is whole only if the file is */
		if (!nlp && !whole) {
			pw->cut = true;
			break;
		}
		r = parse_line(p, ll, &uid, &name, &nlen);
		p += ll + 1;
		if (r == LINE_SKIP)
			continue;
		if (r != LINE_OK)
			pw->refused++;
		if (r == LINE_REFUSED)
			continue;
		if (nl == UCT_PASSWD_MAX_ENTRIES || nl == n) {
			pw->cut = true;
			break;
		}
		lines[nl].uid = uid;
		lines[nl].order = (__u32)nl;
		lines[nl].name = UCT_PW_NONE;
		if (r == LINE_OK) {
			memcpy(names + nsz, name, nlen);
			names[nsz + nlen] = 0;
			lines[nl].name = (__u32)nsz;
			nsz += nlen + 1;
		}
		nl++;
	}
	if (!whole)
		pw->cut = true;
	/* by uid, in file order: the first line of each uid is the one */
	qsort(lines, nl, sizeof(*lines), pw_line_cmp);
	pw->v = malloc((nl ? nl : 1) * sizeof(*pw->v));
	if (!pw->v)
		goto nomem;
	for (i = 0, n = 0; i < nl; i++) {
		if (n && pw->v[n - 1].uid == lines[i].uid)
			continue;
		pw->v[n].uid = lines[i].uid;
		pw->v[n].name = lines[i].name;
		n++;
	}
	pw->n = n;
	pw->held = (n ? n : 1) * sizeof(*pw->v) + nsz;
	/* keep what the names take, not the text's size */
	if (!nsz) {
		free(names);
		names = NULL;
	}
	pw->names = nsz ? realloc(names, nsz) : NULL;
	if (nsz && !pw->names)
		pw->names = names;
	free(lines);
	return 0;
nomem:
	free(lines);
	free(names);
	free(pw->v);
	memset(pw, 0, sizeof(*pw));
	return -ENOMEM;
}

const char *uct_passwd_name(const struct uct_passwd *pw, __u32 uid)
{
	size_t lo = 0, hi = pw ? pw->n : 0;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (pw->v[mid].uid == uid)
			return pw->v[mid].name == UCT_PW_NONE ? NULL : pw->names + pw->v[mid].name;
		if (pw->v[mid].uid < uid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

void uct_passwd_free(struct uct_passwd *pw)
{
	free(pw->v);
	free(pw->names);
	memset(pw, 0, sizeof(*pw));
}

/* ---- reading a namespace's file ---- */

static void file_id(const struct stat *st, struct uct_file_id *id)
{
	memset(id, 0, sizeof(*id));
	id->dev = st->st_dev;
	id->ino = st->st_ino;
	id->size = (__u64)st->st_size;
	id->mtime_sec = st->st_mtim.tv_sec;
	id->mtime_nsec = st->st_mtim.tv_nsec;
}

static bool same_id(const struct uct_file_id *a, const struct uct_file_id *b)
{
	return a->dev == b->dev && a->ino == b->ino && a->size == b->size &&
	       a->mtime_sec == b->mtime_sec && a->mtime_nsec == b->mtime_nsec;
}

/* Up to UCT_PASSWD_MAX_SIZE bytes of fd; whole when that is all */
static int read_text(int fd, size_t hint, char **text, size_t *len, bool *whole)
{
	size_t cap = hint < 4096 ? 4096 : hint + 1, n = 0;
	char *buf;

	if (cap > UCT_PASSWD_MAX_SIZE + 1)
		cap = UCT_PASSWD_MAX_SIZE + 1;
	buf = malloc(cap);
	if (!buf)
		return -1;
	for (;;) {
		ssize_t r;

		if (n == cap) {
			size_t ncap = cap * 2 > UCT_PASSWD_MAX_SIZE + 1 ? UCT_PASSWD_MAX_SIZE + 1 : cap * 2;
			char *nb;

			if (ncap == cap)
				break;
			nb = realloc(buf, ncap);
			if (!nb) {
				free(buf);
				return -1;
			}
			buf = nb;
			cap = ncap;
		}
		r = read(fd, buf + n, cap - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			free(buf);
			return -1;
		}
		if (!r)
			break;
		n += (size_t)r;
	}
	*whole = n <= UCT_PASSWD_MAX_SIZE;
	*len = n > UCT_PASSWD_MAX_SIZE ? UCT_PASSWD_MAX_SIZE : n;
	*text = buf;
	return 0;
}

/*
 * Whether kuid is in the uid_map of process dir pdir (as /proc shows it
 * to us, in the initial namespace: "first-inside first-outside count"
 * per extent, at most 340 of them)
 */
static bool uid_mapped(int pdir, uid_t kuid)
{
	char buf[16384], *p, *nl;
	ssize_t n = 0, r;
	int fd = openat(pdir, "uid_map", O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return false;
	while ((size_t)n < sizeof(buf) - 1 && (r = read(fd, buf + n, sizeof(buf) - 1 - n)) != 0) {
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			break;
		n += r;
	}
	close(fd);
	buf[n] = 0;
	for (p = buf; (nl = strchr(p, '\n')); p = nl + 1) {
		unsigned long long in, out, count;

		*nl = 0;
		if (sscanf(p, "%llu %llu %llu", &in, &out, &count) == 3 && kuid >= out &&
		    kuid - out < count)
			return true;
	}
	return false;
}

/* Whether fd is on a file system whose regular files are not files:
 * reading one may have effects (/proc/kmsg) or show the kernel's state */
static bool pseudo_fs(int fd)
{
	static const unsigned long magic[] = {
		PROC_SUPER_MAGIC, SYSFS_MAGIC, DEBUGFS_MAGIC, TRACEFS_MAGIC, SECURITYFS_MAGIC,
		CGROUP_SUPER_MAGIC, CGROUP2_SUPER_MAGIC, BPF_FS_MAGIC, PSTOREFS_MAGIC,
		EFIVARFS_MAGIC, 0x62656570 /* configfs */,
	};
	struct statfs sf;
	size_t i;

	if (fstatfs(fd, &sf))
		return true;
	for (i = 0; i < sizeof(magic) / sizeof(magic[0]); i++)
		if ((unsigned long)sf.f_type == magic[i])
			return true;
	return false;
}

int uct_passwd_read(const char *proc, const char *own, const struct uct_pwsrc *src,
		    const struct uct_file_id *known, struct uct_file_id *id, char **text,
		    size_t *len, bool *whole)
{
	struct open_how how = {
		.flags = O_PATH | O_CLOEXEC,
		/* the container's tree is its own: "/" and ".." stop at its
		 * root, and no /proc magic link leads out of it */
		.resolve = RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS,
	};
	int pdir = -1, root = -1, fd = -1, rfd = -1, rc = -1;
	char path[64];
	struct stat st;

	if (!src->pid) {
		fd = open(own, O_PATH | O_CLOEXEC);
	} else {
		snprintf(path, sizeof(path), "%s/%u", proc, src->pid);
		pdir = open(path, O_PATH | O_DIRECTORY | O_CLOEXEC);
		if (pdir < 0)
			goto out;
		/* The pid may be another process's by now. The directory stays
		 * the one process's (lookups in it fail once it is gone), so
		 * what follows is of a process in those namespaces. */
		if (fstatat(pdir, "ns/user", &st, 0) || st.st_ino != src->ns_inum ||
		    (src->mnt_ns && (fstatat(pdir, "ns/mnt", &st, 0) || st.st_ino != src->mnt_ns)))
			goto out;
		root = openat(pdir, "root", O_PATH | O_DIRECTORY | O_CLOEXEC);
		if (root < 0)
			goto out;
		fd = (int)syscall(SYS_openat2, root, "etc/passwd", &how, sizeof(how));
	}
	/* O_PATH first: a FIFO or a device is never opened for reading */
	if (fd < 0 || fstat(fd, &st) || !S_ISREG(st.st_mode))
		goto out;
	file_id(&st, id);
	/* the file held, which passed the test below when it was read: not
	 * asked again on every refresh */
	if (known && same_id(known, id)) {
		rc = 1;
		goto out;
	}
	/* a tenant's file, never one it merely points at (users.h) */
	if (src->pid && (!uid_mapped(pdir, st.st_uid) || pseudo_fs(fd)))
		goto out;
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	rfd = open(path, O_RDONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
	if (rfd >= 0 && !read_text(rfd, (size_t)st.st_size, text, len, whole))
		rc = 0;
out:
	if (rfd >= 0)
		close(rfd);
	if (fd >= 0)
		close(fd);
	if (root >= 0)
		close(root);
	if (pdir >= 0)
		close(pdir);
	return rc;
}

/* ---- the cache ---- */

static __u64 pw_hash(const void *key)
{
	const struct uct_pwkey *k = key;

	return k->root_ino ^ (__u64)k->root_dev << 32 ^ (__u64)k->mnt_ns << 13 ^ k->own;
}

static const void *pw_key(const void *slot)
{
	const struct uct_pwfile *e = *(struct uct_pwfile *const *)slot;

	return e ? &e->key : NULL;
}

static bool pw_same(const void *x, const void *y)
{
	const struct uct_pwkey *a = x, *b = y;

	return a->own == b->own && a->root_ino == b->root_ino && a->root_dev == b->root_dev &&
	       a->mnt_ns == b->mnt_ns;
}

static bool pw_make(void *slot, const void *key)
{
	struct uct_pwfile *e = calloc(1, sizeof(*e));

	if (!e)
		return false;
	e->key = *(const struct uct_pwkey *)key;
	*(struct uct_pwfile **)slot = e;
	return true;
}

static unsigned long pw_used(const void *slot)
{
	return (*(struct uct_pwfile *const *)slot)->used;
}

/* Forget e's parsed file, and what it held */
static void pw_forget(struct uct_pwfile *e)
{
	if (e->have && e->budget)
		e->budget->held -= e->pw.held;
	uct_passwd_free(&e->pw);
	e->have = false;
	e->dropped = false;
	e->budget = NULL;
}

static void pw_drop(void *slot)
{
	struct uct_pwfile *e = *(struct uct_pwfile **)slot;

	pw_forget(e);
	free(e);
}

/* a slot holds a pointer (NULL: empty): a namespace keeps the entry's
 * address across updates, which the slots' moves must not change */
static const struct uct_cache_ops pw_ops = {
	.size = sizeof(struct uct_pwfile *),
	.first_cap = 16,
	.hash = pw_hash,
	.key = pw_key,
	.same = pw_same,
	.make = pw_make,
	.used = pw_used,
	.drop = pw_drop,
};

struct uct_pwfile *uct_pwcache_get(struct uct_cache *c, const struct uct_pwkey *key,
				   unsigned long gen)
{
	struct uct_pwfile **slot = uct_cache_get(c, &pw_ops, key);

	if (!slot)
		return NULL;
	(*slot)->used = gen;
	return *slot;
}

void uct_pwbudget_init(struct uct_pwbudget *b)
{
	*b = (struct uct_pwbudget){ .max_files = UCT_PASSWD_BUDGET_FILES,
				    .max_bytes = UCT_PASSWD_BUDGET_BYTES,
				    .max_held = UCT_PASSWD_BUDGET_HELD,
				    .max_seconds = UCT_PASSWD_BUDGET_SECONDS };
}

void uct_pwbudget_refresh(struct uct_pwbudget *b)
{
	b->checks = 0;
	b->files = 0;
	b->bytes = 0;
	b->seconds = 0;
}

static bool spent(const struct uct_pwbudget *b)
{
	return b->checks && (b->files >= b->max_files || b->bytes >= b->max_bytes ||
			     b->seconds >= b->max_seconds);
}

/* Ask fn for e's file, read it again when it changed, and keep what it
 * names within b's bound: 1 when a file was read, else 0 */
static int pwfile_read(struct uct_pwfile *e, uct_passwd_fn fn, void *arg,
		       const struct uct_pwsrc *src, struct uct_pwbudget *b)
{
	struct uct_file_id id;
	struct uct_passwd pw;
	char *text = NULL;
	size_t len = 0;
	bool whole = false;
	int r;

	r = fn ? fn(arg, src, e->have || e->dropped ? &e->id : NULL, &id, &text, &len, &whole) : -1;
	if (r == UCT_PASSWD_LATER || (r > 0 && (e->have || e->dropped)))
		return 0;
	/* none, or a copy we cannot parse: no names rather than old ones */
	pw_forget(e);
	if (r != 0)
		return 0;
	b->files++;
	b->bytes += len;
	b->reads++;
	r = uct_passwd_parse(&pw, text, len, whole);
	free(text);
	if (r)
		return 1;
	e->id = id;
	if (b->held + pw.held > b->max_held) {
		uct_passwd_free(&pw);
		b->dropped++;
		e->dropped = true;
		return 1;
	}
	e->pw = pw;
	e->have = true;
	e->budget = b;
	b->held += pw.held;
	return 1;
}

int uct_pwfile_check(struct uct_pwfile *e, uct_passwd_fn fn, void *arg,
		     const struct uct_pwsrc *src, unsigned long gen, struct uct_pwbudget *b)
{
	double t0;
	int r;

	if (e->checked == gen)
		return 0;
	/* ucounttop's own file (pid 0) is no tenant's: never put off, and
	 * not the check that makes each update's progress */
	if (src->pid && spent(b)) {
		b->deferred++;
		return -1;
	}
	e->checked = gen;
	b->checks += src->pid != 0;
	t0 = uct_now_s();
	r = pwfile_read(e, fn, arg, src, b);
	b->seconds += uct_now_s() - t0;
	return r;
}

void uct_pwcache_sweep(struct uct_cache *c, unsigned long gen)
{
	uct_cache_sweep(c, &pw_ops, gen);
}

void uct_pwcache_free(struct uct_cache *c)
{
	uct_cache_free(c, &pw_ops);
}
