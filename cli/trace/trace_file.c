// SPDX-License-Identifier: GPL-2.0
/* trace_file.c - the header of `ucounttop trace -w`'s recordings. */
#include <string.h>
#include "trace_file.h"

_Static_assert(sizeof(struct uct_trace_file_hdr) == 32, "the header is 32 bytes");

void uct_trace_file_hdr_init(struct uct_trace_file_hdr *h, bool stack, int64_t boot_to_wall_ns)
{
	memset(h, 0, sizeof(*h));
	memcpy(h->magic, UCT_TRACE_MAGIC, sizeof(h->magic));
	h->order = UCT_TRACE_ORDER;
	h->version = UCT_TRACE_VERSION;
	h->flags = stack ? UCT_TRACE_F_STACK : 0;
	h->rec_size = stack ? sizeof(struct uct_event) : UCT_EVENT_NOSTACK_SIZE;
	h->boot_to_wall_ns = boot_to_wall_ns;
}

const char *uct_trace_file_hdr_check(const struct uct_trace_file_hdr *h)
{
	if (memcmp(h->magic, UCT_TRACE_MAGIC, sizeof(h->magic)))
		return "not a recording of ucounttop trace -w";
	if (h->order != UCT_TRACE_ORDER)
		return "recorded on a machine of the other byte order";
	if (h->version != UCT_TRACE_VERSION)
		return "recorded by another version of ucounttop (format version differs)";
	if (h->flags & ~UCT_TRACE_F_STACK)
		return "unknown flags in the header";
	if (h->rec_size != (h->flags & UCT_TRACE_F_STACK ? sizeof(struct uct_event) :
			    UCT_EVENT_NOSTACK_SIZE))
		return "records of another size than this version's";
	return NULL;
}
