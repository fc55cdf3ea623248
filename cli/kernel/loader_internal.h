/* SPDX-License-Identifier: GPL-2.0 */
/*
 * loader_internal.h - what the files of kernel/ share with each other
 * and with no one else: loader.c opens and closes, pin.c pins, iter.c
 * and stats.c read, probe.c and progs.c take the same test hooks.
 */
#ifndef UCT_LOADER_INTERNAL_H
#define UCT_LOADER_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>

struct uct_loader;

/* probe.c */
/* Test hooks: is item in the comma-separated list of environment
 * variable var ("fexit:x,tp_btf:y")? */
bool uct_test_listed(const char *var, const char *item);

/* pin.c */
/*
 * Pin the maps and the attached programs' links under dir (made if
 * missing, refused unless empty) for other tools to read; keep: leave
 * them on close, the programs attached. UCT_EXIT_OK or an exit code
 * with msg.
 */
int uct_pin_all(struct uct_loader *l, const char *dir, bool keep, char *msg, size_t len);
/* On close: remove what uct_pin_all() pinned, unless it was to be kept. */
void uct_unpin_all(struct uct_loader *l);

/* stats.c */
/* The per-CPU charge-count slots for every possible CPU (up to a bound),
 * or 0 when the number of CPUs is unknown. */
size_t uct_evcache_slots(void);
/*
 * Turn the per-CPU slots on once the program that empties them on a free is
 * attached (free_attached); without it (or without the mapping) every
 * charge goes to the hash, which tp_free or LRU eviction keep right.
 */
void uct_evcache_start(struct uct_loader *l, bool free_attached);
/* On close: the stats read buffers and the slots' mapping. */
void uct_stats_free(struct uct_loader *l);

#endif /* UCT_LOADER_INTERNAL_H */
