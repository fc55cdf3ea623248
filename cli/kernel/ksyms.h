/* SPDX-License-Identifier: GPL-2.0 */
/* ksyms.h - kernel addresses to names, from /proc/kallsyms (trace --stack,
 * check's stacks), and functions' address ranges (the live view). */
#ifndef UCT_KSYMS_H
#define UCT_KSYMS_H

struct uct_ksyms;

/* NULL with errno set when the file cannot be read. */
struct uct_ksyms *uct_ksyms_load(const char *path);
void uct_ksyms_free(struct uct_ksyms *k);
/* Name of the symbol containing addr and the offset into it; NULL if none. */
const char *uct_ksyms_lookup(const struct uct_ksyms *k, unsigned long long addr,
			     unsigned long long *off);

/* The address range [start, end) of function name (or of its compiler
 * clone name.isra.N and the like, not name.cold) in the kallsyms file at
 * path: from its address to the next symbol's, read without loading the
 * table. -1 when there is no such function (or its address is hidden). */
int uct_ksyms_range(const char *path, const char *name, unsigned long long *start,
		    unsigned long long *end);

#endif /* UCT_KSYMS_H */
