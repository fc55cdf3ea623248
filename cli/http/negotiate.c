// SPDX-License-Identifier: GPL-2.0
/*
 * negotiate.c - which exposition a scraper of --listen gets, from its
 * Accept header (RFC 9110, 12.5.1): OpenMetrics 1.0.0 when the header
 * names application/openmetrics-text, version 1.0.0 or none, with a
 * quality above 0 and at least that of the text format; the Prometheus
 * text format 0.0.4 otherwise. Prometheus 2.42 sends, on one line and
 * without the blanks around a wildcard's slash (which would end this
 * comment),
 *
 *   application/openmetrics-text;version=1.0.0,
 *   application/openmetrics-text;version=0.0.1;q=0.75,
 *   text/plain;version=0.0.4;q=0.5,* / *;q=0.1
 *
 * Wildcards (* / *, text/ *) never choose OpenMetrics: as with the
 * Prometheus client libraries, a client gets the text format unless it
 * asks for OpenMetrics by name, so that curl and busybox wget get what
 * every scraper understands. A header that accepts neither format gets
 * the text format too, not 406 Not Acceptable.
 *
 * Plain C, no allocation, one pass: the header comes from the network,
 * its length bounded by the server's per-connection memory.
 */
#include <ctype.h>
#include <stdbool.h>
#include <string.h>
#include "negotiate.h"

/* One element of the header: a media range and what matters of its
 * parameters. The buffers hold the longest name we compare, and no more:
 * a longer one matches nothing (not its prefix). */
struct range {
	char type[sizeof("application")], sub[sizeof("openmetrics-text")];
	char version[sizeof("1.0.0")];
	bool has_version;
	int q;			/* quality in thousandths, 0..1000 */
};

static bool tchar(char c)
{
	return isalnum((unsigned char)c) || (c && strchr("!#$%&'*+-.^_`|~", c));
}

static const char *ows(const char *p, const char *e)
{
	while (p < e && (*p == ' ' || *p == '\t'))
		p++;
	return p;
}

/* A token at p (lower-cased into buf); NULL when there is none. A token
 * too long for buf leaves buf empty, so that it matches nothing. */
static const char *token(const char *p, const char *e, char *buf, size_t len)
{
	size_t n = 0;

	if (p >= e || !tchar(*p))
		return NULL;
	for (; p < e && tchar(*p); p++, n++)
		if (n < len - 1)
			buf[n] = (char)tolower((unsigned char)*p);
	buf[n < len ? n : 0] = 0;
	return p;
}

/* A parameter value: a token or a quoted string (unquoted into buf). */
static const char *value(const char *p, const char *e, char *buf, size_t len)
{
	size_t n = 0;
	bool fits = true;

	if (p >= e || *p != '"')
		return token(p, e, buf, len);
	for (p++; p < e && *p != '"'; p++) {
		if (*p == '\\' && p + 1 < e)
			p++;
		if (n < len - 1)
			buf[n++] = *p;
		else
			fits = false;
	}
	if (p >= e)
		return NULL;
	buf[fits ? n : 0] = 0;
	return p + 1;
}

/* RFC 9110 qvalue: 0[.ddd] or 1[.000], in thousandths; -1 if not one. */
static int qvalue(const char *s)
{
	int q, scale = 100;

	if ((s[0] != '0' && s[0] != '1') || (s[1] && s[1] != '.'))
		return -1;
	q = (s[0] - '0') * 1000;
	if (!s[1])
		return q;
	for (s += 2; *s && scale; s++, scale /= 10) {
		if (!isdigit((unsigned char)*s))
			return -1;
		q += (*s - '0') * scale;
	}
	return *s || q > 1000 ? -1 : q;
}

/* The element in [p, e): false if it is not a media range. */
static bool parse_range(const char *p, const char *e, struct range *r)
{
	char name[sizeof("version")], val[sizeof(r->version)];

	memset(r, 0, sizeof(*r));
	r->q = 1000;
	p = token(ows(p, e), e, r->type, sizeof(r->type));
	if (!p || p >= e || *p != '/')
		return false;
	p = token(p + 1, e, r->sub, sizeof(r->sub));
	if (!p)
		return false;
	for (p = ows(p, e); p < e; p = ows(p, e)) {
		if (*p != ';')
			return false;
		/* empty parameters ("text/plain;;q=1") are allowed */
		p = ows(p + 1, e);
		if (p >= e || *p == ';')
			continue;
		p = token(p, e, name, sizeof(name));
		if (!p)
			return false;
		p = ows(p, e);
		if (p >= e || *p != '=')
			return false;
		p = value(ows(p + 1, e), e, val, sizeof(val));
		if (!p)
			return false;
		if (!strcmp(name, "q")) {
			/* what follows q are accept extensions, not the type's */
			r->q = qvalue(val);
			return r->q >= 0;
		}
		if (!strcmp(name, "version")) {
			strcpy(r->version, val);
			r->has_version = true;
		}
	}
	return true;
}

/*
 * How specifically r names a format (-1: it does not): * / * 0,
 * type/ * 1, type/subtype 2, with the format's version 3. The most
 * specific range decides a format's quality (RFC 9110: with
 * "text/plain;q=0, * / *" text/plain is refused); of equally specific
 * ones, the best.
 */
static int specificity(const struct range *r, const char *type, const char *sub,
		       const char *version, bool wildcards)
{
	if (wildcards && !strcmp(r->type, "*") && !strcmp(r->sub, "*"))
		return 0;
	if (strcmp(r->type, type))
		return -1;
	if (wildcards && !strcmp(r->sub, "*"))
		return 1;
	if (strcmp(r->sub, sub))
		return -1;
	if (!r->has_version)
		return 2;
	return strcmp(r->version, version) ? -1 : 3;
}

static void rate(const struct range *r, int spec, int *best, int *q)
{
	if (spec < 0 || spec < *best)
		return;
	if (spec > *best || r->q > *q)
		*q = r->q;
	*best = spec;
}

enum uct_metrics_fmt uct_negotiate_metrics(const char *accept)
{
	int best_om = -1, q_om = 0, best_text = -1, q_text = 0;
	const char *p = accept, *e;

	if (!accept)
		return UCT_METRICS_TEXT;
	for (; *p; p = *e ? e + 1 : e) {
		struct range r;
		bool quoted = false;

		/* the element ends at a comma outside a quoted string */
		for (e = p; *e && (quoted || *e != ','); e++) {
			if (quoted && *e == '\\' && e[1])
				e++;
			else if (*e == '"')
				quoted = !quoted;
		}
		if (!parse_range(p, e, &r))
			continue;
		rate(&r, specificity(&r, "application", "openmetrics-text", "1.0.0", false),
		     &best_om, &q_om);
		rate(&r, specificity(&r, "text", "plain", "0.0.4", true), &best_text, &q_text);
	}
	return q_om > 0 && q_om >= q_text ? UCT_METRICS_OPENMETRICS : UCT_METRICS_TEXT;
}

const char *uct_metrics_content_type(enum uct_metrics_fmt fmt)
{
	return fmt == UCT_METRICS_OPENMETRICS ?
	       "application/openmetrics-text; version=1.0.0; charset=utf-8" :
	       "text/plain; version=0.0.4; charset=utf-8";
}
