// SPDX-License-Identifier: GPL-2.0
/* check_stacks.c - kernel stacks by name (see check_stacks.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/bpf.h>
#include "check_stacks.h"
#include "grow.h"
#include "ksyms.h"
#include "ucounttop_check.h"

struct check_frames {
	__s32 id;
	size_t n;
	char **f;
};

/* Our own programs and their trampolines are not the path. */
static bool ours(const char *name)
{
	return name && (!strncmp(name, "bpf_prog_", 9) || !strncmp(name, "bpf_trampoline_", 15) ||
			!strncmp(name, "bpf_trace_run", 13));
}

/* Stack id's frames, read and symbolized; fr->n stays 0 for an id the
 * map does not hold. */
static void symbolize(struct check_stacks *s, __s32 id, struct check_frames *fr)
{
	struct uck_stack st = {};
	size_t i;

	if (bpf_map_lookup_elem(s->map_fd, &id, &st))
		return;
	fr->f = calloc(UCK_STACK_DEPTH, sizeof(char *));
	for (i = 0; fr->f && i < UCK_STACK_DEPTH && st.ip[i]; i++) {
		unsigned long long off = 0;
		const char *name = uct_ksyms_lookup(s->ksyms, st.ip[i], &off);
		char buf[256];

		if (ours(name))
			continue;
		if (name)
			snprintf(buf, sizeof(buf), "%s+0x%llx", name, off);
		else
			snprintf(buf, sizeof(buf), "0x%llx", (unsigned long long)st.ip[i]);
		fr->f[fr->n] = strdup(buf);
		if (fr->f[fr->n])
			fr->n++;
	}
}

/* The cached frames of id, symbolized on first use; NULL on ENOMEM. */
static const struct check_frames *lookup(struct check_stacks *s, __s32 id)
{
	struct check_frames *fr;
	size_t i;

	for (i = 0; i < s->ncache; i++)
		if (s->cache[i].id == id)
			return &s->cache[i];
	if (!s->ksyms_tried) {
		s->ksyms_tried = true;
		s->ksyms = uct_ksyms_load("/proc/kallsyms");
		if (!s->ksyms)
			fprintf(stderr, "ucounttop: cannot read /proc/kallsyms (%s): stacks show "
				"addresses only\n", strerror(errno));
	}
	if (uct_grow((void **)&s->cache, &s->capcache, s->ncache + 1, sizeof(*s->cache)))
		return NULL;
	fr = &s->cache[s->ncache++];
	memset(fr, 0, sizeof(*fr));
	fr->id = id;
	symbolize(s, id, fr);
	return fr;
}

size_t check_stacks_frames(void *ctx, __s32 stack_id, const char **frames, size_t max)
{
	const struct check_frames *fr = lookup(ctx, stack_id);
	size_t n;

	for (n = 0; fr && n < fr->n && n < max; n++)
		frames[n] = fr->f[n];
	return n;
}

void check_stacks_free(struct check_stacks *s)
{
	size_t i, j;

	uct_ksyms_free(s->ksyms);
	for (i = 0; i < s->ncache; i++) {
		for (j = 0; j < s->cache[i].n; j++)
			free(s->cache[i].f[j]);
		free(s->cache[i].f);
	}
	free(s->cache);
	memset(s, 0, sizeof(*s));
}
