/* SPDX-License-Identifier: GPL-2.0 */
/*
 * check_stacks.h - the kernel stacks of check's findings as function
 * names: read from the stacks map by id, symbolized through
 * /proc/kallsyms once a stack, for the reports.
 */
#ifndef UCT_CHECK_STACKS_H
#define UCT_CHECK_STACKS_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>

struct uct_ksyms;

struct check_stacks {
	int map_fd;			/* the stacks map */
	struct uct_ksyms *ksyms;	/* loaded on the first stack */
	bool ksyms_tried;
	struct check_frames *cache;	/* symbolized stacks, by id */
	size_t ncache, capcache;
};

/* The reports' check_frames_fn, ctx a struct check_stacks: stack_id's
 * frames into frames[0..max), returns how many. */
size_t check_stacks_frames(void *ctx, __s32 stack_id, const char **frames, size_t max);
void check_stacks_free(struct check_stacks *s);

#endif /* UCT_CHECK_STACKS_H */
