/* SPDX-License-Identifier: GPL-2.0 */
/* fmt.h - names and number formatting shared by the views. */
#ifndef UCT_FMT_H
#define UCT_FMT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include "common.h"

/* "nproc", "msgqueue", "sigpending", "memlock" (JSON, metrics, options) */
const char *uct_type_name(int type);
/* "NPROC", "MSGQUEUE", "SIGPENDING", "MEMLOCK" (column headers) */
const char *uct_type_header(int type);
/* Unit of a counter: "processes", "bytes", "signals", "pages". */
const char *uct_type_unit(int type);
/* Type from its name (case-insensitive, unique prefix ok); -1 if none. */
int uct_type_parse(const char *s);

/* Decimal text of v in buf (room for 21 bytes), NUL-terminated; returns
 * its length. Much cheaper than snprintf for the views' many numbers. */
int uct_fmt_u64(char *buf, unsigned long long v);
int uct_fmt_i64(char *buf, long long v);

/*
 * Text built in a caller's buffer, without printf: the views format every
 * row on every refresh. Appends never overflow: what does not fit in
 * len - 1 bytes is dropped (as snprintf would) and counted in lost; p
 * stays NUL-terminated.
 */
struct uct_sb {
	char *p;
	size_t len, n, lost;
};
#define UCT_SB_INIT(buf) { (buf), sizeof(buf), 0, 0 }

static inline void uct_sb_put(struct uct_sb *b, const char *s, size_t n)
{
	size_t room = b->len - 1 - b->n;

	if (n > room) {
		b->lost += n - room;
		n = room;
	}
	memcpy(b->p + b->n, s, n);
	b->n += n;
	b->p[b->n] = 0;
}

static inline void uct_sb_str(struct uct_sb *b, const char *s)
{
	uct_sb_put(b, s, strlen(s));
}

static inline void uct_sb_char(struct uct_sb *b, char c)
{
	if (b->n + 1 < b->len) {
		b->p[b->n++] = c;
		b->p[b->n] = 0;
	} else {
		b->lost++;
	}
}
void uct_sb_spaces(struct uct_sb *b, int n);
/* The n bytes of s padded to w columns: on the right ("%-*s"), or on the
 * left ("%*s"); nothing is cut when s is wider */
void uct_sb_left(struct uct_sb *b, const char *s, size_t n, int w);
void uct_sb_right(struct uct_sb *b, const char *s, size_t n, int w);
void uct_sb_u64(struct uct_sb *b, unsigned long long v);
void uct_sb_i64(struct uct_sb *b, long long v);
/* v with three decimals ("%.3f"), rounded to the nearest thousandth */
void uct_sb_milli(struct uct_sb *b, double v);
/* s as a JSON string, quoted and escaped like uct_json_str() */
void uct_sb_json_str(struct uct_sb *b, const char *s);
/* At most max bytes of s (up to its NUL) as table text: a byte other
 * than printable ASCII (which a terminal might act on) becomes '?' */
void uct_sb_text(struct uct_sb *b, const char *s, size_t max);
/* The same for one word of a label a tenant chose (a hostname, a
 * command): a blank becomes '_' too, so that the word cannot pass for
 * two - "3f2a1b4c5d6e web" for another container's id and hostname */
void uct_sb_word(struct uct_sb *b, const char *s, size_t max);
/* s as an OpenMetrics label value, without the quotes: \, " and newline
 * escaped, any other byte but printable ASCII '?' (the text is UTF-8) */
void uct_sb_label(struct uct_sb *b, const char *s, size_t max);

/* Compact number: exact below 10000, else 12.3K / 456M / 7.8G / 1.2T;
 * LONG_MAX (the kernel's "unlimited") prints as "inf". Returns buf. */
char *uct_fmt_num(char *buf, size_t len, long long v);
/* uct_fmt_num()'s text for |v| >= 10000, by printf's float formatting of
 * v / 1024^k: its fallback where a double does not hold that quotient
 * exactly, and the reference its integer arithmetic is tested against. */
void uct_fmt_num_printf(char *buf, size_t len, long long v);
/* Like uct_fmt_num, with a leading sign ("+3", "-12K"). */
char *uct_fmt_signed(char *buf, size_t len, long long v);
/* The same two texts appended to b: no intermediate copy, no strlen. */
void uct_sb_num(struct uct_sb *b, long long v);
void uct_sb_signed(struct uct_sb *b, long long v);
/* True when v is the kernel's "no limit" (LONG_MAX or more). */
bool uct_is_unlimited(long long v);

/* Write s as a JSON string (with quotes), escaping as RFC 8259 requires. */
void uct_json_str(FILE *f, const char *s);
/* Write at most max bytes of s on one line of text: bytes other than
 * printable ASCII as C escapes (\n, \t, \\, \xNN), so that an argument
 * or a comm can never start a line of its own. */
void uct_text_str(FILE *f, const char *s, size_t max);

#endif /* UCT_FMT_H */
