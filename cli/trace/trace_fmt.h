/* SPDX-License-Identifier: GPL-2.0 */
/* trace_fmt.h - text of `ucounttop trace` lines (no libbpf: unit-tested). */
#ifndef UCT_TRACE_FMT_H
#define UCT_TRACE_FMT_H

#include <stddef.h>
#include <stdint.h>
#include "common.h"

/* Column header matching uct_trace_line(). */
const char *uct_trace_header(void);

/*
 * Room a line needs in the caller's buffer, newline included: a line is
 * shorter, but its columns are stored in fixed-size pieces that may
 * reach past its end (the next line overwrites them).
 */
#define UCT_TRACE_LINE_MAX	256

/*
 * Most of a line repeats an earlier one: the clock text changes once a
 * second, and the columns from PID to TYPE are the same for every event
 * of one process, namespace, uid and type. Both are kept here, the latter
 * for the last UCT_TRACE_MIDS such keys (direct-mapped by pid and type).
 */
#define UCT_TRACE_MIDS		64
#define UCT_TRACE_MID_TEXT	80	/* " PID ... TYPE ": 74 bytes at most */

struct uct_trace_mid {
	uint64_t pid_ns;	/* the key: pid | ns_inum << 32, */
	uint64_t uid_level;	/* uid | level << 32, */
	uint32_t type;		/* type, alloc/free MID_NO_TYPE (trace_fmt.c), */
	uint32_t n;		/* (0: slot empty) length of text */
	char comm[UCT_COMM_LEN];	/* and the 16 bytes of comm */
	char text[UCT_TRACE_MID_TEXT];
};

struct uct_trace_fmt {
	int64_t wall_off_ns;	/* added to an event's boot time */
	int64_t sec_ns;		/* wall time of the second clk shows */
	char clk[8];		/* "HH:MM:SS", clk[0] == 0 until the first */
	struct uct_trace_mid mid[UCT_TRACE_MIDS];
};

/* boot_to_wall_ns: what to add to a CLOCK_BOOTTIME stamp to get the time
 * since the epoch (CLOCK_REALTIME). */
void uct_trace_fmt_init(struct uct_trace_fmt *f, int64_t boot_to_wall_ns);

/*
 * The line of e at p, newline included; returns its length. p must have
 * UCT_TRACE_LINE_MAX bytes of room. The same text as
 *   "%s.%03d %-7u %-16s %-11u %3u %-10u %-10s %5s %10lld %s\n"
 * of local time, milliseconds, pid, comm (bytes other than printable ASCII
 * as '?'), ns, level, uid, type, delta, value and result.
 */
size_t uct_trace_line(struct uct_trace_fmt *f, char *p, const struct uct_event *e);

/* A refusal's limit as RESULT shows it: uct_fmt_num()'s text, "?" when
 * unknown (negative). Returns buf. */
char *uct_trace_limit_text(char *buf, size_t len, long long limit);

/* "charge", "uncharge", "denied", "alloc", "free" */
const char *uct_event_kind_name(unsigned kind);

#endif /* UCT_TRACE_FMT_H */
