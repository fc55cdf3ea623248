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

/* "00" .. "99": two digits per division */
static const char digit_pairs[201] =
	"00010203040506070809101112131415161718192021222324252627282930313233343536373839"
	"40414243444546474849505152535455565758596061626364656667686970717273747576777879"
	"8081828384858687888990919293949596979899";

int uct_fmt_u64(char *buf, unsigned long long v)
{
	static const unsigned long long pow10[] = {
		1ULL, 10ULL, 100ULL, 1000ULL, 10000ULL, 100000ULL, 1000000ULL, 10000000ULL,
		100000000ULL, 1000000000ULL, 10000000000ULL, 100000000000ULL,
		1000000000000ULL, 10000000000000ULL, 100000000000000ULL,
		1000000000000000ULL, 10000000000000000ULL, 100000000000000000ULL,
		1000000000000000000ULL, 10000000000000000000ULL,
	};
	unsigned int w, d;
	int n;
	char *p;

	if (v < 10) {	/* most counters, most uids */
		buf[0] = (char)('0' + v);
		buf[1] = 0;
		return 1;
	}
	/* the digits are written in place, last first: count them first,
	 * from the bit length (1233 / 4096 is just over log10(2)) and one
	 * compare */
	n = ((64 - __builtin_clzll(v)) * 1233) >> 12;
	n += v >= pow10[n];
	p = buf + n;
	*p = 0;
	while (v > 0xffffffffULL) {
		d = (unsigned int)(v % 100) * 2;
		v /= 100;
		*--p = digit_pairs[d + 1];
		*--p = digit_pairs[d];
	}
	/* uids, inode numbers, pids: 32-bit arithmetic from here */
	w = (unsigned int)v;
	while (w >= 100) {
		d = (w % 100) * 2;
		w /= 100;
		*--p = digit_pairs[d + 1];
		*--p = digit_pairs[d];
	}
	if (w >= 10) {
		*--p = digit_pairs[w * 2 + 1];
		*--p = digit_pairs[w * 2];
	} else {
		*--p = (char)('0' + w);
	}
	return n;
}

int uct_fmt_i64(char *buf, long long v)
{
	if (v >= 0)
		return uct_fmt_u64(buf, (unsigned long long)v);
	buf[0] = '-';
	return 1 + uct_fmt_u64(buf + 1, -(unsigned long long)v);
}

void uct_sb_spaces(struct uct_sb *b, int n)
{
	size_t room = b->len - 1 - b->n, k;

	if (n <= 0)
		return;
	k = (size_t)n;
	if (k > room) {
		b->lost += k - room;
		k = room;
	}
	memset(b->p + b->n, ' ', k);
	b->n += k;
	b->p[b->n] = 0;
}

void uct_sb_left(struct uct_sb *b, const char *s, size_t n, int w)
{
	uct_sb_put(b, s, n);
	uct_sb_spaces(b, w - (int)n);
}

void uct_sb_right(struct uct_sb *b, const char *s, size_t n, int w)
{
	uct_sb_spaces(b, w - (int)n);
	uct_sb_put(b, s, n);
}

void uct_sb_u64(struct uct_sb *b, unsigned long long v)
{
	char d[24];

	/* room for the longest (20 digits and the NUL): in place */
	if (b->len - b->n > 20) {
		b->n += (size_t)uct_fmt_u64(b->p + b->n, v);
		return;
	}
	uct_sb_put(b, d, (size_t)uct_fmt_u64(d, v));
}

void uct_sb_i64(struct uct_sb *b, long long v)
{
	char d[24];

	uct_sb_put(b, d, (size_t)uct_fmt_i64(d, v));
}

void uct_sb_milli(struct uct_sb *b, double v)
{
	unsigned long long ms;
	char d[64];

	if (!(v > -9e15 && v < 9e15)) {	/* NaN, or past what fits: printf */
		snprintf(d, sizeof(d), "%.3f", v);
		uct_sb_str(b, d);
		return;
	}
	if (v < 0) {
		uct_sb_char(b, '-');
		v = -v;
	}
	ms = (unsigned long long)(v * 1000 + 0.5);
	uct_sb_u64(b, ms / 1000);
	uct_fmt_u64(d, 1000 + ms % 1000);
	d[0] = '.';
	uct_sb_put(b, d, 4);
}

void uct_sb_json_str(struct uct_sb *b, const char *s)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *p = (const unsigned char *)s;

	uct_sb_char(b, '"');
	for (; *p; p++) {
		char e[8] = "\\u00";

		if (*p == '\\' || *p == '"') {
			e[1] = (char)*p;
			uct_sb_put(b, e, 2);
		} else if (*p == '\n') {
			uct_sb_put(b, "\\n", 2);
		} else if (*p == '\r') {
			uct_sb_put(b, "\\r", 2);
		} else if (*p == '\t') {
			uct_sb_put(b, "\\t", 2);
		} else if (*p < 0x20 || *p >= 0x7f) {
			e[4] = hex[*p >> 4];
			e[5] = hex[*p & 15];
			uct_sb_put(b, e, 6);
		} else {
			uct_sb_char(b, (char)*p);
		}
	}
	uct_sb_char(b, '"');
}

static bool printable(char c)
{
	return (unsigned char)c >= 0x20 && (unsigned char)c < 0x7f;
}

void uct_sb_text(struct uct_sb *b, const char *s, size_t max)
{
	size_t i = 0, run;

	/* runs of printable bytes at once: every namespace line has a name */
	while (i < max && s[i]) {
		for (run = i; i < max && s[i] && printable(s[i]); i++)
			;
		uct_sb_put(b, s + run, i - run);
		if (i < max && s[i]) {
			uct_sb_char(b, '?');
			i++;
		}
	}
}

void uct_sb_word(struct uct_sb *b, const char *s, size_t max)
{
	size_t i;

	for (i = 0; i < max && s[i]; i++)
		uct_sb_char(b, s[i] == ' ' ? '_' : printable(s[i]) ? s[i] : '?');
}

void uct_sb_label(struct uct_sb *b, const char *s, size_t max)
{
	size_t i;

	for (i = 0; i < max && s[i]; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c == '\\' || c == '"') {
			uct_sb_char(b, '\\');
			uct_sb_char(b, (char)c);
		} else if (c == '\n') {
			uct_sb_str(b, "\\n");
		} else {
			uct_sb_char(b, c >= 0x20 && c < 0x7f ? (char)c : '?');
		}
	}
}

/* num / den rounded to nearest, ties to even: what printf does with a
 * value it holds exactly */
static unsigned long long div_round(unsigned __int128 num, unsigned __int128 den)
{
	unsigned __int128 q = num / den, r = num % den;

	if (2 * r > den || (2 * r == den && (q & 1)))
		q++;
	return (unsigned long long)q;
}

/* snprintf(buf, len, "%s", s) for s of n bytes, without the printf */
static char *copy_out(char *buf, size_t len, const char *s, int n)
{
	size_t k = (size_t)n < len ? (size_t)n : len - 1;

	memcpy(buf, s, k);
	buf[k] = 0;
	return buf;
}

void uct_fmt_num_printf(char *buf, size_t len, long long v)
{
	static const char suffix[] = "KMGTPE";
	double d = (double)v;
	int i = -1;

	do {
		d /= 1024.0;
		i++;
	} while ((d >= 999.95 || d <= -999.95) && i < 5);
	if (d < 99.95 && d > -99.95)
		snprintf(buf, len, "%.1f%c", d, suffix[i]);
	else
		snprintf(buf, len, "%.0f%c", d, suffix[i]);
}

/*
 * The same text as uct_fmt_num_printf() gives, in integer arithmetic: this
 * runs for several cells of every row of every refresh, and printf's float
 * path is slow. v / 1024^k is exact in a double below 2^53, and 999.95 and
 * 99.95 are never equal to it (1024^k has no factor 5), so the comparisons
 * and the rounding (ties to even) below are printf's.
 */
static int num_text(char tmp[32], long long v)
{
	static const char suffix[] = "KMGTPE";
	unsigned __int128 den = 1;
	unsigned long long a, q;
	int n = 0, i = -1;

	if (uct_is_unlimited(v)) {
		memcpy(tmp, "inf", 4);
		return 3;
	}
	if (v > -10000 && v < 10000)
		return uct_fmt_i64(tmp, v);
	a = v < 0 ? -(unsigned long long)v : (unsigned long long)v;
	if (a >= 1ULL << 53) {
		uct_fmt_num_printf(tmp, 32, v);
		return (int)strlen(tmp);
	}
	do {
		den *= 1024;
		i++;
	} while ((unsigned __int128)a * 20 >= 19999 * den && i < 5);
	if (v < 0)
		tmp[n++] = '-';
	/* one decimal while it fits in 4 characters */
	if ((unsigned __int128)a * 20 < 1999 * den) {
		q = div_round((unsigned __int128)a * 10, den);
		n += uct_fmt_u64(tmp + n, q / 10);
		tmp[n++] = '.';
		tmp[n++] = (char)('0' + q % 10);
	} else {
		n += uct_fmt_u64(tmp + n, div_round(a, den));
	}
	tmp[n++] = suffix[i];
	tmp[n] = 0;
	return n;
}

char *uct_fmt_num(char *buf, size_t len, long long v)
{
	char tmp[32];

	if (!len)
		return buf;
	return copy_out(buf, len, tmp, num_text(tmp, v));
}

/* num_text() with a '+' before a positive v */
static int signed_text(char tmp[33], long long v)
{
	tmp[0] = '+';
	return (v > 0) + num_text(tmp + (v > 0), v);
}

char *uct_fmt_signed(char *buf, size_t len, long long v)
{
	char tmp[33];

	return copy_out(buf, len, tmp, signed_text(tmp, v));
}

/*
 * The compact texts made last, by value: a table's cells repeat few
 * numbers (0, 1, the same limits on every row), and a text of 4 and more
 * digits or with a suffix costs 128-bit arithmetic. Direct-mapped, per
 * thread.
 */
#define NUM_MEMO	64
static _Thread_local struct {
	long long v;
	unsigned char n;	/* 0: empty */
	char text[15];
} num_memo[NUM_MEMO];

void uct_sb_num(struct uct_sb *b, long long v)
{
	unsigned h = (unsigned)(((unsigned long long)v * 0x9E3779B97F4A7C15ULL) >> 58);
	char tmp[32];
	int n;

	if (num_memo[h].n && num_memo[h].v == v) {
		uct_sb_put(b, num_memo[h].text, num_memo[h].n);
		return;
	}
	n = num_text(tmp, v);
	if (n < (int)sizeof(num_memo[h].text)) {
		num_memo[h].v = v;
		num_memo[h].n = (unsigned char)n;
		memcpy(num_memo[h].text, tmp, (size_t)n);
	}
	uct_sb_put(b, tmp, (size_t)n);
}

void uct_sb_signed(struct uct_sb *b, long long v)
{
	char tmp[33];

	uct_sb_put(b, tmp, (size_t)signed_text(tmp, v));
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
