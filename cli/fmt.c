// SPDX-License-Identifier: GPL-2.0
/* fmt.c - names and number formatting shared by the views. */
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include "fmt.h"

static const char *const type_names[UCT_NTYPES] = {
	"nproc", "msgqueue", "sigpending", "memlock",
};
static const char *const type_headers[UCT_NTYPES] = {
	"NPROC", "MSGQUEUE", "SIGPENDING", "MEMLOCK",
};
static const char *const type_units[UCT_NTYPES] = {
	"processes", "bytes", "signals", "pages",
};

const char *uct_type_name(int type)
{
	return type >= 0 && type < UCT_NTYPES ? type_names[type] : "?";
}

const char *uct_type_header(int type)
{
	return type >= 0 && type < UCT_NTYPES ? type_headers[type] : "?";
}

const char *uct_type_unit(int type)
{
	return type >= 0 && type < UCT_NTYPES ? type_units[type] : "?";
}

int uct_type_parse(const char *s)
{
	size_t n = strlen(s);
	int i, found = -1;

	if (!n)
		return -1;
	for (i = 0; i < UCT_NTYPES; i++) {
		if (!strcasecmp(s, type_names[i]))
			return i;
		if (!strncasecmp(s, type_names[i], n)) {
			if (found >= 0)
				return -1;	/* ambiguous prefix */
			found = i;
		}
	}
	return found;
}

bool uct_is_unlimited(long long v)
{
	return v >= LONG_MAX;
}

char *uct_fmt_num(char *buf, size_t len, long long v)
{
	static const char suffix[] = "KMGTPE";
	double d;
	int i;

	if (uct_is_unlimited(v)) {
		snprintf(buf, len, "inf");
		return buf;
	}
	if (v > -10000 && v < 10000) {
		snprintf(buf, len, "%lld", v);
		return buf;
	}
	d = (double)v;
	i = -1;
	do {
		d /= 1024.0;
		i++;
	} while ((d >= 999.95 || d <= -999.95) && i < 5);
	/* one decimal while it fits in 4 characters */
	if (d < 99.95 && d > -99.95)
		snprintf(buf, len, "%.1f%c", d, suffix[i]);
	else
		snprintf(buf, len, "%.0f%c", d, suffix[i]);
	return buf;
}

char *uct_fmt_signed(char *buf, size_t len, long long v)
{
	char tmp[32];

	uct_fmt_num(tmp, sizeof(tmp), v);
	snprintf(buf, len, "%s%s", v > 0 ? "+" : "", tmp);
	return buf;
}

/*
 * s as printable ASCII: C escapes for text (\xNN), JSON ones (\u00NN, \")
 * inside a JSON string. A comm is arbitrary bytes: either way the output
 * stays on one line and valid ASCII.
 */
static void put_escaped(FILE *f, const unsigned char *p, size_t max, bool json)
{
	for (; *p && max; p++, max--) {
		if (*p == '\\' || (json && *p == '"'))
			fprintf(f, "\\%c", *p);
		else if (*p == '\n')
			fputs("\\n", f);
		else if (*p == '\r')
			fputs("\\r", f);
		else if (*p == '\t')
			fputs("\\t", f);
		else if (*p < 0x20 || *p >= 0x7f)
			fprintf(f, json ? "\\u%04x" : "\\x%02x", *p);
		else
			fputc(*p, f);
	}
}

void uct_text_str(FILE *f, const char *s, size_t max)
{
	put_escaped(f, (const unsigned char *)s, max, false);
}

void uct_json_str(FILE *f, const char *s)
{
	fputc('"', f);
	put_escaped(f, (const unsigned char *)s, (size_t)-1, true);
	fputc('"', f);
}
