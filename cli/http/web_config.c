// SPDX-License-Identifier: GPL-2.0
/*
 * web_config.c - --web.config.file: the exporter-toolkit's web
 * configuration, the part ucounttop serves with:
 *
 *	tls_server_config:
 *	  cert_file: server.crt		(relative: to the file's folder)
 *	  key_file: server.key
 *	basic_auth_users:
 *	  alice: $2y$10$...		(bcrypt)
 *
 * Not a YAML parser: one "KEY: VALUE" a line, two levels, indented by
 * spaces, values plain or quoted ('...', "..."), comments and blank lines.
 * Anything else is refused with its line rather than guessed at: a key
 * misspelt or misplaced must not leave the endpoint open when its owner
 * believes it closed. The keys exporter-toolkit has and ucounttop does not
 * implement (client certificates, TLS versions and ciphers, http2,
 * headers) are refused by name.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "common.h"
#include "outfile.h"
#include "web_config.h"

enum section { SEC_NONE, SEC_TLS, SEC_USERS };

struct parser {
	const char *path;
	char *msg;
	size_t len;
	int line;
	struct uct_web_config *w;
	enum section sec;
	int sec_line, sec_indent, sec_keys;
	int tls_line, users_line;	/* 0: not seen */
	int cert_line, key_line;
	size_t cap;			/* of w->users */
};

/* The message for line (0: none); UCT_EXIT_USAGE */
static int bad_at(struct parser *p, int line, const char *fmt, ...)
{
	size_t n;
	va_list ap;

	if (line)
		n = snprintf(p->msg, p->len, "--web.config.file %s:%d: ", p->path, line);
	else
		n = snprintf(p->msg, p->len, "--web.config.file %s: ", p->path);
	if (n < p->len) {
		va_start(ap, fmt);
		vsnprintf(p->msg + n, p->len - n, fmt, ap);
		va_end(ap);
	}
	return UCT_EXIT_USAGE;
}

#define bad(p, ...) bad_at(p, (p)->line, __VA_ARGS__)

/* A quoted scalar at *s (its quote): unquoted in place, *s past its end.
 * NULL when it is not closed on its line or has an escape not read. */
static char *quoted(struct parser *p, char **s, int *err)
{
	char q = **s, *in = *s + 1, *out = in, *start = in;

	for (;;) {
		if (!*in) {
			*err = bad(p, "a %s-quoted string not closed on its line",
				   q == '"' ? "double" : "single");
			return NULL;
		}
		if (*in == q) {
			if (q == '\'' && in[1] == '\'') {
				*out++ = '\'';
				in += 2;
				continue;
			}
			break;
		}
		if (q == '"' && *in == '\\') {
			if (in[1] != '\\' && in[1] != '"') {
				*err = bad(p, "an escape in a double-quoted string other than \\\\ and \\\"");
				return NULL;
			}
			in++;
		}
		*out++ = *in++;
	}
	*s = in + 1;
	*out = 0;
	return start;
}

static char *skip_spaces(char *s)
{
	while (*s == ' ')
		s++;
	return s;
}

/* Nothing but spaces and a comment may follow a quoted value */
static bool rest_empty(char *s)
{
	s = skip_spaces(s);
	return !*s || *s == '#';
}

/* A plain value (to a " #" comment or the end, trailing spaces trimmed) or
 * a quoted one at s; NULL (and *err 0) when there is none */
static char *value_at(struct parser *p, char *s, const char *key, int *err)
{
	char *v, *e;

	s = skip_spaces(s);
	if (!*s || *s == '#')
		return NULL;
	if (*s == '\'' || *s == '"') {
		v = quoted(p, &s, err);
		if (v && !rest_empty(s)) {
			*err = bad(p, "%s: something after the quoted value", key);
			return NULL;
		}
		return v;
	}
	if (strchr("{[|>&*!%@`", *s) || (*s == '-' && (s[1] == ' ' || !s[1]))) {
		*err = bad(p, "%s: only plain or quoted ('...', \"...\") values are read, no lists, "
			   "flow mappings, block scalars, anchors or tags", key);
		return NULL;
	}
	v = s;
	for (e = s; *e && !(*e == '#' && e[-1] == ' '); e++)
		;
	while (e > v && e[-1] == ' ')
		e--;
	*e = 0;
	return v;
}

/* "KEY:" at s, a plain or quoted key; NULL with *err set when the line is
 * no "KEY: VALUE". *s moves past the colon. */
static char *key_at(struct parser *p, char **s, int *err)
{
	char *k = *s, *c, *e;

	if (*k == '\'' || *k == '"') {
		c = k;
		k = quoted(p, &c, err);
		if (!k)
			return NULL;
	} else {
		if (*k == '-' && (k[1] == ' ' || !k[1])) {
			*err = bad(p, "a list item: ucounttop's web configuration has no lists");
			return NULL;
		}
		if (*k == '{' || *k == '[') {
			*err = bad(p, "a flow mapping or list: write one KEY: VALUE a line");
			return NULL;
		}
		for (c = k; *c && !(*c == ':' && (c[1] == ' ' || !c[1])); c++)
			if (*c == '#' && c > k && c[-1] == ' ')
				break;
		for (e = c; e > k && e[-1] == ' '; e--)
			;
		if (*c != ':') {
			*err = bad(p, "expected KEY: VALUE");
			return NULL;
		}
		*s = c + 1;
		*e = 0;
		return k;
	}
	c = skip_spaces(c);
	if (*c != ':' || (c[1] && c[1] != ' ')) {
		*err = bad(p, "expected KEY: VALUE");
		return NULL;
	}
	*s = c + 1;
	return k;
}

/* A section ends (another starts, or the file): it must have held something */
static int end_section(struct parser *p)
{
	if (p->sec == SEC_TLS && !p->sec_keys)
		return bad_at(p, p->sec_line, "tls_server_config has no settings (cert_file, "
			      "key_file)");
	if (p->sec == SEC_USERS && !p->sec_keys)
		return bad_at(p, p->sec_line, "basic_auth_users has no user: add USER: "
			      "BCRYPT-HASH lines below it, or remove it to serve without "
			      "authentication");
	p->sec = SEC_NONE;
	return 0;
}

static int top_key(struct parser *p, const char *key, const char *value)
{
	int *seen, err;

	if (!strcmp(key, "tls_server_config")) {
		seen = &p->tls_line;
	} else if (!strcmp(key, "basic_auth_users")) {
		seen = &p->users_line;
	} else if (!strcmp(key, "http_server_config")) {
		return bad(p, "http_server_config is not supported by ucounttop");
	} else {
		return bad(p, "unknown key '%s' (ucounttop reads tls_server_config and "
			   "basic_auth_users)", key);
	}
	err = end_section(p);
	if (err)
		return err;
	if (*seen)
		return bad(p, "%s again (first on line %d)", key, *seen);
	if (value)
		return bad(p, "%s takes its settings on the lines below it, indented, not a "
			   "value", key);
	*seen = p->line;
	p->sec = seen == &p->tls_line ? SEC_TLS : SEC_USERS;
	p->sec_line = p->line;
	p->sec_indent = 0;
	p->sec_keys = 0;
	return 0;
}

static int tls_key(struct parser *p, const char *key, const char *value)
{
	static const char *const unsupported[] = {
		"client_ca_file", "client_allowed_sans", "min_version", "max_version",
		"cipher_suites", "prefer_server_cipher_suites", "curve_preferences", "cert", "key",
	};
	char **file;
	int *line;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(unsupported); i++)
		if (!strcmp(key, unsupported[i]))
			return bad(p, "tls_server_config: %s is not supported by ucounttop (it reads "
				   "cert_file and key_file)", key);
	if (!strcmp(key, "cert_file")) {
		file = &p->w->cert_file;
		line = &p->cert_line;
	} else if (!strcmp(key, "key_file")) {
		file = &p->w->key_file;
		line = &p->key_line;
	} else if (!strcmp(key, "client_auth_type")) {
		/* the default, said out loud: nothing to do */
		if (value && !strcmp(value, "NoClientCert"))
			return 0;
		return bad(p, "tls_server_config: client_auth_type %s is not supported: ucounttop "
			   "verifies no client certificate (NoClientCert only; use "
			   "basic_auth_users)", value ? value : "(none)");
	} else {
		return bad(p, "unknown key '%s' in tls_server_config (cert_file, key_file)", key);
	}
	if (!value || !*value)
		return bad(p, "tls_server_config: %s needs a file name", key);
	if (*line)
		return bad(p, "%s again (first on line %d)", key, *line);
	*file = strdup(value);
	if (!*file)
		return bad(p, "out of memory");
	*line = p->line;
	return 0;
}

/* What crypt(3) writes for bcrypt: $2a$, $2b$ or $2y$, a cost of 04..31,
 * $, 22 characters of salt and 31 of hash in bcrypt's base64 (the cost is
 * checked apart: UCT_WEB_BCRYPT_MAX_COST) */
static bool bcrypt_hash(const char *h)
{
	static const char b64[] = "./ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
	int cost, i;

	if (strlen(h) != UCT_WEB_BCRYPT_LEN || strncmp(h, "$2", 2) || !h[2] ||
	    !strchr("aby", h[2]) || h[3] != '$' || h[4] < '0' || h[4] > '9' || h[5] < '0' ||
	    h[5] > '9' || h[6] != '$')
		return false;
	cost = (h[4] - '0') * 10 + h[5] - '0';
	if (cost < 4 || cost > 31)
		return false;
	for (i = 7; i < UCT_WEB_BCRYPT_LEN; i++)
		if (!strchr(b64, h[i]))
			return false;
	return true;
}

static int user_key(struct parser *p, const char *name, const char *hash)
{
	struct uct_web_config *w = p->w;
	struct uct_web_user *u;
	size_t i;

	if (!*name)
		return bad(p, "basic_auth_users: an empty user name");
	if (strchr(name, ':'))
		return bad(p, "basic_auth_users: user %s: a name with ':' cannot be sent in basic "
			   "authentication", name);
	for (i = 0; i < w->nusers; i++)
		if (!strcmp(w->users[i].name, name))
			return bad(p, "basic_auth_users: user %s again", name);
	if (!hash || !bcrypt_hash(hash))
		return bad(p, "basic_auth_users: %s's password is not a bcrypt hash ($2y$, $2b$ or "
			   "$2a$, a cost of 04 to 31, 60 characters in all: htpasswd -nBC 10 USER "
			   "or mkpasswd -m bcrypt makes one)", name);
	if ((hash[4] - '0') * 10 + hash[5] - '0' > UCT_WEB_BCRYPT_MAX_COST)
		return bad(p, "basic_auth_users: %s's bcrypt cost %.2s is above %d: every wrong "
			   "password would cost the server that much time (htpasswd -nBC 10 %s)",
			   name, hash + 4, UCT_WEB_BCRYPT_MAX_COST, name);
	if (w->nusers == p->cap) {
		size_t cap = p->cap ? 2 * p->cap : 4;

		u = realloc(w->users, cap * sizeof(*u));
		if (!u)
			return bad(p, "out of memory");
		w->users = u;
		p->cap = cap;
	}
	u = &w->users[w->nusers];
	*u = (struct uct_web_user){ .name = strdup(name) };
	if (!u->name)
		return bad(p, "out of memory");
	memcpy(u->hash, hash, UCT_WEB_BCRYPT_LEN + 1);
	w->nusers++;
	return 0;
}

static int parse_line(struct parser *p, char *s)
{
	int indent, err = 0;
	char *key, *value;

	for (indent = 0; s[indent] == ' '; indent++)
		;
	if (s[indent] == '\t')
		return bad(p, "a tab in the indentation (YAML indents with spaces)");
	s += indent;
	if (!*s || *s == '#')
		return 0;
	/* a document start, before anything else */
	if (!indent && !strncmp(s, "---", 3) && rest_empty(s + 3) && !p->tls_line &&
	    !p->users_line)
		return 0;
	key = key_at(p, &s, &err);
	if (!key)
		return err;
	value = value_at(p, s, key, &err);
	if (err)
		return err;
	if (!indent)
		return top_key(p, key, value);
	if (p->sec == SEC_NONE)
		return bad(p, "'%s' is indented, but under no section (tls_server_config, "
			   "basic_auth_users)", key);
	if (!p->sec_indent)
		p->sec_indent = indent;
	else if (indent != p->sec_indent)
		return bad(p, "'%s' is indented by %d spaces, the keys above it by %d", key, indent,
			   p->sec_indent);
	p->sec_keys++;
	return p->sec == SEC_TLS ? tls_key(p, key, value) : user_key(p, key, value);
}

/* Whether st is a file someone other than root or us could have
 * written (or, for a key, can read): the reason, or NULL */
static const char *others_reach(const struct stat *st, bool key)
{
	if (st->st_uid != 0 && st->st_uid != geteuid())
		return "owned by another user, who could change it (chown root)";
	if (uct_others_may_write(st))
		return "writable by others (chmod go-w)";
	if (key && (st->st_mode & S_IROTH))
		return "readable by others (chmod o-r; the key is a secret)";
	return NULL;
}

/* Read path whole (at most UCT_WEB_FILE_MAX bytes), NUL-terminated, if
 * only root or we could have written it (key: and others cannot read
 * it); else NULL and an errno-like reason in *why */
static char *read_whole(const char *path, size_t *n, const char **why, bool key)
{
	struct stat st;
	char *buf = NULL;
	ssize_t r;
	size_t got = 0;
	int fd;

	*why = NULL;
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0) {
		*why = strerror(errno);
		return NULL;
	}
	if (fstat(fd, &st)) {
		*why = strerror(errno);
	} else if (!S_ISREG(st.st_mode)) {
		*why = "not a regular file";
	} else if ((*why = others_reach(&st, key))) {
		;
	} else if (st.st_size > UCT_WEB_FILE_MAX) {
		*why = "larger than 1 MiB";
	} else {
		buf = malloc(UCT_WEB_FILE_MAX + 2);
		if (!buf)
			*why = strerror(ENOMEM);
	}
	/* one byte more than the bound: a file grown since fstat() is seen */
	while (buf && got <= UCT_WEB_FILE_MAX) {
		r = read(fd, buf + got, UCT_WEB_FILE_MAX + 1 - got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			*why = strerror(errno);
		if (r <= 0)
			break;
		got += r;
	}
	close(fd);
	if (!*why && got > UCT_WEB_FILE_MAX)
		*why = "larger than 1 MiB";
	if (*why) {
		if (buf)
			explicit_bzero(buf, got);
		free(buf);
		return NULL;
	}
	buf[got] = 0;
	*n = got;
	return buf;
}

/* A relative file: in the configuration's folder */
static char *resolve(const char *config, const char *file)
{
	const char *slash = strrchr(config, '/');
	char *out;

	if (*file == '/' || !slash)
		return strdup(file);
	if (asprintf(&out, "%.*s%s", (int)(slash - config + 1), config, file) < 0)
		return NULL;
	return out;
}

/* The certificate or key named on line: read, PEM */
static int read_pem(struct parser *p, int line, const char *what, char **file, char **out)
{
	char *path = resolve(p->path, *file);
	const char *why;
	size_t n;

	if (!path)
		return bad_at(p, line, "out of memory");
	free(*file);
	*file = path;
	*out = read_whole(path, &n, &why, out == &p->w->key);
	if (!*out)
		return bad_at(p, line, "%s %s: %s", what, path, why);
	/* MHD takes C strings; a key is never printed, whatever it holds */
	if (memchr(*out, 0, n) || !strstr(*out, "-----BEGIN "))
		return bad_at(p, line, "%s %s: not PEM (-----BEGIN ...)", what, path);
	return 0;
}

int uct_web_config_parse(struct uct_web_config *w, const char *path, const char *text, size_t n,
			 char *msg, size_t len)
{
	struct parser p = { .path = path, .msg = msg, .len = len, .w = w };
	char *buf, *s, *nl;
	int err = 0;

	memset(w, 0, sizeof(*w));
	if (memchr(text, 0, n))
		return bad_at(&p, 0, "a NUL byte: not a text file");
	buf = malloc(n + 1);
	if (!buf)
		return bad_at(&p, 0, "out of memory");
	memcpy(buf, text, n);
	buf[n] = 0;
	for (s = buf; !err && *s; s = nl ? nl + 1 : s + strlen(s)) {
		nl = strchr(s, '\n');
		if (nl)
			*nl = 0;
		if (nl && nl > s && nl[-1] == '\r')
			nl[-1] = 0;
		p.line++;
		err = parse_line(&p, s);
	}
	free(buf);
	if (!err)
		err = end_section(&p);
	if (!err && p.cert_line && !p.key_line)
		err = bad_at(&p, p.tls_line, "tls_server_config has a cert_file but no key_file");
	if (!err && p.key_line && !p.cert_line)
		err = bad_at(&p, p.tls_line, "tls_server_config has a key_file but no cert_file");
	if (!err && p.cert_line)
		err = read_pem(&p, p.cert_line, "cert_file", &w->cert_file, &w->cert);
	if (!err && p.key_line)
		err = read_pem(&p, p.key_line, "key_file", &w->key_file, &w->key);
	if (err)
		uct_web_config_free(w);
	return err;
}

int uct_web_config_load(struct uct_web_config *w, const char *path, char *msg, size_t len)
{
	const char *why;
	char *text;
	size_t n;
	int err;

	memset(w, 0, sizeof(*w));
	text = read_whole(path, &n, &why, false);
	if (!text) {
		snprintf(msg, len, "--web.config.file %s: %s", path, why);
		return UCT_EXIT_USAGE;
	}
	err = uct_web_config_parse(w, path, text, n, msg, len);
	free(text);
	return err;
}

/* ---- as bytes: a string is its length (NO_STRING: none) and its bytes -- */
#define NO_STRING	0xffffffffu

static bool put(char *buf, size_t max, size_t *at, const void *p, size_t n)
{
	if (n > max - *at)
		return false;
	memcpy(buf + *at, p, n);
	*at += n;
	return true;
}

static bool put_str(char *buf, size_t max, size_t *at, const char *str)
{
	uint32_t n = str ? (uint32_t)strlen(str) : NO_STRING;

	return put(buf, max, at, &n, sizeof(n)) && (!str || put(buf, max, at, str, n));
}

size_t uct_web_config_pack(const struct uct_web_config *w, char *buf, size_t max)
{
	uint32_t nusers = (uint32_t)w->nusers;
	size_t at = 0, i;

	if (!put_str(buf, max, &at, w->cert) || !put_str(buf, max, &at, w->key) ||
	    !put_str(buf, max, &at, w->cert_file) || !put_str(buf, max, &at, w->key_file) ||
	    !put(buf, max, &at, &nusers, sizeof(nusers)))
		return 0;
	for (i = 0; i < w->nusers; i++)
		if (!put_str(buf, max, &at, w->users[i].name) ||
		    !put_str(buf, max, &at, w->users[i].hash))
			return 0;
	return at;
}

/* The next string of buf into *out (malloc()ed; NULL for none): false
 * when buf ends first */
static bool get_str(const char *buf, size_t n, size_t *at, char **out)
{
	uint32_t len;

	*out = NULL;
	if (n - *at < sizeof(len))
		return false;
	memcpy(&len, buf + *at, sizeof(len));
	*at += sizeof(len);
	if (len == NO_STRING)
		return true;
	if (len > n - *at || !(*out = strndup(buf + *at, len)) || strlen(*out) != len)
		return false;
	*at += len;
	return true;
}

int uct_web_config_unpack(struct uct_web_config *w, const char *buf, size_t n)
{
	uint32_t nusers;
	size_t at = 0, i;
	char *hash;

	memset(w, 0, sizeof(*w));
	if (!get_str(buf, n, &at, &w->cert) || !get_str(buf, n, &at, &w->key) ||
	    !get_str(buf, n, &at, &w->cert_file) || !get_str(buf, n, &at, &w->key_file) ||
	    n - at < sizeof(nusers))
		goto bad;
	memcpy(&nusers, buf + at, sizeof(nusers));
	at += sizeof(nusers);
	if (nusers > (n - at) / (2 * sizeof(uint32_t)))
		goto bad;
	if (nusers && !(w->users = calloc(nusers, sizeof(*w->users))))
		goto bad;
	for (i = 0; i < nusers; i++) {
		w->nusers = i + 1;
		hash = NULL;
		if (!get_str(buf, n, &at, &w->users[i].name) || !w->users[i].name ||
		    !get_str(buf, n, &at, &hash) || !hash || strlen(hash) != UCT_WEB_BCRYPT_LEN) {
			free(hash);
			goto bad;
		}
		memcpy(w->users[i].hash, hash, UCT_WEB_BCRYPT_LEN + 1);
		free(hash);
	}
	if (at != n || !w->cert != !w->key)
		goto bad;
	return 0;
bad:
	uct_web_config_free(w);
	return -1;
}

void uct_web_config_drop_key(struct uct_web_config *w)
{
	if (w->key) {
		explicit_bzero(w->key, strlen(w->key));
		free(w->key);
	}
	w->key = NULL;
}

void uct_web_config_free(struct uct_web_config *w)
{
	size_t i;

	uct_web_config_drop_key(w);
	free(w->cert);
	free(w->cert_file);
	free(w->key_file);
	for (i = 0; i < w->nusers; i++) {
		free(w->users[i].name);
		if (w->users[i].good) {
			explicit_bzero(w->users[i].good, w->users[i].good_len);
			free(w->users[i].good);
		}
	}
	free(w->users);
	memset(w, 0, sizeof(*w));
}
