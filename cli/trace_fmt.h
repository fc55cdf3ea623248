/* SPDX-License-Identifier: GPL-2.0 */
/* trace_fmt.h - text of `ucounttop trace` lines (no libbpf: unit-tested). */
#ifndef UCT_TRACE_FMT_H
#define UCT_TRACE_FMT_H

#include <stddef.h>
#include "common.h"

/* Column header matching uct_trace_line(). */
const char *uct_trace_header(void);

/*
 * One line for e, without newline; returns its length. boot_to_wall:
 * seconds to add to the event's CLOCK_BOOTTIME stamp to get wall-clock
 * time.
 */
int uct_trace_line(char *buf, size_t len, const struct uct_event *e, double boot_to_wall);

/* "charge", "uncharge", "denied", "exceeded", "alloc", "free" */
const char *uct_event_kind_name(unsigned kind);

#endif /* UCT_TRACE_FMT_H */
