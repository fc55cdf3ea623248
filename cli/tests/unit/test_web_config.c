// SPDX-License-Identifier: GPL-2.0
/*
 * test_web_config.c - --web.config.file (web_config.c): the files it
 * reads, and each thing it refuses, with the file, the line and the
 * reason; basic authentication (basic_auth.c): the Authorization header,
 * bcrypt through libcrypt, the cache of a user's last good password.
 * The certificates here are only PEM-shaped: test_listen serves real ones.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <crypt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>
#include "basic_auth.h"
#include "common.h"
#include "web_config.h"
#include "fixture_files.h"

#define CERT "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n"
#define KEY "-----BEGIN PRIVATE KEY-----\nMIGH\n-----END PRIVATE KEY-----\n"

static char dir[] = "/tmp/test_web_config.XXXXXX";
static char hash_secret[128], hash_other[128];

static void put(const char *name, const char *text)
{
	put_in(dir, name, text);
}

/* A bcrypt hash of pass at the lowest cost (fast tests) */
static void make_hash(const char *pass, char *out, size_t len)
{
	char setting[CRYPT_GENSALT_OUTPUT_SIZE];
	struct crypt_data cd = { 0 };
	const char *h;

	assert_non_null(crypt_gensalt_rn("$2b$", 4, NULL, 0, setting, sizeof(setting)));
	h = crypt_rn(pass, setting, &cd, sizeof(cd));
	assert_non_null(h);
	assert_int_equal(strlen(h), UCT_WEB_BCRYPT_LEN);
	snprintf(out, len, "%s", h);
}

static int setup(void **state)
{
	if (!mkdtemp(dir))
		return -1;
	put("server.crt", CERT);
	put("server.key", KEY);
	make_hash("secret", hash_secret, sizeof(hash_secret));
	make_hash("other", hash_other, sizeof(hash_other));
	return 0;
}

static int teardown(void **state)
{
	char cmd[256];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	return system(cmd);
}

/* Load text as dir/web.yml: its exit code, msg filled */
static int load(const char *text, struct uct_web_config *w, char *msg, size_t len)
{
	char path[256];

	put("web.yml", text);
	snprintf(path, sizeof(path), "%s/web.yml", dir);
	*msg = 0;
	return uct_web_config_load(w, path, msg, len);
}

/* A configuration others could have written is not taken */
static void test_config_others_write(void **state)
{
	struct uct_web_config w;
	char path[256], msg[512], want[512];

	put("web.yml", "basic_auth_users:\n");
	snprintf(path, sizeof(path), "%s/web.yml", dir);
	assert_int_equal(chmod(path, 0646), 0);
	assert_int_equal(uct_web_config_load(&w, path, msg, sizeof(msg)), UCT_EXIT_USAGE);
	snprintf(want, sizeof(want), "--web.config.file %s: writable by others (chmod go-w)", path);
	assert_string_equal(msg, want);
	assert_int_equal(chmod(path, 0644), 0);
}

static void test_full(void **state)
{
	struct uct_web_config w;
	char text[1024], msg[512], want[256];

	snprintf(text, sizeof(text),
		 "---\n"
		 "# ucounttop's endpoint\n"
		 "tls_server_config:\n"
		 "  # relative: next to this file\n"
		 "  cert_file: server.crt   # a comment\n"
		 "  key_file: \"server.key\"\r\n"
		 "  client_auth_type: NoClientCert\n"
		 "\n"
		 "basic_auth_users:\n"
		 "    alice: %s\n"
		 "    'bob o''neil': '%s'\n"
		 "    \"c#\": %s\n",
		 hash_secret, hash_other, hash_secret);
	assert_int_equal(load(text, &w, msg, sizeof(msg)), 0);
	assert_string_equal(msg, "");
	assert_string_equal(w.cert, CERT);
	assert_string_equal(w.key, KEY);
	snprintf(want, sizeof(want), "%s/server.crt", dir);
	assert_string_equal(w.cert_file, want);
	snprintf(want, sizeof(want), "%s/server.key", dir);
	assert_string_equal(w.key_file, want);
	assert_int_equal(w.nusers, 3);
	assert_string_equal(w.users[0].name, "alice");
	assert_string_equal(w.users[0].hash, hash_secret);
	assert_string_equal(w.users[1].name, "bob o'neil");
	assert_string_equal(w.users[1].hash, hash_other);
	assert_string_equal(w.users[2].name, "c#");
	uct_web_config_drop_key(&w);
	assert_null(w.key);
	assert_non_null(w.cert);
	uct_web_config_free(&w);
	assert_null(w.cert);
}

/* Packed by the reader, unpacked by the main process: the same
 * configuration; a buffer too small packs nothing; every truncation and
 * a corrupted length or hash is refused */
static void test_pack(void **state)
{
	struct uct_web_config w, u;
	char text[1024], msg[512], buf[8192], bad[8192];
	size_t n, cut;

	snprintf(text, sizeof(text),
		 "tls_server_config:\n  cert_file: server.crt\n  key_file: server.key\n"
		 "basic_auth_users:\n  alice: %s\n  bob: %s\n", hash_secret, hash_other);
	assert_int_equal(load(text, &w, msg, sizeof(msg)), 0);
	n = uct_web_config_pack(&w, buf, sizeof(buf));
	assert_true(n > strlen(CERT) + strlen(KEY));
	assert_int_equal(uct_web_config_pack(&w, buf, n - 1), 0);
	assert_int_equal(uct_web_config_unpack(&u, buf, n), 0);
	assert_string_equal(u.cert, CERT);
	assert_string_equal(u.key, KEY);
	assert_string_equal(u.cert_file, w.cert_file);
	assert_string_equal(u.key_file, w.key_file);
	assert_int_equal(u.nusers, 2);
	assert_string_equal(u.users[1].name, "bob");
	assert_string_equal(u.users[1].hash, hash_other);
	assert_null(u.users[0].good);
	uct_web_config_free(&u);
	for (cut = 0; cut < n; cut++)
		assert_int_equal(uct_web_config_unpack(&u, buf, cut), -1);
	/* the first length made larger than what follows */
	memcpy(bad, buf, n);
	bad[3] = 0x7f;
	assert_int_equal(uct_web_config_unpack(&u, bad, n), -1);
	/* a NUL inside the certificate */
	memcpy(bad, buf, n);
	bad[4 + 3] = 0;
	assert_int_equal(uct_web_config_unpack(&u, bad, n), -1);
	uct_web_config_free(&w);
	/* nothing configured packs and unpacks to nothing */
	memset(&w, 0, sizeof(w));
	n = uct_web_config_pack(&w, buf, sizeof(buf));
	assert_int_equal(uct_web_config_unpack(&u, buf, n), 0);
	assert_null(u.cert);
	assert_int_equal(u.nusers, 0);
	uct_web_config_free(&u);
}

/* TLS alone, users alone, nothing at all (plain HTTP, as without the
 * option); an absolute path is taken as it is */
static void test_parts(void **state)
{
	struct uct_web_config w;
	char text[512], msg[512];

	snprintf(text, sizeof(text), "tls_server_config:\n cert_file: %s/server.crt\n"
		 " key_file: '%s/server.key'\n", dir, dir);
	assert_int_equal(load(text, &w, msg, sizeof(msg)), 0);
	assert_string_equal(w.cert, CERT);
	assert_int_equal(w.nusers, 0);
	assert_null(w.users);
	uct_web_config_free(&w);

	snprintf(text, sizeof(text), "basic_auth_users:\n  alice: %s\n", hash_secret);
	assert_int_equal(load(text, &w, msg, sizeof(msg)), 0);
	assert_null(w.cert);
	assert_null(w.key);
	assert_int_equal(w.nusers, 1);
	uct_web_config_free(&w);

	assert_int_equal(load("# nothing yet\n\n", &w, msg, sizeof(msg)), 0);
	assert_null(w.cert);
	assert_int_equal(w.nusers, 0);
	uct_web_config_free(&w);
}

/* Each refusal: exit 2, the file, the line, what is wrong there */
static void test_errors(void **state)
{
	static const struct {
		const char *text;
		const char *want;	/* after "--web.config.file DIR/web.yml" */
	} cases[] = {
		{ "foo: 1\n", ":1: unknown key 'foo' (ucounttop reads tls_server_config and "
			      "basic_auth_users)" },
		{ "tls_server_config:\n\tcert_file: server.crt\n",
		  ":2: a tab in the indentation (YAML indents with spaces)" },
		{ "tls_server_config:\n  cert_file: server.crt\n",
		  ":1: tls_server_config has a cert_file but no key_file" },
		{ "tls_server_config:\n  key_file: server.key\n",
		  ":1: tls_server_config has a key_file but no cert_file" },
		{ "tls_server_config:\n  cert_file: server.crt\n    key_file: server.key\n",
		  ":3: 'key_file' is indented by 4 spaces, the keys above it by 2" },
		{ "tls_server_config:\n  certfile: server.crt\n",
		  ":2: unknown key 'certfile' in tls_server_config (cert_file, key_file)" },
		{ "tls_server_config:\n  cert_file: server.crt\n  key_file: server.key\n"
		  "  client_ca_file: ca.crt\n",
		  ":4: tls_server_config: client_ca_file is not supported by ucounttop" },
		{ "tls_server_config:\n  client_auth_type: RequireAndVerifyClientCert\n",
		  ":2: tls_server_config: client_auth_type RequireAndVerifyClientCert is not "
		  "supported" },
		{ "tls_server_config:\n  min_version: TLS13\n",
		  ":2: tls_server_config: min_version is not supported by ucounttop" },
		{ "http_server_config:\n  http2: false\n",
		  ":1: http_server_config is not supported by ucounttop" },
		{ "tls_server_config:\n  cert_file: server.crt\n  cert_file: x\n",
		  ":3: cert_file again (first on line 2)" },
		{ "tls_server_config:\n  cert_file: ''\n", ":2: tls_server_config: cert_file needs a "
							 "file name" },
		{ "tls_server_config:\n  cert_file: 'server.crt\n", ":2: a single-quoted string not "
								 "closed on its line" },
		{ "tls_server_config:\n  cert_file: \"a\\tb\"\n", ":2: an escape in a double-quoted "
								"string" },
		{ "tls_server_config:\n  cert_file: \"a\" b\n", ":2: cert_file: something after the "
							     "quoted value" },
		{ "tls_server_config:\n", ":1: tls_server_config has no settings" },
		{ "tls_server_config:\nbasic_auth_users:\n", ":1: tls_server_config has no settings" },
		{ "tls_server_config: yes\n", ":1: tls_server_config takes its settings on the lines "
					      "below it" },
		{ "basic_auth_users:\n", ":1: basic_auth_users has no user: add USER: BCRYPT-HASH" },
		{ "basic_auth_users: {}\n", ":1: basic_auth_users: only plain or quoted" },
		{ "basic_auth_users:\n  - alice\n", ":2: a list item" },
		{ "basic_auth_users:\n  alice: secret\n",
		  ":2: basic_auth_users: alice's password is not a bcrypt hash ($2y$, $2b$ or $2a$" },
		{ "basic_auth_users:\n  alice:\n", ":2: basic_auth_users: alice's password is not a "
						   "bcrypt hash" },
		{ "basic_auth_users:\n  alice: $2y$03$abcdefghijklmnopqrstuuabcdefghijklmnopqrstuvwxyz"
		  "01234\n", ":2: basic_auth_users: alice's password is not a bcrypt hash" },
		{ "basic_auth_users:\n  alice: $1$abcdefgh$abcdefghijklmnopqrstuv\n",
		  ":2: basic_auth_users: alice's password is not a bcrypt hash" },
		{ "basic_auth_users:\n  'a:b': x\n", ":2: basic_auth_users: user a:b: a name with ':'" },
		{ "basic_auth_users:\n  alice: $2y$13$abcdefghijklmnopqrstuuabcdefghijklmnopqrstuvwxyz"
		  "01234\n", ":2: basic_auth_users: alice's bcrypt cost 13 is above 12" },
		{ "  cert_file: server.crt\n", ":1: 'cert_file' is indented, but under no section" },
		{ "tls_server_config\n", ":1: expected KEY: VALUE" },
		{ "tls_server_config:\n  cert_file: server.crt\n  key_file: server.key\n"
		  "tls_server_config:\n  cert_file: server.crt\n",
		  ":4: tls_server_config again (first on line 1)" },
		{ "tls_server_config:\n  cert_file: nope.crt\n  key_file: server.key\n",
		  ":2: cert_file DIR/nope.crt: No such file or directory" },
		{ "tls_server_config:\n  cert_file: server.crt\n  key_file: plain.txt\n",
		  ":3: key_file DIR/plain.txt: not PEM (-----BEGIN ...)" },
		{ "tls_server_config:\n  cert_file: sub\n  key_file: server.key\n",
		  ":2: cert_file DIR/sub: not a regular file" },
		{ "tls_server_config:\n  cert_file: big.crt\n  key_file: server.key\n",
		  ":2: cert_file DIR/big.crt: larger than 1 MiB" },
		{ "tls_server_config:\n  cert_file: server.crt\n  key_file: open.key\n",
		  ":3: key_file DIR/open.key: readable by others (chmod o-r; the key is a secret)" },
		{ "tls_server_config:\n  cert_file: anyone.crt\n  key_file: server.key\n",
		  ":2: cert_file DIR/anyone.crt: writable by others (chmod go-w)" },
	};
	struct uct_web_config w;
	char text[512], msg[512], want[512], *big, *p;
	size_t i;

	put("plain.txt", "no PEM here\n");
	snprintf(want, sizeof(want), "%s/plain.txt", dir);
	assert_int_equal(chmod(want, 0600), 0);	/* named as a key */
	snprintf(want, sizeof(want), "%s/sub", dir);
	assert_int_equal(mkdir(want, 0700), 0);
	big = malloc(UCT_WEB_FILE_MAX + 2);
	memset(big, 'a', UCT_WEB_FILE_MAX + 1);
	memcpy(big, CERT, strlen(CERT));
	big[UCT_WEB_FILE_MAX + 1] = 0;
	put("big.crt", big);
	free(big);
	put("open.key", KEY);
	snprintf(want, sizeof(want), "%s/open.key", dir);
	assert_int_equal(chmod(want, 0644), 0);
	put("anyone.crt", CERT);
	snprintf(want, sizeof(want), "%s/anyone.crt", dir);
	assert_int_equal(chmod(want, 0666), 0);

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		/* DIR: the test's folder */
		snprintf(text, sizeof(text), "--web.config.file %s/web.yml%s", dir, cases[i].want);
		p = strstr(text, "DIR");
		if (p)
			snprintf(want, sizeof(want), "%.*s%s%s", (int)(p - text), text, dir, p + 3);
		else
			snprintf(want, sizeof(want), "%s", text);
		assert_int_equal(load(cases[i].text, &w, msg, sizeof(msg)), UCT_EXIT_USAGE);
		if (strncmp(msg, want, strlen(want)))
			fail_msg("case %zu:\n  got  %s\n  want %s...", i, msg, want);
		/* nothing kept */
		assert_null(w.cert);
		assert_null(w.users);
	}
	snprintf(want, sizeof(want), "%s/none.yml", dir);
	assert_int_equal(uct_web_config_load(&w, want, msg, sizeof(msg)), UCT_EXIT_USAGE);
	snprintf(text, sizeof(text), "--web.config.file %s: No such file or directory", want);
	assert_string_equal(msg, text);
	assert_int_equal(uct_web_config_parse(&w, "x.yml", "a\0b", 3, msg, sizeof(msg)),
			 UCT_EXIT_USAGE);
	assert_string_equal(msg, "--web.config.file x.yml: a NUL byte: not a text file");
}

static void test_decode(void **state)
{
	static const char *const bad[] = {
		"Bearer YWxpY2U6c2VjcmV0", "Basic", "Basic ", "BasicYWxpY2U6c2VjcmV0",
		"Basic YWxpY2U",		/* not a multiple of 4 */
		"Basic YWxpY2U6c2Vj!mV0",	/* not base64 */
		"Basic YWxpY2U=",		/* "alice": no colon */
		"Basic YQBiOmM=",		/* "a\0b:c" */
		"Basic YWxp Y2U6",		/* two words */
		"Basic ====",
	};
	const char *user, *pass;
	char buf[UCT_BASIC_AUTH_MAX];
	size_t n, i;

	assert_true(uct_basic_auth_decode("Basic YWxpY2U6c2VjcmV0", buf, sizeof(buf), &user, &pass,
					  &n));
	assert_string_equal(user, "alice");
	assert_string_equal(pass, "secret");
	assert_int_equal(n, 6);
	/* the scheme in any case, spaces around; a password with colons */
	assert_true(uct_basic_auth_decode("bAsIc   YTpiOmM= ", buf, sizeof(buf), &user, &pass, &n));
	assert_string_equal(user, "a");
	assert_string_equal(pass, "b:c");
	assert_true(uct_basic_auth_decode("Basic Og==", buf, sizeof(buf), &user, &pass, &n));
	assert_string_equal(user, "");
	assert_int_equal(n, 0);
	for (i = 0; i < ARRAY_SIZE(bad); i++)
		if (uct_basic_auth_decode(bad[i], buf, sizeof(buf), &user, &pass, &n))
			fail_msg("'%s' decoded", bad[i]);
	/* longer than the buffer */
	assert_false(uct_basic_auth_decode("Basic YWxpY2U6c2VjcmV0", buf, 8, &user, &pass, &n));
}

/* "Basic base64(user:pass)" */
static const char *header_for(const char *user, const char *pass)
{
	static const char b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	static char out[512];
	char in[256];
	size_t n = snprintf(in, sizeof(in), "%s:%s", user, pass), i, o;

	o = snprintf(out, sizeof(out), "Basic ");
	for (i = 0; i < n; i += 3) {
		unsigned v = (unsigned char)in[i] << 16 |
			     (i + 1 < n ? (unsigned char)in[i + 1] << 8 : 0) |
			     (i + 2 < n ? (unsigned char)in[i + 2] : 0);

		out[o++] = b64[v >> 18];
		out[o++] = b64[(v >> 12) & 63];
		out[o++] = i + 1 < n ? b64[(v >> 6) & 63] : '=';
		out[o++] = i + 2 < n ? b64[v & 63] : '=';
	}
	out[o] = 0;
	return out;
}

static bool hashed;

/* allowed, a bcrypt allowed too */
static bool allow(struct uct_web_config *w, const char *header)
{
	return uct_basic_auth_allow(w, header, true, &hashed);
}

static void test_allow(void **state)
{
	struct uct_web_config w;
	char text[512], msg[512];

	/* no users: everyone */
	assert_int_equal(load("", &w, msg, sizeof(msg)), 0);
	assert_true(allow(&w, NULL));
	uct_web_config_free(&w);

	snprintf(text, sizeof(text), "basic_auth_users:\n  alice: %s\n  bob: %s\n", hash_secret,
		 hash_other);
	assert_int_equal(load(text, &w, msg, sizeof(msg)), 0);
	assert_int_equal(uct_basic_auth_load(msg, sizeof(msg)), 0);
	assert_false(allow(&w, NULL));
	assert_false(allow(&w, "Basic"));
	assert_false(allow(&w, header_for("alice", "other")));
	assert_false(allow(&w, header_for("alice", "secre")));
	assert_false(allow(&w, header_for("alice", "secret!")));
	assert_false(allow(&w, header_for("carol", "secret")));
	assert_false(allow(&w, header_for("Alice", "secret")));
	assert_null(w.users[0].good);
	assert_true(allow(&w, header_for("alice", "secret")));
	assert_true(allow(&w, header_for("bob", "other")));
	/* remembered: alice's hash changed under it, her last password is
	 * still let in without a bcrypt... */
	assert_non_null(w.users[0].good);
	assert_string_equal(w.users[0].good, "secret");
	memcpy(w.users[0].hash, hash_other, sizeof(w.users[0].hash));
	assert_true(allow(&w, header_for("alice", "secret")));
	/* ...until another password verifies: it replaces the one kept */
	assert_true(allow(&w, header_for("alice", "other")));
	assert_string_equal(w.users[0].good, "other");
	assert_false(allow(&w, header_for("alice", "secret")));
	/* a wrong password leaves the kept one */
	assert_string_equal(w.users[0].good, "other");
	assert_false(allow(&w, header_for("bob", "secret")));
	assert_true(allow(&w, header_for("bob", "other")));
	/* in a backoff (may_hash false): the kept password still gets in,
	 * anything else is refused without a bcrypt */
	assert_true(uct_basic_auth_allow(&w, header_for("bob", "other"), false, &hashed));
	assert_false(hashed);
	assert_false(uct_basic_auth_allow(&w, header_for("bob", "wrong"), false, &hashed));
	assert_false(hashed);
	assert_false(uct_basic_auth_allow(&w, header_for("alice", "secret"), false, &hashed));
	assert_false(hashed);
	assert_false(uct_basic_auth_allow(&w, header_for("bob", "wrong"), true, &hashed));
	assert_true(hashed);
	uct_web_config_free(&w);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_config_others_write),
		cmocka_unit_test(test_full),
		cmocka_unit_test(test_pack),
		cmocka_unit_test(test_parts),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_decode),
		cmocka_unit_test(test_allow),
	};

	return cmocka_run_group_tests_name("web_config", tests, setup, teardown);
}
