// SPDX-License-Identifier: GPL-2.0
/* grow.c - see grow.h */
#include <errno.h>
#include <stdlib.h>
#include "grow.h"

int uct_grow(void **buf, size_t *cap, size_t n, size_t sz)
{
	size_t ncap;
	void *p;

	if (n <= *cap)
		return 0;
	ncap = *cap ? *cap : 16;
	while (ncap < n)
		ncap *= 2;
	p = realloc(*buf, ncap * sz);
	if (!p)
		return -ENOMEM;
	*buf = p;
	*cap = ncap;
	return 0;
}
