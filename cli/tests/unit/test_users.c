// SPDX-License-Identifier: GPL-2.0
/*
 * test_users.c - user names: the passwd parser, the cache of files by
 * root, reading a process's file through a made-up /proc, and the model
 * naming each row's uid from its own namespace's file.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>
#include "model.h"
#include "users.h"
#include "snapshots.h"

/* Parse text (a whole file) and return the parse; the caller frees */
static struct uct_passwd *parse(const char *text, size_t len, bool whole)
{
	static struct uct_passwd pw;

	assert_int_equal(uct_passwd_parse(&pw, text, len, whole), 0);
	return &pw;
}

#define PARSE(s) parse((s), sizeof(s) - 1, true)

static void expect_name(const struct uct_passwd *pw, __u32 uid, const char *want)
{
	const char *got = uct_passwd_name(pw, uid);

	if (!want) {
		if (got)
			fail_msg("uid %u: expected no name, got '%s'", uid, got);
		return;
	}
	if (!got)
		fail_msg("uid %u: expected '%s', got none", uid, want);
	assert_string_equal(got, want);
}

static void test_good_lines(void **state)
{
	struct uct_passwd *pw = PARSE(TEST_HOST_PASSWD
				      "# a comment:x:77:77::/:/bin/sh\n"
				      "\n"
				      "nobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin\n"
				      /* empty fields are fields */
				      "e::3:0:::\n"
				      "max:x:4294967294:0::/:\n"
				      /* leading zeros are the same number */
				      "z:x:0000000042:0::/:\n");

	expect_name(pw, 0, "root");
	expect_name(pw, 1000, "alice");
	expect_name(pw, 2000, "bob");
	expect_name(pw, 65534, "nobody");
	expect_name(pw, 4294967294u, "max");
	expect_name(pw, 42, "z");
	expect_name(pw, 3, "e");
	expect_name(pw, 77, NULL);
	expect_name(pw, 1, NULL);
	expect_name(pw, 3000, NULL);
	assert_int_equal(pw->refused, 0);
	assert_false(pw->cut);
	assert_int_equal(pw->n, 8);
	uct_passwd_free(pw);
}

/* Every way a line is refused, each for a uid of its own; a refused line
 * whose uid is readable leaves that uid without a name */
static void test_malformed_lines(void **state)
{
	static const char head[] =
		"six:x:101:1:/:/bin/sh\n"		/* 6 fields */
		"eight:x:102:1::/:/bin/sh:extra\n"	/* 8 fields */
		"hex:x:0x67:1::/:\n"
		"neg:x:-104:1::/:\n"
		"plus:x:+105:1::/:\n"
		"blank:x: 106:1::/:\n"
		"exp:x:1e3:1::/:\n"
		"nouid:x::1::/:\n"
		"badgid:x:109:g::/:\n"
		"nogid:x:110:::/:\n"
		":x:111:1::/:\n"			/* no name */
		"+nis:x:112:1::/:\n"			/* NIS compat entries */
		"-nis:x:113:1::/:\n"
		"+\n"
		" lead:x:114:1::/:\n"			/* blanks, controls: strict */
		"nul\0byte:x:115:1::/:\n";
	char text[512], name64[UCT_USER_MAX + 1];
	size_t len = sizeof(head) - 1;
	struct uct_passwd *pw;
	__u32 u;

	memcpy(text, head, len);
	/* 65 bytes of name is one too many, 64 is the longest kept */
	memset(name64, 'n', UCT_USER_MAX);
	name64[UCT_USER_MAX] = 0;
	len += (size_t)sprintf(text + len, "%sn:x:116:1::/:\n%s:x:117:1::/:\nok:x:118:1::/:\n",
			       name64, name64);
	pw = parse(text, len, true);
	for (u = 101; u <= 116; u++)
		expect_name(pw, u, NULL);
	expect_name(pw, 117, name64);
	expect_name(pw, 118, "ok");
	/* nor does a refused line's number name some other uid */
	expect_name(pw, 1, NULL);
	expect_name(pw, 1000, NULL);
	assert_int_equal(pw->refused, 17);
	uct_passwd_free(pw);
}

/* The first line of a uid is what getpwuid() answers, refused or not */
static void test_duplicate_uids(void **state)
{
	struct uct_passwd *pw = PARSE("first:x:500:1::/:\n"
				      "second:x:500:1::/:\n"
				      "bad:x:501:1:/:\n"	/* refused first: no name */
				      "later:x:501:1::/:\n"
				      "good:x:502:1::/:\n"
				      "bad:x:502:1:/:\n");	/* refused after: kept */

	expect_name(pw, 500, "first");
	expect_name(pw, 501, NULL);
	expect_name(pw, 502, "good");
	assert_int_equal(pw->n, 3);
	uct_passwd_free(pw);
}

static void test_uid_range(void **state)
{
	struct uct_passwd *pw = PARSE("minus1:x:4294967295:0::/:\n"
				      "wraps:x:4294967296:0::/:\n"
				      "big:x:99999999999:0::/:\n"
				      "eleven:x:00000000007:0::/:\n"
				      "top:x:4294967294:0::/:\n");

	/* (uid_t)-1 is no uid; 2^32 must not wrap to 0 */
	expect_name(pw, 4294967295u, NULL);
	expect_name(pw, 0, NULL);
	expect_name(pw, 7, NULL);
	expect_name(pw, 4294967294u, "top");
	assert_int_equal(pw->refused, 4);
	uct_passwd_free(pw);
}

/* The id field alone, as the fuzzer's oracle also reads it */
static void test_id_field(void **state)
{
	__u32 id = 12345;

	assert_true(uct_passwd_id("0", 1, &id));
	assert_int_equal(id, 0);
	assert_true(uct_passwd_id("4294967294", 10, &id));
	assert_int_equal(id, 4294967294u);
	/* only the n bytes count */
	assert_true(uct_passwd_id("42:x", 2, &id));
	assert_int_equal(id, 42);
	id = 12345;
	assert_false(uct_passwd_id("", 0, &id));
	assert_false(uct_passwd_id("4294967295", 10, &id));
	assert_false(uct_passwd_id("99999999999", 11, &id));
	assert_false(uct_passwd_id("-1", 2, &id));
	assert_false(uct_passwd_id("1a", 2, &id));
	assert_false(uct_passwd_id(" 1", 2, &id));
	/* a refused field leaves the id alone */
	assert_int_equal(id, 12345);
}

/* A line of any length: refused past UCT_PASSWD_LINE_MAX, its uid
 * without a name, the lines after it read */
static void test_huge_lines(void **state)
{
	size_t gecos = UCT_PASSWD_LINE_MAX, len = 0;
	char *text = malloc(3 * gecos + 256);
	struct uct_passwd *pw;

	assert_non_null(text);
	len += (size_t)sprintf(text + len, "huge:x:700:1:");
	memset(text + len, 'g', gecos);
	len += gecos;
	len += (size_t)sprintf(text + len, ":/:/bin/sh\nhuge2:x:700:1::/:\nafter:x:701:1::/:\n");
	/* just under the bound: kept */
	len += (size_t)sprintf(text + len, "fits:x:702:1:");
	memset(text + len, 'g', UCT_PASSWD_LINE_MAX - 24);
	len += UCT_PASSWD_LINE_MAX - 24;
	len += (size_t)sprintf(text + len, ":/:/bin/sh\n");
	pw = parse(text, len, true);
	expect_name(pw, 700, NULL);
	expect_name(pw, 701, "after");
	expect_name(pw, 702, "fits");
	assert_int_equal(pw->refused, 1);
	uct_passwd_free(pw);
	free(text);
}

/* No newline at the end: the last line counts when it is the file's
 * end, not when the read stopped in it (a cut line could name wrongly:
 * "alice" cut to "ali") */
static void test_no_trailing_newline(void **state)
{
	static const char text[] = "root:x:0:0::/:/bin/sh\nalice:x:1000:1000::/:/bin/sh";
	struct uct_passwd *pw = parse(text, sizeof(text) - 1, true);

	expect_name(pw, 1000, "alice");
	assert_false(pw->cut);
	uct_passwd_free(pw);
	pw = parse(text, sizeof(text) - 1, false);
	expect_name(pw, 0, "root");
	expect_name(pw, 1000, NULL);
	assert_true(pw->cut);
	uct_passwd_free(pw);
	pw = parse("", 0, true);
	expect_name(pw, 0, NULL);
	assert_int_equal(pw->n, 0);
	uct_passwd_free(pw);
}

/* At most UCT_PASSWD_MAX_ENTRIES lines count: later uids have no name */
static void test_entry_cap(void **state)
{
	size_t n = UCT_PASSWD_MAX_ENTRIES + 10, len = 0, i;
	char *text = malloc(n * 40);
	struct uct_passwd *pw;

	assert_non_null(text);
	for (i = 0; i < n; i++)
		len += (size_t)sprintf(text + len, "u%zu:x:%zu:1::/:\n", i, 10000 + i);
	pw = parse(text, len, true);
	assert_int_equal(pw->n, UCT_PASSWD_MAX_ENTRIES);
	assert_true(pw->cut);
	expect_name(pw, 10000, "u0");
	expect_name(pw, 10000 + UCT_PASSWD_MAX_ENTRIES - 1, "u4095");
	expect_name(pw, 10000 + UCT_PASSWD_MAX_ENTRIES, NULL);
	uct_passwd_free(pw);
	free(text);
}

/* ---- the cache ---- */

static void test_cache_reads_on_change(void **state)
{
	struct test_passwd tp = { 0 };
	struct uct_cache c = { 0 };
	struct uct_pwkey own = { .own = true }, ctr = { .root_ino = 777, .mnt_ns = TEST_MNT_NS };
	struct uct_pwsrc s0 = { 0 }, s110 = { 110, 10, TEST_MNT_NS };
	struct uct_pwfile *e, *f;
	struct uct_pwbudget b;

	uct_pwbudget_init(&b);
	b.max_seconds = 1e9;
	e = uct_pwcache_get(&c, &own, 1);
	f = uct_pwcache_get(&c, &ctr, 1);
	assert_non_null(e);
	assert_non_null(f);
	assert_ptr_equal(uct_pwcache_get(&c, &own, 1), e);
	assert_int_equal(uct_pwfile_check(e, test_passwd_fn, &tp, &s0, 1, &b), 1);
	assert_int_equal(uct_pwfile_check(f, test_passwd_fn, &tp, &s110, 1, &b), 1);
	assert_string_equal(uct_passwd_name(&e->pw, 2000), "bob");
	assert_string_equal(uct_passwd_name(&f->pw, 2000), "app");
	/* once per generation */
	assert_int_equal(uct_pwfile_check(e, test_passwd_fn, &tp, &s0, 1, &b), 0);
	assert_int_equal(tp.calls, 2);
	/* next generation: asked, unchanged, not read */
	assert_int_equal(uct_pwfile_check(e, test_passwd_fn, &tp, &s0, 2, &b), 0);
	assert_int_equal(tp.calls, 3);
	assert_int_equal(tp.reads, 2);
	assert_string_equal(uct_passwd_name(&e->pw, 1000), "alice");
	/* changed: read again */
	tp.version[0]++;
	tp.text[0] = "carol:x:1000:1000::/:/bin/sh\n";
	assert_int_equal(uct_pwfile_check(e, test_passwd_fn, &tp, &s0, 3, &b), 1);
	assert_string_equal(uct_passwd_name(&e->pw, 1000), "carol");
	assert_null(uct_passwd_name(&e->pw, 2000));
	/* gone (the process exited, say): no names, not the old ones */
	tp.fail_pid = 110;
	uct_pwfile_check(f, test_passwd_fn, &tp, &s110, 3, &b);
	assert_false(f->have);
	assert_null(uct_passwd_name(&f->pw, 2000));
	/* swept when no namespace used it in generation 4 */
	uct_pwcache_get(&c, &own, 4);
	uct_pwcache_sweep(&c, 4);
	assert_int_equal(c.n, 1);
	assert_ptr_equal(uct_pwcache_get(&c, &own, 4), e);
	uct_pwcache_free(&c);
}

/* Many roots: the table grows, every entry found again */
static void test_cache_many(void **state)
{
	struct uct_cache c = { 0 };
	struct uct_pwfile *first[300];
	int i;

	for (i = 0; i < 300; i++) {
		struct uct_pwkey k = { .root_ino = (__u64)i * 7, .root_dev = (__u32)i % 3,
				       .mnt_ns = 4026531840u + (__u32)(i % 5) };

		first[i] = uct_pwcache_get(&c, &k, 1);
		assert_non_null(first[i]);
	}
	assert_int_equal(c.n, 300);
	/* 16 slots first, doubled whenever it would be more than half full */
	assert_int_equal(c.cap, 1024);
	for (i = 0; i < 300; i++) {
		struct uct_pwkey k = { .root_ino = (__u64)i * 7, .root_dev = (__u32)i % 3,
				       .mnt_ns = 4026531840u + (__u32)(i % 5) };

		assert_ptr_equal(uct_pwcache_get(&c, &k, i < 100 ? 2 : 1), first[i]);
	}
	uct_pwcache_sweep(&c, 2);
	assert_int_equal(c.n, 100);
	assert_int_equal(c.cap, 1024);
	uct_pwcache_free(&c);
}

/* ---- reading through a made-up /proc ---- */

struct tree {
	char dir[64], proc[96], root[96];
	__u32 user_ino, mnt_ino;
};

static void put_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

static __u32 ino_of(const char *path)
{
	struct stat st;

	assert_int_equal(stat(path, &st), 0);
	return (__u32)st.st_ino;
}

/* Process 42's uid_map: its uid 0 is kuid, and 1000 more from 3000 (low
 * uids: a CI container may map only 65536 of them, and chown() to one it
 * does not map fails) */
static void set_uid_map(struct tree *t, unsigned kuid)
{
	char p[256], map[96];

	snprintf(p, sizeof(p), "%s/42/uid_map", t->proc);
	snprintf(map, sizeof(map), "%10u %10u %10u\n%10u %10u %10u\n", 0, kuid, 1, 1, 3000,
		 1000);
	put_file(p, map);
}

/* DIR/proc/42/{ns/user,ns/mnt,uid_map,root -> DIR/root}, DIR/root/etc */
static void make_tree(struct tree *t)
{
	char p[256];

	strcpy(t->dir, "/tmp/uct-users.XXXXXX");
	assert_non_null(mkdtemp(t->dir));
	snprintf(t->proc, sizeof(t->proc), "%s/proc", t->dir);
	snprintf(t->root, sizeof(t->root), "%s/root", t->dir);
	snprintf(p, sizeof(p), "%s/42/ns", t->proc);
	assert_int_equal(mkdir(t->proc, 0700), 0);
	snprintf(p, sizeof(p), "%s/42", t->proc);
	assert_int_equal(mkdir(p, 0700), 0);
	snprintf(p, sizeof(p), "%s/42/ns", t->proc);
	assert_int_equal(mkdir(p, 0700), 0);
	snprintf(p, sizeof(p), "%s/42/ns/user", t->proc);
	put_file(p, "");
	t->user_ino = ino_of(p);
	snprintf(p, sizeof(p), "%s/42/ns/mnt", t->proc);
	put_file(p, "");
	t->mnt_ino = ino_of(p);
	assert_int_equal(mkdir(t->root, 0700), 0);
	snprintf(p, sizeof(p), "%s/etc", t->root);
	assert_int_equal(mkdir(p, 0700), 0);
	snprintf(p, sizeof(p), "%s/42/root", t->proc);
	assert_int_equal(symlink(t->root, p), 0);
	/* the files' owner (we) is the namespace's root */
	set_uid_map(t, geteuid());
}

static void drop_tree(struct tree *t)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", t->dir);
	assert_int_equal(system(cmd), 0);
}

static int read_42(struct tree *t, const struct uct_file_id *known, struct uct_file_id *id,
		   char **text, size_t *len, bool *whole)
{
	struct uct_pwsrc src = { 42, t->user_ino, t->mnt_ino };

	*text = NULL;
	return uct_passwd_read(t->proc, "/nonexistent/passwd", &src, known, id, text, len, whole);
}

static void test_read_through_proc(void **state)
{
	struct uct_file_id id, id2;
	struct tree t;
	char p[256], q[256], *text;
	size_t len;
	bool whole;
	struct uct_pwsrc src;

	make_tree(&t);
	snprintf(p, sizeof(p), "%s/etc/passwd", t.root);
	put_file(p, TEST_CTR_PASSWD);
	assert_int_equal(read_42(&t, NULL, &id, &text, &len, &whole), 0);
	assert_int_equal(len, strlen(TEST_CTR_PASSWD));
	assert_memory_equal(text, TEST_CTR_PASSWD, len);
	assert_true(whole);
	free(text);
	/* unchanged: not read */
	assert_int_equal(read_42(&t, &id, &id2, &text, &len, &whole), 1);
	assert_null(text);
	/* replaced as useradd does (a new file renamed over it) */
	snprintf(q, sizeof(q), "%s/etc/passwd+", t.root);
	put_file(q, "app:x:2000:2000::/:/bin/sh\n");
	assert_int_equal(rename(q, p), 0);
	assert_int_equal(read_42(&t, &id, &id2, &text, &len, &whole), 0);
	assert_memory_equal(text, "app:x:2000", 10);
	free(text);
	/* the pid is another process's now: other namespaces, nothing */
	src = (struct uct_pwsrc){ 42, t.user_ino + 1, t.mnt_ino };
	assert_int_equal(uct_passwd_read(t.proc, "/nonexistent", &src, NULL, &id, &text, &len,
					 &whole), -1);
	src = (struct uct_pwsrc){ 42, t.user_ino, t.mnt_ino + 1 };
	assert_int_equal(uct_passwd_read(t.proc, "/nonexistent", &src, NULL, &id, &text, &len,
					 &whole), -1);
	src = (struct uct_pwsrc){ 43, t.user_ino, t.mnt_ino };
	assert_int_equal(uct_passwd_read(t.proc, "/nonexistent", &src, NULL, &id, &text, &len,
					 &whole), -1);
	/* pid 0: our own file */
	src = (struct uct_pwsrc){ 0 };
	assert_int_equal(uct_passwd_read(t.proc, p, &src, NULL, &id, &text, &len, &whole), 0);
	assert_memory_equal(text, "app:x:2000", 10);
	free(text);
	drop_tree(&t);
}

/* A link in the container's tree resolves in it: an absolute one from its
 * root, ".." no higher than it. A FIFO or a directory is no file. */
static void test_read_stays_in_root(void **state)
{
	struct uct_file_id id;
	struct tree t;
	char p[256], q[256], *text;
	size_t len;
	bool whole;

	make_tree(&t);
	/* outside the root, a file a link could reach if resolved from ours */
	snprintf(p, sizeof(p), "%s/outside", t.dir);
	put_file(p, "escaped:x:2000:2000::/:/bin/sh\n");
	snprintf(q, sizeof(q), "%s/etc/passwd", t.root);
	assert_int_equal(symlink(p, q), 0);
	assert_int_equal(read_42(&t, NULL, &id, &text, &len, &whole), -1);
	assert_int_equal(unlink(q), 0);
	assert_int_equal(symlink("../../../../../../../../outside", q), 0);
	assert_int_equal(read_42(&t, NULL, &id, &text, &len, &whole), -1);
	/* the same path inside the root is what it names */
	snprintf(p, sizeof(p), "%s/outside", t.root);
	put_file(p, "inside:x:2000:2000::/:/bin/sh\n");
	assert_int_equal(read_42(&t, NULL, &id, &text, &len, &whole), 0);
	assert_memory_equal(text, "inside:", 7);
	free(text);
	assert_int_equal(unlink(q), 0);
	assert_int_equal(symlink("/outside", q), 0);
	assert_int_equal(read_42(&t, NULL, &id, &text, &len, &whole), 0);
	assert_memory_equal(text, "inside:", 7);
	free(text);
	/* a FIFO: refused without blocking on it */
	assert_int_equal(unlink(q), 0);
	assert_int_equal(mkfifo(q, 0600), 0);
	assert_int_equal(read_42(&t, NULL, &id, &text, &len, &whole), -1);
	assert_int_equal(unlink(q), 0);
	assert_int_equal(mkdir(q, 0700), 0);
	assert_int_equal(read_42(&t, NULL, &id, &text, &len, &whole), -1);
	drop_tree(&t);
}

/* Past UCT_PASSWD_MAX_SIZE: the first bytes, and not whole */
/* A file the namespace does not own - root's 0600 secret bind-mounted
 * over its /etc/passwd, say - is never read on its behalf: its owner
 * must be a uid the namespace maps (any of its extents) */
static void test_read_only_tenants_files(void **state)
{
	struct uct_file_id id;
	struct tree t;
	char p[256], *text = NULL;
	size_t len;
	bool whole;

	make_tree(&t);
	snprintf(p, sizeof(p), "%s/etc/passwd", t.root);
	put_file(p, "secret:x:2000:2000::/:/bin/sh\n");
	assert_int_equal(chmod(p, 0600), 0);
	set_uid_map(&t, geteuid() + 1);
	assert_int_equal(read_42(&t, NULL, &id, &text, &len, &whole), -1);
	assert_null(text);
	/* owned by a uid of the second extent: the tenant's */
	if (!geteuid()) {
		assert_int_equal(chown(p, 3999, 3999), 0);
		assert_int_equal(read_42(&t, NULL, &id, &text, &len, &whole), 0);
		assert_memory_equal(text, "secret:", 7);
		free(text);
		assert_int_equal(chown(p, 4000, 4000), 0);
		assert_int_equal(read_42(&t, NULL, &id, &text, &len, &whole), -1);
	}
	/* no uid_map (the process is gone): nothing */
	snprintf(p, sizeof(p), "%s/42/uid_map", t.proc);
	assert_int_equal(unlink(p), 0);
	assert_int_equal(read_42(&t, NULL, &id, &text, &len, &whole), -1);
	drop_tree(&t);
}

static void test_read_size_cap(void **state)
{
	struct uct_file_id id;
	struct tree t;
	char p[256], *text, line[] = "userxxxx:x:1000:1000::/:/bin/sh\n";
	size_t len, i;
	bool whole;
	FILE *f;

	make_tree(&t);
	snprintf(p, sizeof(p), "%s/etc/passwd", t.root);
	f = fopen(p, "w");
	assert_non_null(f);
	for (i = 0; i <= UCT_PASSWD_MAX_SIZE / (sizeof(line) - 1); i++)
		fputs(line, f);
	assert_int_equal(fclose(f), 0);
	assert_int_equal(read_42(&t, NULL, &id, &text, &len, &whole), 0);
	assert_int_equal(len, UCT_PASSWD_MAX_SIZE);
	assert_false(whole);
	assert_true(id.size > UCT_PASSWD_MAX_SIZE);
	free(text);
	drop_tree(&t);
}

/* ---- the model: each row named from its own namespace's file ---- */

struct mfx {
	struct uct_model m;
	struct test_passwd tp;
};

/* A model whose passwd files are test_passwd_fn's */
static struct mfx *mfx_new(void)
{
	struct mfx *f = calloc(1, sizeof(*f));

	assert_non_null(f);
	uct_model_init(&f->m);
	f->m.passwd_fn = test_passwd_fn;
	f->m.passwd_arg = &f->tp;
	return f;
}

static void users_update(struct mfx *f, double now)
{
	struct uct_rec recs[16];
	struct uct_tlim tl[8];
	size_t n = names_snapshot(recs), nt = names_tasks(tl);

	assert_int_equal(uct_model_update(&f->m, recs, n, NULL, 0, now), 0);
	assert_int_equal(uct_model_set_tasks(&f->m, tl, nt), 0);
}

static const char *row_user(struct mfx *f, __u32 ns, __u32 kuid, bool kuid_view)
{
	int r = uct_model_find_row(&f->m, ns, kuid);

	assert_true(r >= 0);
	f->m.show_kuid = kuid_view;
	return kuid_view ? uct_row_user(&f->m, &f->m.rows[r]) :
			   uct_row_ns_user(&f->m, &f->m.rows[r]);
}

/* ---- the budget: many namespaces, each with a file of its own ---- */

#define HNS 40

/* Each namespace's file names its uid 1000 after its process (pid) and
 * version, padded to about pad bytes; touch: a new version every update */
struct hostile {
	int version, reads[HNS + 1], pad;
};

static int hostile_fn(void *arg, const struct uct_pwsrc *src, const struct uct_file_id *known,
		      struct uct_file_id *id, char **text, size_t *len, bool *whole)
{
	struct hostile *h = arg;
	int k = src->pid ? (int)src->pid - 5000 : HNS;
	size_t n;

	memset(id, 0, sizeof(*id));
	id->ino = (__u64)k + 1;
	id->mtime_sec = src->pid ? h->version : 0;
	if (known && !memcmp(known, id, sizeof(*id)))
		return 1;
	h->reads[k]++;
	*text = malloc((size_t)h->pad + 64);
	assert_non_null(*text);
	n = (size_t)sprintf(*text, "u%d-%d:x:1000:1000::/:/bin/sh\n", k, h->version);
	while (n + 32 < (size_t)h->pad)
		n += (size_t)sprintf(*text + n, "pad%zu:x:%zu:1::/:/bin/sh\n", n, 10000 + n);
	*len = n;
	*whole = true;
	return 0;
}

static void hostile_update(struct uct_model *m, double now)
{
	struct uct_rec recs[HNS + 1];
	struct uct_tlim tl[HNS + 1];
	int i;

	recs[0] = mkrec(1, 0, 1000, 0, 0, 0, 5, 0, 0, 0, INF);
	tl[0] = with_root(mktask(1, 0, 1, 10, 1, "init", "h"), TEST_MNT_NS, 1, 2);
	for (i = 0; i < HNS; i++) {
		recs[i + 1] = mkrec(1000 + (__u32)i, 1, 1000, 1, 1000, 1000, 1, 0, 0, 0, 50);
		tl[i + 1] = with_root(mktask(1000 + (__u32)i, 1000, 5000 + (__u32)i, 20, 1, "t", "h"),
				      TEST_MNT_NS + 1 + (__u32)i, 1, 10000 + (__u64)i);
	}
	assert_int_equal(uct_model_update(m, recs, HNS + 1, NULL, 0, now), 0);
	assert_int_equal(uct_model_set_tasks(m, tl, HNS + 1), 0);
	uct_model_resolve_names(m, -1, 0);
}

static int named(struct uct_model *m)
{
	int i, n = 0;

	for (i = 0; i < HNS; i++) {
		int r = uct_model_find_row(m, 1000 + (__u32)i, 1000);

		assert_true(r >= 0);
		n += uct_row_ns_user(m, &m->rows[r]) != NULL;
	}
	return n;
}

/* At most max_files files read per update; the rest wait, are counted,
 * and get their turn in the next updates, however many come first -
 * also when every file changes every time (tenants touching theirs) */
static void test_budget_files(void **state)
{
	struct hostile h = { .pad = 1024 };
	struct uct_model m;
	int u, i, min;

	uct_model_init(&m);
	m.passwd_fn = hostile_fn;
	m.passwd_arg = &h;
	m.passwd.max_files = 8;
	m.passwd.max_seconds = 1e9;
	hostile_update(&m, 1000);
	/* ours first, then 7 of the 40; 33 put off */
	assert_int_equal(m.passwd.files, 8);
	assert_int_equal(m.passwd.reads, 8);
	assert_int_equal(m.passwd.deferred, 33);
	assert_int_equal(named(&m), 7);
	/* unchanged files cost no read: 7 more each update */
	for (u = 1; u < 6; u++)
		hostile_update(&m, 1000 + u);
	assert_int_equal(named(&m), HNS);
	assert_int_equal(m.passwd.reads, HNS + 1);
	/* every file changes every update: each still read in turn, never
	 * more than 8 a time; a file not read yet keeps its old names */
	memset(h.reads, 0, sizeof(h.reads));
	for (u = 0; u < 10; u++) {
		h.version++;
		hostile_update(&m, 2000 + u);
		assert_true(m.passwd.files <= 8);
		assert_int_equal(named(&m), HNS);
	}
	for (i = 0, min = 1 << 30; i < HNS; i++)
		min = h.reads[i] < min ? h.reads[i] : min;
	/* 10 updates of 8 reads for 40 files: each twice */
	assert_int_equal(min, 2);
	uct_model_free(&m);
}

/* A time budget of 0: the first check of each update only */
static void test_budget_time(void **state)
{
	struct hostile h = { .pad = 64 };
	struct uct_model m;

	uct_model_init(&m);
	m.passwd_fn = hostile_fn;
	m.passwd_arg = &h;
	m.passwd.max_seconds = 0;
	hostile_update(&m, 1000);
	/* one tenant's, and ours, which is never put off */
	assert_int_equal(m.passwd.checks, 1);
	assert_int_equal(m.passwd.reads, 2);
	assert_int_equal(m.passwd.deferred, HNS - 1);
	hostile_update(&m, 1001);
	assert_int_equal(m.passwd.checks, 1);
	assert_int_equal(named(&m), 2);
	uct_model_free(&m);
}

/* The files kept hold max_held bytes at most; one that would take more
 * is not kept (no names), counted, and not read again until it changes */
static void test_budget_held(void **state)
{
	struct hostile h = { .pad = 4096 };
	struct uct_model m;
	unsigned long reads;

	uct_model_init(&m);
	m.passwd_fn = hostile_fn;
	m.passwd_arg = &h;
	m.passwd.max_seconds = 1e9;
	m.passwd.max_held = 20000;
	hostile_update(&m, 1000);
	assert_true(m.passwd.held <= 20000);
	assert_true(m.passwd.dropped > 0);
	assert_int_equal(m.passwd.reads, HNS + 1);
	/* ours first, kept; each tenant's either named or dropped */
	assert_int_equal(named(&m) + (int)m.passwd.dropped, HNS);
	reads = m.passwd.reads;
	hostile_update(&m, 1001);
	assert_int_equal(m.passwd.reads, reads);
	/* all gone: nothing held */
	uct_model_free(&m);
}

static void test_model_names(void **state)
{
	struct mfx *f = mfx_new();
	int r;

	users_update(f, 1000.0);
	/* not looked up yet: no names */
	assert_null(row_user(f, 1, 1000, false));
	uct_model_resolve_names(&f->m, -1, 0);
	/* the initial namespace: our own /etc/passwd */
	assert_string_equal(row_user(f, 1, 1000, false), "alice");
	/* namespace 10: uid 2000 (kuid 1000) by the container's file, not
	 * the host's bob; uid 0 (kuid 900) is its root */
	assert_string_equal(row_user(f, 10, 1000, false), "app");
	assert_string_equal(row_user(f, 10, 900, false), "root");
	/* namespace 20, on the host's root: nobody names its uid 3000 */
	assert_null(row_user(f, 20, 1000, false));
	/* unmapped (kuid 1500): never the name of 1500 or of anything */
	assert_null(row_user(f, 20, 1500, false));
	/* uct_row_user() follows what the table shows: the same... */
	r = uct_model_find_row(&f->m, 10, 1000);
	assert_string_equal(uct_row_user(&f->m, &f->m.rows[r]), "app");
	/* ...and with --kuid the initial namespace's names of the kuids */
	assert_string_equal(row_user(f, 10, 1000, true), "alice");
	assert_string_equal(row_user(f, 20, 1500, true), "k1500");
	assert_string_equal(row_user(f, 10, 900, true) ? "?" : "none", "none");
	/* three files (ours, the host root's through pid 120, the
	 * container's), each read once */
	assert_int_equal(f->tp.calls, 3);
	assert_int_equal(f->tp.reads, 3);
	assert_int_equal(f->m.passwd.reads, 3);
	/* again in the same update: nothing asked */
	uct_model_resolve_names(&f->m, -1, 0);
	assert_int_equal(f->tp.calls, 3);
	/* the next update: each checked once, none read */
	users_update(f, 1001.0);
	uct_model_resolve_names(&f->m, -1, 0);
	assert_int_equal(f->tp.calls, 6);
	assert_int_equal(f->tp.reads, 3);
	assert_string_equal(row_user(f, 10, 1000, false), "app");
	/* the container's file changes: read again, the new name */
	f->tp.version[2]++;
	f->tp.text[2] = "svc:x:2000:2000::/:/bin/sh\n";
	users_update(f, 1002.0);
	uct_model_resolve_names(&f->m, -1, 0);
	assert_int_equal(f->tp.reads, 4);
	assert_string_equal(row_user(f, 10, 1000, false), "svc");
	assert_null(row_user(f, 10, 900, false));
	uct_model_free(&f->m);
	free(f);
}

/* A tty looks up the files of the lines it shows (and the initial
 * namespace's); a namespace whose root the kernel did not report, or
 * that has no process, has no names */
static void test_model_screen_only(void **state)
{
	struct mfx *f = mfx_new();
	struct uct_rec recs[16];
	struct uct_tlim tl[8];
	size_t n = names_snapshot(recs), nt = names_tasks(tl), i;
	int first = -1;

	assert_int_equal(uct_model_update(&f->m, recs, n, NULL, 0, 1000.0), 0);
	tl[2] = with_root(tl[2], 0, 0, 0);	/* ns 20: root unknown */
	assert_int_equal(uct_model_set_tasks(&f->m, tl, nt), 0);
	/* the screen: the lines of namespace 20 only */
	for (i = 0; i < f->m.nlines; i++)
		if (f->m.lines[i].is_ns && f->m.ns[f->m.lines[i].index].inum == 20 && first < 0)
			first = (int)i;
	assert_true(first > 0);
	uct_model_resolve_names(&f->m, first, 3);
	assert_int_equal(f->tp.calls, 1);	/* ours only */
	assert_null(row_user(f, 10, 1000, false));
	assert_string_equal(row_user(f, 1, 1000, false), "alice");
	uct_model_resolve_names(&f->m, -1, 0);
	assert_int_equal(f->tp.calls, 2);	/* and the container's */
	assert_string_equal(row_user(f, 10, 1000, false), "app");
	assert_null(row_user(f, 20, 1000, false));
	uct_model_free(&f->m);
	free(f);
}

/* Without the task iterator: the initial namespace still has its names,
 * the others none */
static void test_model_no_tasks(void **state)
{
	struct mfx *f = mfx_new();
	struct uct_rec recs[16];
	size_t n = names_snapshot(recs);

	assert_int_equal(uct_model_update(&f->m, recs, n, NULL, 0, 1000.0), 0);
	uct_model_resolve_names(&f->m, -1, 0);
	assert_string_equal(row_user(f, 1, 1000, false), "alice");
	assert_null(row_user(f, 10, 1000, false));
	assert_int_equal(f->tp.calls, 1);
	uct_model_free(&f->m);
	free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_good_lines),
		cmocka_unit_test(test_malformed_lines),
		cmocka_unit_test(test_duplicate_uids),
		cmocka_unit_test(test_uid_range),
		cmocka_unit_test(test_id_field),
		cmocka_unit_test(test_huge_lines),
		cmocka_unit_test(test_no_trailing_newline),
		cmocka_unit_test(test_entry_cap),
		cmocka_unit_test(test_cache_reads_on_change),
		cmocka_unit_test(test_cache_many),
		cmocka_unit_test(test_read_through_proc),
		cmocka_unit_test(test_read_stays_in_root),
		cmocka_unit_test(test_read_only_tenants_files),
		cmocka_unit_test(test_budget_files),
		cmocka_unit_test(test_budget_time),
		cmocka_unit_test(test_budget_held),
		cmocka_unit_test(test_read_size_cap),
		cmocka_unit_test(test_model_names),
		cmocka_unit_test(test_model_screen_only),
		cmocka_unit_test(test_model_no_tasks),
	};

	return cmocka_run_group_tests_name("users", tests, NULL, NULL);
}
