/* SPDX-License-Identifier: GPL-2.0 */
/* fmt.h - names and number formatting shared by the views. */
#ifndef UCT_FMT_H
#define UCT_FMT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include "common.h"

/* "nproc", "msgqueue", "sigpending", "memlock" (JSON, metrics, options) */
const char *uct_type_name(int type);
/* "NPROC", "MSGQUEUE", "SIGPENDING", "MEMLOCK" (column headers) */
const char *uct_type_header(int type);
/* Unit of a counter: "processes", "bytes", "signals", "pages". */
const char *uct_type_unit(int type);
/* Type from its name (case-insensitive, unique prefix ok); -1 if none. */
int uct_type_parse(const char *s);

/* Compact number: exact below 10000, else 12.3K / 456M / 7.8G / 1.2T;
 * LONG_MAX (the kernel's "unlimited") prints as "inf". Returns buf. */
char *uct_fmt_num(char *buf, size_t len, long long v);
/* Like uct_fmt_num, with a leading sign ("+3", "-12K"). */
char *uct_fmt_signed(char *buf, size_t len, long long v);
/* True when v is the kernel's "no limit" (LONG_MAX or more). */
bool uct_is_unlimited(long long v);

/* Write s as a JSON string (with quotes), escaping as RFC 8259 requires. */
void uct_json_str(FILE *f, const char *s);
/* Write at most max bytes of s on one line of text: bytes other than
 * printable ASCII as C escapes (\n, \t, \\, \xNN), so that an argument
 * or a comm can never start a line of its own. */
void uct_text_str(FILE *f, const char *s, size_t max);

#endif /* UCT_FMT_H */
