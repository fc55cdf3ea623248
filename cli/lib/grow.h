/* SPDX-License-Identifier: GPL-2.0 */
/* grow.h - arrays that grow by doubling. */
#ifndef UCT_GROW_H
#define UCT_GROW_H

#include <stddef.h>

/*
 * Room for n elements of sz bytes in *buf, which holds *cap of them:
 * nothing to do when it has room, else *buf moved to a larger allocation
 * (the capacity doubled from 16 until n fit; *cap set). 0, or -ENOMEM
 * with *buf and *cap untouched.
 */
int uct_grow(void **buf, size_t *cap, size_t n, size_t sz);

#endif /* UCT_GROW_H */
