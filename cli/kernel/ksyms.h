/* SPDX-License-Identifier: GPL-2.0 */
/* ksyms.h - kernel addresses to names, from /proc/kallsyms (trace --stack,
 * check's stacks). */
#ifndef UCT_KSYMS_H
#define UCT_KSYMS_H

struct uct_ksyms;

/* NULL with errno set when the file cannot be read. */
struct uct_ksyms *uct_ksyms_load(const char *path);
void uct_ksyms_free(struct uct_ksyms *k);
/* Name of the symbol containing addr and the offset into it; NULL if none. */
const char *uct_ksyms_lookup(const struct uct_ksyms *k, unsigned long long addr,
			     unsigned long long *off);

#endif /* UCT_KSYMS_H */
