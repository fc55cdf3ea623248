/* SPDX-License-Identifier: GPL-2.0 */
/*
 * trace_file.h - what `ucounttop trace -w` records: a header, then the
 * ring buffer's records as the kernel wrote them (struct uct_event, of
 * rec_size bytes each), for `trace -r` or another tool to read later.
 * Binary, in the writer's byte order; ucounttop(8), FILES, describes it.
 */
#ifndef UCT_TRACE_FILE_H
#define UCT_TRACE_FILE_H

#include <stdbool.h>
#include <stdint.h>
#include "common.h"

#define UCT_TRACE_MAGIC		"UCTRACE"	/* and its NUL: 8 bytes */
#define UCT_TRACE_ORDER		0x01020304u
#define UCT_TRACE_VERSION	1
#define UCT_TRACE_F_STACK	1u	/* records carry nstack and stack[] */

struct uct_trace_file_hdr {
	char magic[8];
	uint32_t order;		/* UCT_TRACE_ORDER as the writer stores it */
	uint16_t version;	/* UCT_TRACE_VERSION */
	uint16_t flags;		/* UCT_TRACE_F_* */
	uint32_t rec_size;	/* bytes per record */
	uint32_t pad;
	int64_t boot_to_wall_ns;	/* CLOCK_REALTIME - CLOCK_BOOTTIME at the start */
};

/* The header of a recording with or without stacks. */
void uct_trace_file_hdr_init(struct uct_trace_file_hdr *h, bool stack, int64_t boot_to_wall_ns);

/* NULL when h is a header this version reads (rec_size as its flags
 * say), else what is wrong with it. */
const char *uct_trace_file_hdr_check(const struct uct_trace_file_hdr *h);

#endif /* UCT_TRACE_FILE_H */
