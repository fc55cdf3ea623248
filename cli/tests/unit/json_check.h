/* SPDX-License-Identifier: GPL-2.0 */
/*
 * json_check.h - a minimal strict JSON checker (RFC 8259 grammar, no
 * semantics) for the view tests and the fuzz targets: every document
 * ucounttop prints must pass it, whatever bytes the kernel handed over.
 * Numbers as ucounttop prints them: no exponent.
 */
#ifndef UCT_TEST_JSON_CHECK_H
#define UCT_TEST_JSON_CHECK_H

#include <ctype.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#define JS_MAX_DEPTH 64

static const char *js_value(const char *p, int depth);

static const char *ws(const char *p)
{
	while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
		p++;
	return p;
}

static const char *js_string(const char *p)
{
	if (*p++ != '"')
		return NULL;
	while (*p && *p != '"') {
		if ((unsigned char)*p < 0x20)
			return NULL;
		if (*p == '\\') {
			p++;
			if (*p == 'u') {
				for (int i = 1; i <= 4; i++)
					if (!isxdigit((unsigned char)p[i]))
						return NULL;
				p += 4;
			} else if (!*p || !strchr("\"\\/bfnrt", *p)) {
				/* strchr() finds the terminator too */
				return NULL;
			}
		}
		p++;
	}
	return *p == '"' ? p + 1 : NULL;
}

static const char *js_number(const char *p)
{
	const char *s = p;

	if (*p == '-')
		p++;
	if (*p == '0')
		p++;
	else if (isdigit((unsigned char)*p))
		while (isdigit((unsigned char)*p))
			p++;
	else
		return NULL;
	if (*p == '.') {
		p++;
		if (!isdigit((unsigned char)*p))
			return NULL;
		while (isdigit((unsigned char)*p))
			p++;
	}
	return p > s ? p : NULL;
}

/* The members of an object (keyed: "KEY":VALUE) or the elements of an
 * array, p at its opening bracket, up to the closing one. */
static const char *js_items(const char *p, int depth, char close, bool keyed)
{
	p = ws(p + 1);
	if (*p == close)
		return p + 1;
	for (;;) {
		if (keyed) {
			p = js_string(ws(p));
			if (!p)
				return NULL;
			p = ws(p);
			if (*p++ != ':')
				return NULL;
		}
		p = js_value(p, depth + 1);
		if (!p)
			return NULL;
		p = ws(p);
		if (*p == close)
			return p + 1;
		if (*p++ != ',')
			return NULL;
	}
}

static const char *js_value(const char *p, int depth)
{
	if (depth > JS_MAX_DEPTH)
		return NULL;
	p = ws(p);
	if (*p == '{')
		return js_items(p, depth, '}', true);
	if (*p == '[')
		return js_items(p, depth, ']', false);
	if (*p == '"')
		return js_string(p);
	if (!strncmp(p, "true", 4))
		return p + 4;
	if (!strncmp(p, "false", 5))
		return p + 5;
	if (!strncmp(p, "null", 4))
		return p + 4;
	return js_number(p);
}

/* doc: one JSON value, nothing but white space around it. */
static inline bool json_valid(const char *doc)
{
	const char *end = js_value(doc, 0);

	return end && *ws(end) == 0;
}

#endif /* UCT_TEST_JSON_CHECK_H */
